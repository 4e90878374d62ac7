/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event store: raw ring-buffer records kept in time order, in fixed-size chunks, within a
 * memory budget. Records are stored as the kernel wrote them and formatted only when shown.
 * Past the budget the oldest chunk goes, and the evicted records are counted.
 *
 * One writer (the reader thread) and any number of readers; all access goes through
 * store_lock()/store_unlock(). Records are addressed by a sequence number that never changes
 * for the life of a record and is never reused. */
#ifndef KTOP_STORE_H
#define KTOP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_REC_LOST 0x1u /* marker: the kernel dropped events on this CPU just before */
/* A kernel or user stack the kernel wrote right after an event (the event's stacktrace
 * trigger, the instance's stacktrace options): attached to that event, never a row itself. */
#define KT_REC_STACK 0x2u

struct kt_rec {
	uint64_t seq;	  /* position in the store, stable */
	uint64_t ts;	  /* ns, the instance's trace clock */
	uint32_t cpu;
	uint32_t flags;	  /* KT_REC_* */
	uint32_t size;	  /* bytes at data */
	int64_t lost;	  /* KT_REC_LOST: events missed, -1 when the kernel did not count them */
	uint32_t stack;	  /* records on to the first stack attached to this one (0: none); in a
			   * KT_REC_STACK record, to the next stack of the same event */
	const void *data; /* raw event payload; valid until store_unlock() */
};

struct kt_store_stats {
	uint64_t appended; /* records ever appended, markers included */
	uint64_t evicted;  /* records dropped past the memory budget */
	uint64_t lost_markers;
	uint64_t stacks;   /* KT_REC_STACK records appended */
	size_t bytes;	   /* memory held by chunks */
	size_t budget;
	size_t chunks;
};

struct kt_store;

/* budget: bytes of memory for records; at least two 2 MiB chunks are always kept, and one
 * evicted chunk is held back for reuse. */
struct kt_store *store_new(size_t budget);
void store_free(struct kt_store *st);

void store_lock(struct kt_store *st);
void store_unlock(struct kt_store *st);

/* Appends one record; time order is the caller's business (the reader merges CPUs).
 * Returns the record's sequence number. Caller holds the lock. */
uint64_t store_append(struct kt_store *st, uint64_t ts, uint32_t cpu, const void *data,
		      uint32_t size);
/* Appends a loss marker for cpu at ts: lost events, or -1 when the count is unknown. */
uint64_t store_append_lost(struct kt_store *st, uint64_t ts, uint32_t cpu, int64_t lost);

/*
 * Records of these two types (the ids of ftrace's kernel_stack and user_stack; -1: none)
 * are stacks: store_append() marks them KT_REC_STACK and attaches each to the last other
 * record appended on its CPU, after that record's earlier stacks, since the kernel writes an
 * event's stacks on the event's CPU right after it. A stack after a loss marker, or whose
 * event was evicted, is attached to nothing. Caller holds the lock.
 */
void store_set_stack_types(struct kt_store *st, int kernel_id, int user_id);
/* Whether record seq is the last appended on its CPU (a stack may still come for it).
 * Caller holds the lock. */
bool store_cpu_last(const struct kt_store *st, uint64_t seq, uint32_t cpu);

/* [first, end) is the range of sequence numbers currently held. Caller holds the lock. */
uint64_t store_first(const struct kt_store *st);
uint64_t store_end(const struct kt_store *st);
/* Fills *out with record seq; false when it was evicted or not yet written. */
bool store_get(const struct kt_store *st, uint64_t seq, struct kt_rec *out);

void store_stats(const struct kt_store *st, struct kt_store_stats *out);

/*
 * Paging, for sources larger than the budget (a recording): records [0, span) exist, the
 * store holds a window of them, and store_get() of a record outside the window calls the
 * pager, which refills the window (store_restart() + store_append()) so that it holds seq.
 * store_first() is then 0 and store_end() the span. The pager runs on the thread that calls
 * store_get(), with the lock held.
 */
typedef void (*kt_store_pager)(void *ctx, struct kt_store *st, uint64_t seq);
void store_set_pager(struct kt_store *st, kt_store_pager pager, void *ctx);
/* Records [0, end) exist (a recording being indexed grows it). Caller holds the lock. */
void store_set_span(struct kt_store *st, uint64_t end);
/* Drops the window; the next record appended gets sequence number first. Lock held. */
void store_restart(struct kt_store *st, uint64_t first);
/* The window actually held, [*first, *end). Lock held. */
void store_held(const struct kt_store *st, uint64_t *first, uint64_t *end);
/*
 * A paged source still being indexed can show its tail before its middle is indexed: it
 * numbers the tail provisionally, up to an estimated total, and its pager serves those
 * numbers too. store_end() stays the span (exact: for readers that take every record); a
 * browser shows up to store_browse_end(). When the real numbers are known the source shifts
 * the provisional ones, and a browser moves what it holds of them (store_shift()).
 */
/* The estimated total (0: none, the span is all). Lock held. */
void store_set_estimate(struct kt_store *st, uint64_t est);
/* The end a browser shows: the estimate while there is one, else store_end(). */
uint64_t store_browse_end(const struct kt_store *st);
/* Whether store_browse_end() is an estimate. */
bool store_estimated(const struct kt_store *st);
/* Records from seq from on, as numbered until now, are now numbered by more. Lock held. */
void store_set_shift(struct kt_store *st, uint64_t from, int64_t by);
/* The last shift: its generation (0: none yet), from where and by how much. */
uint64_t store_shift(const struct kt_store *st, uint64_t *from, int64_t *by);
/* The first record of [lo, hi) whose time is at or after ts (hi: none), by bisection: the
 * store is in time order. Lock held; pages a paged store. */
uint64_t store_seek_ts(const struct kt_store *st, uint64_t lo, uint64_t hi, uint64_t ts);
/* Drops everything (the user's "clear"); eviction counters are kept. */
void store_clear(struct kt_store *st);

#endif
