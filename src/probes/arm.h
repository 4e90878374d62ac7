/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the armed conditions' program (arm.bpf.c) and its loader (src/backend/armbpf.c)
 * share. Each condition is a row of the .rodata array conds; when it is met, the program
 * fills that row's slot in the fires map once (state ARMED -> FIRED) and only counts
 * further matches until user space, having written the incident, sets it ARMED again.
 */
#ifndef KTOP_PROBES_ARM_H
#define KTOP_PROBES_ARM_H

#define KT_ARM_MAX 8
#define KT_ARM_COMM 16

enum kt_arm_kind {
	KT_ARM_NONE = 0,
	KT_ARM_SYSCALL, /* a syscall took min_ns or more (sys_enter to sys_exit) */
	KT_ARM_ERRNO,	/* a syscall returned -err */
	KT_ARM_RUNQ,	/* a task waited min_ns or more on a run queue (wakeup to run) */
	KT_ARM_OFFCPU,	/* a task was off the CPU min_ns or more (switch out to in) */
};

enum kt_arm_state { KT_ARM_ARMED = 0, KT_ARM_FILLING, KT_ARM_FIRED };

struct kt_arm_cond {
	unsigned int kind; /* enum kt_arm_kind */
	int pid;	   /* the process (tgid); 0: any */
	long nr;	   /* the syscall number; -1: any */
	unsigned long long min_ns;
	unsigned long long cgroup; /* cgroup v2 id, the task in it or below; 0: any */
	int cgroup_level;	   /* cgroup's depth, for bpf_get_current_ancestor_cgroup_id */
	int err;		   /* KT_ARM_ERRNO: the positive errno */
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
