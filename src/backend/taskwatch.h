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

#include <stdint.h>

struct kt_comms;
struct kt_taskwatch;

/* Opens the side band on every online CPU, timed on the ftrace clock named trace_clock.
 * NULL (reason in err) when the clock has no perf equivalent or perf refuses. */
struct kt_taskwatch *taskwatch_open(struct kt_comms *comms, const char *trace_clock, char *err,
				    size_t errlen);

/* Moves every record waiting into comms. Returns how many names it learned. */
unsigned taskwatch_drain(struct kt_taskwatch *tw);


void taskwatch_close(struct kt_taskwatch *tw);

#endif
