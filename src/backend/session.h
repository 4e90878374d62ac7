/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktop's tracefs session: its own instance "ktop-<pid>", and the only code that writes
 * tracefs. Enables and disables events, sets filters, sizes the buffers, removes what dead
 * ktops left behind. Nothing outside the instance is written (see DESIGN.md, the
 * kernel-state contract). */
#ifndef KTOP_SESSION_H
#define KTOP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tracefs_instance;

#define KT_INSTANCE_PREFIX "ktop-"
#define KT_GROUP_PREFIX "ktop_"

struct kt_session_opts {
	unsigned long buffer_kb; /* per CPU; 0: session_default_buffer_kb() */
	const char *clock;	 /* trace_clock; NULL: "mono" so timestamps match CLOCK_MONOTONIC */
};

struct kt_session;

/* Returns the tracefs mount point, mounting tracefs at /sys/kernel/tracing when it is not
 * mounted. NULL with a one-line reason in err when that is impossible. The string is
 * libtracefs's and must not be freed. */
const char *session_tracing_dir(char *err, size_t errlen);

/* Removes instances named ktop-<pid> and dynamic events in groups ktop_<pid> whose pid is no
 * longer alive; touches nothing else. Returns how many objects were removed. */
int session_remove_stale(void);

/* A default per-CPU buffer that keeps up with a few million events per second (64 MiB per
 * CPU), reduced on small machines so all CPUs together take at most 1/16 of RAM. */
unsigned long session_default_buffer_kb(void);

/* Creates the instance ktop-<getpid()>, sets buffer size and clock. NULL with err filled
 * ("cannot create tracefs instance ktop-123: Permission denied (run as root ...)"). */
struct kt_session *session_open(const struct kt_session_opts *opts, char *err, size_t errlen);
/* Disables everything and removes the instance. The reader must be stopped first: an open
 * trace_pipe_raw keeps the instance busy. Safe on NULL. */
void session_close(struct kt_session *s);

struct tracefs_instance *session_instance(struct kt_session *s);
const char *session_name(const struct kt_session *s);
unsigned long session_buffer_kb(const struct kt_session *s);
int session_ncpus(const struct kt_session *s);

/* Enables/disables system:event (either may be a glob, NULL meaning all). Returns the number
 * of events changed, or -1 with err filled (unknown event, permission). */
int session_enable(struct kt_session *s, const char *system, const char *event, char *err,
		   size_t errlen);
int session_disable(struct kt_session *s, const char *system, const char *event, char *err,
		    size_t errlen);
bool session_is_enabled(struct kt_session *s, const char *system, const char *event);
/* Number of events currently enabled in the instance. */
int session_enabled_count(struct kt_session *s);

/* Sets (filter NULL or "": clears) an event's filter. On rejection err holds the kernel's
 * own message from error_log with its caret line ("filter: ...\n          ^"), and the
 * previous filter stays in force. Returns 0 or -1. */
int session_set_filter(struct kt_session *s, const char *system, const char *event,
		       const char *filter, char *err, size_t errlen);
/* Current filter text of an event, malloc'd, or NULL when none. */
char *session_get_filter(struct kt_session *s, const char *system, const char *event);

/* Keeps these threads' own events out of the trace (set_event_notrace_pid). */
int session_exclude_tids(struct kt_session *s, const pid_t *tids, int n);

/* current_tracer of the instance, malloc'd ("nop" on a fresh instance). */
char *session_current_tracer(struct kt_session *s);

#endif
