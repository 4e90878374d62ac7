/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each CPU's idle time from /proc/stat, for the counters' cpu-clock: perf's cpu-clock
 * counted on a CPU is wall time, the idle task's included (exclude_idle only drops samples,
 * not counted time), so system-wide it always reads one CPU per CPU. pmu_count.c takes this
 * idle time away to show how long each CPU was busy, as top and /proc/stat count it.
 */
#ifndef KTOP_PMU_IDLE_H
#define KTOP_PMU_IDLE_H

struct pmu_slot;

/* Sets each CPU slot's idle_ns to its idle + iowait time since boot (idle_known when
 * /proc/stat has that CPU). */
void pmu_idle_read(struct pmu_slot *slots, int n);

#endif
