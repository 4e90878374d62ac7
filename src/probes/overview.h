/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the overview's BPF program (overview.bpf.c) and its reader (src/backend/overview/overview.c)
 * share: one counter record per thread, in a bounded hash keyed by thread id, plus one
 * "other" record in a per-CPU array for threads the hash had no room for. The kernel only
 * adds; user space reads every record once per tick and takes the difference from the
 * previous read, and deletes a thread's record once it has read it after the thread died.
 */
#ifndef KTOP_PROBES_OVERVIEW_H
#define KTOP_PROBES_OVERVIEW_H

#define KT_OV_COMM 16
#define KT_OV_SLOTS 32	      /* log2 buckets of ns: slot s holds [2^s, 2^(s+1)) */
#define KT_OV_MAX_TASKS 16384 /* threads counted one by one; the rest go to "other" */
#define KT_OV_ERRNOS 4	      /* the errnos kept per thread, most frequent first-ish */
#define KT_OV_MAX_DISKS 64    /* block devices whose request latency is counted */

/* A thread's state as the program last saw it. */
enum kt_ov_state {
	KT_OV_RUNNING = 0,  /* on a CPU (since .since) */
	KT_OV_RUNNABLE = 1, /* woken or preempted, waiting for a CPU (since .since) */
	KT_OV_SLEEP = 2,    /* off the CPU, interruptible (S) */
	KT_OV_DISK = 3,	    /* off the CPU, uninterruptible (D) */
	KT_OV_DEAD = 4,	    /* switched out for the last time */
};

struct kt_ov_errno {
	unsigned int err; /* positive errno */
	unsigned int count;
};

/* Counters since the thread was first seen; times in ns. */
struct kt_ov_task {
	unsigned int tgid;
	unsigned int state;		/* enum kt_ov_state */
	unsigned long long since;	/* when it entered state */
	unsigned long long born;	/* when the record was made: a new one for a reused id */
	unsigned long long cgroup;	/* cgroup v2 id as last seen on a CPU */
	char comm[KT_OV_COMM];
	unsigned long long oncpu_ns;
	unsigned long long runq_ns, sleep_ns, disk_ns;
	unsigned long long vol_ctxsw, invol_ctxsw, migrations;
	unsigned long long minflt, majflt; /* the kernel's own counts since first seen */
	unsigned long long minflt0, majflt0; /* the kernel's counts when first seen */
	unsigned long long syscalls, syscall_errors;
	unsigned long long sys_start;	 /* the syscall in flight began; 0: none */
	unsigned long long read_bytes, write_bytes; /* block I/O this thread submitted */
	struct kt_ov_errno errnos[KT_OV_ERRNOS];
	unsigned int runq_slots[KT_OV_SLOTS];
	unsigned int sys_slots[KT_OV_SLOTS];
};

/* Per CPU: who runs there since when (the CPU's time goes to that thread at the next switch,
 * whichever prev the tracepoint names; user space adds the time since to it when it reads,
 * so a thread that never switches out still counts), and how long the threads switched in
 * there waited for it. */
struct kt_ov_cpu {
	unsigned int tid;
	unsigned int pad;
	unsigned long long since;
	unsigned long long runq_ns, switches;
	unsigned int runq_slots[KT_OV_SLOTS];
};

/* Per block device (key: the kernel's dev_t, MKDEV(major, minor) with 20 minor bits): its
 * reads and writes completed, and each one's time from the request's start_time_ns (set when
 * it was allocated, before the I/O scheduler) to its completion: what /proc/diskstats sums
 * into its milliseconds reading and writing, here in log2 buckets. */
struct kt_ov_disk {
	unsigned long long count, sum_ns;
	unsigned int slots[KT_OV_SLOTS];
};

#endif
