/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The off-CPU profile: where tasks wait, as time off the CPU by stack. A BPF program on
 * sched_switch (src/probes/offcpustack.bpf.c, offcpustack_tp.bpf.c) stamps each task going
 * off the CPU with its kernel and user stacks, and adds the stretch to them when the task is
 * switched in again: blocked time and the wait for a CPU after the wake-up together, as
 * offcputime counts it. The first variant this kernel accepts stays: tp_btf, raw_tp, then
 * the plain tracepoint (which needs no BTF). Programs, maps and links are owned by file
 * descriptors and never pinned, so they are gone when ktop is, however it ends.
 *
 * Each poll adds what was blocked since the previous one to a stack tree (stacks.h, unit
 * KT_STACK_NSEC), its frames named by the profile's own symbolizer (symbolize.h, made by
 * offcpu_open; user frames through /proc/PID/maps, read once per process, so a process
 * gone before its first poll keeps addresses): the task's name first, then the user stack
 * and the kernel stack, each outermost caller first. What could not be kept is counted
 * and said (offcpu_stats), never silently dropped.
 *
 * With wakers (scope.wakers) a program on sched_waking also takes the stacks of the task
 * that wakes each thread counted, and a stretch's frames go on past the blocked ones: "--",
 * the waker's kernel then user stack innermost first, and the waker's name last ("[no
 * waker]" after "--" when none was seen: the thread was preempted), as bcc's offwaketime
 * folds them. A wakeup from an interrupt names the task it interrupted.
 */
#ifndef KTOP_BACKEND_OFFCPU_H
#define KTOP_BACKEND_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_offcpu;
struct kt_stacks;
struct kt_symbolizer;

/* Whose waits count. */
struct kt_offcpu_scope {
	unsigned int tgid;	       /* this process only; 0: every one */
	const char *comm;	       /* threads of this name only (up to 15 bytes); NULL: all */
	unsigned long long cgroup_id;  /* tasks in this cgroup v2 or below it; 0: every one */
	int cgroup_level;	       /* its depth below the root */
	const char *via;	       /* "tp_btf", "raw_tp", "tracepoint": only that variant;
				        * NULL: the first this kernel accepts */
	bool wakers;		       /* each stretch under its waker's stacks too */
};

struct kt_offcpu_stats {
	uint64_t ns, stretches;		 /* counted, since the start */
	uint64_t lost_kstacks, lost_ustacks; /* stacks the stack map could not take: their time
					  * counts under a "[lost ... stack]" frame */
	uint64_t dropped, dropped_ns;	 /* stretches (and time) the counts map had no room for */
	uint64_t starts_dropped;	 /* switches out the starts map had no room for */
	uint64_t unended;		 /* stretches whose switch back in the program never
					  * saw: their time is unknown, not counted */
	uint64_t missed;		 /* runs of the program the kernel skipped */
};

/* Loads and attaches. Returns NULL with a one-line reason in err: kallsyms unreadable (the
 * symbolizer), or each variant's refusal, "VIA: why" joined by "; ". Free with
 * offcpu_free. */
struct kt_offcpu *offcpu_open(const struct kt_offcpu_scope *scope, char *err, size_t errlen);
/* Detaches and closes every fd. NULL is fine. */
void offcpu_free(struct kt_offcpu *oc);
/* How it is attached: "tp_btf", "raw_tp" or "tracepoint". */
const char *offcpu_variant(const struct kt_offcpu *oc);
/* Whether its stacks carry their wakers' (scope.wakers). */
bool offcpu_wakers(const struct kt_offcpu *oc);
/* Why the variants before it were refused ("tp_btf: ...; raw_tp: ..."), "" when none was. */
const char *offcpu_refused(const struct kt_offcpu *oc);
/* Adds to st (unit KT_STACK_NSEC) the time off the CPU since the previous poll, by stack,
 * frames named through the profile's symbolizer (user frames by the process's id). Returns
 * 0, or -1 with the reason in err (reading the map failed, or the tree is out of memory). */
int offcpu_poll(struct kt_offcpu *oc, struct kt_stacks *st, char *err, size_t errlen);
/* The symbolizer naming the frames, for its counts (symbolizer_stats); oc owns it. */
const struct kt_symbolizer *offcpu_symbolizer(const struct kt_offcpu *oc);
/* The figures as of the last poll. */
void offcpu_stats(const struct kt_offcpu *oc, struct kt_offcpu_stats *out);

#endif
