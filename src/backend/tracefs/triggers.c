// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event triggers in ktop's instance. The trigger file of an event reads back
 * "# Available triggers:" and the names this kernel has when the event has none, else one
 * line per trigger: "traceoff:count=0 if prev_pid == 1", "stacktrace:unlimited",
 * "enable_event:sched:sched_process_exec:count=2", "hist:keys=pid:...:size=2048 [active]".
 * A trigger is removed by writing its command prefixed with '!' (":0" when it has a count).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "filtercheck.h"
#include "session.h"
#include "triggers.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"

#define AVAILABLE "# Available triggers:"
/* what str_trim takes off: none of it may be inside a trigger's name */
#define BLANKS " \t\n\v\f\r"

/* src into dst of size bytes whole, or -1 with a reason: a part cut short would be another
 * trigger than the one written. */
static int put(char *dst, size_t size, const char *src, const char *what, char *err,
	       size_t errlen)
{
	if (strlen(src) >= size) {
		str_seterr(err, errlen, "trigger's %s '%.40s...' is longer than %zu bytes", what,
			   src, size - 1);
		return -1;
	}
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

/* Splits "TRIGGER[:COUNT]" of a command that takes no ':' of its own besides an
 * enable_event's SYS:EV. Returns 0 or -1. */
static int split_count(struct kt_trigger *t, char *head, char *err, size_t errlen)
{
	char *name = head, *colon, *end;
	int i, skip = 0;

	if (!strncmp(name, "hist", 4) && (name[4] == ':' || !name[4])) {
		/* hist's own key=value list is separated by ':' and takes no count */
		return put(t->cmd, sizeof(t->cmd), name, "command", err, errlen);
	}
	if (!strncmp(name, "enable_", 7) || !strncmp(name, "disable_", 8))
		skip = 2; /* enable_event:SYS:EV */
	colon = strchr(name, ':');
	for (i = 0; colon && i < skip; i++)
		colon = strchr(colon + 1, ':');
	if (i < skip) {
		str_seterr(err, errlen, "trigger '%s' needs the event it acts on: %.*s:SYS:EV",
			   name, (int)strcspn(name, ":"), name);
		return -1;
	}
	if (colon) {
		*colon = '\0';
		errno = 0;
		t->count = strtol(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || t->count <= 0) {
			str_seterr(err, errlen, "count '%s' of trigger %s: must be a number above 0",
				   colon + 1, name);
			return -1;
		}
	}
	return put(t->cmd, sizeof(t->cmd), name, "command", err, errlen);
}

int trigger_parse(const char *text, bool with_event, struct kt_trigger *t, char *err,
		  size_t errlen)
{
	char buf[KT_TRIGGER_MAX * 2], *head, *cond, *p;

	if (with_event)
		memset(t, 0, sizeof(*t));
	t->count = -1;
	t->cmd[0] = t->filter[0] = '\0';
	if (put(buf, sizeof(buf), text, "text", err, errlen) < 0)
		return -1;
	cond = strstr(buf, " if ");
	if (cond) {
		*cond = '\0';
		if (put(t->filter, sizeof(t->filter), str_trim(cond + 4), "condition", err,
			errlen) < 0)
			return -1;
	}
	head = str_trim(buf);
	if (with_event) {
		p = strchr(head, ':');
		if (!p || !strchr(p + 1, ':') || p == head || p[1] == ':') {
			str_seterr(err, errlen, "trigger '%s': needs SYS:EV:TRIGGER, e.g. "
				   "sched:sched_switch:traceoff", text);
			return -1;
		}
		*p++ = '\0';
		if (put(t->system, sizeof(t->system), head, "system", err, errlen) < 0)
			return -1;
		head = p;
		p = strchr(head, ':');
		*p++ = '\0';
		if (put(t->event, sizeof(t->event), head, "event", err, errlen) < 0)
			return -1;
		head = p;
	}
	if (!*head || strchr(BLANKS ":", *head)) { /* ":4": a count of no trigger */
		str_seterr(err, errlen, "trigger '%s': which trigger? (traceon, traceoff, "
			   "stacktrace, enable_event:SYS:EV, disable_event:SYS:EV)", text);
		return -1;
	}
	if (strpbrk(head, BLANKS)) {
		str_seterr(err, errlen, "trigger '%s': a space in '%s' (a condition is "
			   "TRIGGER[:COUNT] if FILTER)", text, head);
		return -1;
	}
	if (cond && !t->filter[0]) {
		str_seterr(err, errlen, "trigger '%s': 'if' needs a condition after it", text);
		return -1;
	}
	return split_count(t, head, err, errlen);
}

int trigger_parse_stop(const char *text, struct kt_trigger *t, char *err, size_t errlen)
{
	char buf[KT_TRIGGER_MAX * 2 + 32];
	const char *cond = strstr(text, " if ");
	int n = cond ? (int)(cond - text) : (int)strlen(text);
	const char *colon;

	while (n && text[n - 1] == ' ')
		n--;
	colon = memchr(text, ':', n);
	if (!colon || colon == text || colon + 1 == text + n ||
	    memchr(colon + 1, ':', text + n - colon - 1)) {
		str_seterr(err, errlen, "'%s': needs SYS:EV [if FILTER], e.g. "
			   "'sched:sched_process_exit if comm == \"foo\"'", text);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%.*s:traceoff:1%s", n, text, cond ? cond : "");
	return trigger_parse(buf, true, t, err, errlen);
}

char *trigger_format(const struct kt_trigger *t, char *buf, size_t len)
{
	char count[32] = "";

	if (t->count > 0)
		snprintf(count, sizeof(count), ":%ld", t->count);
	snprintf(buf, len, "%s%s%s%s", t->cmd, count, t->filter[0] ? " if " : "", t->filter);
	return buf;
}

/* The path of file in the event's directory of the instance at dir. */
static void event_path(char *path, size_t len, const char *dir, const char *system,
		       const char *event, const char *file)
{
	snprintf(path, len, "%s/events/%s/%s/%s", dir, system, event, file);
}

static bool plain(const char *name)
{
	return *name && name[0] != '.' && !strchr(name, '/');
}

/* The names after "# Available triggers:" on the event's trigger file, or "". */
static void available(const char *text, char *names, size_t len)
{
	const char *p = strstr(text, AVAILABLE);

	names[0] = '\0';
	if (!p || !(p = strchr(p, '\n')))
		return;
	p++;
	if (*p == '#')
		p++;
	snprintf(names, len, "%s", p);
	names[strcspn(names, "\n")] = '\0';
	memmove(names, str_trim(names), strlen(str_trim(names)) + 1);
}

static bool listed(const char *names, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = names; (p = strstr(p, name)); p += n)
		if ((p == names || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* Checks t against what the kernel and ktop know, before writing it. */
static int check(struct tep_event *te, const char *dir, const struct kt_trigger *t, char *err,
		 size_t errlen)
{
	char path[PATH_MAX], name[64], names[256], ferr[256], tsys[64], tev[128];
	char *text;
	int pos;

	if (!plain(t->system) || !plain(t->event) ||
	    access((event_path(path, sizeof(path), dir, t->system, t->event, "trigger"), path),
		   F_OK)) {
		str_seterr(err, errlen, "no such event '%s:%s' for a trigger (see ktop --list or "
			   "the picker)", t->system, t->event);
		return -1;
	}
	text = file_read_all(path, NULL);
	available(text ? text : "", names, sizeof(names));
	free(text);
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(t->cmd, ":"), t->cmd);
	if (names[0] && !listed(names, name)) {
		str_seterr(err, errlen, "unknown trigger '%s' (this kernel has: %s)", name, names);
		return -1;
	}
	if (sscanf(t->cmd, "%*[a-z_]:%63[^:]:%127s", tsys, tev) == 2 &&
	    strncmp(name, "hist", 4) &&
	    (!plain(tsys) || !plain(tev) ||
	     access((event_path(path, sizeof(path), dir, tsys, tev, "enable"), path), F_OK))) {
		str_seterr(err, errlen, "%s: no such event '%s:%s' (see ktop --list or the picker)",
			   name, tsys, tev);
		return -1;
	}
	if (t->filter[0] && te && filter_check(te, t->filter, ferr, sizeof(ferr), &pos) < 0) {
		str_seterr(err, errlen, "condition of %s on %s:%s: %s", name, t->system, t->event,
			   ferr);
		return -1;
	}
	return 0;
}

/* A snapshot trigger gives the instance a snapshot buffer, which the kernel refuses while
 * the reader maps the ring buffer (EBUSY): the reader unmaps and, the kernel then refusing
 * the mapping, reads with read(). */
static int write_unmapped(struct kt_session *s, const char *path, const char *line)
{
	int ret, e;

	if (!session_unmap(s, true)) {
		errno = EBUSY;
		return -1;
	}
	log_debug("triggers: '%s' needs the ring buffer unmapped: the reader reads with read()",
		  line);
	ret = file_write_str(path, line, true);
	e = errno;
	session_unmap(s, false);
	errno = e;
	return ret;
}

int trigger_add(struct kt_session *s, struct tep_event *te, const struct kt_trigger *t,
		char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_instance(s);
	char path[PATH_MAX], line[KT_TRIGGER_MAX * 2 + 8], *dir, *kmsg;
	int ret = -1, e;

	if (!inst) {
		str_seterr(err, errlen, "no tracing session");
		return -1;
	}
	dir = tracefs_instance_get_dir(inst);
	if (!dir) {
		str_seterr(err, errlen, "cannot find the instance's directory");
		return -1;
	}
	if (check(te, dir, t, err, errlen) < 0 || session_size_buffer(s, err, errlen) < 0)
		goto out;
	trigger_format(t, line, sizeof(line));
	event_path(path, sizeof(path), dir, t->system, t->event, "trigger");
	tracefs_error_clear(inst);
	if (file_write_str(path, line, true) < 0 &&
	    (errno != EBUSY || write_unmapped(s, path, line) < 0)) {
		e = errno;
		kmsg = session_last_error(s);
		if (kmsg)
			str_seterr(err, errlen, "trigger '%s' rejected for %s:%s: %s", line,
				   t->system, t->event, kmsg);
		else
			str_seterr(err, errlen, "trigger '%s' rejected for %s:%s: %s", line,
				   t->system, t->event,
				   e == EEXIST ? "it has one of this kind already (traceon and "
						 "traceoff count as one; remove it first)"
					       : strerror(e));
		free(kmsg);
		goto out;
	}
	log_debug("triggers: %s:%s: %s", t->system, t->event, line);
	session_note_trigger(s, t->system, t->event);
	ret = 0;
out:
	tracefs_put_tracing_file(dir);
	return ret;
}

/* "!" + the command that removes the trigger shown as line. */
static void removal(const char *line, char *cmd, size_t len)
{
	char buf[KT_TRIGGER_MAX * 2], *p;

	snprintf(buf, sizeof(buf), "%s", line);
	if ((p = strstr(buf, " if ")))
		*p = '\0';
	if ((p = strstr(buf, " [")))
		*p = '\0';
	if (!strncmp(buf, "hist", 4)) {
		snprintf(cmd, len, "!%s", buf);
		return;
	}
	if ((p = strstr(buf, ":count="))) {
		strcpy(p, ":0");
	} else if ((p = strstr(buf, ":unlimited"))) {
		*p = '\0';
	}
	snprintf(cmd, len, "!%s", buf);
}

/* Removes the triggers of the trigger file at path (only those of command cmd, when not
 * NULL). Returns how many. */
static int clear_file(const char *path, const char *cmd_only)
{
	char *text, *line, *save = NULL, cmd[KT_TRIGGER_MAX * 2 + 2];
	int n = 0;

	text = file_read_all(path, NULL);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !*str_trim(line))
			continue;
		if (cmd_only && (strncmp(str_trim(line), cmd_only, strlen(cmd_only)) ||
				 !strchr(": ", str_trim(line)[strlen(cmd_only)])))
			continue;
		removal(str_trim(line), cmd, sizeof(cmd));
		if (file_write_str(path, cmd, true) == 0)
			n++;
		else
			log_debug("triggers: cannot remove '%s' from %s: %s", line, path,
				  strerror(errno));
	}
	free(text);
	return n;
}

int trigger_remove_cmd(struct kt_session *s, const char *system, const char *event,
		       const char *cmd, char *err, size_t errlen)
{
	char path[PATH_MAX], *dir;
	int n;

	if (!session_instance(s) || !plain(system) || !plain(event)) {
		str_seterr(err, errlen, "no such event '%s:%s'", system, event);
		return -1;
	}
	dir = tracefs_instance_get_dir(session_instance(s));
	event_path(path, sizeof(path), dir ? dir : "", system, event, "trigger");
	tracefs_put_tracing_file(dir);
	if (access(path, F_OK)) {
		str_seterr(err, errlen, "no such event '%s:%s'", system, event);
		return -1;
	}
	n = clear_file(path, cmd);
	log_debug("triggers: %s:%s: %d removed", system, event, n);
	return n;
}

int trigger_remove_all(struct kt_session *s, const char *system, const char *event, char *err,
		       size_t errlen)
{
	return trigger_remove_cmd(s, system, event, NULL, err, errlen);
}

char *trigger_list(struct kt_session *s, const char *system, const char *event)
{
	char path[PATH_MAX], *dir, *text, *out, *line, *save = NULL;
	size_t n = 0;

	if (!session_instance(s) || !plain(system) || !plain(event))
		return NULL;
	dir = tracefs_instance_get_dir(session_instance(s));
	if (!dir)
		return NULL;
	event_path(path, sizeof(path), dir, system, event, "trigger");
	tracefs_put_tracing_file(dir);
	text = file_read_all(path, NULL);
	if (!text)
		return NULL;
	out = calloc(1, strlen(text) + 1);
	for (line = strtok_r(text, "\n", &save); out && line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		n += sprintf(out + n, "%s%s", n ? "\n" : "", line);
	}
	free(text);
	if (out && !n) {
		free(out);
		out = NULL;
	}
	return out;
}

char *trigger_output(struct kt_session *s, const struct kt_trigger *t)
{
	char path[PATH_MAX], *dir;
	bool hist = !strncmp(t->cmd, "hist", 4), snap = !strcmp(t->cmd, "snapshot");

	if (!session_instance(s) || !plain(t->system) || !plain(t->event) || (!hist && !snap))
		return NULL;
	dir = tracefs_instance_get_dir(session_instance(s));
	if (!dir)
		return NULL;
	if (hist)
		event_path(path, sizeof(path), dir, t->system, t->event, "hist");
	else
		snprintf(path, sizeof(path), "%s/snapshot", dir);
	tracefs_put_tracing_file(dir);
	return file_read_all(path, NULL);
}

bool trigger_spent(struct kt_session *s, const char *system, const char *event,
		   const char *cmd)
{
	char *text = trigger_list(s, system, event), *p;
	size_t n = strlen(cmd);
	bool spent = false;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, cmd, n) && !strncmp(p + n, ":count=0", 8) &&
		    strchr(" \n", p[n + 8] ? p[n + 8] : ' '))
			spent = true;
	free(text);
	return spent;
}

/* Calls fn for every event of the instance tracing/instances/<name> that has triggers, with
 * the path of its trigger file. Returns the sum of what fn returned. */
static int walk(const char *name, int (*fn)(const char *path, const char *system,
					     const char *event, void *ctx), void *ctx)
{
	char path[PATH_MAX], *events;
	struct dirent *sd, *ed;
	DIR *sys, *evs;
	int n = 0;

	events = tracefs_get_tracing_file("instances");
	if (!events)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/events", events, name);
	tracefs_put_tracing_file(events);
	sys = opendir(path);
	while (sys && (sd = readdir(sys))) {
		char sdir[PATH_MAX];

		if (sd->d_name[0] == '.' || sd->d_type != DT_DIR ||
		    snprintf(sdir, sizeof(sdir), "%s/%s", path, sd->d_name) >= (int)sizeof(sdir))
			continue;
		evs = opendir(sdir);
		while (evs && (ed = readdir(evs))) {
			char tpath[PATH_MAX], first[2];

			if (ed->d_name[0] == '.' || ed->d_type != DT_DIR ||
			    snprintf(tpath, sizeof(tpath), "%s/%s/trigger", sdir, ed->d_name) >=
				    (int)sizeof(tpath))
				continue;
			/* one byte: '#' is the empty file's header */
			if (file_read_small(tpath, first, sizeof(first)) > 0 && first[0] != '#')
				n += fn(tpath, sd->d_name, ed->d_name, ctx);
		}
		if (evs)
			closedir(evs);
	}
	if (sys)
		closedir(sys);
	return n;
}

static int clear_one(const char *path, const char *system, const char *event, void *ctx)
{
	(void)system;
	(void)event;
	(void)ctx;
	return clear_file(path, NULL);
}

int triggers_clear_instance(const char *name)
{
	int n = walk(name, clear_one, NULL);

	if (n)
		log_debug("triggers: %d removed from instance %s", n, name);
	return n;
}

struct each_ctx {
	void (*fn)(const char *system, const char *event, void *ctx);
	void *ctx;
};

static int each_one(const char *path, const char *system, const char *event, void *p)
{
	struct each_ctx *c = p;

	(void)path;
	c->fn(system, event, c->ctx);
	return 1;
}

/* Calls fn for each event ktop noted a trigger on that still has one. */
static int walk_noted(struct kt_session *s, int (*fn)(const char *path, const char *system,
						      const char *event, void *ctx), void *ctx)
{
	char path[PATH_MAX], sys[128], first[2], *dir;
	const char *const *names;
	const char *colon;
	size_t i, nn;
	int n = 0;

	names = session_noted_triggers(s, &nn);
	dir = nn ? tracefs_instance_get_dir(session_instance(s)) : NULL;
	for (i = 0; dir && i < nn; i++) {
		colon = strchr(names[i], ':');
		snprintf(sys, sizeof(sys), "%.*s", (int)(colon - names[i]), names[i]);
		event_path(path, sizeof(path), dir, sys, colon + 1, "trigger");
		/* one byte: '#' is the empty file's header */
		if (file_read_small(path, first, sizeof(first)) > 0 && first[0] != '#')
			n += fn(path, sys, colon + 1, ctx);
	}
	tracefs_put_tracing_file(dir);
	return n;
}

int triggers_for_each(struct kt_session *s,
		      void (*fn)(const char *system, const char *event, void *ctx), void *ctx)
{
	struct each_ctx c = { fn, ctx };

	if (!session_instance(s))
		return 0;
	return walk_noted(s, each_one, &c);
}

int triggers_clear_noted(struct kt_session *s)
{
	int n = session_instance(s) ? walk_noted(s, clear_one, NULL) : 0;

	if (n)
		log_debug("triggers: %d removed from instance %s", n, session_name(s));
	return n;
}
