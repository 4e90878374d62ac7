// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe editor's names, read on this machine (probenames.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "backend/symbols/elfsyms.h"
#include "backend/symbols/ksyms.h"
#include "backend/symbols/probenames.h"
#include "backend/symbols/symlist.h"
#include "backend/tracefs/usdt.h"
#include "util/xalloc.h"

/* A directory holds at most this many entries worth completing from a prompt. */
#define DIR_ENTRIES_MAX 4096

struct lines {
	char *text;
	size_t len, cap, n;
};

static void add(struct lines *l, const char *a, const char *b)
{
	size_t need = strlen(a) + strlen(b) + 2;

	if (l->len + need > l->cap) {
		l->cap = (l->len + need) * 2;
		l->text = xrealloc(l->text, l->cap);
	}
	l->len += (size_t)sprintf(l->text + l->len, "%s%s\n", a, b);
	l->n++;
}

static int symlist_lines(struct kt_symlist *syms, struct lines *l)
{
	for (size_t i = 0; i < syms->count; i++)
		add(l, syms->names[i], "");
	symlist_free(syms);
	return 0;
}

static int dir_lines(const char *dir, struct lines *l, char *text, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		snprintf(text, len, "cannot list %.400s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && l->n < DIR_ENTRIES_MAX)
		if (de->d_name[0] != '.')
			add(l, de->d_name, de->d_type == DT_DIR ? "/" : "");
	closedir(d);
	return 0;
}

/* A file's notes as "PROVIDER:PROBE", or with pid (path NULL) those of every file the
 * process maps as "PATH:PROVIDER:PROBE", as the local editor lists them. */
static int usdt_lines(const char *path, pid_t pid, struct lines *l, char *text, size_t len)
{
	struct kt_usdt_list u = { 0 };
	char name[4096 + 512];

	if ((path ? usdt_read_file(path, &u, text, len) : usdt_read_pid(pid, &u, text, len)) < 0)
		return -1;
	if (!u.n) {
		snprintf(text, len, "%.400s has no USDT probes (no .note.stapsdt notes)",
			 path ? path : "the process");
		usdt_list_free(&u);
		return -1;
	}
	for (size_t i = 0; i < u.n; i++) {
		snprintf(name, sizeof(name), "%s%s%s:%s", path ? "" : u.v[i].path, path ? "" : ":",
			 u.v[i].provider, u.v[i].name);
		add(l, name, "");
	}
	usdt_list_free(&u);
	return 0;
}

int probe_names(const char *what, const char *arg, char **lines, char *text, size_t len)
{
	struct lines l = { 0 };
	char path[4096], note[256];
	struct kt_symlist *syms;
	int ret = -1;

	*lines = NULL;
	text[0] = '\0';
	path[0] = '\0';
	if (!strcmp(what, "ksyms")) {
		syms = ksyms_load(KT_KSYMS_KALLSYMS, note, sizeof(note), text, len);
		ret = syms ? symlist_lines(syms, &l) : -1;
	} else if (!strcmp(what, "dir")) {
		ret = dir_lines(arg, &l, text, len);
	} else if (!strcmp(what, "usdt") && *arg && strspn(arg, "0123456789") == strlen(arg)) {
		ret = usdt_lines(NULL, (pid_t)atoi(arg), &l, text, len);
	} else if (!strcmp(what, "elf") || !strcmp(what, "usdt")) {
		ret = elfsyms_resolve_path(arg, path, sizeof(path), text, len);
		if (ret == 0 && what[0] == 'e')
			ret = (syms = elfsyms_functions(path, text, len)) ? symlist_lines(syms, &l) :
									  -1;
		else if (ret == 0)
			ret = usdt_lines(path, 0, &l, text, len);
	} else {
		snprintf(text, len, "names of '%.100s' are not known to this ktop (%s): "
			 "install the same ktop version on both sides", what, PACKAGE_VERSION);
	}
	if (ret < 0) {
		free(l.text);
		return -1;
	}
	*lines = l.text ? l.text : xstrdup("");
	if (path[0])
		snprintf(text, len, "%s", path);
	else
		snprintf(text, len, "%zu", l.n);
	return 0;
}

char **probe_names_split(char *text)
{
	char *line, *save = NULL, **out;
	size_t n = 0, cap = 1; /* a last line without its newline too */

	for (line = text; line && (line = strchr(line, '\n')); line++)
		cap++;
	out = xcalloc(cap + 1, sizeof(*out));
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && n < cap;
	     line = strtok_r(NULL, "\n", &save))
		out[n++] = xstrdup(line);
	free(text);
	return out;
}
