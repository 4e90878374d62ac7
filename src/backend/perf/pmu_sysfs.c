// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PMU descriptions in sysfs (see pmu_sysfs.h). The same reading perf's util/pmu.c does,
 * written small: a format file names up to a few bit ranges of one config word, and a
 * term's value is spread over them from its low bits up; an alias is a term list of its
 * own.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu_sysfs.h"
#include "util/fileio.h"

#define ALIAS_DEPTH_MAX 4 /* an alias naming an alias naming ... */

void pmu_attr_init(struct kt_pmu_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->scale = 1.0;
}

/* A name that is one path component: no '/', not "." or "..", not empty. */
static bool safe_name(const char *s)
{
	return s && *s && *s != '.' && !strchr(s, '/') && strlen(s) < 256;
}

bool pmu_sysfs_exists(const char *root, const char *pmu)
{
	char path[4096];

	if (!safe_name(pmu))
		return false;
	snprintf(path, sizeof(path), "%s/%s/type", root, pmu);
	return access(path, F_OK) == 0;
}

int pmu_sysfs_type(const char *root, const char *pmu, uint32_t *type, char *err,
		   size_t errlen)
{
	char path[4096], buf[32], *end;
	unsigned long v;

	if (!safe_name(pmu)) {
		snprintf(err, errlen, "bad PMU name '%s'", pmu ? pmu : "");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s/type", root, pmu);
	if (file_read_trimmed(path, buf, sizeof(buf)) < 0) {
		snprintf(err, errlen, "no PMU named '%s' in this kernel (%s: %s)", pmu, path,
			 strerror(errno));
		return -1;
	}
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (errno || end == buf || *end || v > UINT32_MAX) {
		snprintf(err, errlen, "%s holds '%s', not a PMU type number", path, buf);
		return -1;
	}
	*type = (uint32_t)v;
	return 0;
}

static uint64_t *config_word(struct kt_pmu_attr *a, const char *field, size_t flen)
{
	if (flen == 6 && !strncmp(field, "config", 6))
		return &a->config;
	if (flen == 7 && !strncmp(field, "config1", 7))
		return &a->config1;
	if (flen == 7 && !strncmp(field, "config2", 7))
		return &a->config2;
	return NULL;
}

/* Parses "lo-hi" or "bit" at *p, advancing it. */
static int parse_range(const char **p, unsigned *lo, unsigned *hi)
{
	unsigned long a, b;
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	a = strtoul(*p, &end, 10);
	b = a;
	if (*end == '-') {
		const char *q = end + 1;

		if (*q < '0' || *q > '9')
			return -1;
		b = strtoul(q, &end, 10);
	}
	if (a > 63 || b > 63 || b < a)
		return -1;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	*p = end;
	return 0;
}

int pmu_sysfs_format_apply(const char *format, uint64_t value, struct kt_pmu_attr *a,
			   char *err, size_t errlen)
{
	const char *colon = strchr(format, ':'), *p;
	unsigned lo, hi, b, nbits = 0;
	uint64_t *word, mask = 0, bits = 0, v = value;

	if (!colon) {
		snprintf(err, errlen, "malformed format '%s' (expected config:LO-HI)", format);
		return -1;
	}
	word = config_word(a, format, (size_t)(colon - format));
	if (!word) {
		snprintf(err, errlen, "format '%s' names a field ktop cannot set (config, config1 "
			 "and config2 only)", format);
		return -1;
	}
	/* First pass: validate and count the bits, so nothing is half-applied. */
	for (p = colon + 1;;) {
		if (parse_range(&p, &lo, &hi) < 0) {
			snprintf(err, errlen, "malformed format '%s'", format);
			return -1;
		}
		for (b = lo; b <= hi; b++) {
			mask |= 1ULL << b;
			nbits++;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p && *p != '\n' && *p != ' ') {
			snprintf(err, errlen, "malformed format '%s'", format);
			return -1;
		}
		break;
	}
	if (nbits < 64 && (value >> nbits)) {
		snprintf(err, errlen, "value 0x%llx does not fit in %u bits (%s)",
			 (unsigned long long)value, nbits, format);
		return -1;
	}
	for (p = colon + 1;;) {
		parse_range(&p, &lo, &hi);
		for (b = lo; b <= hi; b++, v >>= 1)
			if (v & 1)
				bits |= 1ULL << b;
		if (*p != ',')
			break;
		p++;
	}
	*word = (*word & ~mask) | bits;
	return 0;
}

static int parse_value(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static void read_scale_unit(const char *root, const char *pmu, const char *alias,
			    struct kt_pmu_attr *a)
{
	char path[4096], buf[64], *end;
	double d;

	snprintf(path, sizeof(path), "%s/%s/events/%s.scale", root, pmu, alias);
	if (file_read_trimmed(path, buf, sizeof(buf)) > 0) {
		d = strtod(buf, &end);
		if (end != buf && !*end && d > 0)
			a->scale = d;
	}
	snprintf(path, sizeof(path), "%s/%s/events/%s.unit", root, pmu, alias);
	if (file_read_trimmed(path, buf, sizeof(buf)) > 0)
		snprintf(a->unit, sizeof(a->unit), "%.15s", buf);
}

static int encode(const char *root, const char *pmu, const char *terms, struct kt_pmu_attr *a,
		  int depth, char *err, size_t errlen)
{
	char *copy, *save = NULL, *term, *eq, *name;
	char path[4096], text[1024];
	uint64_t value, *word;
	int ret = -1;

	if (depth > ALIAS_DEPTH_MAX) {
		snprintf(err, errlen, "aliases of PMU %s nest too deeply", pmu);
		return -1;
	}
	copy = strdup(terms);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (term = strtok_r(copy, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		while (*term == ' ' || *term == '\n')
			term++;
		name = term;
		eq = strchr(term, '=');
		if (eq)
			*eq = '\0';
		if (!*name) {
			snprintf(err, errlen, "empty term in '%s'", terms);
			goto out;
		}
		if (!safe_name(name)) {
			snprintf(err, errlen, "bad term '%s' for PMU %s", name, pmu);
			goto out;
		}
		if (eq && !strcmp(eq + 1, "?")) {
			snprintf(err, errlen, "term '%s' of PMU %s needs a value (%s=N)", name, pmu,
				 name);
			goto out;
		}
		if (eq && parse_value(eq + 1, &value) < 0) {
			snprintf(err, errlen, "term %s=%s of PMU %s: not a number (decimal or 0x "
				 "hex)", name, eq + 1, pmu);
			goto out;
		}
		/* The raw config words themselves. */
		word = config_word(a, name, strlen(name));
		if (word) {
			if (!eq) {
				snprintf(err, errlen, "term '%s' needs a value (%s=0x...)", name,
					 name);
				goto out;
			}
			*word = value;
			continue;
		}
		/* Sampling settings mean nothing to a counter. */
		if (eq && (!strcmp(name, "period") || !strcmp(name, "freq")))
			continue;
		snprintf(path, sizeof(path), "%s/%s/format/%s", root, pmu, name);
		if (file_read_trimmed(path, text, sizeof(text)) > 0) {
			if (pmu_sysfs_format_apply(text, eq ? value : 1, a, err, errlen) < 0) {
				char why[256];

				snprintf(why, sizeof(why), "%s", err);
				snprintf(err, errlen, "term %s of PMU %s: %s", name, pmu, why);
				goto out;
			}
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/events/%s", root, pmu, name);
		if (!eq && file_read_trimmed(path, text, sizeof(text)) >= 0) {
			if (encode(root, pmu, text, a, depth + 1, err, errlen) < 0)
				goto out;
			read_scale_unit(root, pmu, name, a);
			continue;
		}
		snprintf(err, errlen, "unknown term '%s' for PMU %s (see %s/%s/format and "
			 "events)", name, pmu, root, pmu);
		goto out;
	}
	ret = 0;
out:
	free(copy);
	return ret;
}

int pmu_sysfs_encode(const char *root, const char *pmu, const char *terms,
		     struct kt_pmu_attr *a, char *err, size_t errlen)
{
	if (pmu_sysfs_type(root, pmu, &a->type, err, errlen) < 0)
		return -1;
	snprintf(a->pmu, sizeof(a->pmu), "%s", pmu);
	if (!*terms) {
		snprintf(err, errlen, "no terms for PMU %s (e.g. %s/event=0x3c/)", pmu, pmu);
		return -1;
	}
	return encode(root, pmu, terms, a, 0, err, errlen);
}

static bool has_alias(const char *root, const char *pmu, const char *alias)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s/events/%s", root, pmu, alias);
	return access(path, R_OK) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmu_sysfs_find_alias(const char *root, const char *alias, char *pmu, size_t len)
{
	struct dirent *de;
	char **names = NULL, **nn;
	size_t n = 0, cap = 0, i;
	int ret = -1;
	DIR *dir;

	if (!safe_name(alias))
		return -1;
	if (has_alias(root, "cpu", alias)) {
		snprintf(pmu, len, "cpu");
		return 0;
	}
	dir = opendir(root);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto out;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto out;
		n++;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (has_alias(root, names[i], alias) && pmu_sysfs_exists(root, names[i])) {
			snprintf(pmu, len, "%s", names[i]);
			ret = 0;
			break;
		}
	}
out:
	closedir(dir);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}
