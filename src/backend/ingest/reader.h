/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader thread: reads whole ring-buffer pages from every CPU of the instance
 * (tracefs_cpu, splice for full pages, read for the partial page of a quiet CPU), merges the
 * CPUs in time order into the store, inserts loss markers where a page says events were
 * missed, and writes one byte to the wake fd when new records arrived. */
#ifndef KTOP_READER_H
#define KTOP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kt_comms;
struct kt_session;
struct kt_store;
struct kt_symbolizer;

struct kt_reader_stats {
	uint64_t pages;		/* sub-buffers read */
	uint64_t events;	/* records stored */
	uint64_t missed;	/* events the pages said were lost (counted ones) */
	uint64_t missed_unknown; /* pages that said events were lost without a count */
	/* perf's side band (task names, and mappings for user frames): records lost, the
	 * reader's alone (0 in a CPU's share) */
	uint64_t sideband_lost;
};

/* to += from, field by field: a restarted reader's figures after the last one's. */
void reader_stats_add(struct kt_reader_stats *to, const struct kt_reader_stats *from);

struct kt_reader;

/* A reader in page mode hands each page over as the kernel wrote it instead of merging its
 * records into a store (the remote agent sends them on). Called on the reader thread with
 * the page (len: the bytes read, a whole sub-buffer) and its CPU. */
struct kt_page_sink {
	void (*page)(void *ctx, int cpu, const void *page, size_t len);
	/* After each pass (may be NULL): behind lists the nbehind CPUs it did not read to
	 * their end (a storm's, or any CPU's partial page when the pass took full pages
	 * only); on every other CPU, every event the kernel committed before `before` (the
	 * trace clock, mono) was in the pages handed over, but for one committing while the
	 * pass began (allow 2 ms, as the merge does). */
	void (*swept)(void *ctx, unsigned long long before, const int *behind, int nbehind);
	/* While the reader drains at the stop (may be NULL): asked before each page; true
	 * ends the drain there, and what the kernel still holds stays in its buffer (the
	 * instance's per-CPU `entries` count it until the instance goes). */
	bool (*full)(void *ctx);
	/* May be NULL: the side band then tracks mappings too, and hands sym those it read
	 * (reader_feed) at the start of each pass, before that pass's pages, so the sink can
	 * name the user frames in them, and again before swept, when every mapping those
	 * pages' events needed has come; only the reader thread touches sym. */
	struct kt_symbolizer *sym;
	void *ctx;
};

/* Opens every CPU's trace_pipe_raw and starts the thread. wake_fd: -1 for none. comms (may
 * be NULL) gets every task:task_rename record, when the user enabled that event, and every
 * exec, rename and fork on the machine from perf's side band (taskwatch.h); maps: the side
 * band's mappings too, for reader_feed. st NULL: count the records (and their losses)
 * without keeping them. */
struct kt_reader *reader_start(struct kt_session *s, struct kt_store *st, struct kt_comms *comms,
			       bool maps, int wake_fd, char *err, size_t errlen);
/* Hands sym the side band's mappings, forks, execs and exits read since the last call
 * (taskwatch_feed); nothing without maps or a side band. From any one thread. The records
 * lost on the way are in the stats (sideband_lost). */
void reader_feed(struct kt_reader *r, struct kt_symbolizer *sym);
/* Page mode: opens every CPU's trace_pipe_raw as reader_start does and hands each page to
 * sink (full pages as they fill, a quiet CPU's partial page every 100 ms), CPU by CPU with
 * no merging; comms is fed as reader_start's is, before each pass. Stopping drains every
 * CPU into the sink. Stats count pages only. */
struct kt_reader *reader_start_pages(struct kt_session *s, const struct kt_page_sink *sink,
				     struct kt_comms *comms, char *err, size_t errlen);
/* The size of the ring buffer's sub-buffers (pages) the reader reads. */
int reader_page_size(const struct kt_reader *r);
/* The reader's thread id, to exclude its own syscalls from the trace. */
pid_t reader_tid(const struct kt_reader *r);
/* Stops the thread, drains what the kernel buffered up to now into the store, closes the
 * files and frees r; final (may be NULL) gets the last figures, sym (may be NULL) the side
 * band's last mappings (reader_feed), those of the events drained last. Safe on NULL. */
void reader_stop(struct kt_reader *r, struct kt_reader_stats *final, struct kt_symbolizer *sym);
void reader_stats(struct kt_reader *r, struct kt_reader_stats *out);
/* What the reader took from one CPU since it started (a tracer switch restarts it, and the
 * kernel's per-CPU counters with it); zeros for a CPU it does not read. */
void reader_cpu_stats(struct kt_reader *r, int cpu, struct kt_reader_stats *out);

#endif
