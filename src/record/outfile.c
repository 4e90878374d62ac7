// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening a recording's path without trusting what is already there (outfile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strutil.h"
#include "outfile.h"

static const char *kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	return "not a regular file";
}

/*
 * Why the existing path may not be replaced, or NULL when it may. The file is looked at
 * through O_PATH, which opens nothing (a device's open has effects of its own). A file in a
 * sticky directory others may write belongs to its owner: root replacing it would be the
 * attack protected_regular stops.
 */
static const char *refusal(const char *path, const struct stat *dir, char *buf, size_t len)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) < 0) {
		snprintf(buf, len, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return buf;
	}
	close(fd);
	if (S_ISLNK(sb.st_mode))
		return "it is a symbolic link: name the file itself, or a new one";
	if (!S_ISREG(sb.st_mode)) {
		snprintf(buf, len, "it is %s, not a regular file: name a new file", kind_of(sb.st_mode));
		return buf;
	}
	if ((dir->st_mode & S_ISVTX) && (dir->st_mode & (S_IWGRP | S_IWOTH)) &&
	    sb.st_uid != geteuid() && sb.st_uid != dir->st_uid) {
		snprintf(buf, len, "it belongs to uid %u in a shared sticky directory: name a new file",
			 (unsigned)sb.st_uid);
		return buf;
	}
	return NULL;
}

/* A new file beside path, to be renamed over it. */
static int open_beside(struct kt_outfile *of, const char *path)
{
	size_t len = strlen(path) + sizeof(".ktop-XXXXXX");

	of->tmp = malloc(len);
	if (!of->tmp)
		return -1;
	snprintf(of->tmp, len, "%s.ktop-XXXXXX", path);
	of->fd = mkostemp(of->tmp, O_CLOEXEC); /* O_EXCL, mode 0600 */
	if (of->fd < 0) {
		free(of->tmp);
		of->tmp = NULL;
	}
	return of->fd;
}

/* The file is ours now: its identity is kept, so that only it is ever removed (one that
 * cannot be identified is left where it is). */
static int created(struct kt_outfile *of)
{
	struct stat sb;

	if (fstat(of->fd, &sb) == 0) {
		of->dev = sb.st_dev;
		of->ino = sb.st_ino;
		of->pending = true;
	}
	return 0;
}

int outfile_open(struct kt_outfile *of, const char *path, bool replace, char *err,
		 size_t errlen)
{
	char *dir = str_dirname(path), why[160];
	const char *no;
	struct stat ds;

	*of = (struct kt_outfile){ .fd = -1 };
	if (!dir) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	errno = 0;
	if (stat(dir, &ds) < 0 || !S_ISDIR(ds.st_mode)) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 errno ? strerror(errno) : "its directory is not a directory");
		free(dir);
		return -1;
	}
	free(dir);
	/* O_EXCL creates a new file and follows no link, not even a dangling one */
	of->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (of->fd >= 0)
		return created(of);
	if (errno != EEXIST) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	no = refusal(path, &ds, why, sizeof(why));
	if (!no && !replace)
		no = "it exists: name a new file, or run ktop with --force to replace it";
	if (no) {
		snprintf(err, errlen, "cannot write %s: %s", path, no);
		return -1;
	}
	if (open_beside(of, path) < 0) {
		snprintf(err, errlen, "cannot write %s: a new file beside it: %s", path,
			 strerror(errno));
		return -1;
	}
	return created(of);
}

int outfile_commit(struct kt_outfile *of, const char *path)
{
	if (of->tmp && rename(of->tmp, path) < 0)
		return -1; /* still pending: outfile_discard() removes it */
	of->pending = false;
	free(of->tmp);
	of->tmp = NULL;
	return 0;
}

void outfile_discard(struct kt_outfile *of, const char *path)
{
	const char *name = of->tmp ? of->tmp : path;
	struct stat there;

	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	/* another user may have put a file of theirs in its place (a directory without the
	 * sticky bit): only ktop's own goes */
	if (of->pending && lstat(name, &there) == 0 && there.st_dev == of->dev &&
	    there.st_ino == of->ino)
		unlink(name);
	of->pending = false;
	free(of->tmp);
	of->tmp = NULL;
}
