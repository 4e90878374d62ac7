// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/maps read once, and mapped files opened as the process sees them (procmaps.h). */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "procmaps.h"

/* "start-end perms offset dev inode   path": fills m (its path points into line). */
static bool parse_line(char *line, struct kt_procmap *m)
{
	unsigned long long start, end, off;
	char perms[8];
	size_t len;
	int at = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s%n", &start, &end, perms, &off, &at) < 4 ||
	    !at)
		return false;
	m->start = start;
	m->end = end;
	m->off = off;
	m->exec = strchr(perms, 'x') != NULL;
	line += at;
	line += strspn(line, " ");
	len = strcspn(line, "\n");
	line[len] = '\0';
	m->deleted = len > 10 && !strcmp(line + len - 10, " (deleted)");
	if (m->deleted)
		line[len - 10] = '\0';
	m->path = line;
	return true;
}

int procmaps_each(pid_t pid, int (*fn)(const struct kt_procmap *m, void *ctx), void *ctx)
{
	char path[64], line[PATH_MAX + 128];
	struct kt_procmap m;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = pid > 0 ? fopen(path, "re") : NULL;
	if (!f)
		return -1;
	while (!ret && fgets(line, sizeof(line), f))
		if (parse_line(line, &m))
			ret = fn(&m, ctx);
	fclose(f);
	return ret;
}

int procmaps_open_regular(const char *path)
{
	struct stat before, after;
	int fd;

	/* stat opens nothing: a FIFO or a device is refused before any open */
	if (stat(path, &before) < 0 || !S_ISREG(before.st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* the name may have been pointed elsewhere between the two */
	if (fstat(fd, &after) < 0 || !S_ISREG(after.st_mode) || after.st_dev != before.st_dev ||
	    after.st_ino != before.st_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

int procmaps_open(pid_t pid, const struct kt_procmap *m)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64, (int)pid,
		 m->start, m->end);
	fd = procmaps_open_regular(path);
	if (fd >= 0 || m->path[0] != '/')
		return fd;
	snprintf(path, sizeof(path), "/proc/%d/root%s", (int)pid, m->path);
	return procmaps_open_regular(path);
}

/* The mount namespace of /proc/PID (or "self"): its inode; 0 unknown. */
static ino_t mnt_ns(const char *pid)
{
	char path[64];
	struct stat sb;

	snprintf(path, sizeof(path), "/proc/%s/ns/mnt", pid);
	return stat(path, &sb) == 0 ? sb.st_ino : 0;
}

void procmaps_reach(pid_t pid, const char *path, char *buf, size_t len)
{
	char id[16];

	snprintf(id, sizeof(id), "%d", (int)pid);
	if (mnt_ns(id) == mnt_ns("self"))
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "/proc/%d/root%s", (int)pid, path);
}
