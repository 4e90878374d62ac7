/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of a counter set (struct kt_pmu), shared by the files that implement pmu.h and
 * by no one else: pmu.c (building the set, what the front ends read), pmu_count.c (opening
 * and reading) and pmu_print.c (batch output). */
#ifndef KTOP_PMU_LOCAL_H
#define KTOP_PMU_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmu.h"

struct pmu_group {
	int counters[KT_PMU_GROUP_MAX]; /* planned members, in opening order */
	int n;
};

/* One group in one slot. */
struct pmu_sg {
	int fds[KT_PMU_GROUP_MAX];     /* fds[0] leads */
	int members[KT_PMU_GROUP_MAX]; /* counter of each member, in the order of the read */
	int n;
	bool fed;
	uint64_t enabled, running, raw[KT_PMU_GROUP_MAX];	/* last fed */
	uint64_t p_enabled, p_running, p_raw[KT_PMU_GROUP_MAX]; /* at the previous update */
};

struct pmu_slot {
	int cpu;   /* -1 per task */
	pid_t tid; /* -1 system-wide */
	bool gone; /* the thread had exited before its counters opened */
	/* System-wide: the CPU's idle time (pmu_idle.h), taken from its cpu-clock. */
	bool idle_known;
	uint64_t idle_ns, p_idle_ns, idle0_ns; /* now, at the previous update, at opening */
};

/* Per-counter sums while updating. */
struct pmu_acc {
	uint64_t en, run, d_en, d_run;
	double rate;
	bool any_rate;
};

struct kt_pmu {
	char *sysfs_root;
	char *tracing_dir;
	bool per_task;
	pid_t *pids;
	size_t npids;
	int cgroup_fd;	  /* --cgroup: its directory, the "pid" of every counter; -1: none */
	char *cgroup_dir;
	struct kt_pmu_counter *counters;
	size_t ncounters;
	struct pmu_group *groups;
	int ngroups;
	struct pmu_slot *slots;
	int nslots;
	struct pmu_sg *sg; /* nslots * ngroups */
	struct pmu_acc *acc;
	unsigned long long start_ns, prev_ns, now_ns;
	double interval;
	unsigned samples;
	bool stopped;
	bool busy_clock; /* system-wide without --cgroup: cpu-clock less each CPU's idle time */
};

static inline struct pmu_sg *SG(const struct kt_pmu *p, int slot, int group)
{
	return &p->sg[(size_t)slot * (size_t)p->ngroups + (size_t)group];
}

#endif
