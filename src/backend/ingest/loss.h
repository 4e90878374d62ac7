/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel-side loss accounting: the ring buffer's own counters from per_cpu/cpuN/stats. */
#ifndef KTOP_LOSS_H
#define KTOP_LOSS_H

#include <stdint.h>

struct tracefs_instance;

struct kt_cpu_stats {
	uint64_t entries;
	uint64_t overrun;	 /* events overwritten (overwrite mode) */
	uint64_t commit_overrun; /* events lost inside a nested commit */
	uint64_t bytes;
	uint64_t dropped_events; /* events dropped because the buffer was full (no-overwrite) */
	uint64_t read_events;
	/* "oldest event ts" and "now ts" in microseconds of the trace clock (the kernel prints
	 * them so for clocks in ns); 0 where the file lacks them. The oldest is stale once the
	 * buffer is empty (entries 0). */
	uint64_t oldest_us, now_us;
};

/* Parses the text of a per_cpu/cpuN/stats file. Returns 0, or -1 when a required counter
 * is missing (the two times are not required). */
int loss_parse_stats(const char *text, struct kt_cpu_stats *out);
/* Reads and parses the stats of one CPU of the instance. */
int loss_read_cpu(struct tracefs_instance *inst, int cpu, struct kt_cpu_stats *out);
/* Events the kernel lost on this CPU: overrun + commit_overrun + dropped_events. */
uint64_t loss_total(const struct kt_cpu_stats *st);

#endif
