// SPDX-License-Identifier: GPL-2.0-or-later
/* The top level, borrowed. The state file is a small script of what puts the top level back,
 * one command a line, replayed in order:
 *   expect FILE VALUE the top level is still ktop's only while FILE reads VALUE (the tracer
 *                     ktop set): otherwise another tool has it since, and nothing is replayed
 *   set FILE VALUE    write VALUE to FILE (current_tracer first, so tracing stops first)
 *   clear FILE        truncate FILE
 *   add FILE ENTRY    append ENTRY to FILE (a saved list entry or pid)
 * It is written in full before ktop changes anything, so every path out can replay it. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "owner.h"
#include "session.h"
#include "toplevel.h"
#include "tracers.h"
#include "util/fileio.h"
#include "util/log.h"
#include "util/strutil.h"

#define STATE_SUFFIX ".toplevel"

/* Lists ktop may write at the top level, saved entry by entry. */
static const char *const saved_lists[] = {
	"set_ftrace_notrace", "set_graph_notrace", "set_ftrace_pid", "set_ftrace_notrace_pid",
	NULL,
};
/* Lists that must be empty for the top level to count as idle, cleared on restore. */
static const char *const idle_lists[] = {
	"set_ftrace_filter", "set_graph_function", "set_event", NULL,
};

static void state_path(pid_t pid, char *buf, size_t len)
{
	char name[64];

	owner_name(name, sizeof(name), KT_INSTANCE_PREFIX, pid);
	snprintf(buf, len, "%s/%s" STATE_SUFFIX, KT_TOPLEVEL_DIR, name);
}

const char *toplevel_needed(struct kt_session *s, const char *tracer, bool graph_lists)
{
	struct tracefs_instance *inst = session_instance(s);

	if (!inst)
		return NULL;
	if (tracer && !tracers_instance_offers(inst, tracer) && tracers_instance_offers(NULL, tracer))
		return tracer;
	if (graph_lists && !tracefs_file_exists(inst, "set_graph_function") &&
	    tracefs_file_exists(NULL, "set_graph_function"))
		return "set_graph_function";
	return NULL;
}

/* The entries of a top-level list, without comments and "no pid"; NULL if unreadable. */
static char *read_entries(const char *file)
{
	char *path = tracefs_get_tracing_file(file), *text, *out, *line, *save = NULL;
	size_t len = 0;

	/* not tracefs_instance_file_read(): it gives NULL for an empty file */
	text = path ? file_read_all(path, NULL) : NULL;
	tracefs_put_tracing_file(path);
	if (!text)
		return NULL;
	out = calloc(1, strlen(text) + 1);
	for (line = strtok_r(text, "\n", &save); out && line; line = strtok_r(NULL, "\n", &save)) {
		line = str_trim(line);
		if (!*line || *line == '#' || !strcmp(line, "no pid"))
			continue;
		len += (size_t)sprintf(out + len, "%s\n", line);
	}
	free(text);
	return out;
}

/* Why the top level is busy, or NULL when it is idle. */
static const char *busy_reason(char *buf, size_t len)
{
	char *v;
	size_t i;

	v = tracefs_instance_file_read(NULL, "current_tracer", NULL);
	if (!v)
		return "cannot read its current_tracer";
	if (strcmp(str_trim(v), "nop")) {
		snprintf(buf, len, "its current_tracer is %s", str_trim(v));
		free(v);
		return buf;
	}
	free(v);
	for (i = 0; idle_lists[i]; i++) {
		if (!tracefs_file_exists(NULL, idle_lists[i]))
			continue;
		v = read_entries(idle_lists[i]);
		if (!v || *v) {
			snprintf(buf, len, "its %s is %s", idle_lists[i], v ? "not empty" : "unreadable");
			free(v);
			return buf;
		}
		free(v);
	}
	return NULL;
}

static int write_state(FILE *f)
{
	char *v, *p, *line, *save = NULL;
	size_t i;

	fprintf(f, "set current_tracer nop\n");
	for (i = 0; idle_lists[i]; i++)
		if (strcmp(idle_lists[i], "set_event") && tracefs_file_exists(NULL, idle_lists[i]))
			fprintf(f, "clear %s\n", idle_lists[i]);
	for (i = 0; saved_lists[i]; i++) {
		if (!tracefs_file_exists(NULL, saved_lists[i]))
			continue;
		v = read_entries(saved_lists[i]);
		if (!v)
			return -1;
		fprintf(f, "clear %s\n", saved_lists[i]);
		for (line = strtok_r(v, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(f, "add %s %s\n", saved_lists[i], line);
		free(v);
	}
	v = tracefs_get_clock(NULL);
	if (!v)
		return -1;
	fprintf(f, "set trace_clock %s\n", v);
	free(v);
	/* "7 (expanded: 1408)" before the top-level buffer was first used: 1408 */
	v = tracefs_instance_file_read(NULL, "buffer_size_kb", NULL);
	if (!v)
		return -1;
	p = strstr(v, "expanded: ");
	fprintf(f, "set buffer_size_kb %lu\n", strtoul(p ? p + 10 : v, NULL, 10));
	free(v);
	v = tracefs_instance_file_read(NULL, "tracing_on", NULL);
	if (!v)
		return -1;
	fprintf(f, "set tracing_on %s\n", str_trim(v));
	free(v);
	/* what ktop traced into the top-level buffer goes with it */
	fprintf(f, "clear trace\n");
	return 0;
}

int toplevel_claim(const char *tracer, char *err, size_t errlen)
{
	char path[PATH_MAX], why[256];
	const char *busy;
	FILE *f;
	int fd, ret;

	state_path(getpid(), path, sizeof(path));
	/* a file under this pid was left by a dead ktop that had it */
	toplevel_restore(getpid(), 0);
	busy = busy_reason(why, sizeof(why));
	if (busy) {
		str_seterr(err, errlen, "--top-level: tracefs's top level is in use (%s): ktop "
			   "uses it only when idle", busy);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		str_seterr(err, errlen, "--top-level: cannot save the top level's state to %s: %s "
			   "(ktop changes it only when it can put it back)", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (tracer)
		fprintf(f, "expect current_tracer %s\n", tracer);
	ret = write_state(f);
	if (fclose(f) != 0 || ret < 0) {
		str_seterr(err, errlen, "--top-level: cannot save the top level's state to %s",
			   path);
		unlink(path);
		return -1;
	}
	log_debug("toplevel: state saved to %s", path);
	return 0;
}

static int replay(char *line, int busy_ms)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	char *cmd = line, *file, *value = NULL;
	int waited = 0, ret;

	file = strchr(cmd, ' ');
	if (!file)
		return -1;
	*file++ = '\0';
	if (strcmp(cmd, "clear")) {
		value = strchr(file, ' ');
		if (!value)
			return -1;
		*value++ = '\0';
	}
	for (;;) {
		if (!strcmp(cmd, "clear"))
			ret = tracefs_instance_file_clear(NULL, file);
		else if (!strcmp(cmd, "add"))
			ret = tracefs_instance_file_append(NULL, file, value);
		else if (!strcmp(cmd, "set"))
			ret = tracefs_instance_file_write(NULL, file, value);
		else
			return -1;
		/* a dying ktop's trace pipes may still be open: the tracer cannot change yet */
		if (ret >= 0 || errno != EBUSY || waited >= busy_ms)
			break;
		nanosleep(&ts, NULL);
		waited += 20;
	}
	if (ret < 0)
		log_debug("toplevel: %s %s%s%s: %s", cmd, file, value ? " " : "",
			  value ? value : "", strerror(errno));
	return ret < 0 ? -1 : 0;
}

/* Whether "expect FILE VALUE" still holds: FILE reads VALUE. */
static bool still_ours(char *line)
{
	char *file = line + strlen("expect "), *value = strchr(file, ' '), *now;
	bool same;

	if (!value)
		return false;
	*value++ = '\0';
	now = tracefs_instance_file_read(NULL, file, NULL);
	same = now && !strcmp(str_trim(now), value);
	if (!same)
		log_debug("toplevel: %s is %s, not the %s ktop left: another tool has the top level, "
			  "left as it is", file, now ? str_trim(now) : "unreadable", value);
	free(now);
	return same;
}

int toplevel_restore(pid_t pid, int busy_ms)
{
	char path[PATH_MAX], line[4096];
	bool ours = true;
	int ret = 1;
	FILE *f;

	state_path(pid, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return 0;
	/* the expect line comes first: nothing is replayed before it is checked */
	while (ours && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "expect ", 7))
			ours = still_ours(line);
		else if (*line && replay(line, busy_ms) < 0)
			ret = -1;
	}
	fclose(f);
	if (!ours)
		ret = 0;
	/* Replayed once only: a later replay could undo what another tracer set up since. */
	unlink(path);
	log_debug("toplevel: restored from %s%s", path, ret < 0 ? " (a step failed)" : "");
	return ret;
}

int toplevel_restore_stale(bool (*is_dead)(pid_t pid))
{
	struct dirent *de;
	int restored = 0;
	const char *end;
	DIR *d;
	pid_t pid;

	d = opendir(KT_TOPLEVEL_DIR);
	while (d && (de = readdir(d))) {
		end = owner_parse(de->d_name, KT_INSTANCE_PREFIX, &pid);
		if (!end || strcmp(end, STATE_SUFFIX) || !is_dead(pid))
			continue;
		if (toplevel_restore(pid, 0) > 0)
			restored++;
	}
	if (d)
		closedir(d);
	return restored;
}
