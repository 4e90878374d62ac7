/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of a tracefs session (struct kt_session) and the helpers its files share; for
 * session*.c only. session.c opens and closes the instance, session_mount.c finds or mounts
 * tracefs, session_stale.c removes what dead ktops left, session_events.c enables events,
 * session_filter.c sets filters and reads the error_log, session_dynevent.c writes dynamic
 * events. */
#ifndef KTOP_SESSION_LOCAL_H
#define KTOP_SESSION_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

#define LIST_HINT "see ktop --list or the picker"

struct kt_session {
	struct tracefs_instance *inst;
	char name[32];
	unsigned long buffer_kb; /* per CPU: what the kernel holds now */
	unsigned long want_kb;	 /* what the first recording gets (session_size_buffer) */
	bool sized;		 /* want_kb is in place */
	int ncpus;
	char *events_dir; /* <instance>/events, libtracefs-allocated */
	bool top_level;	  /* the tracer runs at the top level (--top-level, toplevel.h) */
	char **triggered; /* "system:event" of each event ktop put a trigger on */
	size_t ntriggered;
	bool no_mmap; /* --read-mode=read: the reader read()s even where it could map */
	/* The reader's: drops its mappings (before) and maps again (after) around a change
	 * the kernel refuses while the buffer is mapped (session_size_buffer). */
	void (*unmap_hook)(void *ctx, bool before);
	void *unmap_ctx;
};

/* The way out for an errno, with its leading " (" and closing ")", or "". */
const char *session_errno_hint(int e);

/* Appends (never truncates: O_TRUNC on dynamic_events deletes every dynamic event of every
 * user) one line to a top-level tracefs file. */
int session_append_top_file(const char *file, const char *line);

/* The last entry of an error_log (libtracefs finds it) without its timestamp:
 *   "event filter parse error: error: Invalid value (did you forget quotes)?\n"
 *   "  Command: prev_pid >\n"
 *   "                      ^"
 * Returns a malloc'd string or NULL. */
char *session_error_last(struct tracefs_instance *inst);

typedef int (*session_event_fn)(struct kt_session *s, const char *system, const char *event,
				void *ctx);

/* Calls fn for every event of the instance that has an enable file and matches the globs
 * (NULL: any), in directory order. Stops at the first negative return. Returns the number
 * of matches, or the negative return. */
int session_for_each_event(struct kt_session *s, const char *system, const char *event,
			   session_event_fn fn, void *ctx);
/* events/SYSTEM/EVENT/FILE of the instance (event NULL: events/SYSTEM/FILE for writes). */
int session_read_event_file(struct kt_session *s, const char *system, const char *event,
			    const char *file, char *buf, size_t len);
int session_write_event_file(struct kt_session *s, const char *system, const char *event,
			     const char *file, const char *val);
/* "system:event" for messages, "*" for what is not named. */
void session_format_spec(char *buf, size_t len, const char *system, const char *event);

#endif
