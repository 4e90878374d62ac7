/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A sorted, de-duplicated list of names (kernel functions, ELF function symbols) for
 * completion: built once, then exact look-ups by binary search and fuzzy best-N matches
 * that stay well under a millisecond per key over ~100,000 names. */
#ifndef KTOP_SYMLIST_H
#define KTOP_SYMLIST_H

#include <stdbool.h>
#include <stddef.h>

struct kt_symlist {
	char **names; /* sorted (strcmp), unique */
	size_t count;
	size_t alloc;
	char *folded; /* symlist_finish: the names lower-cased, each NUL-terminated, in order */
	size_t *folded_at; /* offset of names[i] in folded */
};

struct kt_symlist *symlist_new(void);
void symlist_free(struct kt_symlist *l);
/* Adds a copy of name (the list is unsorted until symlist_finish). Returns 0, or -1 (ENOMEM). */
int symlist_add(struct kt_symlist *l, const char *name);
int symlist_add_len(struct kt_symlist *l, const char *name, size_t len);
/* Sorts and removes duplicates. Call once after the last add. */
void symlist_finish(struct kt_symlist *l);

/* Index of name, or -1. */
long symlist_find(const struct kt_symlist *l, const char *name);
/* A linear-time score, no allocation, of a lower-cased name against a lower-cased pattern of
 * m bytes: an exact match beats a prefix, a prefix beats a substring, a substring beats a
 * scattered subsequence; among subsequences, consecutive runs and word starts count; shorter
 * names win ties. -1 when pat is not a subsequence. symlist_best and the UI's incremental
 * name filter rank with it. */
int symlist_score(const char *pat, size_t m, const char *text);
static inline bool symlist_contains(const struct kt_symlist *l, const char *name)
{
	return symlist_find(l, name) >= 0;
}
/* The best max matches of pattern, best first, as indexes into l->names: case-insensitive;
 * an exact match, then prefixes, then substrings (at a word start first), then scattered
 * subsequences (runs and word starts score more); shorter names win ties. An empty pattern
 * gives the first max names. Returns how many. */
size_t symlist_best(const struct kt_symlist *l, const char *pattern, size_t *idx, size_t max);

#endif
