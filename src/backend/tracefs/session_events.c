// SPDX-License-Identifier: GPL-2.0-or-later
/* Events of the instance on and off (session.h): one named event, a whole system in one
 * write, or a glob walked over the events directory; which are enabled. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "session_local.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"

static bool glob_match(const char *glob, const char *name)
{
	return !glob || !fnmatch(glob, name, 0);
}

static bool is_glob(const char *p)
{
	return p && strpbrk(p, "*?[");
}

int session_read_event_file(struct kt_session *s, const char *system, const char *event,
			    const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s/%s", s->events_dir, system, event, file);
	return file_read_small(path, buf, len) < 0 ? -1 : 0;
}

int session_write_event_file(struct kt_session *s, const char *system, const char *event,
			     const char *file, const char *val)
{
	char path[PATH_MAX];

	if (event)
		snprintf(path, sizeof(path), "%s/%s/%s/%s", s->events_dir, system, event, file);
	else
		snprintf(path, sizeof(path), "%s/%s/%s", s->events_dir, system, file);
	return file_write_str(path, val, false);
}

static int is_dir(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Names that stay inside the events directory. */
static bool plain_names(const char *system, const char *event)
{
	return system[0] != '.' && event[0] != '.' && !strchr(system, '/') && !strchr(event, '/');
}

/* 1 when the instance has system/event with an enable file (ftrace's own events, such as
 * function and print, have none and cannot be enabled), else 0. */
static int event_exists(struct kt_session *s, const char *system, const char *event)
{
	char path[PATH_MAX];

	if (!plain_names(system, event))
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s/%s/enable", s->events_dir, system, event) >=
	    (int)sizeof(path))
		return 0;
	return access(path, F_OK) == 0;
}

int session_for_each_event(struct kt_session *s, const char *system, const char *event,
			   session_event_fn fn, void *ctx)
{
	char sys_path[PATH_MAX], path[PATH_MAX];
	struct dirent *sd, *ed;
	DIR *sdir, *edir;
	int n = 0, ret = 0;

	sdir = opendir(s->events_dir);
	if (!sdir)
		return -1;
	while (ret >= 0 && (sd = readdir(sdir))) {
		if (sd->d_name[0] == '.' || !glob_match(system, sd->d_name))
			continue;
		if (sd->d_type != DT_DIR && sd->d_type != DT_UNKNOWN)
			continue;
		snprintf(sys_path, sizeof(sys_path), "%s/%s", s->events_dir, sd->d_name);
		edir = opendir(sys_path);
		if (!edir)
			continue;
		while ((ed = readdir(edir))) {
			if (ed->d_name[0] == '.' || !glob_match(event, ed->d_name))
				continue;
			if (ed->d_type != DT_DIR && ed->d_type != DT_UNKNOWN)
				continue;
			/* ftrace's own events (function, print, ...) cannot be enabled. */
			if (snprintf(path, sizeof(path), "%s/%s/enable", sys_path, ed->d_name) >=
				    (int)sizeof(path) ||
			    access(path, F_OK) < 0)
				continue;
			n++;
			ret = fn(s, sd->d_name, ed->d_name, ctx);
			if (ret < 0)
				break;
		}
		closedir(edir);
	}
	closedir(sdir);
	return ret < 0 ? ret : n;
}

struct toggle_ctx {
	bool on;
	bool dry;	   /* first pass: only count */
	int changed;
	int systems_whole; /* the matched events are whole systems */
	int err;
	char failed[256];
};

static int toggle_one(struct kt_session *s, const char *system, const char *event, void *p)
{
	struct toggle_ctx *c = p;
	char buf[16];

	if (session_read_event_file(s, system, event, "enable", buf, sizeof(buf)) < 0) {
		c->err = errno;
		snprintf(c->failed, sizeof(c->failed), "%s:%s", system, event);
		return -1;
	}
	/* "0", "1", or with '*' when soft-(dis)abled by a trigger. */
	if ((buf[0] == '1') == c->on)
		return 0;
	c->changed++;
	if (c->dry)
		return 0;
	if (session_write_event_file(s, system, event, "enable", c->on ? "1" : "0") < 0) {
		c->err = errno;
		snprintf(c->failed, sizeof(c->failed), "%s:%s", system, event);
		return -1;
	}
	return 0;
}

void session_format_spec(char *buf, size_t len, const char *system, const char *event)
{
	if (system)
		snprintf(buf, len, "%s:%s", system, event ? event : "*");
	else
		snprintf(buf, len, "%s", event ? event : "*");
}

static int toggle(struct kt_session *s, const char *system, const char *event, bool on,
		  char *err, size_t errlen)
{
	struct toggle_ctx c = { .on = on };
	char spec[256];
	int n;

	if (!s || !s->inst) {
		str_seterr(err, errlen, "no tracing session");
		return -1;
	}
	if (event && !strcmp(event, "*"))
		event = NULL;
	session_format_spec(spec, sizeof(spec), system, event);
	if (on && session_size_buffer(s, err, errlen) < 0)
		return -1;

	/* One named event: its own file, without walking the others (~2,300 events: a glob
	 * that enables them one by one would otherwise walk them all for each). */
	if (system && event && !is_glob(system) && !is_glob(event)) {
		n = event_exists(s, system, event);
		if (n && toggle_one(s, system, event, &c) < 0)
			goto fail;
	} else if (system && !is_glob(system) && !event && is_dir(s->events_dir, system)) {
		/* A whole, named system: one write to its enable file instead of one per event. */
		c.dry = true;
		n = session_for_each_event(s, system, NULL, toggle_one, &c);
		if (n < 0)
			goto fail;
		if (n > 0 && c.changed) {
			if (session_write_event_file(s, system, NULL, "enable",
						     on ? "1" : "0") < 0) {
				c.err = errno;
				snprintf(c.failed, sizeof(c.failed), "%s", spec);
				goto fail;
			}
		}
	} else {
		n = session_for_each_event(s, system, event, toggle_one, &c);
		if (n < 0)
			goto fail;
	}
	if (n == 0) {
		str_seterr(err, errlen, "no such event '%s' (" LIST_HINT ")", spec);
		return -1;
	}
	log_debug("session: %s %s: %d of %d changed", on ? "enable" : "disable", spec, c.changed,
		  n);
	return c.changed;
fail:
	if (!c.err)
		c.err = errno ? errno : EIO;
	str_seterr(err, errlen, "cannot %s %s: %s%s", on ? "enable" : "disable",
	       c.failed[0] ? c.failed : spec, strerror(c.err), session_errno_hint(c.err));
	return -1;
}

int session_enable(struct kt_session *s, const char *system, const char *event, char *err,
		   size_t errlen)
{
	return toggle(s, system, event, true, err, errlen);
}

int session_disable(struct kt_session *s, const char *system, const char *event, char *err,
		    size_t errlen)
{
	return toggle(s, system, event, false, err, errlen);
}

struct enabled_ctx {
	int on, off;
};

static int count_enabled(struct kt_session *s, const char *system, const char *event, void *p)
{
	struct enabled_ctx *c = p;
	char buf[16];

	if (session_read_event_file(s, system, event, "enable", buf, sizeof(buf)) == 0 &&
	    buf[0] == '1')
		c->on++;
	else
		c->off++;
	return 0;
}

bool session_is_enabled(struct kt_session *s, const char *system, const char *event)
{
	struct enabled_ctx c = { 0, 0 };
	char buf[16];

	if (!s || !s->inst)
		return false;
	/* One named event (the picker asks for each row it draws): one read. */
	if (system && event && !is_glob(system) && !is_glob(event)) {
		if (!plain_names(system, event))
			return false;
		return session_read_event_file(s, system, event, "enable", buf, sizeof(buf)) == 0 &&
		       buf[0] == '1';
	}
	if (session_for_each_event(s, system, event, count_enabled, &c) <= 0)
		return false;
	return c.on > 0 && c.off == 0;
}

int session_for_each_enabled(struct kt_session *s,
			     void (*fn)(const char *system, const char *event, void *ctx),
			     void *ctx)
{
	char *text, *line, *save = NULL, *colon;
	int n = 0;

	if (!s || !s->inst)
		return -1;
	text = tracefs_instance_file_read(s->inst, "set_event", NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line = str_trim(line);
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (fn)
			fn(line, colon + 1, ctx);
		n++;
	}
	free(text);
	return n;
}

int session_enabled_count(struct kt_session *s)
{
	int n = session_for_each_enabled(s, NULL, NULL);

	return n < 0 ? 0 : n;
}
