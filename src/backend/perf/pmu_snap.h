/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A counter set's figures as of its last read, as plain values: what the counters pane
 * draws (a local set's, or an agent's sent in a COUNTERROWS frame, remote/counterrows.h)
 * with no fd and no kt_pmu behind it. Every number is pmu.c's own (scaled for
 * multiplexing, rates over the last interval, the share each counter ran), never
 * recomputed; only the counters the table shows (pmu_counter_shown) are in it.
 */
#ifndef KTOP_PMU_SNAP_H
#define KTOP_PMU_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"

/* How a counter's figures read. */
enum kt_pmu_fmt {
	KT_PMU_FMT_COUNT, /* a count: 12.3k, 4.5M/s */
	KT_PMU_FMT_NS,	  /* cpu-clock, task-clock: nanoseconds (ms, s; CPUs busy) */
	KT_PMU_FMT_UNIT,  /* a sysfs alias with a scale or a unit: %.3g and the unit */
	KT_PMU_FMT_MAX
};

/* One counter in one slot (a CPU, or a thread with -p). */
struct kt_pmu_snap_slot {
	bool open; /* the counter opened in this slot */
	double rate; /* per second over the last interval; NAN when unknown */
};

struct kt_pmu_snap_counter {
	char name[128];
	uint8_t fmt; /* enum kt_pmu_fmt */
	char unit[16];
	bool user;	 /* named with --pmu-event (not one of the default set) */
	bool available;	 /* opened somewhere; else reason says why not */
	bool counted;	 /* ran at some point */
	char reason[320];
	uint64_t raw;	 /* what the kernel counted, summed over the slots */
	double value;	 /* scaled (value * enabled / running), cumulative, times the scale */
	double rate;	 /* per second over the last interval; NAN when it did not run */
	double share;	 /* running / enabled over the last interval; NAN if none */
	double share_total; /* the same since the counters opened */
	struct kt_pmu_snap_slot *slots; /* the set's nslots entries */
};

struct kt_pmu_snap_ratio {
	char name[24];	/* "IPC" ... */
	char unit[4];	/* "" or "%" */
	double value;	/* cumulative; NAN: why says why */
	double rate_value; /* over the last interval; NAN when unknown */
	char why[160];
};

struct kt_pmu_snap {
	char target[160];  /* pmu_target_text: "system-wide, 2 CPUs", "pid 12 (3 threads)" */
	bool per_task;	   /* slots are threads, not CPUs */
	uint32_t samples;  /* reads so far: 0 until the first tick after opening */
	double interval;   /* seconds of the last interval */
	uint32_t nslots;
	int32_t *slot_ids; /* each slot's CPU or tid */
	uint32_t ncounters;
	struct kt_pmu_snap_counter *counters;
	struct kt_pmu_snap_ratio ratios[KT_PMU_NRATIOS];
};

/* pmu.h's pmu_snap_take fills one from a set. */
/* Frees what s holds and zeroes it. */
void pmu_snap_free(struct kt_pmu_snap *s);
/* "cpu3" or "tid 1234". */
const char *pmu_snap_slot_label(const struct kt_pmu_snap *s, uint32_t slot, char *buf,
				size_t len);

#endif
