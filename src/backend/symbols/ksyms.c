// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel function names from available_filter_functions ("name [module]") or /proc/kallsyms
 * ("address type name [module]", text symbols t/T/w/W). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "ksyms.h"
#include "symlist.h"

#define KALLSYMS "/proc/kallsyms"

static bool is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* One kallsyms line into name (NUL-terminated in place) and module (or NULL). Returns 0 for a
 * text symbol, -1 otherwise. */
static int kallsyms_line(char *line, char **name, char **module)
{
	char *p = strchr(line, ' '), *end, *mod;

	if (!p || !is_text_type(p[1]) || p[2] != ' ')
		return -1;
	*name = p + 3;
	end = strpbrk(*name, " \t\n");
	mod = NULL;
	if (end) {
		if (*end == '\t' && end[1] == '[') {
			mod = end + 2;
			mod[strcspn(mod, "]")] = '\0';
		}
		*end = '\0';
	}
	*module = mod;
	return 0;
}

static struct kt_symlist *load_kallsyms(char *err, size_t errlen)
{
	struct kt_symlist *l;
	char line[512], *name, *mod;
	FILE *f;

	f = fopen(KALLSYMS, "re");
	if (!f) {
		snprintf(err, errlen, "cannot read %s: %s", KALLSYMS, strerror(errno));
		return NULL;
	}
	l = symlist_new();
	while (l && fgets(line, sizeof(line), f)) {
		if (kallsyms_line(line, &name, &mod) < 0)
			continue;
		/* compiler-made local copies (foo.isra.0, foo.cold) cannot be probed by name */
		if (strchr(name, '.'))
			continue;
		if (symlist_add(l, name) < 0) {
			symlist_free(l);
			l = NULL;
		}
	}
	fclose(f);
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	symlist_finish(l);
	return l;
}

static struct kt_symlist *load_filter_functions(int *e)
{
	struct kt_symlist *l;
	char *text, *line, *save = NULL;
	char *path = tracefs_get_tracing_file("available_filter_functions");

	text = path ? tracefs_instance_file_read(NULL, "available_filter_functions", NULL) : NULL;
	*e = errno;
	tracefs_put_tracing_file(path);
	if (!text)
		return NULL;
	l = symlist_new();
	for (line = strtok_r(text, "\n", &save); l && line; line = strtok_r(NULL, "\n", &save)) {
		if (symlist_add_len(l, line, strcspn(line, " \t")) < 0) {
			symlist_free(l);
			l = NULL;
		}
	}
	free(text);
	if (l)
		symlist_finish(l);
	return l;
}

struct kt_symlist *ksyms_load(enum kt_ksyms_source source, char *note, size_t notelen,
			      char *err, size_t errlen)
{
	struct kt_symlist *l;
	int e = 0;

	if (note && notelen)
		note[0] = '\0';
	if (source == KT_KSYMS_FILTER_FUNCTIONS) {
		l = load_filter_functions(&e);
		if (l)
			return l;
		if (note)
			snprintf(note, notelen,
				 "available_filter_functions: %s; names from %s instead",
				 strerror(e), KALLSYMS);
	}
	return load_kallsyms(err, errlen);
}

int ksyms_has_function(const char *func)
{
	char line[512], *name, *mod;
	const char *colon = strchr(func, ':');
	size_t modlen = colon ? (size_t)(colon - func) : 0;
	const char *want = colon ? colon + 1 : func;
	int found = 0;
	FILE *f;

	f = fopen(KALLSYMS, "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (kallsyms_line(line, &name, &mod) < 0 || strcmp(name, want))
			continue;
		if (!colon || (mod && strlen(mod) == modlen && !strncmp(mod, func, modlen)))
			found = 1;
	}
	fclose(f);
	return found;
}
