// SPDX-License-Identifier: GPL-2.0-or-later
/* Scoping the instance to processes: pid lists in set_event_pid / set_ftrace_pid with the
 * fork options, and command names as an event filter plus the pids running them. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "cgroup.h"
#include "scope.h"
#include "session.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"
#include "util/xalloc.h"

#define COMM_MAX 15 /* TASK_COMM_LEN - 1 */

static bool function_tracer_on(struct kt_session *s)
{
	char *t = session_current_tracer(s);
	bool on = t && strcmp(t, "nop");

	free(t);
	return on;
}

static int set_option(struct tracefs_instance *inst, const char *opt, bool on)
{
	char path[128];

	snprintf(path, sizeof(path), "options/%s", opt);
	return tracefs_instance_file_write(inst, path, on ? "1" : "0") < 0 ? -1 : 0;
}

/* "1 2 3", malloc'd; "" for none. */
static char *join_pids(const pid_t *pids, size_t n)
{
	size_t i, off = 0, len = n * 12 + 2;
	char *buf = malloc(len);

	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? " " : "", (int)pids[i]);
	return buf;
}

int scope_set_pids(struct kt_session *s, const pid_t *pids, size_t n, bool children,
		   char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_instance(s);
	bool functions = function_tracer_on(s), was_on = false;
	pid_t *old;
	char *buf;
	size_t i, nold = 0;
	int e, ret = -1;

	if (!inst) {
		str_seterr(err, errlen, "no tracing session");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (pids[i] <= 0 || (kill(pids[i], 0) < 0 && errno == ESRCH)) {
			str_seterr(err, errlen, "pid %d: no such process (scope to a running one)",
			       (int)pids[i]);
			return -1;
		}
	}
	buf = join_pids(pids, n);
	if (!buf) {
		str_seterr(err, errlen, "out of memory");
		return -1;
	}
	/* opening set_event_pid to truncate it clears the list at once, before the new one is
	 * written: replacing a scope with another, tracing is off meanwhile, so that moment
	 * loses events instead of letting everyone's through (as scope_sync_cgroup does) */
	old = n ? scope_get_pids(s, &nold) : NULL;
	free(old);
	if (nold)
		was_on = tracefs_trace_is_on(inst) == 1;
	if (was_on)
		tracefs_trace_off(inst);
	/* an empty write through O_TRUNC clears the list */
	if (tracefs_instance_file_write(inst, "set_event_pid", buf) < 0 && n) {
		e = errno;
		str_seterr(err, errlen, "cannot scope events to pid %s: set_event_pid: %s", buf,
		       strerror(e));
		goto out;
	}
	set_option(inst, "event-fork", n && children);
	/* set_ftrace_pid only matters to the function tracers; where they are refused it is
	 * unreadable too (EPERM), so it is written only while one runs */
	if (functions && tracefs_file_exists(inst, "set_ftrace_pid")) {
		if (tracefs_instance_file_write(inst, "set_ftrace_pid", buf) < 0 && n) {
			e = errno;
			str_seterr(err, errlen, "cannot scope the function tracer to pid %s: "
			       "set_ftrace_pid: %s", buf, strerror(e));
			tracefs_instance_file_write(inst, "set_event_pid", "");
			set_option(inst, "event-fork", false);
			goto out;
		}
		set_option(inst, "function-fork", n && children);
	}
	log_debug("scope: pids '%s'%s%s", buf, children ? " and children" : "",
		  functions ? ", function tracer too" : "");
	ret = 0;
out:
	if (was_on)
		tracefs_trace_on(inst);
	free(buf);
	return ret;
}

pid_t *scope_get_pids(struct kt_session *s, size_t *n)
{
	struct tracefs_instance *inst = session_instance(s);
	char *text, *w, *save = NULL, *end;
	pid_t *v = NULL, *grown;
	long pid;

	*n = 0;
	text = inst ? tracefs_instance_file_read(inst, "set_event_pid", NULL) : NULL;
	if (!text)
		return NULL;
	for (w = strtok_r(text, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		pid = strtol(w, &end, 10);
		if (*end || pid <= 0)
			continue; /* "no pid" */
		grown = realloc(v, (*n + 1) * sizeof(*v));
		if (!grown)
			break;
		v = grown;
		v[(*n)++] = (pid_t)pid;
	}
	free(text);
	return v;
}

pid_t *scope_comm_pids(const char *comm, size_t *n)
{
	char path[300], buf[64];
	struct dirent *de;
	pid_t *v = malloc(sizeof(*v)), *grown;
	DIR *d;

	*n = 0;
	if (!v)
		return NULL;
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (file_read_trimmed(path, buf, sizeof(buf)) < 0 || strncmp(buf, comm, COMM_MAX) ||
		    (strlen(comm) < COMM_MAX && strlen(buf) != strlen(comm)))
			continue;
		grown = realloc(v, (*n + 1) * sizeof(*v));
		if (!grown)
			break;
		v = grown;
		v[(*n)++] = (pid_t)atoi(de->d_name);
	}
	if (d)
		closedir(d);
	return v;
}

char *scope_comm_filter(const char *comm, const char *filter, char *err, size_t errlen)
{
	char *out = NULL;
	int r;

	if (!comm || !*comm) {
		str_seterr(err, errlen, "--comm needs a command name such as bash");
		return NULL;
	}
	if (strlen(comm) > COMM_MAX) {
		str_seterr(err, errlen, "command name '%s' is longer than the kernel's %d characters "
		       "(give the first %d)", comm, COMM_MAX, COMM_MAX);
		return NULL;
	}
	if (strpbrk(comm, "\"\\")) {
		str_seterr(err, errlen, "command name '%s' cannot hold '\"' or '\\' in a filter", comm);
		return NULL;
	}
	if (filter && *filter)
		r = asprintf(&out, "(%s) && COMM == \"%s\"", filter, comm);
	else
		r = asprintf(&out, "COMM == \"%s\"", comm);
	if (r < 0) {
		str_seterr(err, errlen, "out of memory");
		return NULL;
	}
	return out;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static bool has_pid(const pid_t *v, size_t n, pid_t pid)
{
	return n && bsearch(&pid, v, n, sizeof(*v), cmp_pid);
}

/* A thread of ktop: the empty cgroup's stand-in, and the threads event-fork added to it. */
static bool own_thread(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	return access(path, F_OK) == 0;
}

int scope_sync_cgroup(struct kt_session *s, const struct kt_cgroup *cg, char *err,
		      size_t errlen)
{
	struct tracefs_instance *inst = session_instance(s);
	size_t i, nwant, nhave, nadd = 0;
	pid_t *want, *have, *add, self = getpid();
	bool removed = false, functions, was_on;
	char *buf = NULL;
	int ret = -1;

	if (!inst) {
		str_seterr(err, errlen, "no tracing session");
		return -1;
	}
	want = cgroup_tasks(cg, &nwant);
	have = scope_get_pids(s, &nhave);
	add = want ? malloc((nwant + 1) * sizeof(*add)) : NULL;
	if (!add) {
		str_seterr(err, errlen, "out of memory");
		goto out;
	}
	/* an empty cgroup: ktop's own pid, which set_event_notrace_pid keeps out, so that
	 * nothing passes (an empty list would let everything through) */
	if (!nwant)
		want[nwant++] = self;
	if (have)
		qsort(have, nhave, sizeof(*have), cmp_pid);
	for (i = 0; i < nwant; i++)
		if (!has_pid(have, nhave, want[i]))
			add[nadd++] = want[i];
	for (i = 0; i < nhave && !removed; i++)
		removed = !has_pid(want, nwant, have[i]) && (nwant > 1 || want[0] != self ||
							      !own_thread(have[i]));
	ret = 0;
	if (!nadd && !removed)
		goto out;
	ret = -1;
	functions = function_tracer_on(s);
	/* opening set_event_pid to truncate it clears the list at once, before the new one is
	 * written: with tracing off meanwhile, that moment loses events instead of letting
	 * everyone's through */
	was_on = (removed || functions) && tracefs_trace_is_on(inst) == 1;
	if (was_on)
		tracefs_trace_off(inst);
	buf = removed || functions ? join_pids(want, nwant) : join_pids(add, nadd);
	if (buf && (removed || functions ?
			    tracefs_instance_file_write(inst, "set_event_pid", buf) :
			    tracefs_instance_file_append(inst, "set_event_pid", buf)) >= 0 &&
	    set_option(inst, "event-fork", true) == 0)
		ret = 0;
	if (!ret && functions && tracefs_file_exists(inst, "set_ftrace_pid") &&
	    (tracefs_instance_file_write(inst, "set_ftrace_pid", buf) < 0 ||
	     set_option(inst, "function-fork", true) < 0))
		ret = -1;
	if (ret)
		str_seterr(err, errlen, "cannot scope to cgroup %s: set_event_pid: %s", cg->name,
			   buf ? strerror(errno) : "out of memory");
	if (was_on)
		tracefs_trace_on(inst);
	log_debug("scope: cgroup %s: %zu thread(s), %zu new%s", cg->name, nwant, nadd,
		  removed ? ", some left" : "");
	ret = ret ? -1 : 1;
out:
	free(buf);
	free(add);
	free(have);
	free(want);
	return ret;
}

ssize_t scope_request_pids(const char *kind, const char *arg, const char *host, pid_t **pids,
			   char *err, size_t errlen)
{
	char *end;
	size_t n = 0;
	long v;

	*pids = NULL;
	if (!strcmp(kind, "comm")) {
		*pids = scope_comm_pids(arg, &n);
		if (n)
			return (ssize_t)n;
		snprintf(err, errlen, "no running process is called %.32s%s%s: start it first, or "
			 "scope by pid=", arg, host ? " on " : "", host ? host : "");
		free(*pids);
		*pids = NULL;
		return -1;
	}
	for (const char *s = arg; *s; s = *end ? end + 1 : end) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || v <= 0 || v > 0x3fffffff || (*end && *end != ',')) {
			snprintf(err, errlen, "scope: '%.64s' is not a list of pids", arg);
			goto refused;
		}
		if (kill((pid_t)v, 0) < 0 && errno != EPERM) {
			if (host)
				snprintf(err, errlen, "pid %ld is not running on %s: type one that "
					 "runs there (ps -e on it)", v, host);
			else
				snprintf(err, errlen, "pid %ld is not running: type one that exists "
					 "(ps -e)", v);
			goto refused;
		}
		*pids = xreallocarray(*pids, n + 1, sizeof(**pids));
		(*pids)[n++] = (pid_t)v;
	}
	if (n)
		return (ssize_t)n;
	snprintf(err, errlen, "scope: no pid given");
refused:
	free(*pids);
	*pids = NULL;
	return -1;
}
