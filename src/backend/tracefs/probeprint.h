/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each probe's hits and a kernel probe's misses as the capture ended (probes_report), for
 * scripts (ktop -b): a "# probe" line or a {"probe":...} object each; and the lines an
 * agent sends them in (docs/remote.md), which the viewer turns back into reports. */
#ifndef KTOP_BACKEND_PROBEPRINT_H
#define KTOP_BACKEND_PROBEPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probes.h"

void probeprint(const struct kt_probe_report *r, size_t n, bool json, FILE *out);
/* One line a report: "EVENT KIND MAXACTIVE HITS MISSES". */
void probeprint_wire(const struct kt_probe_report *r, size_t n, FILE *out);
/* The reports of such lines, malloc'd, their number in *n (NULL and 0 when there is none);
 * a line that is not one is skipped. */
struct kt_probe_report *probeprint_parse_wire(const char *text, size_t *n);

#endif
