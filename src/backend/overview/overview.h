/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The overview: what every task did over one tick, counted in the kernel. One BPF object
 * (src/probes/overview.bpf.c) on the scheduler, syscall and block hooks keeps a counter
 * record per thread; overview_read reads them all once per tick, takes the difference from
 * the previous read, folds threads into processes and deletes the records of threads that
 * died (after their last tick was read: a task that exited keeps its row for that tick,
 * marked). tp_btf is tried first, then raw_tp; without BPF (not permitted, no BTF) the
 * figures /proc has per task (CPU time, faults, context switches, I/O bytes) are read
 * instead, marked so, and each column /proc cannot give says why (overview_missing).
 *
 * The syscall hooks, the dearest (every syscall of every task runs them twice), are attached
 * only while a column needs them (overview_set_syscalls).
 */
#ifndef KTOP_BACKEND_OVERVIEW_H
#define KTOP_BACKEND_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_OV_ROW_SLOTS 32
#define KT_OV_MAX_CPUS 256
#define KT_OV_SNAP_DISKS 16

/* One thread, or one process with its threads summed, over the last tick. */
struct kt_ov_row {
	int pid;  /* the process (tgid) */
	int tid;  /* the thread; a process row: its pid */
	unsigned int uid;
	unsigned int nthreads; /* a process row: threads folded into it */
	bool exited;	       /* died during the tick: its last row */
	bool other;	       /* threads the kernel's table had no room for */
	uint64_t born;	       /* when its kernel record began: a reused thread id starts anew */
	char comm[16];
	char user[32];
	char cgroup[64];       /* a readable name of its cgroup (cgname.h) */
	unsigned int host;     /* over several agents: the one it ran on (ovsrc.h); else 0 */
	uint64_t oncpu_ns, runq_ns, sleep_ns, disk_ns;
	uint64_t vol_ctxsw, invol_ctxsw, migrations;
	uint64_t minflt, majflt;
	uint64_t syscalls, syscall_errors;
	unsigned int top_errno; /* the most frequent failure's errno, 0: none */
	uint64_t read_bytes, write_bytes;
	uint32_t runq_slots[KT_OV_ROW_SLOTS]; /* log2 ns: slot s holds [2^s, 2^(s+1)) */
	uint32_t sys_slots[KT_OV_ROW_SLOTS];
};

/* Columns, for overview_missing and the panes' choosers. */
enum kt_ov_col {
	KT_OVC_CPU,
	KT_OVC_RUNQ,
	KT_OVC_OFFCPU,
	KT_OVC_SYSCALLS,
	KT_OVC_SYSLAT,
	KT_OVC_FAULTS,
	KT_OVC_IO,
	KT_OVC_CTXSW,
	KT_OVC_MIGR,
	KT_OVC_N
};

/* One block device's reads and writes completed over the tick, each one's latency from the
 * request's start (as /proc/diskstats times it) to its completion, in log2 ns buckets. */
struct kt_ov_disklat {
	unsigned int dev; /* MKDEV(major, minor), 20 minor bits */
	uint64_t count, sum_ns;
	uint32_t slots[KT_OV_ROW_SLOTS];
};

/* One tick: every process (threads folded) and every thread, by pid then tid. */
struct kt_ov_snap {
	double interval_s;
	struct kt_ov_row *procs;
	size_t nprocs;
	struct kt_ov_row *threads;
	size_t nthreads;
	uint32_t cpu_runq_slots[KT_OV_ROW_SLOTS]; /* every CPU's run-queue waits, this tick */
	uint64_t cpu_runq_ns, cpu_switches;	   /* likewise */
	/* each CPU's run-queue length over the tick: the tasks waiting there on average (its
	 * waits' sum over the tick, Little's law); ncpus 0 without BPF */
	int ncpus;
	double cpu_runq_len[KT_OV_MAX_CPUS];
	/* the hooks' own run time over the tick (the kernel's bpf_stats); hooks_known false
	 * when the kernel does not count it (kernel.bpf_stats_enabled = 0) or without BPF */
	bool hooks_known;
	uint64_t hooks_ns;
	uint64_t other_threads; /* threads the table had no room for, since the start */
	struct kt_ov_disklat disks[KT_OV_SNAP_DISKS]; /* ndisks 0 without BPF */
	int ndisks;
	size_t cap_procs, cap_threads;
};

struct kt_overview;

/* Loads and attaches the BPF object (via: "tp_btf" or "raw_tp" only that variant, "proc"
 * no BPF, NULL the first the kernel takes; the syscall hooks as syscalls says), or falls back to
 * /proc, saying why in overview_source. Never NULL. */
struct kt_overview *overview_open(const char *via, bool syscalls);
void overview_free(struct kt_overview *ov);
/* "bpf tp_btf", "bpf raw_tp", or "/proc (why)". */
const char *overview_source(const struct kt_overview *ov);
/* Why column c is empty ("" when it is not): the one-line reason. */
const char *overview_missing(const struct kt_overview *ov, enum kt_ov_col c);
/* Attaches or detaches the syscall hooks. 0, or -1 with why in err. */
int overview_set_syscalls(struct kt_overview *ov, bool on, char *err, size_t errlen);
bool overview_syscalls_on(const struct kt_overview *ov);
/* Fills s with what happened since the previous read (the first read: since open); its
 * disks come from overview_read_disks. */
void overview_read(struct kt_overview *ov, struct kt_ov_snap *s);
/* Each disk's requests completed since the previous call into s (ndisks 0 without BPF).
 * Called right after sysstrip_sample reads /proc/diskstats, so that both count over the
 * same interval: read with the tasks, a tick's requests split at other instants than
 * diskstats' (up to 20% apart per tick on a busy disk, the totals equal). */
void overview_read_disks(struct kt_overview *ov, struct kt_ov_snap *s);
void overview_snap_free(struct kt_ov_snap *s);
/* w += t, counts and buckets (w's errno: the one of the row with most failures). */
void overview_row_add(struct kt_ov_row *w, const struct kt_ov_row *t);
/* What the hooks cost over s's tick, for the strip: "hooks 0.31% CPU" (of one CPU), "hooks:
 * bpf_stats off" when the kernel does not count it, "" without BPF. */
void overview_hooks_text(const struct kt_ov_snap *s, char *buf, size_t len);
struct kt_sysstrip;
/* s's per-disk latencies into sys's disks (matched by dev): counted in the kernel where s has
 * them, else each disk's /proc/diskstats mean stands, marked so (lat_counted false). */
void overview_disk_latency(const struct kt_ov_snap *s, struct kt_sysstrip *sys);
/* The q-quantile of log2 ns buckets (the top of the bucket it falls in), 0 when empty. */
uint64_t overview_quantile(const uint32_t *slots, double q);

#endif
