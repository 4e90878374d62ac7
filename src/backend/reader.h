/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reader thread: reads whole ring-buffer pages from every CPU of the instance
 * (tracefs_cpu, splice for full pages, read for the partial page of a quiet CPU), merges the
 * CPUs in time order into the store, inserts loss markers where a page says events were
 * missed, and writes one byte to the wake fd when new records arrived. */
#ifndef KTOP_READER_H
#define KTOP_READER_H

#include <stdbool.h>
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
};

struct kt_reader;

/* Opens every CPU's trace_pipe_raw and starts the thread. wake_fd: -1 for none. comms (may
 * be NULL) gets every task:task_rename record, when the user enabled that event, and every
 * exec, rename and fork on the machine from perf's side band (taskwatch.h); maps: the side
 * band's mappings too, for reader_feed. st NULL: count the records (and their losses)
 * without keeping them. */
struct kt_reader *reader_start(struct kt_session *s, struct kt_store *st, struct kt_comms *comms,
			       bool maps, int wake_fd, char *err, size_t errlen);
/* Hands sym the side band's mappings, forks, execs and exits read since the last call
 * (taskwatch_feed); nothing without maps or a side band. From any one thread. Returns the
 * records lost so far. */
uint64_t reader_feed(struct kt_reader *r, struct kt_symbolizer *sym);
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
