/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event triggers: the commands ftrace runs when an event fires (traceon, traceoff,
 * stacktrace, enable_event:SYS:EV, disable_event:SYS:EV; snapshot and hist on kernels that
 * have them), each with an optional count and a condition in the kernel's filter syntax.
 * Written only to events/SYS/EV/trigger of ktop's own instance, never the top level, and
 * cleared before the instance is removed (on every exit path: session_close, the guard, the
 * stale clean-up), because a trigger naming another event can keep the instance busy. */
#ifndef KTOP_TRIGGERS_H
#define KTOP_TRIGGERS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_session;
struct tep_event;

#define KT_TRIGGER_MAX 512

/* One trigger as the user writes it: "SYS:EV:" then the kernel's own syntax
 * "TRIGGER[:COUNT] [if FILTER]" ("enable_event:sched:sched_process_exec:2 if pid > 1",
 * "hist:keys=pid" where the kernel has hist). */
struct kt_trigger {
	char system[64], event[128];
	char cmd[KT_TRIGGER_MAX];	 /* "traceoff", "enable_event:sched:sched_switch" */
	long count;			 /* -1: unlimited */
	char filter[KT_TRIGGER_MAX]; /* "" : none */
};

/* Parses "SYS:EV:TRIGGER[:COUNT] [if FILTER]" (with_event) or "TRIGGER[:COUNT] [if FILTER]"
 * (the event already in t). No kernel access. Returns 0, or -1 with a one-line reason:
 *   "trigger 'sched:sched_switch': needs SYS:EV:TRIGGER, e.g. sched:sched_switch:traceoff"
 *   "count 'x' of trigger traceoff: must be a number above 0" */
int trigger_parse(const char *text, bool with_event, struct kt_trigger *t, char *err,
		  size_t errlen);
/* Parses --stop-when's "SYS:EV [if FILTER]" into the trigger "SYS:EV:traceoff:1 [if FILTER]".
 * Returns 0, or -1 with a one-line reason. */
int trigger_parse_stop(const char *text, struct kt_trigger *t, char *err, size_t errlen);
/* "traceoff:1 if prev_pid == 1" back from t, into buf. Returns buf. */
char *trigger_format(const struct kt_trigger *t, char *buf, size_t len);

/* Adds t in the session's instance. Checked before the kernel sees it: the event (and an
 * enable_event's target) must exist, the trigger name be one this kernel lists, the filter
 * pass ktop's check against te, the event's parsed format (filtercheck.h; NULL: the kernel
 * alone checks it). A refusal the
 * kernel still makes comes back as its own error_log entry. Returns 0, or -1 with one line:
 *   "unknown trigger 'traceof' (this kernel has: traceon traceoff stacktrace ...)" */
int trigger_add(struct kt_session *s, struct tep_event *te, const struct kt_trigger *t,
		char *err, size_t errlen);
/* Removes every trigger of system:event in the instance. Returns how many, or -1 with err. */
int trigger_remove_all(struct kt_session *s, const char *system, const char *event, char *err,
		       size_t errlen);
/* The same for the triggers of one command ("stacktrace") only. */
int trigger_remove_cmd(struct kt_session *s, const char *system, const char *event,
		       const char *cmd, char *err, size_t errlen);
/* The event's triggers as the kernel shows them, one per line ("traceoff:count=0 if ..."),
 * count as the kernel has decremented it; malloc'd, NULL when there are none. */
char *trigger_list(struct kt_session *s, const char *system, const char *event);
/* What a trigger produced that is not in the stream, as the kernel prints it, malloc'd:
 * for hist, the event's hist file (the aggregation); for snapshot, the instance's snapshot
 * file (the buffer as it was swapped out when it fired: those events never reach the
 * reader). NULL for the other triggers or when there is no such file. */
char *trigger_output(struct kt_session *s, const struct kt_trigger *t);
/* True when the event has a counted trigger cmd ("traceoff") whose count reached 0: it has
 * done all it was asked to. */
bool trigger_spent(struct kt_session *s, const char *system, const char *event,
		   const char *cmd);

/* Calls fn for every event of the session's instance that has triggers: those ktop put
 * them on (session_note_trigger), a byte of each file read. Returns how many. */
int triggers_for_each(struct kt_session *s,
		      void (*fn)(const char *system, const char *event, void *ctx), void *ctx);
/* Clears the triggers ktop put on the session's events (session_close). Returns how many. */
int triggers_clear_noted(struct kt_session *s);
/* Clears every trigger of every event of the instance tracing/instances/<name>, one pass
 * over its ~2,300 files (the guard and the stale clean-up of a dead ktop's instance, which
 * cannot know where it put them). Returns how many were removed. */
int triggers_clear_instance(const char *name);

#endif
