/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroups as --cgroup and the scope key name them: a directory of a cgroup v2 hierarchy (an
 * absolute path, or one relative to the v2 mount /proc/mounts names) or of a v1 hierarchy.
 * "The cgroup" always means it and every cgroup below it, as perf's cgroup mode counts.
 *
 * Three users: the event scope (scope.c keeps set_event_pid equal to cgroup_tasks), BPF
 * histograms (the v2 id and level for bpf_get_current_ancestor_cgroup_id, and id -> path
 * for by=cgroup keys) and the counters (the directory opened as perf's cgroup fd). Reads
 * only; nothing here writes a cgroup.
 */
#ifndef KTOP_BACKEND_CGROUP_H
#define KTOP_BACKEND_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kt_cgroup {
	char dir[4096];	       /* the directory, absolute */
	char name[256];	       /* for titles: the path below its hierarchy's mount, "/" */
	bool v2;	       /* on the cgroup2 hierarchy (else a v1 one) */
	unsigned long long id; /* v2: the cgroup id (its directory's inode number) */
	int level;	       /* v2: its depth below the root (the root is 0) */
};

/* The cgroup2 mount from /proc/mounts ("/sys/fs/cgroup/unified"); false when none. */
bool cgroup_v2_mount(char *buf, size_t len);
/* Resolves what the user wrote. Returns 0, or -1 with a one-line reason naming the way out
 * (empty, no such directory, not a cgroup filesystem). */
int cgroup_resolve(const char *arg, struct kt_cgroup *cg, char *err, size_t errlen);
/* The threads in the cgroup and below it now (cgroup.threads on v2, tasks on v1), sorted,
 * malloc'd; *n their number (0 is not an error). NULL only on allocation failure. */
pid_t *cgroup_tasks(const struct kt_cgroup *cg, size_t *n);
/* The v2 path (below the mount, "/a/b") of the cgroup whose id is id, found by walking the
 * v2 hierarchy once per unknown id and kept; "cgroup ID" for one gone before it was seen. */
const char *cgroup_path_of_id(unsigned long long id, char *buf, size_t len);

#endif
