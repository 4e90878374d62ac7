/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the BPF histogram programs and their loader (src/backend/bpf/bpfhist.c) share: the map
 * key and value, the bucket layout and the tunables handed over in .rodata.
 *
 * Every histogram is a per-CPU hash from a key (a syscall number, a pid, a CPU, a field's
 * value or a command name) to counts in KT_HIST_SLOTS buckets. The kernel only adds; user
 * space sums the CPUs and takes differences between ticks, so nothing is ever deleted
 * under a running program and no event is copied out.
 */
#ifndef KTOP_PROBES_HIST_H
#define KTOP_PROBES_HIST_H

#define KT_HIST_SLOTS 64
#define KT_HIST_COMM 16
#define KT_HIST_MAX_KEYS 10240
#define KT_HIST_MAX_INFLIGHT 16384
/* syscall-latency by syscall: the rows of syscall numbers below this are a per-CPU array
 * (syslat.bpf.c's hist_syscalls, read beside the hash), the others are in the hash */
#define KT_HIST_SYSCALLS 512

/* How a value finds its bucket. */
enum kt_hist_scale {
	KT_SCALE_LOG2 = 0,   /* bucket 0: 0 and 1; bucket s: [2^s, 2^(s+1)) */
	KT_SCALE_LINEAR = 1, /* bucket s: [s*step, (s+1)*step); the last one takes the rest */
};

/* What one histogram's entries are keyed by. */
enum kt_hist_by {
	KT_BY_NONE = 0,
	KT_BY_PID,     /* the process (tgid) */
	KT_BY_TID,     /* the thread */
	KT_BY_COMM,    /* the command name */
	KT_BY_CPU,
	KT_BY_SYSCALL, /* syscall-latency: the syscall number */
	KT_BY_FIELD,   /* a field of the event: a number, or a string kept as a name */
	KT_BY_CGROUP,  /* the task's cgroup v2 id (the loader shows its path) */
};

/* How the two events of a latency histogram are matched. */
enum kt_hist_match {
	KT_MATCH_TID = 0, /* the current thread */
	KT_MATCH_FIELD,   /* a field of the record (a pid, a sector, a request pointer) */
};

/* schedlat.bpf.c's by=FIELD: a field of sched_switch's task switched to. */
enum kt_sched_key {
	KT_SCHED_KEY_NONE = 0, /* not by a field: the current task or CPU */
	KT_SCHED_KEY_COMM,     /* next_comm */
	KT_SCHED_KEY_PID,      /* next_pid */
};

/* lockcont.bpf.c's by=FIELD: a field of the wait rather than the current task. */
enum kt_lock_key {
	KT_LOCK_KEY_NONE = 0, /* the current task or CPU */
	KT_LOCK_KEY_FLAGS,    /* contention_begin's flags: the LCB_F_* kind of lock and wait */
	KT_LOCK_KEY_ADDR,     /* the lock's address */
};

struct kt_hist_key {
	unsigned long long id;	 /* syscall, pid, cpu, or a numeric field */
	char name[KT_HIST_COMM]; /* the command, or a string field */
};

struct kt_hist_val {
	unsigned long long count;
	unsigned long long sum;
	unsigned long long min;	/* valid when count > 0 */
	unsigned long long max;
	unsigned long long slots[KT_HIST_SLOTS];
};

/* A field of a tracepoint record, as events/SYS/EVENT/format describes it. */
struct kt_hist_field {
	unsigned int offset;
	unsigned int size;   /* 1, 2, 4, 8; or up to KT_HIST_COMM for a string */
	unsigned int is_signed;
	unsigned int is_string;
};

#endif
