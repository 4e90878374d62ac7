// SPDX-License-Identifier: GPL-2.0-or-later
/* The instance's tracer and function lists. Every write is to ktop's own instance, or to the
 * top level once the user allowed it (--top-level, toplevel.h); a file the instance lacks is
 * reported, never looked for at the top level. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "session.h"
#include "tracers.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"

static const char *const list_files[KT_FTRACE_NLISTS] = {
	[KT_FTRACE_FILTER] = "set_ftrace_filter",
	[KT_FTRACE_NOTRACE] = "set_ftrace_notrace",
	[KT_GRAPH_FUNCTION] = "set_graph_function",
	[KT_GRAPH_NOTRACE] = "set_graph_notrace",
};

/* Function commands of set_ftrace_filter (kernel/trace/ftrace.c, trace_functions.c). */
static const char *const triggers[] = {
	"traceon", "traceoff", "stacktrace", "snapshot", "dump", "cpudump", NULL,
};

const char *tracers_list_file(enum kt_ftrace_list which)
{
	return (unsigned)which < KT_FTRACE_NLISTS ? list_files[which] : "?";
}

/* Why the kernel says EPERM to function hooks, as far as ktop can see. */
static const char *eperm_reason(void)
{
	char buf[256];

	if (file_read_trimmed("/proc/sys/kernel/ftrace_enabled", buf, sizeof(buf)) >= 0 &&
	    !strcmp(buf, "0"))
		return "ftrace_enabled is 0 (sysctl kernel.ftrace_enabled=1)";
	if (file_read_trimmed("/sys/kernel/security/lockdown", buf, sizeof(buf)) >= 0 &&
	    !strstr(buf, "[none]"))
		return "kernel lockdown forbids it";
	return "ftrace_enabled off or lockdown? (the kernel allows no function hooks here)";
}

/* " (EPERM) — why" for the errnos function tracing fails with. */
static void errno_words(int e, char *buf, size_t len)
{
	switch (e) {
	case EPERM:
	case EACCES:
		snprintf(buf, len, "%s (EPERM) — %s", strerror(e), eperm_reason());
		break;
	case ENODEV:
		snprintf(buf, len, "%s (ENODEV) — the kernel has no function tracing "
			 "(CONFIG_FUNCTION_TRACER off)", strerror(e));
		break;
	case EBUSY:
		snprintf(buf, len, "%s (EBUSY) — the instance's trace pipes are open (stop "
			 "reading first)", strerror(e));
		break;
	default:
		snprintf(buf, len, "%s", strerror(e));
	}
}

/* The tracer's files are in session_trace_instance(s): ktop's instance, or NULL for the
 * top level the user allowed (toplevel.h). */
static bool no_session(struct kt_session *s, char *err, size_t errlen)
{
	if (session_instance(s))
		return false;
	str_seterr(err, errlen, "no tracing session");
	return true;
}

void tracers_free_names(char **names)
{
	size_t i;

	if (!names)
		return;
	for (i = 0; names[i]; i++)
		free(names[i]);
	free(names);
}

/* Splits text at any of delims into a NULL-terminated array (NULL when out of memory). With
 * lines, each piece is trimmed and empty pieces and "#" comments are left out. */
static char **split_list(const char *text, const char *delims, bool lines)
{
	char *copy = strdup(text), *w, *save = NULL, **v = NULL, **grown;
	size_t n = 0;

	if (!copy)
		return NULL;
	v = calloc(1, sizeof(*v));
	for (w = strtok_r(copy, delims, &save); v && w; w = strtok_r(NULL, delims, &save)) {
		if (lines) {
			w = str_trim(w);
			if (!*w || w[0] == '#')
				continue;
		}
		grown = realloc(v, (n + 2) * sizeof(*v));
		if (!grown) {
			tracers_free_names(v);
			v = NULL;
			break;
		}
		v = grown;
		v[n++] = strdup(w);
		v[n] = NULL;
	}
	free(copy);
	return v;
}

char *tracers_read_available(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/available_tracers", dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return file_read_all(path, NULL);
}

/* The instance's available_tracers (inst NULL: the top level's). */
static char *instance_tracers(struct tracefs_instance *inst)
{
	char *dir = inst ? tracefs_instance_get_dir(inst) : NULL, *text;
	const char *top = inst ? dir : tracefs_tracing_dir();

	if (!top) {
		errno = ENOENT;
		return NULL;
	}
	text = tracers_read_available(top);
	free(dir);
	return text;
}

bool tracers_instance_offers(struct tracefs_instance *inst, const char *tracer)
{
	char *text = instance_tracers(inst);
	bool found = text && str_has_word(text, tracer);

	free(text);
	return found;
}

char **tracers_available(struct kt_session *s, char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	char **v, *text;

	if (no_session(s, err, errlen))
		return NULL;
	text = instance_tracers(inst);
	if (!text) {
		str_seterr(err, errlen, "cannot read available_tracers of %s: %s", session_name(s),
		       strerror(errno));
		return NULL;
	}
	v = split_list(text, " \t\n", false);
	free(text);
	if (!v)
		str_seterr(err, errlen, "out of memory");
	return v;
}

char *tracers_current(struct kt_session *s)
{
	return session_current_tracer(s);
}

int tracers_set(struct kt_session *s, const char *name, char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	char **avail, words[256], list[512] = "";
	bool found = false;
	size_t i;
	int e;

	if (no_session(s, err, errlen))
		return -1;
	if (!name || !*name) {
		str_seterr(err, errlen, "no tracer given (nop, function, function_graph, ...)");
		return -1;
	}
	avail = tracers_available(s, err, errlen);
	if (!avail)
		return -1;
	for (i = 0; avail[i]; i++) {
		if (!strcmp(avail[i], name))
			found = true;
		if (strlen(list) + strlen(avail[i]) + 2 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? " " : "", avail[i]);
	}
	tracers_free_names(avail);
	if (!found) {
		str_seterr(err, errlen, "no tracer '%s' in ktop's instance (available: %s)%s", name,
		       list, inst && tracefs_tracer_available(NULL, name) ?
				     "; only the top level has it: start ktop with --top-level" :
		       !strncmp(name, "function", 8) ?
				     "; the kernel lacks it or does not allow it in instances" :
				     "");
		return -1;
	}
	if (strcmp(name, "nop") && session_size_buffer(s, err, errlen) < 0)
		return -1;
	if (tracefs_instance_file_write(inst, "current_tracer", name) < 0) {
		e = errno;
		errno_words(e, words, sizeof(words));
		str_seterr(err, errlen, "%s tracer refused by the kernel: current_tracer: %s",
		       !strcmp(name, "function") ? "function" : name, words);
		/* a refused switch leaves the old tracer, but make sure */
		log_debug("tracers: %s refused: %s", name, strerror(e));
		return -1;
	}
	log_debug("tracers: %s now traces with %s", session_name(s), name);
	return 0;
}

/* ---- function lists -------------------------------------------------------------------- */

static bool is_glob_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '*' || c == '?' ||
	       c == '[' || c == ']' || c == '-' || c == '$';
}

static int check_err(char *err, size_t errlen, int *errpos, int pos, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int check_err(char *err, size_t errlen, int *errpos, int pos, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	if (errpos)
		*errpos = pos;
	return -1;
}

int tracers_filter_check(enum kt_ftrace_list which, const char *entry, char *err,
			 size_t errlen, int *errpos)
{
	const char *p = entry, *c1, *cmd, *c2;
	size_t n, i;

	if (errpos)
		*errpos = 0;
	if ((unsigned)which >= KT_FTRACE_NLISTS)
		return check_err(err, errlen, errpos, 0, "unknown function list");
	if (!entry || !*entry)
		return check_err(err, errlen, errpos, 0, "empty entry: a function name or glob "
				 "such as vfs_* (or :mod:MODULE)");
	if (*p == '!')
		return check_err(err, errlen, errpos, 0, "'!' removes entries: remove it from the "
				 "list instead");
	for (n = 0; p[n] && p[n] != ':'; n++)
		if (!is_glob_char(p[n]))
			return check_err(err, errlen, errpos, (int)n, "'%c' cannot be in a function "
					 "name or glob", p[n]);
	c1 = p[n] == ':' ? p + n : NULL;
	if (!c1)
		return 0;
	cmd = c1 + 1;
	c2 = strchr(cmd, ':');
	n = c2 ? (size_t)(c2 - cmd) : strlen(cmd);
	if (n == 3 && !strncmp(cmd, "mod", 3)) {
		if (!c2 || !c2[1])
			return check_err(err, errlen, errpos, (int)(cmd - entry), "':mod:' needs "
					 "a module name, as in :mod:ext4");
		for (i = 1; c2[i]; i++)
			if (!is_glob_char(c2[i]))
				return check_err(err, errlen, errpos, (int)(c2 + i - entry),
						 "'%c' cannot be in a module name", c2[i]);
		return 0;
	}
	if (c1 == entry)
		return check_err(err, errlen, errpos, 0, "a function (or glob) comes before ':'");
	for (i = 0; triggers[i]; i++)
		if (strlen(triggers[i]) == n && !strncmp(cmd, triggers[i], n))
			break;
	if (!triggers[i])
		return check_err(err, errlen, errpos, (int)(cmd - entry), "unknown command "
				 "'%.*s' (mod, traceon, traceoff, stacktrace, snapshot, dump, "
				 "cpudump)", (int)n, cmd);
	if (which != KT_FTRACE_FILTER)
		return check_err(err, errlen, errpos, (int)(cmd - entry), "function triggers go "
				 "in set_ftrace_filter only");
	if (c2) {
		for (i = 1; c2[i]; i++)
			if (!isdigit((unsigned char)c2[i]))
				return check_err(err, errlen, errpos, (int)(c2 + i - entry),
						 "trigger count must be a number, as in "
						 "schedule:traceoff:1");
		if (i == 1)
			return check_err(err, errlen, errpos, (int)(c2 - entry), "missing count "
					 "after ':'");
	}
	return 0;
}

bool tracers_filter_exists(struct kt_session *s, enum kt_ftrace_list which)
{
	return session_instance(s) && (unsigned)which < KT_FTRACE_NLISTS &&
	       tracefs_file_exists(session_trace_instance(s), list_files[which]);
}

static int list_missing(struct kt_session *s, enum kt_ftrace_list which, char *err,
			size_t errlen)
{
	if (tracers_filter_exists(s, which))
		return 0;
	str_seterr(err, errlen, "%s is not in ktop's instance on this kernel (%s)",
	       list_files[which],
	       which >= KT_GRAPH_FUNCTION ?
		       (tracefs_file_exists(NULL, list_files[which]) ?
				"it exists only at the top level here: --top-level lets ktop use it" :
				"the kernel has no function_graph: CONFIG_FUNCTION_GRAPH_TRACER") :
					    "the kernel has no function tracer: CONFIG_FUNCTION_TRACER");
	return -1;
}

/* Number of non-comment lines of the list, or -1. */
static int count_entries(struct tracefs_instance *inst, const char *file)
{
	char *text = tracefs_instance_file_read(inst, file, NULL), *line, *save = NULL;
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' && *str_trim(line))
			n++;
	free(text);
	return n;
}

static int write_list(struct kt_session *s, enum kt_ftrace_list which, const char *what,
		      const char *line, char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	char words[256], buf[600];
	int e;

	/* The newline makes the kernel parse the entry within write(), so a name that matches
	 * nothing fails here; without it the entry is parsed at close(), whose error is lost. */
	snprintf(buf, sizeof(buf), "%s\n", line);
	if (tracefs_instance_file_append(inst, list_files[which], buf) >= 0)
		return 0;
	e = errno;
	if (e == EINVAL || e == ENOENT || e == ENODEV) {
		/* the kernel's way of saying "matched nothing" */
		str_seterr(err, errlen, "no function matches '%s' (%s unchanged; available_filter_"
		       "functions has the names)", what, list_files[which]);
	} else {
		errno_words(e, words, sizeof(words));
		str_seterr(err, errlen, "%s is not writable in ktop's instance: %s", list_files[which],
		       words);
	}
	log_debug("tracers: %s '%s': %s", list_files[which], line, strerror(e));
	return -1;
}

int tracers_filter_add(struct kt_session *s, enum kt_ftrace_list which, const char *entry,
		       char *err, size_t errlen)
{
	char msg[256];
	int pos;

	if (no_session(s, err, errlen))
		return -1;
	if (tracers_filter_check(which, entry, msg, sizeof(msg), &pos) < 0) {
		str_seterr(err, errlen, "bad %s entry '%s': %s", list_files[which], entry, msg);
		return -1;
	}
	if (list_missing(s, which, err, errlen) < 0)
		return -1;
	if (write_list(s, which, entry, entry, err, errlen) < 0)
		return -1;
	return count_entries(session_trace_instance(s), list_files[which]);
}

int tracers_filter_remove(struct kt_session *s, enum kt_ftrace_list which, const char *entry,
			  char *err, size_t errlen)
{
	char line[512];
	const char *c;

	if (no_session(s, err, errlen) || list_missing(s, which, err, errlen) < 0)
		return -1;
	/* "schedule:traceoff:unlimited" as listed is removed as "!schedule:traceoff" */
	c = strchr(entry, ':');
	if (c && strncmp(c, ":mod:", 5) && strchr(c + 1, ':'))
		snprintf(line, sizeof(line), "!%.*s", (int)(strchr(c + 1, ':') - entry), entry);
	else
		snprintf(line, sizeof(line), "!%s", entry);
	return write_list(s, which, entry, line, err, errlen);
}

int tracers_filter_clear(struct kt_session *s, enum kt_ftrace_list which, char *err,
			 size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	char **entries, words[256];
	size_t i;
	int e;

	if (no_session(s, err, errlen) || list_missing(s, which, err, errlen) < 0)
		return -1;
	/* truncation empties the list but keeps function triggers: remove those one by one */
	entries = tracers_filter_get(s, which, err, errlen);
	if (!entries)
		return -1;
	for (i = 0; entries[i]; i++) {
		const char *c = strchr(entries[i], ':');

		if (c && strncmp(c, ":mod:", 5))
			tracers_filter_remove(s, which, entries[i], NULL, 0);
	}
	tracers_free_names(entries);
	if (tracefs_instance_file_clear(inst, list_files[which]) < 0) {
		e = errno;
		errno_words(e, words, sizeof(words));
		str_seterr(err, errlen, "cannot clear %s: %s", list_files[which], words);
		return -1;
	}
	return 0;
}

char **tracers_filter_get(struct kt_session *s, enum kt_ftrace_list which, char *err,
			  size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	char *text, **v, words[256];
	int e;

	if (no_session(s, err, errlen) || list_missing(s, which, err, errlen) < 0)
		return NULL;
	text = tracefs_instance_file_read(inst, list_files[which], NULL);
	if (!text) {
		e = errno;
		errno_words(e, words, sizeof(words));
		str_seterr(err, errlen, "cannot read %s: %s", list_files[which], words);
		return NULL;
	}
	v = split_list(text, "\n", true);
	free(text);
	if (!v)
		str_seterr(err, errlen, "out of memory");
	return v;
}
