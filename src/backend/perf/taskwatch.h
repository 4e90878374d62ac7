/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Task names from perf's side band, the way `perf record` keeps them: one software dummy
 * event per CPU with comm and task tracking delivers a record, with its time on the trace
 * clock, for every exec, prctl(PR_SET_NAME) and fork on the machine. Fed into kt_comms, they
 * name a short-lived task by the name it had when its events happened, after it is gone and
 * whatever the kernel's saved_cmdlines kept. Nothing touches the ftrace ring buffer.
 *
 * Asked to, it also keeps the records a symbolizer needs (executable mmaps, forks, execs,
 * exits) for another thread to hand over with taskwatch_feed, as the profile feeds its own:
 * event stacks' user frames of a process that exited are still named. Those wait, in time
 * order, in a queue of at most KT_TASKWATCH_QUEUE bytes; past it they are counted as lost.
 */
#ifndef KTOP_TASKWATCH_H
#define KTOP_TASKWATCH_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "comms.h"

#define KT_TASKWATCH_QUEUE (4u << 20)

struct kt_symbolizer;
struct kt_taskwatch;

/* Opens the side band on every online CPU, timed on the ftrace clock named trace_clock;
 * maps: keep the symbolizer's records too (mmap tracking on). NULL (reason in err) when the
 * clock has no perf equivalent or perf refuses. */
struct kt_taskwatch *taskwatch_open(struct kt_comms *comms, const char *trace_clock, bool maps,
				    char *err, size_t errlen);

/* Moves every record waiting into comms (and the symbolizer's into the queue). Returns how
 * many names it learned. One thread drains. */
unsigned taskwatch_drain(struct kt_taskwatch *tw);

/* Hands the queued records to sym (symbolizer_record), oldest first, and empties the queue;
 * safe from a thread other than the one that drains. NULL tw: nothing. */
void taskwatch_feed(struct kt_taskwatch *tw, struct kt_symbolizer *sym);

/* The side-band records lost since the start: those the kernel dropped from a full ring
 * (it says so with the next record it writes) and those past the queue's bound. From the
 * thread that drains. NULL tw: 0. */
uint64_t taskwatch_lost(const struct kt_taskwatch *tw);

/* One side-band record (COMM or FORK) of time ts into comms; other types are ignored.
 * Returns the names learned (0 or 1). For other readers of the same records (the
 * profile), whose sample_id trailers differ. */
unsigned taskwatch_record(struct kt_comms *comms, const struct perf_event_header *h,
			  uint64_t ts);
/* The name tid had at ts: from comms, else /proc/TID/comm now (then kept in comms). */
bool taskwatch_name(struct kt_comms *comms, int tid, uint64_t ts, char out[KT_COMM_LEN]);

void taskwatch_close(struct kt_taskwatch *tw);

#endif
