/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-CPU profile: perf_event_open sampling with callchains, kernel and user, at a
 * frequency (perf's -F), on every online CPU. The event is cycles when the machine has a
 * PMU, cpu-clock otherwise (a VM without a virtual PMU); profile_event_name says which.
 * The same events carry perf's side band (mmap2, comm with exec, fork and exit), so the
 * symbolizer knows the mappings of processes that start and end during the profile and
 * still names their frames after they are gone.
 *
 * Scope: -p PIDs samples only those processes' threads (per-CPU events on each thread,
 * inherited by the threads and children they start, as perf record -p does); --comm
 * samples every CPU and keeps the samples of tasks of that name (the name at the sample's
 * time); profile_set_scope narrows further while it runs (the pane's per-CPU/pid/comm
 * scoping) without reopening anything.
 *
 * A sample becomes the stack "task;outermost caller;...;sampled function" (user frames
 * above kernel frames, as stackcollapse-perf folds them) added with weight 1; equal
 * samples of one poll are counted first and named and added once. Nothing is
 * dropped silently: the kernel's lost records, samples outside the scope and samples that
 * would grow the tree past its memory bound are counted apart (profile_stats).
 *
 * No tracefs, no curses; one owner calls everything (not thread-safe).
 */
#ifndef KTOP_PROFILE_H
#define KTOP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kt_stacks;
struct kt_symbolizer;

#define KT_PROFILE_DEFAULT_FREQ 99 /* Hz, perf's default: off the beat of 100 Hz timers */

struct kt_profile_opts {
	unsigned freq;		/* samples per second per CPU; 0: KT_PROFILE_DEFAULT_FREQ */
	const pid_t *pids;	/* -p: these processes only; npids 0: every task */
	size_t npids;
	const char *comm;	/* --comm: tasks of this name only; NULL: any */
	const int *cpus;	/* NULL: the online CPUs */
	int ncpus;
	size_t max_bytes;	/* the tree's bound (stacks_bytes); 0: none */
	bool faults;		/* every page fault (the software event page-faults, one
				 * sample each) instead of the clock; freq is then unused */
};

struct kt_profile;

/* Checks the options and opens the sampling events; sampling starts at once. NULL with a
 * one-line err naming the cause and the way out: a frequency of 0 or above
 * kernel.perf_event_max_sample_rate, a pid that does not exist, perf_event_open refused
 * (the reason as pmu_reason gives it), kallsyms unreadable. */
struct kt_profile *profile_open(const struct kt_profile_opts *o, char *err, size_t errlen);

/* Drains every CPU's ring: side-band records go to the symbolizer and the task names,
 * samples (in time order across CPUs) are symbolized and added to into (unit
 * KT_STACK_SAMPLES). Returns the samples added. */
size_t profile_poll(struct kt_profile *p, struct kt_stacks *into);

/* Keeps only samples on cpu (-1: any), of process pid (0: any), of tasks named comm (NULL
 * or "": any) from the next profile_poll on. */
struct kt_profile_scope {
	int cpu;
	pid_t pid;
	const char *comm;
};
void profile_set_scope(struct kt_profile *p, const struct kt_profile_scope *s);

/* "cycles", "cpu-clock" or "page-faults"; ":u" after it when -p may sample only user space
 * (kernel.perf_event_paranoid=2 without CAP_PERFMON: a user's own processes). */
const char *profile_event_name(const struct kt_profile *p);
/* The frequency asked of the kernel, Hz. */
unsigned profile_freq(const struct kt_profile *p);

struct kt_profile_stats {
	uint64_t samples;	   /* added to a tree */
	uint64_t lost;		   /* records the kernel dropped (PERF_RECORD_LOST) */
	uint64_t out_of_scope;	   /* --comm or profile_set_scope kept them out */
	uint64_t dropped_memory;   /* a new stack past max_bytes */
	uint64_t frames_resolved, frames_unresolved;
	bool kernel_hidden;	   /* kallsyms shows no addresses (kptr_restrict) */
};
void profile_stats(const struct kt_profile *p, struct kt_profile_stats *out);

/* The symbolizer the side band feeds, for a caller naming other addresses of the same
 * processes. */
struct kt_symbolizer *profile_symbolizer(struct kt_profile *p);

/* Stops sampling, closes every fd, frees. Safe on NULL. */
void profile_close(struct kt_profile *p);

#endif
