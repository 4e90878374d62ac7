/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --chrome-trace FILE: the Trace Event Format (JSON) that Perfetto UI and chrome://tracing
 * open. Each CPU is a thread of one process named "CPUs", its task slices complete events
 * ("ph":"X", "cat":"sched", args cpu, pid, comm, prio) from sched_switch as cpuslice.h cuts
 * them; function_graph's returns are complete events from their call to their return, on
 * the task's thread; every other event is an instant ("ph":"i") with its fields as args.
 * A task's thread is named by its comm. */
#ifndef KTOP_CHROME_H
#define KTOP_CHROME_H

#include <stddef.h>

struct kt_app;
struct kt_rec;
struct kt_chrome;

/* Creates path (outfile.h's rules, --force) for app's records. The slices are clipped to
 * the first and the last record given (the capture's, or --from's and --to's window's).
 * NULL with a one-line reason in err. */
struct kt_chrome *chrome_open(struct kt_app *app, const char *path, char *err, size_t errlen);
/* One record, in time order. Store lock held (r's data). */
void chrome_add(struct kt_chrome *c, const struct kt_rec *r);
/* Ends the running slices at the last record, completes the file and frees c. Returns 0, or
 * -1 with err filled (the file is then removed). */
int chrome_close(struct kt_chrome *c, char *err, size_t errlen);
/* Events written so far (slices and instants). */
unsigned long long chrome_events(const struct kt_chrome *c);

#endif
