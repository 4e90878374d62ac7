// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "agenttrig.h"
#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/tracefs/triggers.h"
#include "remote/proto.h"
#include "source/source.h"

/* The list's line end on the wire: a reply is one line. */
#define LIST_END '\x1f'

/* "SYS:EV[:REST]" into its parts; false when it has no event. */
static bool split_event(const char *arg, char *sys, size_t syslen, char *ev, size_t evlen,
			const char **rest)
{
	const char *c = strchr(arg, ':'), *e;

	if (!c || c == arg || !c[1])
		return false;
	e = strchr(c + 1, ':');
	snprintf(sys, syslen, "%.*s", (int)(c - arg), arg);
	snprintf(ev, evlen, "%.*s", (int)(e ? e - c - 1 : (long)strlen(c + 1)), c + 1);
	*rest = e ? e + 1 : "";
	return ev[0] != '\0';
}

/* The event's format here, for ktop's check of a condition; NULL without one. */
static struct tep_event *format_of(struct kt_app *app, const struct kt_trigger *t)
{
	if (!app->decoder || decoder_load(app->decoder, t->system, t->event) < 0)
		return NULL;
	return tep_find_event_by_name(decoder_tep(app->decoder), t->system, t->event);
}

int agent_trigger(struct kt_app *app, const char *op, const char *arg, char *text, size_t len)
{
	char sys[64], ev[128], *list, *p;
	const char *rest;
	struct kt_trigger t;
	int n;

	text[0] = '\0';
	if (!strcmp(op, "add")) {
		if (trigger_parse(arg, true, &t, text, len) < 0)
			return -1;
		return source_trigger_add(app->source, format_of(app, &t), &t, text, len) < 0 ? -1 :
											       0;
	}
	if (!strcmp(op, "tracing")) {
		if (source_tracing_on(app->source, !strcmp(arg, "on")) < 0) {
			snprintf(text, len, "cannot turn tracing %s", arg);
			return -1;
		}
		return 0;
	}
	if (!split_event(arg, sys, sizeof(sys), ev, sizeof(ev), &rest)) {
		snprintf(text, len, "trigger %s: '%s' names no event (SYS:EV)", op, arg);
		return -1;
	}
	if (!strcmp(op, "remove")) {
		n = source_trigger_remove_all(app->source, sys, ev, text, len);
		if (n < 0)
			return -1;
		snprintf(text, len, "%d", n);
		return 0;
	}
	if (!strcmp(op, "list")) {
		list = source_trigger_list(app->source, sys, ev);
		for (p = list; p && (p = strchr(p, '\n'));)
			*p = LIST_END;
		snprintf(text, len, "%s", list ? list : "");
		free(list);
		return 0;
	}
	if (!strcmp(op, "spent")) {
		snprintf(text, len, "%d", source_trigger_spent(app->source, sys, ev, rest) ? 1 : 0);
		return 0;
	}
	snprintf(text, len, "trigger operation '%s' is not known to this agent (ktop %s): "
		 "install the same ktop version on both sides", op, PACKAGE_VERSION);
	return -1;
}
