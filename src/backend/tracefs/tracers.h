/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tracer of ktop's instance (current_tracer) and the function lists that steer the
 * function tracers: set_ftrace_filter, set_ftrace_notrace, set_graph_function,
 * set_graph_notrace. Only the instance's files are written, never the top level; where the
 * kernel lacks a file in instances or refuses it, the error says which and why, and nothing
 * else is changed. */
#ifndef KTOP_TRACERS_H
#define KTOP_TRACERS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_session;
struct tracefs_instance;

/* The available_tracers of the tracing directory dir (the top level's or an instance's),
 * malloc'd; NULL with errno. Every reader of the list goes through it. */
char *tracers_read_available(const char *dir);
/* Whether the tracefs instance inst (NULL: the top level) offers tracer; false when the list
 * cannot be read. */
bool tracers_instance_offers(struct tracefs_instance *inst, const char *tracer);

/* The tracers the instance offers (its available_tracers), as a NULL-terminated malloc'd
 * array of malloc'd names; free with tracers_free_names(). NULL with err. */
char **tracers_available(struct kt_session *s, char *err, size_t errlen);
void tracers_free_names(char **names);

/* Switches the instance's current_tracer to name ("nop" turns tracing of functions off).
 * Returns 0, or -1 with err, the tracer left as it was:
 *   "no tracer 'function_graph' in ktop's instance (available: nop function); the kernel
 *    lacks CONFIG_FUNCTION_GRAPH_TRACER or does not allow it in instances"
 *   "function tracer refused by the kernel: current_tracer: Operation not permitted (EPERM)
 *    — ftrace_enabled off or lockdown?" */
int tracers_set(struct kt_session *s, const char *name, char *err, size_t errlen);
/* current_tracer of the instance, malloc'd. */
char *tracers_current(struct kt_session *s);

enum kt_ftrace_list {
	KT_FTRACE_FILTER,	/* set_ftrace_filter: trace only these functions */
	KT_FTRACE_NOTRACE,	/* set_ftrace_notrace: never these */
	KT_GRAPH_FUNCTION,	/* set_graph_function: function_graph from these down */
	KT_GRAPH_NOTRACE,	/* set_graph_notrace: not below these */
	KT_FTRACE_NLISTS,
};

/* "set_ftrace_filter" etc. */
const char *tracers_list_file(enum kt_ftrace_list which);

/* Pure check of one entry, for the picker's field. Forms: a function name or glob
 * ("vfs_*", "*read*"), "GLOB:mod:MODULE", ":mod:MODULE"; in set_ftrace_filter also function
 * triggers "FUNC:traceon[:COUNT]", traceoff, stacktrace, snapshot, dump, cpudump. A leading
 * '!' is not allowed here (use tracers_filter_remove). Returns 0, or -1 with err and *errpos
 * (may be NULL) at the offending byte. */
int tracers_filter_check(enum kt_ftrace_list which, const char *entry, char *err,
			 size_t errlen, int *errpos);

/* Appends entry to the list (the others stay). Returns the number of functions the list now
 * holds according to the kernel, or -1 with err and the list unchanged:
 *   "no function matches 'vfs_raed' (set_ftrace_filter unchanged)"
 *   "set_ftrace_filter is not writable in ktop's instance: Operation not permitted (EPERM)
 *    — ftrace_enabled off or lockdown?" */
int tracers_filter_add(struct kt_session *s, enum kt_ftrace_list which, const char *entry,
		       char *err, size_t errlen);
/* Removes entry ("!entry" to the kernel; triggers: "!FUNC:traceon"). 0 or -1 with err. */
int tracers_filter_remove(struct kt_session *s, enum kt_ftrace_list which, const char *entry,
			  char *err, size_t errlen);
/* Empties the list (and, for set_ftrace_filter, removes its triggers). 0 or -1 with err. */
int tracers_filter_clear(struct kt_session *s, enum kt_ftrace_list which, char *err,
			 size_t errlen);
/* The list's entries as the kernel shows them (comments and "#### all functions enabled
 * ####" left out), NULL-terminated, free with tracers_free_names(). NULL with err when the
 * file cannot be read; an empty list is an array holding only NULL. */
char **tracers_filter_get(struct kt_session *s, enum kt_ftrace_list which, char *err,
			  size_t errlen);
/* Whether the instance has this list at all (set_graph_* exist only at the top level on
 * many kernels). */
bool tracers_filter_exists(struct kt_session *s, enum kt_ftrace_list which);

#endif
