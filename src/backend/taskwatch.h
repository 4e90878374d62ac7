/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Task names from perf's side band, the way `perf record` keeps them: one software dummy
 * event per CPU with comm and task tracking delivers a record, with its time on the trace
 * clock, for every exec, prctl(PR_SET_NAME) and fork on the machine. Fed into kt_comms, they
 * name a short-lived task by the name it had when its events happened, after it is gone and
 * whatever the kernel's saved_cmdlines kept. Nothing touches the ftrace ring buffer.
 */
#ifndef KTOP_TASKWATCH_H
#define KTOP_TASKWATCH_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "comms.h"

struct kt_taskwatch;

/* Opens the side band on every online CPU, timed on the ftrace clock named trace_clock.
 * NULL (reason in err) when the clock has no perf equivalent or perf refuses. */
struct kt_taskwatch *taskwatch_open(struct kt_comms *comms, const char *trace_clock, char *err,
				    size_t errlen);

/* Moves every record waiting into comms. Returns how many names it learned. */
unsigned taskwatch_drain(struct kt_taskwatch *tw);

/* One side-band record (COMM or FORK) of time ts into comms; other types are ignored.
 * Returns the names learned (0 or 1). For other readers of the same records (the
 * profile), whose sample_id trailers differ. */
unsigned taskwatch_record(struct kt_comms *comms, const struct perf_event_header *h,
			  uint64_t ts);
/* The name tid had at ts: from comms, else /proc/TID/comm now (then kept in comms). */
bool taskwatch_name(struct kt_comms *comms, int tid, uint64_t ts, char out[KT_COMM_LEN]);

void taskwatch_close(struct kt_taskwatch *tw);

#endif
