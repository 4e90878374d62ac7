/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the armed conditions' program (arm.bpf.c) and its loader (src/backend/bpf/armbpf.c)
 * share. Each condition is a row of the .rodata array conds and owns KT_ARM_SLOTS slots of
 * the fires map; when it is met (and gap_ns has passed since it last fired), the program
 * claims a free slot (state ARMED -> FILLING -> FIRED) and fills it. User space takes
 * each FIRED slot and frees it (ARMED): the kernel re-arms by itself, so an incident being
 * written does not blind it. Matches with no free slot are counted, not lost silently.
 */
#ifndef KTOP_PROBES_ARM_H
#define KTOP_PROBES_ARM_H

#define KT_ARM_MAX 8
#define KT_ARM_SLOTS 8 /* firings a condition holds before user space takes them */
#define KT_ARM_COMM 16

enum kt_arm_kind {
	KT_ARM_NONE = 0,
	KT_ARM_SYSCALL, /* a syscall took min_ns or more (sys_enter to sys_exit) */
	KT_ARM_ERRNO,	/* a syscall returned -err */
	KT_ARM_RUNQ,	/* a task waited min_ns or more on a run queue (wakeup to run) */
	KT_ARM_OFFCPU,	/* a task was off the CPU min_ns or more (switch out to in) */
};

enum kt_arm_state { KT_ARM_ARMED = 0, KT_ARM_FILLING, KT_ARM_FIRED };

/* Per condition, in the counts map. */
struct kt_arm_count {
	unsigned long long matches; /* met, fired or not */
	unsigned long long full;    /* met with every slot taken: not written */
	unsigned long long last_ts; /* when it last fired (the gap's start) */
};

struct kt_arm_cond {
	unsigned int kind; /* enum kt_arm_kind */
	int pid;	   /* the process (tgid); 0: any */
	long nr;	   /* the syscall number; -1: any */
	unsigned long long min_ns;
	unsigned long long cgroup; /* cgroup v2 id, the task in it or below; 0: any */
	int cgroup_level;	   /* cgroup's depth, for bpf_get_current_ancestor_cgroup_id */
	int err;		   /* KT_ARM_ERRNO: the positive errno */
	unsigned long long gap_ns; /* fires again no sooner than this after it last did */
	char comm[KT_ARM_COMM];	   /* the thread's name; "": any */
};

struct kt_arm_fire {
	unsigned int state; /* enum kt_arm_state */
	unsigned int cpu;
	int pid, tid;
	long nr;		  /* the syscall (syscall, errno); -1 otherwise */
	long ret;		  /* its return value */
	unsigned long long start; /* when the stretch began (CLOCK_MONOTONIC ns) */
	unsigned long long ts;	  /* when the condition was met */
	unsigned long long value; /* ns it took, or the errno */
	char comm[KT_ARM_COMM];
};

#endif
