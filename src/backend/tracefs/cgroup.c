// SPDX-License-Identifier: GPL-2.0-or-later
/* cgroup paths, their threads and their ids (see cgroup.h). */
#include "config.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "cgroup.h"
#include "util/fileio.h"
#include "util/strutil.h"

#define CGROUP_V1_MAGIC 0x27e0ebUL
#define CGROUP_V2_MAGIC 0x63677270UL

bool cgroup_v2_mount(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	bool found = false;

	while (f && !found && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			found = true;
		}
	if (f)
		endmntent(f);
	return found;
}

/* The mount point of the cgroup filesystem dir is on: the longest cgroup or cgroup2 mount
 * that is a prefix of it. */
static bool mount_of(const char *dir, char *buf, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	size_t best = 0, n;

	while (f && (m = getmntent(f))) {
		n = strlen(m->mnt_dir);
		if ((strcmp(m->mnt_type, "cgroup2") && strcmp(m->mnt_type, "cgroup")) ||
		    strncmp(dir, m->mnt_dir, n) || (dir[n] && dir[n] != '/') || n <= best)
			continue;
		snprintf(buf, len, "%s", m->mnt_dir);
		best = n;
	}
	if (f)
		endmntent(f);
	return best > 0;
}

int cgroup_resolve(const char *arg, struct kt_cgroup *cg, char *err, size_t errlen)
{
	char v2[1024] = "", mnt[1024], real[4096];
	struct statfs fs;
	struct stat st;
	const char *p;
	int r;

	memset(cg, 0, sizeof(*cg));
	if (!arg || !*arg) {
		str_seterr(err, errlen, "--cgroup needs a cgroup directory such as "
			   "/system.slice/cron.service");
		return -1;
	}
	cgroup_v2_mount(v2, sizeof(v2));
	/* an absolute path that exists is taken as it is; otherwise below the v2 mount */
	if (arg[0] == '/' && stat(arg, &st) == 0)
		r = snprintf(cg->dir, sizeof(cg->dir), "%s", arg);
	else if (v2[0])
		r = snprintf(cg->dir, sizeof(cg->dir), "%s%s%s", v2, arg[0] == '/' ? "" : "/",
			     arg);
	else
		r = -1;
	if (r < 0 || (size_t)r >= sizeof(cg->dir) || stat(cg->dir, &st) < 0) {
		str_seterr(err, errlen, "no cgroup '%s'%s%s%s (ls %s lists them; systemctl status "
			   "UNIT names a service's)", arg, v2[0] ? ": neither a directory nor "
			   "under the cgroup v2 mount " : "", v2, v2[0] ? "" : ": no cgroup v2 mount",
			   v2[0] ? v2 : "/sys/fs/cgroup");
		return -1;
	}
	if (!realpath(cg->dir, real) || statfs(real, &fs) < 0 || !S_ISDIR(st.st_mode) ||
	    ((unsigned long)fs.f_type != CGROUP_V1_MAGIC &&
	     (unsigned long)fs.f_type != CGROUP_V2_MAGIC)) {
		str_seterr(err, errlen, "'%s' is not a cgroup: give a directory of a cgroup "
			   "filesystem, e.g. below %s", cg->dir, v2[0] ? v2 : "/sys/fs/cgroup");
		return -1;
	}
	snprintf(cg->dir, sizeof(cg->dir), "%s", real);
	cg->v2 = (unsigned long)fs.f_type == CGROUP_V2_MAGIC;
	if (!mount_of(cg->dir, mnt, sizeof(mnt)))
		mnt[0] = '\0';
	p = cg->dir + strlen(mnt);
	snprintf(cg->name, sizeof(cg->name), "%s", *p ? p : "/");
	if (cg->v2) {
		cg->id = (unsigned long long)st.st_ino;
		for (p = cg->name; *p; p++)
			cg->level += *p == '/' && p[1];
	}
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Appends the threads of dir and of every cgroup below it. */
static int collect(const char *dir, const char *file, pid_t **v, size_t *n, size_t *cap)
{
	char path[4200], *text, *w, *save = NULL;
	struct dirent *de;
	DIR *d;
	pid_t *grown;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = file_read_all(path, NULL);
	for (w = text ? strtok_r(text, "\n", &save) : NULL; w; w = strtok_r(NULL, "\n", &save)) {
		if (*n == *cap) {
			grown = realloc(*v, (*cap = *cap * 2 + 16) * sizeof(**v));
			if (!grown) {
				free(text);
				return -1;
			}
			*v = grown;
		}
		(*v)[(*n)++] = (pid_t)atoi(w);
	}
	free(text);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (collect(path, file, v, n, cap) < 0) {
			closedir(d);
			return -1;
		}
	}
	if (d)
		closedir(d);
	return 0;
}

pid_t *cgroup_tasks(const struct kt_cgroup *cg, size_t *n)
{
	size_t cap = 16;
	pid_t *v = malloc(cap * sizeof(*v));

	*n = 0;
	if (!v || collect(cg->dir, cg->v2 ? "cgroup.threads" : "tasks", &v, n, &cap) < 0) {
		free(v);
		return NULL;
	}
	qsort(v, *n, sizeof(*v), cmp_pid);
	return v;
}

/* ---- id -> path, for by=cgroup ---------------------------------------------------------- */

struct id_path {
	unsigned long long id;
	char *path; /* NULL: looked for and not found */
};

static struct id_path *known;
static size_t nknown;
static size_t walk_from; /* the v2 mount's length, during a walk */

static struct id_path *lookup(unsigned long long id)
{
	size_t i;

	for (i = 0; i < nknown; i++)
		if (known[i].id == id)
			return &known[i];
	return NULL;
}

static struct id_path *remember(unsigned long long id, const char *path)
{
	struct id_path *e = lookup(id), *grown;

	if (e)
		return e;
	grown = realloc(known, (nknown + 1) * sizeof(*known));
	if (!grown)
		return NULL;
	known = grown;
	e = &known[nknown++];
	e->id = id;
	e->path = path ? strdup(path) : NULL;
	return e;
}

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D)
		remember((unsigned long long)st->st_ino, path[walk_from] ? path + walk_from : "/");
	return 0;
}

const char *cgroup_path_of_id(unsigned long long id, char *buf, size_t len)
{
	struct id_path *e = lookup(id);
	char mnt[1024];

	if (!e && cgroup_v2_mount(mnt, sizeof(mnt))) {
		walk_from = strlen(mnt);
		nftw(mnt, walk_one, 16, FTW_PHYS);
		e = remember(id, NULL); /* a miss is kept too: one walk per unknown id */
	}
	if (e && e->path)
		snprintf(buf, len, "%s", e->path);
	else
		snprintf(buf, len, "cgroup %llu", id);
	return buf;
}
