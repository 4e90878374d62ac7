/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode's overview (-b --top): the system strip and a row per process every --interval
 * (default -d's) for --duration or until a signal, as text like top -b or, with --json, one
 * {"interval_s", "system", "tasks"} object per line. Counts per interval. It needs BPF for
 * every column and falls back to /proc for the ones /proc has (src/backend/overview/overview.h). */
#ifndef KTOP_BATCH_TOP_H
#define KTOP_BATCH_TOP_H

#include <stdio.h>

struct kt_options;

/* Returns an exit code: 1 when --top=VIA was refused, the reason on stderr. */
int batch_top_run(const struct kt_options *o, FILE *out);

#endif
