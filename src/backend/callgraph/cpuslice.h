/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which task held each CPU when: sched_switch records, fed in time order per CPU, become
 * slices [start, end) of one task on one CPU. The one derivation the timeline's lanes and the
 * Chrome trace export share, so that both draw the slices trace-cmd's switches give.
 * A CPU's first slice starts at the capture's start (the task it switched away from ran
 * since at least then) and its last ends at the capture's end: both are marked clipped. */
#ifndef KTOP_CPUSLICE_H
#define KTOP_CPUSLICE_H

#include <stdbool.h>
#include <stdint.h>

#define KT_SLICE_COMM 16

struct kt_cpuslice {
	uint64_t start, end;	/* trace timestamps, end exclusive */
	int cpu, pid, prio;
	char comm[KT_SLICE_COMM];
	bool clipped_start, clipped_end;
};

/* One side of a switch, as sched_switch's prev_* or next_* fields give it. */
struct kt_slice_task {
	int pid, prio;
	const char *comm;
};

typedef void (*kt_cpuslice_fn)(const struct kt_cpuslice *slice, void *arg);

struct kt_cpuslicer;

/* A slicer for CPUs 0..ncpus-1 of a capture starting at start; emit receives each slice as
 * it ends. NULL out of memory. */
struct kt_cpuslicer *cpuslicer_new(int ncpus, uint64_t start, kt_cpuslice_fn emit, void *arg);
/* One sched_switch on cpu at ts. Switches on a CPU out of range are ignored; a switch older
 * than the CPU's last (a recording out of order) is ignored too. */
void cpuslicer_switch(struct kt_cpuslicer *s, int cpu, uint64_t ts,
		      const struct kt_slice_task *prev, const struct kt_slice_task *next);
/* Ends every CPU's running slice at end (the capture's end) and frees s. */
void cpuslicer_finish(struct kt_cpuslicer *s, uint64_t end);

#endif
