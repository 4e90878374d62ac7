// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentlist.h"
#include "app/app.h"
#include "backend/tracefs/tracers.h"
#include "source/source.h"
#include "util/xalloc.h"

/* The list named at the start of arg, the entry after its space in *entry. -1: none. */
static int list_of(const char *arg, const char **entry)
{
	size_t n = strcspn(arg, " ");

	for (int w = 0; w < KT_FTRACE_NLISTS; w++) {
		const char *file = tracers_list_file((enum kt_ftrace_list)w);

		if (strlen(file) == n && !strncmp(arg, file, n)) {
			*entry = arg[n] ? arg + n + 1 : "";
			return w;
		}
	}
	return -1;
}

static char *joined(char **entries)
{
	size_t len = 1, at = 0;
	char *out;

	for (size_t i = 0; entries[i]; i++)
		len += strlen(entries[i]) + 1;
	out = xmalloc(len);
	for (size_t i = 0; entries[i]; i++)
		at += (size_t)sprintf(out + at, "%s\n", entries[i]);
	out[at] = '\0';
	return out;
}

int agent_ftrace_list(struct kt_app *app, const char *op, const char *arg, char **lines,
		      char *text, size_t len)
{
	struct kt_source *s = app->source;
	const char *entry;
	int w = list_of(arg, &entry), n;
	char **e;

	*lines = NULL;
	text[0] = '\0';
	if (w < 0) {
		snprintf(text, len, "'%.200s' is no function list (set_ftrace_filter, "
			 "set_ftrace_notrace, set_graph_function, set_graph_notrace)", arg);
		return -1;
	}
	if (!strcmp(op, "exists")) {
		snprintf(text, len, "%d", source_list_exists(s, (enum kt_ftrace_list)w) ? 1 : 0);
		return 0;
	}
	if (!strcmp(op, "get")) {
		if (!(e = source_list_get(s, (enum kt_ftrace_list)w, text, len)))
			return -1;
		*lines = joined(e);
		for (n = 0; e[n]; n++)
			;
		tracers_free_names(e);
		snprintf(text, len, "%d", n);
		return 0;
	}
	if (!strcmp(op, "add")) {
		if ((n = source_list_add(s, (enum kt_ftrace_list)w, entry, text, len)) < 0)
			return -1;
		snprintf(text, len, "%d", n);
		return 0;
	}
	if (!strcmp(op, "remove"))
		return source_list_remove(s, (enum kt_ftrace_list)w, entry, text, len) < 0 ? -1 : 0;
	if (!strcmp(op, "clear"))
		return source_list_clear(s, (enum kt_ftrace_list)w, text, len) < 0 ? -1 : 0;
	snprintf(text, len, "function-list operation '%s' is not known to this agent (ktop %s): "
		 "install the same ktop version on both sides", op, PACKAGE_VERSION);
	return -1;
}
