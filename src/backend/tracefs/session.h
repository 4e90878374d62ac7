/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktop's tracefs session: its own instance "ktop-<pid>". Enables and disables events, sets
 * filters, sizes the buffers, removes what dead ktops left behind. With tracers.c, scope.c,
 * triggers.c, evstack.c and toplevel.c, the only code that writes tracefs. Nothing outside
 * the instance is written (see DESIGN.md, the kernel-state contract), except the top-level
 * tracer the user allowed (toplevel.h).
 *
 * Files: session.c (the instance opened, sized, closed), session_mount.c (finding or
 * mounting tracefs), session_stale.c (what dead ktops left), session_events.c (events on
 * and off), session_filter.c (filters, the error_log), session_dynevent.c (dynamic_events);
 * they share session_local.h. */
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
	bool no_mmap;		 /* the reader read()s trace_pipe_raw even where it can map it */
};

struct kt_session;

/* Returns the tracefs mount point, mounting tracefs at /sys/kernel/tracing when it is not
 * mounted. NULL with a one-line reason in err when that is impossible. The string is
 * libtracefs's and must not be freed. */
const char *session_tracing_dir(char *err, size_t errlen);

/* Finds where tracefs is mounted (or debugfs's tracing directory on old kernels) from
 * /proc/mounts, without mounting anything. Returns 0 with the path in buf, or -1. */
int session_mounted_tracing_dir(char *buf, size_t len);

/* Removes instances named ktop-<pid> and dynamic events in groups ktop_<pid> whose pid is no
 * longer alive; touches nothing else. Returns how many objects were removed. */
int session_remove_stale(void);

/* Removes the instance ktop-<pid> and the dynamic events of group ktop_<pid>, whatever the
 * state of pid (the guard calls it once its parent is gone). A busy instance is retried for
 * up to busy_ms milliseconds. Returns how many objects were removed. */
int session_remove_owned(pid_t pid, int busy_ms);

/* A default per-CPU buffer that keeps up with a few million events per second (64 MiB per
 * CPU), reduced on small machines so all CPUs together take at most 1/16 of RAM. */
unsigned long session_default_buffer_kb(void);

/* Creates the instance ktop-<getpid()>, sets the clock (the buffer size waits for
 * session_size_buffer). One session per process at a time. An instance already named after
 * this pid was left by a dead process with the same pid, and is removed first with its
 * probe group. NULL with err filled ("cannot create
 * tracefs instance ktop-123: Permission denied (run ktop as root or with CAP_SYS_ADMIN)").
 * Free with session_close(). */
struct kt_session *session_open(const struct kt_session_opts *opts, char *err, size_t errlen);
/* Gives the instance the buffer size asked for (opts->buffer_kb), once, before the first
 * thing is recorded: session_enable, tracers_set and trigger_add call it. Until then the
 * instance keeps the kernel's size for a new one. 0, or -1 with err set. */
int session_size_buffer(struct kt_session *s, char *err, size_t errlen);
/* Whether the reader may memory-map the ring buffer (not --read-mode=read). */
bool session_may_map(const struct kt_session *s);
/* The reader's hook (NULL: none): called with before=true ahead of a change the kernel
 * refuses while the buffer is mapped (EBUSY: buffer_size_kb), and with false after it. */
void session_set_unmap_hook(struct kt_session *s, void (*hook)(void *ctx, bool before),
			    void *ctx);
/* Calls the hook (before, then !before around the change); false when there is none. */
bool session_unmap(struct kt_session *s, bool before);
/* Disables everything and removes the instance. The reader must be stopped first: an open
 * trace_pipe_raw keeps the instance busy. Safe on NULL. */
void session_close(struct kt_session *s);

struct tracefs_instance *session_instance(struct kt_session *s);
/* Where the tracer, its function lists and the ring buffer the reader reads are: the
 * instance, or NULL (libtracefs's top level) after session_use_top_level(). */
struct tracefs_instance *session_trace_instance(struct kt_session *s);
/* After toplevel_claim() succeeded: the tracer and its lists go to the top level, ktop's own
 * threads are kept out of it too, and session_close() restores it. Events stay in the
 * instance. */
void session_use_top_level(struct kt_session *s);
/* Stops the top-level buffer (tracing_on 0, restored later) so the reader's final drain does
 * not chase a system-wide tracer. Nothing without session_use_top_level(). */
void session_stop_top_level(struct kt_session *s);
const char *session_name(const struct kt_session *s);
int session_ncpus(const struct kt_session *s);

/* Enables/disables system:event (either may be a glob, NULL meaning all). Returns the number
 * of events changed (0 when all matching events already were), or -1 with err filled
 * ("no such event 'foo:bar' (see ktop --list or the picker)", permission). */
int session_enable(struct kt_session *s, const char *system, const char *event, char *err,
		   size_t errlen);
int session_disable(struct kt_session *s, const char *system, const char *event, char *err,
		    size_t errlen);
/* True when at least one event matches and every matching event is enabled. */
bool session_is_enabled(struct kt_session *s, const char *system, const char *event);
/* Number of events currently enabled in the instance. */
int session_enabled_count(struct kt_session *s);
/* Calls fn for every event enabled in the instance, from one read of its set_event (asking
 * event by event costs ~0.2 ms each). fn may be NULL. Returns the number of events, or -1
 * when set_event cannot be read. */
int session_for_each_enabled(struct kt_session *s,
			     void (*fn)(const char *system, const char *event, void *ctx),
			     void *ctx);

/* Sets (filter NULL or "": clears) an event's filter; globs set it on every matching event,
 * all or nothing. On rejection err holds the kernel's own message, the last entry of the
 * instance's error_log without its timestamp, over three lines:
 *   "filter rejected for sched:sched_switch: event filter parse error: error: Invalid value
 *    (did you forget quotes)?\n  Command: prev_pid >\n                      ^"
 * (the caret lines up under "  Command: "), and the previous filter is written back (the
 * kernel itself would leave the event unfiltered). Returns 0 or -1. */
int session_set_filter(struct kt_session *s, const char *system, const char *event,
		       const char *filter, char *err, size_t errlen);
/* The instance's tracing_on (a traceoff trigger turns it off; the stop it made is undone
 * with on). Returns 0 or -1. */
int session_tracing_on(struct kt_session *s, bool on);
/* The last entry of the instance's error_log without its timestamp, malloc'd, or NULL. */
char *session_last_error(struct kt_session *s);
/* Events ktop put a trigger on in this session (triggers.c notes each), so that the
 * picker and the close visit those files alone, not every event's. */
void session_note_trigger(struct kt_session *s, const char *system, const char *event);
/* The noted events as "system:event", n of them. */
const char *const *session_noted_triggers(struct kt_session *s, size_t *n);
/* Current filter text of an event, malloc'd, or NULL when none. */
char *session_get_filter(struct kt_session *s, const char *system, const char *event);

/* Keeps these threads' own events and functions out of the trace (set_event_notrace_pid,
 * and set_ftrace_notrace_pid where the kernel has it). */
int session_exclude_tids(struct kt_session *s, const pid_t *tids, int n);

/* Appends one command to dynamic_events (uprobe_events or kprobe_events on kernels without
 * it: kind_file names which), never truncating. On rejection err holds the kernel's own
 * words, the error_log entry the command caused, over three lines with its caret under
 * "  Command: " (what dynamic-event parsers log goes to the top-level error_log, which is
 * read, never cleared: other tracers share it):
 *   "trace_kprobe: error: Invalid argument type\n  Command: p:ktop_1/x f a=$arg1:u33\n
 *                                                    ^"
 * or, when the kernel logged nothing, the errno with a hint. Returns 0 or -1. */
int session_dynevent_command(const char *kind_file, const char *cmd, char *err, size_t errlen);

/* current_tracer of the instance, malloc'd ("nop" on a fresh instance). */
char *session_current_tracer(struct kt_session *s);

#endif
