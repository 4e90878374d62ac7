/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The app's side of recording: what src/record/ copies (the store, the trace.dat's metadata,
 * the loss counters, an incident's decoder and symbolizer), taken from the app and its source
 * here, so that src/record/ never reaches up into the app. */
#ifndef KTOP_APP_RECORDER_H
#define KTOP_APP_RECORDER_H

#include <stddef.h>

struct kt_app;
struct kt_recorder_from;
struct kt_incident_from;

/* Fills from with app's store, the trace.dat metadata (the source's kernel files when its
 * capture is another machine's; task names from app's decoder; --force) and the kernel's
 * loss counters. Returns 0, or -1 with err: the source cannot say what its files are. */
int app_recorder_from(struct kt_app *app, struct kt_recorder_from *from, char *err,
		      size_t errlen);
/* The same for an incident, with the decoder and symbolizer its stacks are folded with. */
int app_incident_from(struct kt_app *app, struct kt_incident_from *from, char *err,
		      size_t errlen);

#endif
