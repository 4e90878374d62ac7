/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The agent's side of request 26 (KT_REQ_FTRACE_LIST): the tracer pane's function lists
 * (set_ftrace_filter ...) of the agent's instance, through its own app's source as a local
 * tracer pane's go (tracers.h). */
#ifndef KTOP_REMOTE_AGENTLIST_H
#define KTOP_REMOTE_AGENTLIST_H

#include <stddef.h>

struct kt_app;

/* Runs operation op ("exists", "get", "add", "remove", "clear") on the list arg names
 * ("set_ftrace_filter", then for add and remove a space and the entry), as proto.h's
 * KT_REQ_FTRACE_LIST says. Returns 0 with the reply in text (for get, *lines: the entries
 * one a line, malloc'd, for the snapshot before the reply), or -1 with the one-line reason. */
int agent_ftrace_list(struct kt_app *app, const char *op, const char *arg, char **lines,
		      char *text, size_t len);

#endif
