/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The overview's state, shared by its BPF reader (overview.c), its /proc reader
 * (overview_proc.c) and its folding and naming (overview_fold.c). */
#ifndef KTOP_BACKEND_OVERVIEW_LOCAL_H
#define KTOP_BACKEND_OVERVIEW_LOCAL_H

#include "overview.h"

#define OV_HOOKS 8

/* A growable array of rows. */
struct ov_rows {
	struct kt_ov_row *v;
	size_t n, cap;
};

/* A process's names, looked up once while it lives. */
struct ov_name {
	int pid;
	unsigned int uid;
	unsigned long long seen; /* the read that last saw it */
	char user[32];
	char cgroup[64];
	char comm[16]; /* /proc/PID/comm: its main thread's name, when only others ran */
};

struct kt_overview {
	char source[600];
	char missing[KT_OVC_N][200];
	bool syscalls;
	/* BPF (obj NULL: /proc) */
	const char *via;
	struct bpf_object *obj;
	struct bpf_link *links[OV_HOOKS];
	int tasks_fd, other_fd, cpus_fd, disks_fd, ncpus;
	/* each disk's counts since load, as read the last time: the tick's are the difference */
	struct kt_ov_disklat disk_prev[KT_OV_SNAP_DISKS];
	int ndisk_prev;
	void *percpu; /* one per-CPU lookup of "other" */
	void *percpu_cpus; /* the CPUs' slots as last read */
	void *prev_cpus;   /* and as read the time before: the tick's figures are the difference */
	unsigned long long hooks_ns; /* the programs' run time at the last read (bpf_stats) */
	/* each thread's counts since it was first seen, at this read and the last, by tid */
	struct ov_rows cur, prev;
	unsigned long long last_ns, reads;
	struct ov_name *names;
	size_t nnames, capnames;
};

/* Room for one more row in r; returns it zeroed. */
struct kt_ov_row *ov_rows_add(struct ov_rows *r);
void ov_rows_sort_tid(struct ov_rows *r);
/* The BPF object, any variant or only one; -1 with why. ov_bpf_close undoes it. */
int ov_bpf_open(struct kt_overview *ov, const char *only, char *why, size_t whylen);
void ov_bpf_close(struct kt_overview *ov);
/* Attaches (on) or detaches the syscall hooks. 0, or -1 with why. */
int ov_bpf_syscalls(struct kt_overview *ov, bool on, char *err, size_t errlen);
/* Every thread's record into ov->cur, the CPUs' run-queue figures into s. */
void ov_bpf_read(struct kt_overview *ov, struct kt_ov_snap *s, unsigned long long now);
/* overview_read_disks's, with BPF. */
void ov_bpf_read_disks(struct kt_overview *ov, struct kt_ov_snap *s);
/* Every thread's counts since boot from /proc into ov->cur (tid order). */
void overview_proc_read(struct kt_overview *ov);
/* The reasons /proc leaves columns empty. */
void overview_proc_missing(struct kt_overview *ov);
/* Threads (tid order, deltas) folded into s's processes, named. */
void overview_fold(struct kt_overview *ov, struct kt_ov_snap *s);

#endif
