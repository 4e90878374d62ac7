// SPDX-License-Identifier: GPL-2.0-or-later
/* The catalogue of trace events from available_events, -e spec matching and the picker's
 * fuzzy scoring. Pure text work: no tracefs writes, no formats parsed. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "util/fileio.h"

struct kt_catalog *catalog_load_file(const char *path)
{
	struct kt_catalog *cat;
	char *text;
	int e;

	text = file_read_all(path, NULL);
	if (!text)
		return NULL;
	cat = catalog_parse(text);
	e = errno;
	free(text);
	errno = e;
	return cat;
}

static int desc_cmp(const void *a, const void *b)
{
	const struct kt_event_desc *x = a, *y = b;
	int r = strcmp(x->system, y->system);

	return r ? r : strcmp(x->name, y->name);
}

/* Appends one "sys:event" line (whitespace trimmed); lines without both parts are skipped. */
static int add_line(struct kt_catalog *cat, size_t *cap, const char *line, size_t len)
{
	struct kt_event_desc *v, *d;
	const char *colon;

	while (len && isspace((unsigned char)*line)) {
		line++;
		len--;
	}
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	colon = memchr(line, ':', len);
	if (!colon || colon == line || colon == line + len - 1)
		return 0;
	if (cat->count == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		v = realloc(cat->events, *cap * sizeof(*v));
		if (!v)
			return -1;
		cat->events = v;
	}
	d = &cat->events[cat->count];
	d->system = strndup(line, (size_t)(colon - line));
	d->name = strndup(colon + 1, len - (size_t)(colon - line) - 1);
	if (!d->system || !d->name) {
		free(d->system);
		free(d->name);
		return -1;
	}
	cat->count++;
	return 0;
}

struct kt_catalog *catalog_parse(const char *text)
{
	struct kt_catalog *cat;
	const char *p, *nl;
	size_t cap = 0, i, j;

	cat = calloc(1, sizeof(*cat));
	if (!cat)
		return NULL;
	for (p = text; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (add_line(cat, &cap, p, nl ? (size_t)(nl - p) : strlen(p)) < 0)
			goto fail;
	}
	if (cat->count)
		qsort(cat->events, cat->count, sizeof(*cat->events), desc_cmp);
	/* Drop duplicates. */
	for (i = j = 0; i < cat->count; i++) {
		if (j && !desc_cmp(&cat->events[j - 1], &cat->events[i])) {
			free(cat->events[i].system);
			free(cat->events[i].name);
			continue;
		}
		cat->events[j++] = cat->events[i];
	}
	cat->count = j;
	return cat;
fail:
	catalog_free(cat);
	errno = ENOMEM;
	return NULL;
}

void catalog_free(struct kt_catalog *cat)
{
	size_t i;

	if (!cat)
		return;
	for (i = 0; i < cat->count; i++) {
		free(cat->events[i].system);
		free(cat->events[i].name);
	}
	free(cat->events);
	free(cat);
}

int catalog_split_spec(const char *spec, char **system, char **event)
{
	const char *sep = NULL, *p;
	char *sys = NULL, *ev;

	*system = *event = NULL;
	if (!spec || !*spec)
		return -1;
	for (p = spec; *p; p++) {
		if (isspace((unsigned char)*p))
			return -1;
		if (*p == ':' || *p == '/') {
			if (sep)
				return -1; /* "a:b:c", "a/b:c" */
			sep = p;
		}
	}
	if (sep) {
		if (sep == spec || !sep[1])
			return -1; /* ":event", "sys:" */
		sys = strndup(spec, (size_t)(sep - spec));
		ev = strdup(sep + 1);
	} else {
		ev = strdup(spec);
	}
	if (!ev || (sep && !sys)) {
		free(sys);
		free(ev);
		return -1;
	}
	*system = sys;
	*event = ev;
	return 0;
}

bool catalog_spec_matches(const char *spec, const struct kt_event_desc *ev)
{
	char *sys, *name;
	bool ok;

	if (catalog_split_spec(spec, &sys, &name) < 0)
		return false;
	ok = (!sys || !fnmatch(sys, ev->system, 0)) && !fnmatch(name, ev->name, 0);
	free(sys);
	free(name);
	return ok;
}

bool catalog_spec_is_glob(const char *spec)
{
	char *sys, *name;
	bool glob;

	if (catalog_split_spec(spec, &sys, &name) < 0)
		return false;
	glob = !sys || strpbrk(sys, "*?[") || strpbrk(name, "*?[");
	free(sys);
	free(name);
	return glob;
}

/* Fuzzy scoring in the manner of fzf: every matched character scores, a character at a word
 * start scores a bonus, a run of consecutive matches carries the bonus of the run's first
 * character, and gaps between matches cost. The best alignment is found by dynamic
 * programming over (pattern position, text position). */
#define FZ_MATCH 16
#define FZ_BOUNDARY 8
#define FZ_CONSECUTIVE 4
#define FZ_FIRST_MULT 2
#define FZ_GAP_START 3
#define FZ_GAP_EXTEND 1
#define FZ_NONE INT_MIN

static int boundary_bonus(const char *text, size_t j)
{
	char prev;

	if (j == 0)
		return FZ_BOUNDARY;
	prev = text[j - 1];
	if (prev == '_' || prev == ':' || prev == '/' || prev == '-' || prev == '.' ||
	    prev == ' ')
		return FZ_BOUNDARY;
	return 0;
}

int catalog_fuzzy_score(const char *pattern, const char *text)
{
	size_t m = strlen(pattern), n = strlen(text), i, j;
	int *score = NULL, *run = NULL, best = FZ_NONE, gap, b, cand, cb, s;

	if (m == 0)
		return 0;
	if (m > n)
		return -1;
	/* score[i * n + j]: best score with pattern[i] matched at text[j]; run: the bonus that
	 * a consecutive match after it inherits. */
	score = malloc(m * n * sizeof(*score));
	run = malloc(m * n * sizeof(*run));
	if (!score || !run)
		goto out;
	for (i = 0; i < m; i++) {
		/* gap: max over k <= j - 2 of score[i - 1][k] + k * FZ_GAP_EXTEND, so a match
		 * at j after a gap scores gap + FZ_MATCH + b - FZ_GAP_START - (j - 2) * ext. */
		gap = FZ_NONE;
		for (j = 0; j < n; j++) {
			if (i > 0 && j >= 2 && score[(i - 1) * n + j - 2] != FZ_NONE) {
				s = score[(i - 1) * n + j - 2] + (int)(j - 2) * FZ_GAP_EXTEND;
				if (s > gap)
					gap = s;
			}
			score[i * n + j] = FZ_NONE;
			if (j < i || tolower((unsigned char)pattern[i]) !=
					     tolower((unsigned char)text[j]))
				continue;
			b = boundary_bonus(text, j);
			if (i == 0) {
				score[j] = FZ_MATCH + b * FZ_FIRST_MULT;
				run[j] = b;
				continue;
			}
			/* Right after the previous match: the run goes on. */
			if (score[(i - 1) * n + j - 1] != FZ_NONE) {
				cb = run[(i - 1) * n + j - 1];
				if (cb < b)
					cb = b;
				if (cb < FZ_CONSECUTIVE)
					cb = FZ_CONSECUTIVE;
				score[i * n + j] = score[(i - 1) * n + j - 1] + FZ_MATCH + cb;
				run[i * n + j] = cb;
			}
			/* After a gap. */
			if (gap != FZ_NONE) {
				cand = gap + FZ_MATCH + b - FZ_GAP_START -
				       (int)(j - 2) * FZ_GAP_EXTEND;
				if (cand > score[i * n + j]) {
					score[i * n + j] = cand;
					run[i * n + j] = b;
				}
			}
		}
	}
	for (j = 0; j < n; j++)
		if (score[(m - 1) * n + j] > best)
			best = score[(m - 1) * n + j];
out:
	free(score);
	free(run);
	if (best == FZ_NONE)
		return -1;
	return best < 0 ? 0 : best;
}
