/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scoping the instance to processes.
 *
 * pids: set_event_pid (events) and set_ftrace_pid (function tracers) of the instance list the
 * pids; with children, the options event-fork and function-fork make the kernel add every
 * child they fork, from then on.
 *
 * comm (a command name): decided as two parts, because no single kernel file does it.
 * Events get a kernel filter "COMM == \"NAME\"" ANDed with any other filter
 * (scope_comm_filter), which also catches processes started later ("COMM" is the kernel's
 * generic field for the current task's name; "comm" would mean an event's own comm field
 * where it has one, and "common_comm" is not a filter field on 6.x kernels); the function tracers,
 * which take no filter, get the pids that run NAME now (scope_comm_pids) in set_ftrace_pid. */
#ifndef KTOP_SCOPE_H
#define KTOP_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kt_session;
struct kt_cgroup;

/* Writes set_event_pid with pids and the event-fork option when children; while a function
 * tracer is the instance's tracer, also set_ftrace_pid and function-fork (where function
 * tracing is refused that file is EPERM even to read, so call this again after switching
 * tracers). n == 0 clears the scope. Returns 0, or
 * -1 with err and what was written before undone ("set_event_pid: No such process: pid 42
 * is not running"). */
int scope_set_pids(struct kt_session *s, const pid_t *pids, size_t n, bool children,
		   char *err, size_t errlen);
/* The pids currently scoped (set_event_pid), malloc'd; *n gets their number. */
pid_t *scope_get_pids(struct kt_session *s, size_t *n);

/* The pids whose /proc/PID/comm is comm (up to 15 characters, as the kernel keeps it),
 * malloc'd, *n their number (0 is not an error). NULL only on allocation failure. */
pid_t *scope_comm_pids(const char *comm, size_t *n);
/* A scope request's pids (kind "pid": arg comma-separated, each running here; "comm": the
 * running processes called arg) into *pids (malloc'd). host names this machine in a refusal
 * (an agent's, for a viewer of several; NULL: a local one's wording). Returns how many, or
 * -1 with err and *pids NULL. */
ssize_t scope_request_pids(const char *kind, const char *arg, const char *host, pid_t **pids,
			   char *err, size_t errlen);
/* The filter for events scoped to comm, combined with filter (NULL or "": none):
 * "COMM == \"bash\"" or "(prev_pid > 0) && COMM == \"bash\"". malloc'd; NULL
 * with err when comm cannot be quoted (a '"' or '\\' in it) or is too long. */
char *scope_comm_filter(const char *comm, const char *filter, char *err, size_t errlen);

/* Scoping to a cgroup (cgroup.h), which ftrace cannot filter events by: set_event_pid is made
 * the threads in the cgroup and below it now, and event-fork adds what they fork from then
 * on (set_ftrace_pid and function-fork too while a function tracer runs). Called again (on
 * every tick), it adds threads that joined (appended: nothing else changes) and drops those
 * that left (a rewrite, with the instance's tracing_on off for its few microseconds). An empty
 * cgroup scopes to ktop's own pid, whose events are never traced. Returns 1 when it
 * wrote, 0 when the list was already right, -1 with err. */
int scope_sync_cgroup(struct kt_session *s, const struct kt_cgroup *cg, char *err,
		      size_t errlen);

#endif
