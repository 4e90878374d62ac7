/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Performance counters with perf_event_open(2): a counter set, read on the tick.
 *
 * Slots are where counting happens: every online CPU (system-wide, pid -1; with --cgroup
 * the cgroup's directory fd and PERF_FLAG_PID_CGROUP), or with -p every thread of the
 * named processes (cpu -1). In each slot the counters form groups,
 * each led by its first member that opened and read in one read() with PERF_FORMAT_GROUP
 * | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING: the pairs a ratio is made of share a group
 * (cycles + instructions, cache references + misses, branches + misses), so the ratio
 * covers the same time window even when the PMU multiplexes; the software counters are
 * one group (they never multiplex); each user-named event is a group of its own. Values
 * are scaled for multiplexing (value * enabled / running) and the share of time each
 * group really ran is kept beside them.
 *
 * A counter the machine cannot give (no PMU driver, perf_event_paranoid, a capability, an
 * encoding the PMU rejects, an unknown name) is unavailable with a one-line reason that
 * names the cause and the way out; it never reads as zero, and the rest of the set works.
 * A task's counter refused for its kernel part (kernel.perf_event_paranoid >= 2 without
 * CAP_PERFMON) counts user space only and is named NAME:u, as perf stat falls back.
 *
 * No curses, no tracefs writes: tracepoint counters only read an event's id. Every fd is
 * closed by pmu_free(), and by process exit on any other path.
 *
 * Files: pmu.c builds the set and answers the front ends, pmu_count.c opens and reads it,
 * pmu_print.c prints it for batch mode (the three share pmu_local.h); event names are
 * pmu_names.h's, the reasons pmu_reason.h's, the sysfs encodings pmu_sysfs.h's.
 */
#ifndef KTOP_PMU_H
#define KTOP_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "pmu_names.h"
#include "pmu_reason.h"
#include "pmu_sysfs.h"

#define KT_PMU_GROUP_MAX 8 /* counters in one group */

/* One counter in one slot, as of the last pmu_update(). */
struct kt_pmu_slot_value {
	bool open;		   /* the counter opened in this slot */
	uint64_t raw;		   /* what the kernel counted, cumulative */
	uint64_t enabled, running; /* the group's times, ns */
	double scaled;		   /* raw * enabled / running (0 while it never ran) */
	double rate;		   /* scaled per second over the last interval; NAN if unknown */
};

struct kt_pmu_counter {
	char name[128];		/* "cycles", "msr/tsc/", "sched:sched_switch" */
	struct kt_pmu_attr attr;
	enum kt_pmu_role role;
	bool optional;		/* a default the PMU may lack: hidden when it does */
	bool user;		/* named with --pmu-event */
	int group;
	bool resolved;		/* the spec was understood (else err/reason say why not) */
	bool available;		/* opened in at least one slot */
	int err;		/* errno of the failed open (or resolution), 0 if it opened */
	char reason[320];	/* why unavailable, one line; "" when available */

	/* Over all slots, from the last pmu_update(); values are times attr.scale. */
	bool counted;		/* ran at some point (running > 0 in some slot) */
	uint64_t raw;
	double value;		/* scaled, cumulative */
	double rate;		/* per second over the last interval; NAN when it did not run */
	double share;		/* running / enabled over the last interval, 0..1; NAN if none */
	double share_total;	/* the same since the counters opened */
	struct kt_pmu_slot_value *slots; /* pmu_nslots() entries */
};

/* A ratio of two default counters; value NAN (and why filled) when an input is missing. */
struct kt_pmu_ratio {
	const char *name;  /* "IPC", "cache-miss-rate", "branch-miss-rate" */
	const char *unit;  /* "" or "%" */
	double value;	   /* cumulative */
	double rate_value; /* over the last interval */
	char why[160];	   /* "needs cycles and instructions (unavailable)" */
};

#define KT_PMU_NRATIOS 3

struct kt_pmu_config {
	const char *sysfs_root;	 /* NULL: KT_PMU_SYSFS_ROOT */
	const char *tracing_dir; /* for sys:event ids; NULL: tracepoint counters unavailable */
	const pid_t *pids;	 /* -p: count these processes' threads; npids 0: system-wide */
	size_t npids;
	const char *cgroup_dir;	 /* --cgroup: count on every CPU only while a task of this
				  * cgroup (or below) runs, perf's cgroup mode; NULL: none */
	const char *const *events; /* --pmu-event specs, added to the default set */
	size_t nevents;
	bool no_defaults;	 /* only the named events (tests) */
	const int *cpus;	 /* system-wide slots; NULL: the online CPUs */
	int ncpus;
	const pid_t *tids;	 /* per-task slots instead of /proc/PID/task (tests) */
	size_t ntids;
};

struct kt_pmu;

/* Builds the counter set: resolves every spec, lists the slots. Opens nothing. Returns NULL
 * with err filled when no slot exists ("-p 4242: no such process"). */
struct kt_pmu *pmu_new(const struct kt_pmu_config *cfg, char *err, size_t errlen);
/* Opens and enables every group in every slot; a counter that cannot be opened anywhere
 * becomes unavailable with its reason. Returns the number of counters available (0 is not
 * an error: the set still says why each is missing), or -1 with err filled when every
 * -p thread was gone or the cgroup's hierarchy has no perf_event controller. */
int pmu_open(struct kt_pmu *p, char *err, size_t errlen);
/* After pmu_open(): true when no counter opened and privilege is why (each counter was
 * refused, at least one with EACCES or EPERM); why is then one line with the reason and
 * the way out. */
bool pmu_refused(const struct kt_pmu *p, char *why, size_t len);
/* Reads every group (one read() each) and updates values, rates and ratios. */
void pmu_read(struct kt_pmu *p);
/* Reads a last time and stops counting: later pmu_read() calls change nothing (batch mode
 * freezes the figures at the end of --duration). */
void pmu_stop(struct kt_pmu *p);
/* Closes every fd and frees. Safe on NULL. */
void pmu_free(struct kt_pmu *p);

/* The pieces of pmu_read(), for tests with recorded buffers. pmu_feed() takes one group
 * read of (slot, group) exactly as the kernel returns it:
 *   u64 nr; u64 time_enabled; u64 time_running; u64 value[nr];
 * in the order the members were opened. Returns 0, or -1 when the buffer does not match the
 * group. pmu_update() then computes everything for the instant now_ns. */
int pmu_feed(struct kt_pmu *p, int slot, int group, const void *buf, size_t len);
void pmu_update(struct kt_pmu *p, unsigned long long now_ns);
/* Sets the instant the counters started (pmu_open does, with the monotonic clock). */
void pmu_set_start(struct kt_pmu *p, unsigned long long now_ns);

/* value * enabled / running, with *share = running / enabled; 0 and share 0 when it never
 * ran (running 0), value and share 1 when enabled is 0. */
double pmu_scale(uint64_t value, uint64_t enabled, uint64_t running, double *share);

/* The online CPUs (/sys/devices/system/cpu/online), malloc'd into *out. Returns the
 * count, or -1 out of memory. */
int pmu_online_cpus(int **out);

size_t pmu_ncounters(const struct kt_pmu *p);
const struct kt_pmu_counter *pmu_counter(const struct kt_pmu *p, size_t i);
int pmu_nslots(const struct kt_pmu *p);
/* "cpu0" or "tid 1234". */
const char *pmu_slot_label(const struct kt_pmu *p, int slot, char *buf, size_t len);
/* The CPU number or the tid of a slot. */
int pmu_slot_id(const struct kt_pmu *p, int slot);
bool pmu_per_task(const struct kt_pmu *p);
/* "system-wide, 2 CPUs" or "pid 1234 (3 threads)". */
const char *pmu_target_text(const struct kt_pmu *p, char *buf, size_t len);
/* Seconds from the start to the last update, and the length of the last interval. */
double pmu_elapsed(const struct kt_pmu *p);
/* Updates so far: 0 until the first read after opening. */
unsigned pmu_samples(const struct kt_pmu *p);
double pmu_interval(const struct kt_pmu *p);
/* The derived ratios (KT_PMU_NRATIOS entries). */
void pmu_ratios(const struct kt_pmu *p, struct kt_pmu_ratio out[KT_PMU_NRATIOS]);
/* True when the counter belongs in the table: available, or unavailable and not an
 * optional default of a PMU whose other counters work. */
bool pmu_counter_shown(const struct kt_pmu *p, size_t i);

/* Its figures as of the last read into s (pmu_snap.h: what the counters pane draws and an
 * agent sends), replacing what s held. */
struct kt_pmu_snap;
void pmu_snap_take(const struct kt_pmu *p, struct kt_pmu_snap *s);

/* Batch output: a table (lines starting "# pmu" are headers) or one JSON object
 * {"pmu":{...}} on one line. */
void pmu_write_text(const struct kt_pmu *p, FILE *out);
void pmu_write_json(const struct kt_pmu *p, FILE *out);

#endif
