// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop's tracefs session (session.h): its instance ktop-<pid> opened, sized and closed. The
 * other session*.c files share its state through session_local.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "owner.h"
#include "session_local.h"
#include "toplevel.h"
#include "triggers.h"
#include "util/log.h"
#include "util/strutil.h"
#include "util/xalloc.h"

#define DEFAULT_BUFFER_KB (64UL * 1024)
#define MIN_BUFFER_KB 1024UL
#define ROOT_HINT "run ktop as root or with CAP_SYS_ADMIN"

static int open_sessions; /* in this process: at most one, its name is the pid */

const char *session_errno_hint(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return " (" ROOT_HINT ")";
	case ENOMEM:
		return " (lower the per-CPU buffer with --buffer-kb)";
	case EROFS:
		return " (tracefs is mounted read-only)";
	default:
		return "";
	}
}

/* ---- sizes ----------------------------------------------------------------------------- */

static unsigned long mem_total_kb(void)
{
	char line[256];
	unsigned long kb = 0;
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

unsigned long session_default_buffer_kb(void)
{
	unsigned long kb = DEFAULT_BUFFER_KB, mem = mem_total_kb();
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (ncpus < 1)
		ncpus = 1;
	if (mem && kb * (unsigned long)ncpus > mem / 16)
		kb = mem / 16 / (unsigned long)ncpus;
	kb &= ~3UL; /* whole pages */
	if (kb < 4)
		kb = 4;
	return kb;
}

/* Highest cpuN under the instance's per_cpu plus one. */
static int count_cpus(struct tracefs_instance *inst)
{
	struct dirent *de;
	char *path;
	DIR *d;
	int n = 0, cpu;

	path = tracefs_instance_get_file(inst, "per_cpu");
	d = path ? opendir(path) : NULL;
	tracefs_put_tracing_file(path);
	if (d) {
		while ((de = readdir(d)))
			if (sscanf(de->d_name, "cpu%d", &cpu) == 1 && cpu + 1 > n)
				n = cpu + 1;
		closedir(d);
	}
	if (n <= 0)
		n = (int)sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? n : 1;
}

/* ---- open / close ---------------------------------------------------------------------- */

static int set_clock(struct kt_session *s, const char *clock, char *err, size_t errlen)
{
	char *clocks, *cur;
	int e;

	if (tracefs_instance_file_write(s->inst, "trace_clock", clock) >= 0) {
		cur = tracefs_get_clock(s->inst);
		if (cur && !strcmp(cur, clock)) {
			free(cur);
			return 0;
		}
		free(cur);
		errno = EINVAL;
	}
	e = errno;
	clocks = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	str_seterr(err, errlen, "cannot set trace clock '%s' in %s: %s (available: %s)", clock,
	       s->name, strerror(e), clocks ? str_trim(clocks) : "unknown");
	free(clocks);
	return -1;
}

/* buffer_size_kb; a mapped buffer cannot change size (EBUSY): the reader unmaps for it. */
static int write_size(struct kt_session *s, const char *num)
{
	int ret, e;

	ret = tracefs_instance_file_write(s->inst, "buffer_size_kb", num);
	if (ret >= 0 || errno != EBUSY || !session_unmap(s, true))
		return ret;
	log_debug("session: the reader's mapping keeps %s from resizing (EBUSY): unmapped to "
		  "resize, then mapped again", s->name);
	ret = tracefs_instance_file_write(s->inst, "buffer_size_kb", num);
	e = errno;
	session_unmap(s, false);
	errno = e;
	return ret;
}

static int set_buffer(struct kt_session *s, unsigned long kb, char *err, size_t errlen)
{
	long long val;
	char num[32];
	int e;

	/* Written as buffer_size_kb, so the unit is never in doubt; ENOMEM halves it. */
	for (;;) {
		snprintf(num, sizeof(num), "%lu", kb);
		if (write_size(s, num) >= 0)
			break;
		e = errno;
		if (e != ENOMEM || kb / 2 < MIN_BUFFER_KB) {
			str_seterr(err, errlen,
			       "cannot set the ring buffer of %s to %lu KiB per CPU: %s%s",
			       s->name, kb, strerror(e), session_errno_hint(e));
			return -1;
		}
		log_debug("session: %lu KiB per CPU refused (ENOMEM), trying %lu", kb, kb / 2);
		kb /= 2;
	}
	/* The kernel rounds up to whole sub-buffers: keep what it took. */
	if (tracefs_instance_file_read_number(s->inst, "buffer_size_kb", &val) == 0 && val > 0)
		kb = (unsigned long)val;
	s->buffer_kb = kb;
	return 0;
}

int session_size_buffer(struct kt_session *s, char *err, size_t errlen)
{
	if (!s || !s->inst || s->sized)
		return 0;
	if (set_buffer(s, s->want_kb, err, errlen) < 0)
		return -1;
	s->sized = true;
	log_debug("session: %s now holds %lu KiB per CPU", s->name, s->buffer_kb);
	return 0;
}

bool session_may_map(const struct kt_session *s)
{
	return !s->no_mmap;
}

void session_set_unmap_hook(struct kt_session *s, void (*hook)(void *ctx, bool before),
			    void *ctx)
{
	s->unmap_hook = hook;
	s->unmap_ctx = ctx;
}

bool session_unmap(struct kt_session *s, bool before)
{
	if (!s->unmap_hook)
		return false;
	s->unmap_hook(s->unmap_ctx, before);
	return true;
}

struct kt_session *session_open(const struct kt_session_opts *opts, char *err, size_t errlen)
{
	struct kt_session *s;
	unsigned long kb = opts ? opts->buffer_kb : 0;
	const char *clock = opts && opts->clock ? opts->clock : "mono";
	long long val;
	int e;

	if (!session_tracing_dir(err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		str_seterr(err, errlen, "out of memory");
		return NULL;
	}
	owner_name(s->name, sizeof(s->name), KT_INSTANCE_PREFIX, getpid());
	if (open_sessions) {
		str_seterr(err, errlen, "tracefs instance %s is already open in this process",
		       s->name);
		free(s);
		return NULL;
	}

	/* With no session open here, an instance named after this pid was left by a dead
	 * process that had the same pid: remove it and its probe group. */
	if (tracefs_instance_exists(s->name)) {
		log_debug("session: removing a leftover %s", s->name);
		session_remove_owned(getpid(), 200);
	}

	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		e = errno ? errno : EIO;
		str_seterr(err, errlen, "cannot create tracefs instance %s: %s%s", s->name, strerror(e),
		       session_errno_hint(e));
		goto fail;
	}
	s->events_dir = tracefs_instance_get_file(s->inst, "events");
	if (!s->events_dir) {
		str_seterr(err, errlen, "cannot find the events of instance %s: %s", s->name,
		       strerror(errno));
		goto fail;
	}
	if (set_clock(s, clock, err, errlen) < 0)
		goto fail;
	/* The buffer keeps the size a new instance gets until something is to be recorded
	 * (session_size_buffer): a run that enables nothing never allocates and frees the
	 * full size, tens of MiB per CPU. */
	s->want_kb = kb ? kb : session_default_buffer_kb();
	s->no_mmap = opts && opts->no_mmap;
	if (tracefs_instance_file_read_number(s->inst, "buffer_size_kb", &val) == 0 && val > 0)
		s->buffer_kb = (unsigned long)val;
	s->ncpus = count_cpus(s->inst);
	open_sessions++;
	log_debug("session: %s, %d CPUs, %lu KiB per CPU once recording, clock %s", s->name,
		  s->ncpus, s->want_kb, clock);
	return s;
fail:
	session_close(s);
	return NULL;
}

void session_close(struct kt_session *s)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i, ret = 0;

	if (!s)
		return;
	if (s->ncpus)
		open_sessions--;
	/* the readers are stopped: the top-level tracer can be switched back */
	if (s->top_level)
		toplevel_restore(getpid(), 500);
	if (s->inst) {
		tracefs_event_disable(s->inst, NULL, NULL);
		tracefs_instance_file_write(s->inst, "tracing_on", "0");
		/* only where ktop put them: a pass over every event's file costs ~30 ms */
		triggers_clear_noted(s);
		for (i = 0; i < 25; i++) {
			ret = tracefs_instance_destroy(s->inst);
			if (!ret || errno != EBUSY)
				break;
			nanosleep(&ts, NULL);
		}
		if (ret < 0)
			log_debug("session: cannot remove %s: %s", s->name, strerror(errno));
		tracefs_instance_free(s->inst);
	}
	tracefs_put_tracing_file(s->events_dir);
	for (i = 0; i < (int)s->ntriggered; i++)
		free(s->triggered[i]);
	free(s->triggered);
	free(s);
}

void session_note_trigger(struct kt_session *s, const char *system, const char *event)
{
	char name[256];
	size_t i;

	snprintf(name, sizeof(name), "%s:%s", system, event);
	for (i = 0; i < s->ntriggered; i++)
		if (!strcmp(s->triggered[i], name))
			return;
	s->triggered = xreallocarray(s->triggered, s->ntriggered + 1, sizeof(*s->triggered));
	s->triggered[s->ntriggered++] = xstrdup(name);
}

const char *const *session_noted_triggers(struct kt_session *s, size_t *n)
{
	*n = s->ntriggered;
	return (const char *const *)s->triggered;
}

struct tracefs_instance *session_instance(struct kt_session *s)
{
	return s ? s->inst : NULL;
}

struct tracefs_instance *session_trace_instance(struct kt_session *s)
{
	return s && !s->top_level ? s->inst : NULL;
}

void session_stop_top_level(struct kt_session *s)
{
	if (s && s->top_level)
		tracefs_instance_file_write(NULL, "tracing_on", "0");
}

/* Per-CPU buffer ktop gives the top level with --top-level, in KiB. */
#define TOP_LEVEL_BUFFER_KB 8192

void session_use_top_level(struct kt_session *s)
{
	char self[32];

	s->top_level = true;
	/* timestamps on CLOCK_MONOTONIC, a buffer large enough for the reader to keep up (the
	 * default lost most of a function_graph stream in the lab) but no larger than needed
	 * (the top level's memory is not ktop's), and on; all saved */
	snprintf(self, sizeof(self), "%lu",
		 s->want_kb < TOP_LEVEL_BUFFER_KB ? s->want_kb : TOP_LEVEL_BUFFER_KB);
	if (tracefs_instance_file_write(NULL, "trace_clock", "mono") < 0 ||
	    tracefs_instance_file_write(NULL, "buffer_size_kb", self) < 0 ||
	    tracefs_instance_file_write(NULL, "tracing_on", "1") < 0)
		log_debug("session: top-level trace_clock/buffer_size_kb/tracing_on: %s",
			  strerror(errno));
	/* as in the instance (app_open): ktop's own reads stay out of the top-level tracer */
	snprintf(self, sizeof(self), "%d", (int)getpid());
	if (tracefs_file_exists(NULL, "set_ftrace_notrace_pid") &&
	    tracefs_instance_file_append(NULL, "set_ftrace_notrace_pid", self) < 0)
		log_debug("session: top-level set_ftrace_notrace_pid: %s", strerror(errno));
}

const char *session_name(const struct kt_session *s)
{
	return s ? s->name : NULL;
}

int session_ncpus(const struct kt_session *s)
{
	return s ? s->ncpus : 0;
}

int session_tracing_on(struct kt_session *s, bool on)
{
	if (!s || !s->inst)
		return -1;
	return tracefs_instance_file_write(s->inst, "tracing_on", on ? "1" : "0") < 0 ? -1 : 0;
}

/* ---- misc ------------------------------------------------------------------------------ */

int session_exclude_tids(struct kt_session *s, const pid_t *tids, int n)
{
	char *buf;
	size_t len, off = 0;
	int i, ret;

	if (!s || !s->inst)
		return -1;
	if (n <= 0)
		return 0;
	len = (size_t)n * 12 + 1;
	buf = malloc(len);
	if (!buf)
		return -1;
	for (i = 0; i < n; i++)
		off += snprintf(buf + off, len - off, "%s%d", i ? " " : "", (int)tids[i]);
	/* Appending keeps the threads excluded before. */
	ret = tracefs_instance_file_append(s->inst, "set_event_notrace_pid", buf);
	if (ret < 0)
		log_debug("session: set_event_notrace_pid '%s': %s", buf, strerror(errno));
	/* The function tracers too: the reader's own read()s would feed it vfs_read and the
	 * rest. Where function tracing is refused this file is as well (EPERM), harmlessly. */
	if (tracefs_file_exists(s->inst, "set_ftrace_notrace_pid") &&
	    tracefs_instance_file_append(s->inst, "set_ftrace_notrace_pid", buf) < 0)
		log_debug("session: set_ftrace_notrace_pid '%s': %s", buf, strerror(errno));
	if (s->top_level && tracefs_file_exists(NULL, "set_ftrace_notrace_pid") &&
	    tracefs_instance_file_append(NULL, "set_ftrace_notrace_pid", buf) < 0)
		log_debug("session: top-level set_ftrace_notrace_pid '%s': %s", buf,
			  strerror(errno));
	free(buf);
	return ret < 0 ? -1 : 0;
}

char *session_current_tracer(struct kt_session *s)
{
	char *t, *r;

	if (!s || !s->inst)
		return NULL;
	t = tracefs_instance_file_read(s->inst, "current_tracer", NULL);
	if (!t)
		return NULL;
	r = strdup(str_trim(t));
	free(t);
	return r;
}
