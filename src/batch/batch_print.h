/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lines every batch front end prints alike, whatever the source: an event's line, a
 * loss marker's, the stacks' count, the totals that end the run, an object of a host's.
 * One writer each, so a run over agents reads exactly as a local one (issue 38). */
#ifndef KTOP_BATCH_PRINT_H
#define KTOP_BATCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What the last line (or the summary object) counts. */
struct batch_totals {
	uint64_t events, printed, lost, lost_marked, lost_unknown, evicted;
	double secs;
};

/* An event: ts, then label (" HOST" padded, or ""), the CPU, comm-pid, its name and text. */
void batch_print_event(FILE *out, const char *ts, const char *label, unsigned cpu,
		       const char *comm, int pid, const char *name, const char *info);
/* A loss marker's line (info: decoder_format_info's "*** CPU n: lost ... ***"). */
void batch_print_lost(FILE *out, const char *ts, const char *label, unsigned cpu,
		      const char *info);
/* How many stack records were printed with their events; kinds: "kernel", "kernel and
 * user". */
void batch_print_stacks(FILE *out, bool json, uint64_t records, const char *kinds);
/* The text run's last line. */
void batch_print_totals(FILE *out, const struct batch_totals *t);
/* The JSON summary object's opening and its totals, up to a comma: the caller adds its
 * list ("cpus", "hosts") and closes it with "]}}\n". */
void batch_print_totals_json(FILE *out, const struct batch_totals *t);
/* obj, one JSON object (its text from its '{'), with "host":label put first. */
void batch_print_host_json(FILE *out, const char *label, const char *obj);

#endif
