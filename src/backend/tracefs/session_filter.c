// SPDX-License-Identifier: GPL-2.0-or-later
/* Event filters, all or nothing over a glob, and the kernel's error_log that says why one
 * was rejected (session.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "session_local.h"
#include "util/log.h"
#include "util/strutil.h"

char *session_error_last(struct tracefs_instance *inst)
{
	char *entry = tracefs_error_last(inst), *p = entry;

	if (!entry || *p != '[' || !(p = strchr(p, ']')))
		return entry;
	for (p++; *p == ' '; p++)
		;
	memmove(entry, p, strlen(p) + 1);
	return entry;
}

/* The last entry of the instance's error_log. */
char *session_last_error(struct kt_session *s)
{
	return session_error_last(s->inst);
}

static char *read_filter(struct kt_session *s, const char *system, const char *event)
{
	char buf[4096], *t;

	if (session_read_event_file(s, system, event, "filter", buf, sizeof(buf)) < 0)
		return NULL;
	t = str_trim(buf);
	if (!*t || !strcmp(t, "none"))
		return NULL;
	return strdup(t);
}

struct filter_undo {
	char *system, *event, *prev;
};

struct filter_ctx {
	const char *filter;
	char *err;
	size_t errlen;
	/* events changed so far and their previous filters, to undo on a rejection */
	struct filter_undo *undo;
	int nundo;
};

static int write_filter(struct kt_session *s, const char *system, const char *event,
			const char *filter)
{
	/* "0" clears a filter; the kernel shows "none" afterwards. */
	return session_write_event_file(s, system, event, "filter",
					filter && *filter ? filter : "0");
}

static int filter_one(struct kt_session *s, const char *system, const char *event, void *p)
{
	struct filter_ctx *c = p;
	struct filter_undo *u;
	char *prev, *kmsg;
	int e;

	prev = read_filter(s, system, event);
	u = realloc(c->undo, (c->nundo + 1) * sizeof(*u));
	if (!u) {
		str_seterr(c->err, c->errlen, "out of memory");
		free(prev);
		return -1;
	}
	c->undo = u;
	tracefs_error_clear(s->inst);
	if (write_filter(s, system, event, c->filter) < 0) {
		e = errno;
		/* Parse errors come as EINVAL, but also others (ESRCH for a missing quote). */
		kmsg = session_last_error(s);
		if (!kmsg && e == EINVAL) {
			/* No error_log (old kernel): the filter file shows the caret itself. */
			kmsg = tracefs_event_file_read(s->inst, system, event, "filter", NULL);
			if (kmsg)
				memmove(kmsg, str_trim(kmsg), strlen(str_trim(kmsg)) + 1);
		}
		if (kmsg)
			str_seterr(c->err, c->errlen, "filter rejected for %s:%s: %s", system, event,
			       kmsg);
		else
			str_seterr(c->err, c->errlen, "cannot set the filter of %s:%s: %s%s", system,
			       event, strerror(e), session_errno_hint(e));
		free(kmsg);
		/* The kernel leaves an event whose new filter it rejected unfiltered, with the
		 * old filter freed: write the old one back. */
		write_filter(s, system, event, prev);
		free(prev);
		return -1;
	}
	u = &c->undo[c->nundo++];
	u->system = strdup(system);
	u->event = strdup(event);
	u->prev = prev;
	return 0;
}

int session_set_filter(struct kt_session *s, const char *system, const char *event,
		       const char *filter, char *err, size_t errlen)
{
	struct filter_ctx c = { .filter = filter, .err = err, .errlen = errlen };
	char spec[256];
	int i, n;

	if (!s || !s->inst) {
		str_seterr(err, errlen, "no tracing session");
		return -1;
	}
	session_format_spec(spec, sizeof(spec), system, event);
	n = session_for_each_event(s, system, event, filter_one, &c);
	if (n < 0) {
		/* All or nothing: undo the events already changed. */
		for (i = 0; i < c.nundo; i++)
			if (c.undo[i].system && c.undo[i].event)
				write_filter(s, c.undo[i].system, c.undo[i].event, c.undo[i].prev);
	} else if (n == 0) {
		str_seterr(err, errlen, "no such event '%s' (" LIST_HINT ")", spec);
		n = -1;
	} else {
		log_debug("session: filter of %s (%d events): %s", spec, n,
			  filter && *filter ? filter : "none");
	}
	for (i = 0; i < c.nundo; i++) {
		free(c.undo[i].system);
		free(c.undo[i].event);
		free(c.undo[i].prev);
	}
	free(c.undo);
	return n < 0 ? -1 : 0;
}

char *session_get_filter(struct kt_session *s, const char *system, const char *event)
{
	if (!s || !s->inst || !system || !event)
		return NULL;
	return read_filter(s, system, event);
}
