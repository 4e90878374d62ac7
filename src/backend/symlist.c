// SPDX-License-Identifier: GPL-2.0-or-later
/* Sorted name lists for completion. The fuzzy best-N pass rejects most names with a cheap
 * subsequence test before the scorer (which allocates) runs, so ~100,000 kernel functions
 * stay interactive. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/catalog.h"
#include "backend/symlist.h"

struct kt_symlist *symlist_new(void)
{
	return calloc(1, sizeof(struct kt_symlist));
}

void symlist_free(struct kt_symlist *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->count; i++)
		free(l->names[i]);
	free(l->names);
	free(l);
}

int symlist_add_len(struct kt_symlist *l, const char *name, size_t len)
{
	char **grown;
	size_t cap;

	if (l->count == l->alloc) {
		cap = l->alloc ? l->alloc * 2 : 1024;
		grown = realloc(l->names, cap * sizeof(*grown));
		if (!grown)
			return -1;
		l->names = grown;
		l->alloc = cap;
	}
	l->names[l->count] = strndup(name, len);
	if (!l->names[l->count])
		return -1;
	l->count++;
	return 0;
}

int symlist_add(struct kt_symlist *l, const char *name)
{
	return symlist_add_len(l, name, strlen(name));
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void symlist_finish(struct kt_symlist *l)
{
	size_t i, out = 0;

	if (!l->count)
		return;
	qsort(l->names, l->count, sizeof(*l->names), name_cmp);
	for (i = 0; i < l->count; i++) {
		if (out && !strcmp(l->names[out - 1], l->names[i])) {
			free(l->names[i]);
			continue;
		}
		l->names[out++] = l->names[i];
	}
	l->count = out;
}

long symlist_find(const struct kt_symlist *l, const char *name)
{
	char **hit;

	if (!l || !l->count)
		return -1;
	hit = bsearch(&name, l->names, l->count, sizeof(*l->names), name_cmp);
	return hit ? (long)(hit - l->names) : -1;
}

/* Case-insensitive subsequence test: the scorer's necessary condition, without allocating. */
static bool is_subsequence(const char *pat, const char *text)
{
	for (; *pat; pat++) {
		int c = tolower((unsigned char)*pat);

		while (*text && tolower((unsigned char)*text) != c)
			text++;
		if (!*text)
			return false;
		text++;
	}
	return true;
}

size_t symlist_best(const struct kt_symlist *l, const char *pattern, size_t *idx, size_t max)
{
	int *scores;
	size_t i, n = 0, j;
	int sc;

	if (!l || !max)
		return 0;
	if (!pattern || !*pattern) {
		for (i = 0; i < l->count && n < max; i++)
			idx[n++] = i;
		return n;
	}
	scores = malloc(max * sizeof(*scores));
	if (!scores)
		return 0;
	for (i = 0; i < l->count; i++) {
		if (!is_subsequence(pattern, l->names[i]))
			continue;
		sc = strcmp(pattern, l->names[i]) ? catalog_fuzzy_score(pattern, l->names[i]) :
						      1 << 30;
		if (sc < 0 || (n == max && sc <= scores[n - 1]))
			continue;
		/* insertion into the sorted top-max; ties keep name order (i ascending) */
		j = n < max ? n++ : max - 1;
		while (j > 0 && scores[j - 1] < sc) {
			scores[j] = scores[j - 1];
			idx[j] = idx[j - 1];
			j--;
		}
		scores[j] = sc;
		idx[j] = i;
	}
	free(scores);
	return n;
}
