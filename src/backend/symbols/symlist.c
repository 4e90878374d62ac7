// SPDX-License-Identifier: GPL-2.0-or-later
/* Sorted name lists for completion. The best-N pass scores each name in linear time without
 * allocating (catalog_fuzzy_score's alignment search is too slow for ~100,000 kernel
 * functions per key), so the picker stays interactive. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symlist.h"

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
	free(l->folded);
	free(l->folded_at);
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

static char fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

void symlist_finish(struct kt_symlist *l)
{
	size_t i, out = 0, total = 0, len;
	char *p;

	if (!l->count)
		return;
	qsort(l->names, l->count, sizeof(*l->names), name_cmp);
	for (i = 0; i < l->count; i++) {
		if (out && !strcmp(l->names[out - 1], l->names[i])) {
			free(l->names[i]);
			continue;
		}
		l->names[out++] = l->names[i];
		total += strlen(l->names[i]) + 1;
	}
	l->count = out;
	/* lower-cased once, so a key's matching is plain strstr() and byte compares */
	free(l->folded);
	free(l->folded_at);
	l->folded = malloc(total);
	l->folded_at = malloc(l->count * sizeof(*l->folded_at));
	if (!l->folded || !l->folded_at) {
		free(l->folded);
		free(l->folded_at);
		l->folded = NULL;
		l->folded_at = NULL;
		return;
	}
	for (p = l->folded, i = 0; i < l->count; i++) {
		l->folded_at[i] = (size_t)(p - l->folded);
		len = strlen(l->names[i]);
		for (size_t k = 0; k <= len; k++)
			p[k] = fold(l->names[i][k]);
		p += len + 1;
	}
}

long symlist_find(const struct kt_symlist *l, const char *name)
{
	char **hit;

	if (!l || !l->count)
		return -1;
	hit = bsearch(&name, l->names, l->count, sizeof(*l->names), name_cmp);
	return hit ? (long)(hit - l->names) : -1;
}

static bool word_start(const char *text, const char *p)
{
	return p == text || p[-1] == '_' || p[-1] == '.' || p[-1] == ':' || p[-1] == '/';
}

int symlist_score(const char *pat, size_t m, const char *text)
{
	size_t n = strlen(text);
	const char *t = text, *hit, *prev;
	int score = 0, run = 0;

	if (m > n)
		return -1;
	hit = strstr(text, pat);
	if (hit) {
		if (hit == text)
			return (m == n ? 1 << 24 : 1 << 22) - (int)n;
		return (1 << 20) + (word_start(text, hit) ? 1 << 16 : 0) - (int)(hit - text) * 16 -
		       (int)n;
	}
	for (; *pat; pat++) {
		prev = t;
		t = strchr(t, *pat);
		if (!t)
			return -1;
		run = t == prev && t != text ? run + 1 : 0;
		score += 16 + run * 8 + (word_start(text, t) ? 24 : 0);
		t++;
	}
	return score * 64 - (int)n;
}

size_t symlist_best(const struct kt_symlist *l, const char *pattern, size_t *idx, size_t max)
{
	char pat[256];
	int *scores;
	size_t i, n = 0, j, m;
	int sc;

	if (!l || !max)
		return 0;
	if (!pattern || !*pattern || !l->folded) {
		for (i = 0; i < l->count && n < max; i++)
			idx[n++] = i;
		return n;
	}
	for (m = 0; pattern[m] && m < sizeof(pat) - 1; m++)
		pat[m] = fold(pattern[m]);
	pat[m] = '\0';
	scores = malloc(max * sizeof(*scores));
	if (!scores)
		return 0;
	for (i = 0; i < l->count; i++) {
		sc = symlist_score(pat, m, l->folded + l->folded_at[i]);
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
