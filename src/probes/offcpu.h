/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the off-CPU stack programs (offcpustack.bpf.c, offcpustack_tp.bpf.c) and their loader
 * (src/backend/bpf/offcpu.c) share.
 *
 * A task switched out is stamped with the time and its kernel and user stack ids; when it is
 * switched in again, the time it was off the CPU is added to the entry of its process, name
 * and stacks in the counts map. The kernel only adds: user space reads the map on each poll
 * and takes the difference from the previous read, so nothing is deleted under the programs.
 * Stacks live in one BPF_MAP_TYPE_STACK_TRACE map that both ids point into.
 *
 * With wakers (the loader attaches the sched_waking program too), the task that wakes a
 * thread off the CPU writes its own process, name and stacks into that thread's start, so
 * the stretch is counted under its blocked stacks and its waker's together (offwaketime).
 */
#ifndef KTOP_PROBES_OFFCPU_H
#define KTOP_PROBES_OFFCPU_H

#define KT_OFFCPU_COMM 16
#define KT_OFFCPU_MAX_DEPTH 127	   /* the kernel's PERF_MAX_STACK_DEPTH */
#define KT_OFFCPU_MAX_STACKS 16384 /* distinct kernel and user stacks together */
#define KT_OFFCPU_MAX_KEYS 16384   /* distinct (process, name, stacks) */
#define KT_OFFCPU_MAX_STARTS 32768 /* threads off the CPU at once */
/* stack ids that name no stack: none (a kernel thread's user stack, or one the kernel could
 * not walk), or one the stack map could not take (counted: lost_kstacks, lost_ustacks) */
#define KT_OFFCPU_NO_STACK (-1)
#define KT_OFFCPU_LOST_STACK (-2)

/* The task that woke a stretch's thread, at the wakeup; comm "" when none was seen (the
 * thread was preempted, or wakers are off). */
struct kt_offcpu_waker {
	unsigned int tgid;
	int kstack;
	int ustack;
	unsigned int pad;
	char comm[KT_OFFCPU_COMM];
};

struct kt_offcpu_key {
	unsigned int tgid;		 /* the process, for its user symbols */
	int kstack;			 /* stack ids, or KT_OFFCPU_NO_STACK, _LOST_STACK */
	int ustack;
	unsigned int pad;
	char comm[KT_OFFCPU_COMM]; /* the thread's name as it went off the CPU */
	struct kt_offcpu_waker waker;
};

struct kt_offcpu_val {
	unsigned long long ns;	  /* time off the CPU */
	unsigned long long count; /* stretches off the CPU */
};

/* A thread off the CPU now (keyed by its thread id). */
struct kt_offcpu_start {
	unsigned long long ts;
	struct kt_offcpu_key key;
};

#endif
