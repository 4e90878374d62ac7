/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzzy narrowing of a big name list as the user types (the function-list picker over
 * ~115,000 kernel functions): the names are lower-cased once, each key tests only the
 * names that matched the previous text when the text grew, with strstr/strchr rather
 * than case-folding compares, and keeps the best few sorted. A few milliseconds per key
 * where a plain scan over the list takes 40-70 (measured in the report of issue #4). No
 * curses. */
#ifndef KTOP_UI_NAMEFILTER_H
#define KTOP_UI_NAMEFILTER_H

#include <stddef.h>

struct kt_symlist;

struct kt_namefilter {
	const struct kt_symlist *list;
	char *lower;	    /* every name lower-cased, NUL-separated */
	size_t *off;	    /* name i at lower + off[i] */
	size_t *cand;	    /* names that matched pat (as a subsequence) */
	size_t ncand;
	char pat[256];	    /* lower-cased; "" before the first narrowing */
	int have;	    /* cand holds pat's matches */
};

/* Prepares for list (which must outlive nf). Returns 0, or -1 out of memory. */
int namefilter_init(struct kt_namefilter *nf, const struct kt_symlist *list);
void namefilter_done(struct kt_namefilter *nf);
/* The best max names for pattern (case-insensitive subsequence; an exact name first, then
 * prefixes, substrings at a word start, substrings, scattered matches; shorter names
 * first within each), best first, as indexes into list->names. "" gives the first max
 * names. Returns how many. */
size_t namefilter_best(struct kt_namefilter *nf, const char *pattern, size_t *idx, size_t max);

#endif
