/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The armed flight recorder (--arm, --incidents): conditions met in the kernel (the BPF ones
 * of src/backend/armbpf.h; event:SYS:EV as a stacktrace:1 trigger with --stop-when's
 * condition in ktop's instance) while the capture fills the store. When one fires, the
 * window from --pre before the stretch began to --post after it fired is written once the
 * reader has brought it in (src/record/incident.h), then the condition is armed again: no
 * sooner than --incident-gap after it fired, until --max-incidents; --incident-quota removes
 * the oldest incidents of this run to keep their total under it. */
#ifndef KTOP_FLIGHTREC_H
#define KTOP_FLIGHTREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kt_app;
struct kt_flightrec;

/* Parses opts->arms, enables the default context events when no -e is given, arms every
 * condition. NULL with a one-line reason. */
struct kt_flightrec *flightrec_start(struct kt_app *app, char *err, size_t errlen);
/* Notes what fired, writes the incidents whose window is in, re-arms. One line per incident
 * written goes to out (--json: an object), problems and quota removals to stderr. */
void flightrec_poll(struct kt_flightrec *fr, FILE *out);
/* --max-incidents written: the run may end. */
bool flightrec_done(const struct kt_flightrec *fr);
/* An incident fired and waits for its --post: the capture must run until it is written. */
bool flightrec_waiting(const struct kt_flightrec *fr);
/* Detaches the kernel conditions and frees (the triggers go with the instance). Safe on
 * NULL. */
void flightrec_finish(struct kt_flightrec *fr);

#endif
