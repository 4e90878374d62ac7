/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The armed flight recorder (--arm, --incidents): conditions met in the kernel (the BPF ones
 * of src/backend/bpf/armbpf.h; event:SYS:EV as a stacktrace:1 trigger with --stop-when's
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

#include "incident_rows.h"

struct kt_app;
struct kt_flightrec;

/* Parses the n conditions (--arm's text), enables the default context events when no -e
 * is given, arms every condition; incidents go under dir. NULL with a one-line reason. */
struct kt_flightrec *flightrec_start(struct kt_app *app, const char *const *conds, size_t n,
				     const char *dir, char *err, size_t errlen);
/* Where its problem lines and quota removals go (one line, no "ktop: "); stderr until set:
 * the explorer sends them to its status line. */
void flightrec_set_say(struct kt_flightrec *fr, void (*say)(void *ctx, const char *line),
		       void *ctx);
/* Notes what fired, writes the incidents whose window is in, re-arms. One line per incident
 * written goes to out when not NULL (--json: an object). */
void flightrec_poll(struct kt_flightrec *fr, FILE *out);
/* Where each incident written is listed (the explorer's list, which outlives fr); none
 * until set. Incidents are numbered on from the list's last. */
void flightrec_set_rows(struct kt_flightrec *fr, struct kt_incident_rows *rows);
/* The conditions armed, "; "-separated, into buf. */
void flightrec_conds(const struct kt_flightrec *fr, char *buf, size_t len);
/* --max-incidents written: the run may end. */
bool flightrec_done(const struct kt_flightrec *fr);
/* Quitting or disarming: the incidents still waiting for their --post are written now with
 * the post-roll they have, marked truncated (after the reader's last turn, at most 0.3 s). */
void flightrec_flush(struct kt_flightrec *fr, FILE *out);
/* Detaches the kernel conditions, removes its event triggers and frees. Safe on NULL. */
void flightrec_finish(struct kt_flightrec *fr);

#endif
