// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recording's kernel files laid out as tracefs lays them out (header_page, header_event,
 * events/SYS/EV/{format,id}, printk_formats, saved_cmdlines, kallsyms), so that the writer,
 * which reads a tracing directory, writes a part of a recording as it writes a live capture.
 * The sections are read in the order of a version 6 file; tdat_check() has passed the file,
 * and every size is still checked against what is left.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdat.h"
#include "tdat_mirror.h"

struct cut {
	const unsigned char *p;
	size_t left;
	bool bad;
};

static const void *take(struct cut *c, size_t n)
{
	const void *at = c->p;

	if (c->bad || n > c->left) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return at;
}

static uint64_t take_uint(struct cut *c, size_t n)
{
	const unsigned char *p = take(c, n);
	uint64_t v = 0;

	while (p && n--)
		v = v << 8 | p[n];
	return v;
}

static const char *take_str(struct cut *c)
{
	const char *s = (const char *)c->p;
	size_t n = strnlen(s, c->left);

	return take(c, n + 1) ? s : NULL;
}

/* Writes len bytes to dir/name, making the directories on the way. */
static int put(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096], *slash;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	f = fopen(path, "wxe"); /* in a directory of one's own (mkdtemp) */
	if (!f)
		return -1;
	ok = fwrite(data, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* A sized section (a u64 or u32 size, then the bytes) into dir/name. */
static int put_sized(struct cut *c, const char *dir, const char *name, size_t size_len)
{
	uint64_t n = take_uint(c, size_len);
	const void *data = take(c, (size_t)n);

	return data ? put(dir, name, data, (size_t)n) : -1;
}

/* One event format, filed under system (NULL: its own "name:" line's ftrace system). */
static int put_format(struct cut *c, const char *dir, const char *system)
{
	uint64_t n = take_uint(c, 8);
	const char *text = take(c, (size_t)n);
	char name[128], id[32], path[512], *t;

	if (!text || !(t = strndup(text, (size_t)n)))
		return -1;
	if (sscanf(t, "name: %127s", name) != 1 || !strstr(t, "\nID: ") ||
	    sscanf(strstr(t, "\nID: "), "\nID: %31s", id) != 1 || strchr(name, '/') ||
	    strchr(system, '/')) {
		free(t);
		return -1;
	}
	free(t);
	snprintf(path, sizeof(path), "events/%s/%s/format", system, name);
	if (put(dir, path, text, (size_t)n) < 0)
		return -1;
	snprintf(path, sizeof(path), "events/%s/%s/id", system, name);
	return put(dir, path, id, strlen(id));
}

static int put_formats(struct cut *c, const char *dir)
{
	uint32_t i, j, n = (uint32_t)take_uint(c, 4), m;
	const char *system;

	for (i = 0; i < n && !c->bad; i++)
		if (put_format(c, dir, "ftrace") < 0)
			return -1;
	n = (uint32_t)take_uint(c, 4);
	for (i = 0; i < n && !c->bad; i++) {
		system = take_str(c);
		m = (uint32_t)take_uint(c, 4);
		for (j = 0; system && j < m; j++)
			if (put_format(c, dir, system) < 0)
				return -1;
	}
	return c->bad ? -1 : 0;
}

static int mirror_sections(struct cut *c, const char *dir)
{
	const char *tag;

	take(c, TDAT_MAGIC_LEN);
	take_str(c); /* the version, checked before */
	take(c, 2 + 4); /* endianness, long size, page size */
	tag = take_str(c);
	if (!tag || strcmp(tag, "header_page") || put_sized(c, dir, "events/header_page", 8) < 0)
		return -1;
	tag = take_str(c);
	if (!tag || strcmp(tag, "header_event") || put_sized(c, dir, "events/header_event", 8) < 0)
		return -1;
	if (put_formats(c, dir) < 0 || put_sized(c, dir, "kallsyms", 4) < 0 ||
	    put_sized(c, dir, "printk_formats", 4) < 0 || put_sized(c, dir, "saved_cmdlines", 8) < 0)
		return -1;
	return 0;
}

/* The first n bytes of path (fewer if it is shorter), malloc'd; NULL on error. */
static char *read_head(const char *path, uint64_t n, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	char *buf = f && n < SIZE_MAX ? malloc((size_t)n + 1) : NULL;

	if (buf)
		*len = fread(buf, 1, (size_t)n, f);
	if (f)
		fclose(f);
	return buf;
}

int tdat_mirror(const char *path, const struct kt_tdat_info *info, char *dir, size_t dirlen,
		char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct cut c = { 0 };
	size_t len = 0;
	char *buf;
	int ret;

	if (info->version != 6) {
		snprintf(err, errlen, "%s is a version %u trace.dat, and ktop cuts version 6 files "
			 "only (trace-cmd convert --file-version 6 -i %s -o COPY makes one)", path,
			 info->version, path);
		return -1;
	}
	snprintf(dir, dirlen, "%s/ktop-mirror.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "cannot make a directory in %s: %s (set TMPDIR to one that "
			 "can be written)", tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return -1;
	}
	/* the sections before the data: kallsyms and formats, megabytes at most */
	buf = read_head(path, info->cpus ? info->cpus[0].off : info->file_size, &len);
	c.p = (const unsigned char *)buf;
	c.left = buf ? len : 0;
	ret = buf ? mirror_sections(&c, dir) : -1;
	free(buf);
	if (ret < 0) {
		tdat_mirror_remove(dir);
		snprintf(err, errlen, "%s: its formats could not be copied out (%s)", path,
			 errno ? strerror(errno) : "a section is cut short");
	}
	return ret;
}

/* What put() and put_format() made, deepest first. */
static void remove_tree(const char *path, int depth)
{
	struct stat st;
	char sub[4096];
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode) && depth < 4 && (d = opendir(path))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
				remove_tree(sub, depth + 1);
			}
		closedir(d);
		rmdir(path);
		return;
	}
	unlink(path);
}

void tdat_mirror_remove(const char *dir)
{
	if (dir && *dir)
		remove_tree(dir, 0);
}
