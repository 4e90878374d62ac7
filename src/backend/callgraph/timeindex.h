/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time axis's index of a store (the timeline and heat-map panes): per-CPU task slices
 * from sched_switch (cpuslice.h), and per event type the timestamps of its records, loss
 * markers as one more type. A thread of its own reads the store from its oldest record on,
 * a batch at a time under the store lock, so a big recording's first screen does not wait
 * for the whole file; live it follows the tail, and drops what the store evicted.
 *
 * The thread reads only raw bytes: sched_switch's field offsets are looked up once by the
 * caller (libtraceevent is the UI thread's), so it never touches a tep. Queries take the
 * index's own lock; the thread holds it only while it adds a batch.
 */
#ifndef KTOP_TIMEINDEX_H
#define KTOP_TIMEINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuslice.h"

struct kt_store;
struct kt_timeindex;

/* Where sched_switch's fields are in its raw record (from its format). */
struct kt_switch_fields {
	int type;			/* common_type of sched_switch, -1: none (no slices) */
	int prev_comm, prev_pid, prev_prio, next_comm, next_pid, next_prio; /* offsets */
	int comm_len;			/* bytes of the comm arrays */
};

#define KT_TI_LOST (-2) /* the kind of loss markers */
#define KT_TI_ALL (-1)	/* every event (a count's kind) */

/* Starts indexing st for CPUs 0..ncpus-1. NULL out of memory or without a thread. */
struct kt_timeindex *timeindex_new(struct kt_store *st, int ncpus,
				   const struct kt_switch_fields *sw);
/* Stops the thread and frees everything. Safe on NULL. */
void timeindex_free(struct kt_timeindex *ti);
/* The source has no more records (a recording read to its end): once the thread has read
 * them all, every CPU's running slice ends at the last record, clipped. */
void timeindex_set_final(struct kt_timeindex *ti);

struct kt_ti_info {
	uint64_t first_ts, last_ts; /* of the records indexed: the capture's start, its tail */
	uint64_t records;	    /* indexed so far */
	uint64_t total;		    /* the store's records, or its estimate of a recording's */
	bool done;		    /* final and read to the end */
	bool switches;		    /* sched_switch is indexed (its type known) */
	int ncpus;
	int nkinds;		    /* event types seen, loss markers not among them */
	size_t bytes;		    /* memory held */
};
void timeindex_info(struct kt_timeindex *ti, struct kt_ti_info *out);

/* The i-th event type seen (0..nkinds-1): its common_type, and a record of it (its seq)
 * to name it by. */
int timeindex_kind(struct kt_timeindex *ti, int i, uint64_t *seq);

/* Slices of cpu overlapping [from, to): fn gets each in time order, the running one (live)
 * ending at the last record indexed, marked clipped_end. Returns how many. */
size_t timeindex_slices(struct kt_timeindex *ti, int cpu, uint64_t from, uint64_t to,
			kt_cpuslice_fn fn, void *arg);
/* How many slices of cpu overlap [from, to) (the running one not counted). */
size_t timeindex_nslices(struct kt_timeindex *ti, int cpu, uint64_t from, uint64_t to);
/* The slice of cpu that holds ts (the running one included); false: none. */
bool timeindex_slice_at(struct kt_timeindex *ti, int cpu, uint64_t ts, struct kt_cpuslice *out);
/* The slices of cpu that hold each of ts[0..n-1] (timeindex_slice_at's answers, under one
 * hold of the lock: a frame asks hundreds); pid -1 where there is none. */
void timeindex_slices_at(struct kt_timeindex *ti, int cpu, const uint64_t *ts, int n,
			 struct kt_cpuslice *out);
/* Records of kind (a common_type, KT_TI_ALL or KT_TI_LOST) with from <= ts < to. */
uint64_t timeindex_count(struct kt_timeindex *ti, int kind, uint64_t from, uint64_t to);
/* timeindex_count of n columns of width ns from from on, into out[0..n-1], under one hold. */
void timeindex_counts(struct kt_timeindex *ti, int kind, uint64_t from, uint64_t width, int n,
		      uint64_t *out);
/* The next time after ts (dir > 0) or before it (dir < 0) at which something happens on
 * a lane: a slice boundary of cpu (kind ignored when cpu >= 0), else a record of kind.
 * false when there is none. */
bool timeindex_next(struct kt_timeindex *ti, int cpu, int kind, uint64_t ts, int dir,
		    uint64_t *out);

#endif
