/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tracing at tracefs's top level, only where the user allowed it (--top-level) and only for
 * what ktop's instance lacks: function_graph on kernels that keep it out of instances, and
 * set_graph_function / set_graph_notrace. Before changing anything ktop checks the top level
 * is idle and writes how to put it back to /run/ktop-<pid>.toplevel; a clean exit, the guard
 * (after kill -9) or the next ktop's stale clean-up replays that file. */
#ifndef KTOP_TOPLEVEL_H
#define KTOP_TOPLEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kt_session;

#define KT_TOPLEVEL_DIR "/run"

/* What the options need that only the top level has: "function_graph" (the tracer), or
 * "set_graph_function"; NULL when ktop's instance has it (or the top level lacks it too,
 * and the instance's own error says why). */
const char *toplevel_needed(struct kt_session *s, const char *tracer, bool graph_lists);

/* Refuses (-1, one-line reason in err) unless the top level is idle: current_tracer nop,
 * set_event, set_ftrace_filter and set_graph_function empty. Then writes the state file for
 * getpid(), before anything is changed, with tracer (NULL: none), the one ktop will set there:
 * the state is replayed only while that tracer is still the top level's. 0 on success. */
int toplevel_claim(const char *tracer, char *err, size_t errlen);

/* Replays the state file of pid, if there is one, and removes it: the tracer back to what it
 * was (retrying for busy_ms while trace pipes are still open), the function lists, pid lists,
 * clock, buffer size and tracing_on, and the top-level buffer cleared; nothing when the
 * top level's tracer is no longer the one ktop set (another tool took it since). The file is
 * removed either way (a second replay could undo another tracer's later set-up). Returns 1
 * restored, 0 no file or not replayed, -1 a step failed (logged). */
int toplevel_restore(pid_t pid, int busy_ms);

/* toplevel_restore() of every state file whose pid is_dead() says is gone. Returns how many
 * were restored. */
int toplevel_restore_stale(bool (*is_dead)(pid_t pid));

#endif
