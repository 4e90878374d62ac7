// SPDX-License-Identifier: GPL-2.0-or-later
/* What a dead ktop left in tracefs, removed (session.h): its instance ktop-<pid>, its probe
 * group ktop_<pid>, the top-level tracer it took (toplevel.h). Nothing of a live process is
 * touched. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
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
#include "util/piddead.h"

/* Whether name is prefix and a pid of this pid namespace (owner.h), the pid in *pid. */
static bool ours(const char *name, const char *prefix, pid_t *pid)
{
	const char *end = owner_parse(name, prefix, pid);

	return end && !*end;
}

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
		} else if (!owner_dead || !ours(name, KT_GROUP_PREFIX, &pid) || !pid_is_dead(pid)) {
			continue;
		}
		snprintf(cmd, sizeof(cmd), "-:%s/%s", name, slash + 1);
		if (session_append_top_file(file, cmd) < 0) {
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
	owner_name(name, sizeof(name), KT_INSTANCE_PREFIX, pid);
	ret = remove_instance(name, busy_ms);
	if (ret == 0)
		removed++;
	owner_name(name, sizeof(name), KT_GROUP_PREFIX, pid);
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
		if (!ours(de->d_name, KT_INSTANCE_PREFIX, &pid) || !pid_is_dead(pid))
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
