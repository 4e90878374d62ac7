// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop's tracefs session. Everything ktop writes to tracefs goes through here, and it writes
 * only inside its own instance, ktop-<pid>, plus "-:ktop_<pid>/..." lines to dynamic_events
 * for groups whose owner is dead. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "backend/session.h"
#include "backend/toplevel.h"
#include "backend/triggers.h"
#include "fileio.h"
#include "log.h"
#include "strutil.h"
#include "xalloc.h"

#define TRACEFS_PATH "/sys/kernel/tracing"
#define DEBUGFS_PATH "/sys/kernel/debug"
#define DEFAULT_BUFFER_KB (64UL * 1024)
#define MIN_BUFFER_KB 1024UL
#define ROOT_HINT "run ktop as root or with CAP_SYS_ADMIN"
#define LIST_HINT "see ktop --list or the picker"

static int open_sessions; /* in this process: at most one, its name is the pid */

struct kt_session {
	struct tracefs_instance *inst;
	char name[32];
	unsigned long buffer_kb; /* per CPU: what the kernel holds now */
	unsigned long want_kb;	 /* what the first recording gets (session_size_buffer) */
	bool sized;		 /* want_kb is in place */
	int ncpus;
	char *events_dir; /* <instance>/events, libtracefs-allocated */
	bool top_level;	  /* the tracer runs at the top level (--top-level, toplevel.h) */
	char **triggered; /* "system:event" of each event ktop put a trigger on */
	size_t ntriggered;
};

/* The way out for an errno, with its leading " (" and closing ")", or "". */
static const char *errno_hint(int e)
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

/* ---- mount point ----------------------------------------------------------------------- */

int session_mounted_tracing_dir(char *buf, size_t len)
{
	char dev[256], dir[PATH_MAX], type[64];
	char debugfs[PATH_MAX] = "";
	int found = 0;
	FILE *f;

	f = fopen("/proc/mounts", "re");
	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "tracefs")) {
			/* The canonical place wins over a second mount elsewhere. */
			if (!found || !strcmp(dir, TRACEFS_PATH))
				snprintf(buf, len, "%s", dir);
			found = 1;
		} else if (!strcmp(type, "debugfs") && !debugfs[0]) {
			if (snprintf(debugfs, sizeof(debugfs), "%s/tracing", dir) >=
			    (int)sizeof(debugfs))
				debugfs[0] = '\0';
		}
	}
	fclose(f);
	if (found)
		return 0;
	if (debugfs[0] && access(debugfs, F_OK) == 0) {
		/* Old kernels: tracefs auto-mounted inside debugfs. */
		snprintf(buf, len, "%s", debugfs);
		return 0;
	}
	return -1;
}

static int tracefs_in_kernel(void)
{
	char line[128];
	int found = 0;
	FILE *f;

	f = fopen("/proc/filesystems", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\ttracefs\n"))
			found = 1;
	fclose(f);
	return found;
}

const char *session_tracing_dir(char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;
	const char *dir;
	int e;

	if (session_mounted_tracing_dir(path, sizeof(path)) < 0) {
		if (tracefs_in_kernel() == 0) {
			str_seterr(err, errlen,
			       "this kernel has no tracefs (it was built without CONFIG_TRACING; "
			       "boot a kernel with tracing support)");
			return NULL;
		}
		if (mount("nodev", TRACEFS_PATH, "tracefs", 0, NULL) < 0) {
			e = errno;
			if (mount("nodev", DEBUGFS_PATH, "debugfs", 0, NULL) < 0 ||
			    session_mounted_tracing_dir(path, sizeof(path)) < 0) {
				str_seterr(err, errlen, "cannot mount tracefs at %s: %s%s",
				       TRACEFS_PATH, strerror(e), errno_hint(e));
				return NULL;
			}
		}
		log_debug("session: mounted tracefs");
		if (session_mounted_tracing_dir(path, sizeof(path)) < 0) {
			str_seterr(err, errlen, "mounted tracefs at %s but cannot find it in "
			       "/proc/mounts", TRACEFS_PATH);
			return NULL;
		}
	}
	/* Asked before libtracefs is: its failure paths leak, and the user wants the cause. */
	if (faccessat(AT_FDCWD, path, R_OK | W_OK | X_OK, AT_EACCESS) < 0) {
		e = errno;
		if ((e == EACCES || e == EPERM) && stat(path, &st) == 0)
			str_seterr(err, errlen, "cannot use tracefs at %s: %s (its owner is uid "
				   "%u, mode %04o, and no capability but CAP_DAC_OVERRIDE opens "
				   "it: run ktop as root)", path, strerror(e), (unsigned)st.st_uid,
				   (unsigned)(st.st_mode & 07777));
		else
			str_seterr(err, errlen, "cannot use tracefs at %s: %s", path, strerror(e));
		return NULL;
	}
	dir = tracefs_tracing_dir();
	if (!dir) {
		e = errno ? errno : ENOENT;
		str_seterr(err, errlen, "cannot find the tracefs mount point: %s%s", strerror(e),
		       errno_hint(e));
		return NULL;
	}
	return dir;
}

/* ---- small file helpers ---------------------------------------------------------------- */

/* Appends (never truncates: O_TRUNC on dynamic_events deletes every dynamic event of every
 * user) one line to a top-level tracefs file. */
static int append_top_file(const char *file, const char *line)
{
	char *path = tracefs_get_tracing_file(file);
	int ret, e;

	if (!path)
		return -1;
	ret = file_write_str(path, line, true);
	e = errno;
	tracefs_put_tracing_file(path);
	errno = e;
	return ret;
}

static int parse_owner(const char *name, const char *prefix, pid_t *pid)
{
	size_t plen = strlen(prefix);
	char *end;
	long v;

	if (strncmp(name, prefix, plen) || !isdigit((unsigned char)name[plen]))
		return -1;
	errno = 0;
	v = strtol(name + plen, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return -1;
	*pid = (pid_t)v;
	return 0;
}

/* Dead means no such process, or a zombie: a killed ktop whose parent has not reaped it yet
 * holds no file any more. */
static bool pid_is_dead(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool dead = false;

	if (pid == getpid())
		return false;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		return access(path, F_OK) < 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'))
			dead = true;
	}
	fclose(f);
	return dead;
}

/* ---- removal of instances and probe groups --------------------------------------------- */

/* Removes the dynamic events of group (exactly) or, with owner_dead, of every ktop_<pid>
 * group whose pid is dead. Returns how many were removed. */
static int remove_dynevents(const char *group, bool owner_dead)
{
	char *text, *line, *save = NULL, *name, *slash, *sp;
	char cmd[512];
	const char *file = "dynamic_events";
	int removed = 0;
	pid_t pid;

	if (!tracefs_file_exists(NULL, file))
		file = "uprobe_events";
again:
	text = tracefs_instance_file_read(NULL, file, NULL);
	if (!text)
		goto next_file;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* "p:group/event target args", "r10:group/event ...", "u:..." */
		name = strchr(line, ':');
		if (!name)
			continue;
		name++;
		sp = strchr(name, ' ');
		if (sp)
			*sp = '\0';
		slash = strchr(name, '/');
		if (!slash)
			continue;
		*slash = '\0';
		if (group) {
			if (strcmp(name, group))
				continue;
		} else if (!owner_dead || parse_owner(name, KT_GROUP_PREFIX, &pid) < 0 ||
			   !pid_is_dead(pid)) {
			continue;
		}
		snprintf(cmd, sizeof(cmd), "-:%s/%s", name, slash + 1);
		if (append_top_file(file, cmd) < 0) {
			log_debug("session: cannot remove dynamic event %s/%s: %s", name, slash + 1,
				  strerror(errno));
			continue;
		}
		log_debug("session: removed dynamic event %s/%s", name, slash + 1);
		removed++;
	}
	free(text);
next_file:
	/* Kernels without dynamic_events keep uprobes and kprobes apart. */
	if (!strcmp(file, "uprobe_events") && tracefs_file_exists(NULL, "kprobe_events")) {
		file = "kprobe_events";
		goto again;
	}
	return removed;
}

/* rmdir of instances/<name>, retrying while it is busy for up to busy_ms (readers of a dying
 * process are still closing). 0 removed, 1 not there, -1 failed. */
static int remove_instance(const char *name, int busy_ms)
{
	struct tracefs_instance *inst;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int waited = 0, ret;

	if (!tracefs_instance_exists(name))
		return 1;
	inst = tracefs_instance_alloc(NULL, name);
	if (!inst)
		return -1;
	/* A trigger naming another event (enable_event) can keep the instance busy. */
	triggers_clear_instance(name);
	for (;;) {
		ret = tracefs_instance_destroy(inst);
		if (!ret || errno != EBUSY || waited >= busy_ms)
			break;
		nanosleep(&ts, NULL);
		waited += 20;
	}
	if (ret < 0) {
		log_debug("session: cannot remove instance %s: %s", name, strerror(errno));
		ret = tracefs_instance_exists(name) ? -1 : 0;
	} else {
		log_debug("session: removed instance %s", name);
	}
	tracefs_instance_free(inst);
	return ret;
}

int session_remove_owned(pid_t pid, int busy_ms)
{
	char name[64];
	int removed = 0, ret;

	if (toplevel_restore(pid, busy_ms) > 0)
		removed++;
	snprintf(name, sizeof(name), KT_INSTANCE_PREFIX "%d", (int)pid);
	ret = remove_instance(name, busy_ms);
	if (ret == 0)
		removed++;
	snprintf(name, sizeof(name), KT_GROUP_PREFIX "%d", (int)pid);
	removed += remove_dynevents(name, false);
	return removed;
}

int session_remove_stale(void)
{
	struct dirent *de;
	char *path;
	int removed = 0;
	pid_t pid;
	DIR *d;

	if (!tracefs_tracing_dir())
		return 0;
	/* readdir rather than tracefs_instances(): libtracefs 1.6 leaks its compiled regex. */
	path = tracefs_get_tracing_file("instances");
	d = path ? opendir(path) : NULL;
	tracefs_put_tracing_file(path);
	while (d && (de = readdir(d))) {
		if (parse_owner(de->d_name, KT_INSTANCE_PREFIX, &pid) < 0 || !pid_is_dead(pid))
			continue;
		/* A reader fd still open somewhere keeps it busy: skip, not wait. */
		if (remove_instance(de->d_name, 0) == 0)
			removed++;
	}
	if (d)
		closedir(d);
	/* After the instances: an event enabled in one cannot be removed. */
	removed += remove_dynevents(NULL, true);
	removed += toplevel_restore_stale(pid_is_dead);
	return removed;
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

static int set_buffer(struct kt_session *s, unsigned long kb, char *err, size_t errlen)
{
	long long val;
	char num[32];
	int e;

	/* Written as buffer_size_kb, so the unit is never in doubt; ENOMEM halves it. */
	for (;;) {
		snprintf(num, sizeof(num), "%lu", kb);
		if (tracefs_instance_file_write(s->inst, "buffer_size_kb", num) >= 0)
			break;
		e = errno;
		if (e != ENOMEM || kb / 2 < MIN_BUFFER_KB) {
			str_seterr(err, errlen,
			       "cannot set the ring buffer of %s to %lu KiB per CPU: %s%s",
			       s->name, kb, strerror(e), errno_hint(e));
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
	snprintf(s->name, sizeof(s->name), KT_INSTANCE_PREFIX "%d", (int)getpid());
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
		       errno_hint(e));
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

/* ---- events ---------------------------------------------------------------------------- */

typedef int (*event_fn)(struct kt_session *s, const char *system, const char *event,
			void *ctx);

static bool glob_match(const char *glob, const char *name)
{
	return !glob || !fnmatch(glob, name, 0);
}

static bool is_glob(const char *p)
{
	return p && strpbrk(p, "*?[");
}

static int read_event_file(struct kt_session *s, const char *system, const char *event,
			   const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s/%s/%s", s->events_dir, system, event, file);
	return file_read_small(path, buf, len) < 0 ? -1 : 0;
}

static int write_event_file(struct kt_session *s, const char *system, const char *event,
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

/* Calls fn for every event of the instance that has an enable file and matches the globs
 * (NULL: any), in directory order. Stops at the first negative return. Returns the number
 * of matches, or the negative return. */
static int for_each_event(struct kt_session *s, const char *system, const char *event,
			  event_fn fn, void *ctx)
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

	if (read_event_file(s, system, event, "enable", buf, sizeof(buf)) < 0) {
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
	if (write_event_file(s, system, event, "enable", c->on ? "1" : "0") < 0) {
		c->err = errno;
		snprintf(c->failed, sizeof(c->failed), "%s:%s", system, event);
		return -1;
	}
	return 0;
}

static void format_spec(char *buf, size_t len, const char *system, const char *event)
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
	format_spec(spec, sizeof(spec), system, event);
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
		n = for_each_event(s, system, NULL, toggle_one, &c);
		if (n < 0)
			goto fail;
		if (n > 0 && c.changed) {
			if (write_event_file(s, system, NULL, "enable", on ? "1" : "0") < 0) {
				c.err = errno;
				snprintf(c.failed, sizeof(c.failed), "%s", spec);
				goto fail;
			}
		}
	} else {
		n = for_each_event(s, system, event, toggle_one, &c);
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
	       c.failed[0] ? c.failed : spec, strerror(c.err), errno_hint(c.err));
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

	if (read_event_file(s, system, event, "enable", buf, sizeof(buf)) == 0 && buf[0] == '1')
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
		return read_event_file(s, system, event, "enable", buf, sizeof(buf)) == 0 &&
		       buf[0] == '1';
	}
	if (for_each_event(s, system, event, count_enabled, &c) <= 0)
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

/* ---- filters --------------------------------------------------------------------------- */

/* The last entry of an error_log (libtracefs finds it) without its timestamp:
 *   "event filter parse error: error: Invalid value (did you forget quotes)?\n"
 *   "  Command: prev_pid >\n"
 *   "                      ^"
 * Returns a malloc'd string or NULL. */
static char *last_error(struct tracefs_instance *inst)
{
	char *entry = tracefs_error_last(inst), *p = entry;

	if (!entry || *p != '[' || !(p = strchr(p, ']')))
		return entry;
	for (p++; *p == ' '; p++)
		;
	memmove(entry, p, strlen(p) + 1);
	return entry;
}

int session_tracing_on(struct kt_session *s, bool on)
{
	if (!s || !s->inst)
		return -1;
	return tracefs_instance_file_write(s->inst, "tracing_on", on ? "1" : "0") < 0 ? -1 : 0;
}

/* The last entry of the instance's error_log. */
char *session_last_error(struct kt_session *s)
{
	return last_error(s->inst);
}

static char *read_filter(struct kt_session *s, const char *system, const char *event)
{
	char buf[4096], *t;

	if (read_event_file(s, system, event, "filter", buf, sizeof(buf)) < 0)
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
	return write_event_file(s, system, event, "filter", filter && *filter ? filter : "0");
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
			       event, strerror(e), errno_hint(e));
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
	format_spec(spec, sizeof(spec), system, event);
	n = for_each_event(s, system, event, filter_one, &c);
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

/* ---- dynamic events ------------------------------------------------------------------- */

int session_dynevent_command(const char *kind_file, const char *cmd, char *err, size_t errlen)
{
	const char *file = tracefs_file_exists(NULL, "dynamic_events") ? "dynamic_events" :
									  kind_file;
	char *before, *after, *kmsg = NULL;
	int e;

	/* The top-level error_log is shared: it is compared, never cleared. */
	before = tracefs_error_all(NULL);
	if (append_top_file(file, cmd) == 0) {
		free(before);
		log_debug("session: %s: %s", file, cmd);
		return 0;
	}
	e = errno;
	after = tracefs_error_all(NULL);
	if (after && (!before || strcmp(before, after)))
		kmsg = last_error(NULL);
	/* Only the entry our command caused: its "Command:" line quotes it. */
	if (kmsg && !strstr(kmsg, "Command:")) {
		free(kmsg);
		kmsg = NULL;
	}
	if (kmsg)
		str_seterr(err, errlen, "%s", kmsg);
	else
		str_seterr(err, errlen, "%s: %s%s", file, strerror(e), errno_hint(e));
	log_debug("session: %s: '%s' rejected: %s", file, cmd, strerror(e));
	free(kmsg);
	free(before);
	free(after);
	errno = e;
	return -1;
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
