/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stream view's own filter: which rows to show by task and CPU, applied to what the
 * store already holds (the kernel's filters and set_event_pid decide what is captured; this
 * decides what is shown, and can be changed back). Written as the on-call engineer says it:
 *   "pid=123"  "comm=bash cpu=1"  "pid=10,11 cpu=0-3"  "comm=kworker*"
 * Conditions of different keys must all hold; a key's values are alternatives. No curses. */
#ifndef KTOP_UI_ROWFILTER_H
#define KTOP_UI_ROWFILTER_H

#include <stdbool.h>
#include <stddef.h>

#define KT_RF_MAX 16	    /* values per key */
#define KT_RF_COMM_LEN 16   /* the kernel's TASK_COMM_LEN */
#define KT_RF_MAX_CPUS 4096

struct kt_rowfilter {
	int npids, ncomms;
	int pids[KT_RF_MAX];
	char comms[KT_RF_MAX][KT_RF_COMM_LEN]; /* globs (fnmatch) */
	bool cpus_set;
	unsigned char cpus[KT_RF_MAX_CPUS / 8];
};

/* Parses text (empty: no filter). Returns 0, or -1 with a one-line reason in err naming the
 * word and the way out; *f is untouched then. */
int rowfilter_parse(struct kt_rowfilter *f, const char *text, char *err, size_t errlen);
bool rowfilter_active(const struct kt_rowfilter *f);
/* Whether a row of this task and CPU is shown. comm may be NULL (not known): only a comm
 * condition fails then. */
bool rowfilter_match(const struct kt_rowfilter *f, int pid, const char *comm, unsigned cpu);
/* Whether a loss marker of this CPU is shown (only the CPU condition applies to it). */
bool rowfilter_match_cpu(const struct kt_rowfilter *f, unsigned cpu);
/* Whether the filter needs the task's name (decoding it costs a look-up). */
bool rowfilter_needs_comm(const struct kt_rowfilter *f);
/* The canonical text ("pid=1,2 comm=bash cpu=0-3"), "" when none. When it does not fit in
 * len it is cut after a value and ends with " ..." ("pid=1,2 ..."), which rowfilter_parse
 * refuses: a cut text is never read as another filter. */
void rowfilter_text(const struct kt_rowfilter *f, char *buf, size_t len);

#endif
