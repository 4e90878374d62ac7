// SPDX-License-Identifier: GPL-2.0-or-later
/* A private directory in tracefs's layout holding a remote kernel's files (mirror.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mirror.h"
#include "proto.h"
#include "record/tdat_write.h"
#include "util/piddead.h"
#include "util/xalloc.h"

struct kt_mirror {
	char dir[4096];
};

const char *mirror_dir(const struct kt_mirror *m)
{
	return m->dir;
}

void mirror_tdat_meta(const struct kt_mirror *m, const struct kt_hello *hello, char *uname,
		      size_t unamelen, char *kallsyms, size_t kallsymslen,
		      struct kt_tdat_meta *meta)
{
	snprintf(uname, unamelen, "Linux %s %s", hello->host, hello->kernel);
	snprintf(kallsyms, kallsymslen, "%s/kallsyms", m->dir);
	meta->tracing_dir = m->dir;
	meta->kallsyms = kallsyms;
	meta->uname = uname;
	meta->ncpus = (int)hello->ncpus;
}

/* The names come from the agent: one path component each, no way out of the directory. */
static bool rel_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return false;
	for (;;) {
		size_t n = strcspn(p, "/");

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!p[n])
			return true;
		p += n + 1;
	}
}

int mirror_put(struct kt_mirror *m, const char *rel, const void *p, size_t n)
{
	char path[8192], *slash;
	int fd, saved;
	ssize_t w;

	if (!rel_ok(rel) || snprintf(path, sizeof(path), "%s/%s", m->dir, rel) >= (int)sizeof(path)) {
		errno = EINVAL;
		return -1;
	}
	for (slash = path + strlen(m->dir) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	for (const char *q = p; n; q += w, n -= (size_t)w) {
		w = write(fd, q, n);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
	}
	return close(fd);
}

int mirror_put_format(struct kt_mirror *m, const char *sys, const char *name, const void *text,
		      size_t n, char *rel, size_t rellen)
{
	const char *line = memmem(text, n, "\nID: ", 5);
	char id[32];

	snprintf(rel, rellen, "events/%s/%s/format", sys, name);
	if (mirror_put(m, rel, text, n) < 0)
		return -1;
	if (!line)
		return 0;
	snprintf(rel, rellen, "events/%s/%s/id", sys, name);
	snprintf(id, sizeof(id), "%d\n", atoi(line + 5));
	return mirror_put(m, rel, id, strlen(id));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/*
 * A viewer killed with SIGKILL cannot remove its directory. The next one removes those whose
 * owner, the pid in the name, is gone, as the JVM does with its hsperfdata files: only
 * directories of this user, and never one whose pid runs (a reused pid only delays it).
 */
static void mirror_sweep(const char *tmp)
{
	char path[4096], *end;
	struct dirent *e;
	struct stat st;
	long pid;
	DIR *d;

	d = opendir(tmp);
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "ktop-remote-", 12))
			continue;
		errno = 0;
		pid = strtol(e->d_name + 12, &end, 10);
		if (errno || pid <= 0 || *end != '-' || strlen(end + 1) != 6)
			continue;
		if (pid > INT_MAX || !pid_is_dead((pid_t)pid))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name) >= (int)sizeof(path) ||
		    lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	closedir(d);
}

struct kt_mirror *mirror_new(char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct kt_mirror *m = xcalloc(1, sizeof(*m));

	if (!tmp || !*tmp)
		tmp = "/tmp";
	mirror_sweep(tmp);
	snprintf(m->dir, sizeof(m->dir), "%s/ktop-remote-%ld-XXXXXX", tmp, (long)getpid());
	if (!mkdtemp(m->dir)) {
		snprintf(err, errlen, "cannot make a directory for the remote's files (%s): %s",
			 m->dir, strerror(errno));
		free(m);
		return NULL;
	}
	return m;
}

void mirror_free(struct kt_mirror *m)
{
	if (!m)
		return;
	nftw(m->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(m);
}
