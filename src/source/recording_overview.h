/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The overview of a recording (the recording source's overview_open, recording_overview.c). */
#ifndef KTOP_SOURCE_RECORDING_OVERVIEW_H
#define KTOP_SOURCE_RECORDING_OVERVIEW_H

#include <stddef.h>

struct kt_app;
struct kt_ovsrc;

/* app's recording, from its sched_switch and sched_wakeup events: one tick as long as the
 * file, on-CPU, run-queue and context-switch columns, the rest not in the file. NULL with
 * one line in err when the file holds no sched_switch. */
struct kt_ovsrc *recording_overview_open(struct kt_app *app, char *err, size_t errlen);

#endif
