// SPDX-License-Identifier: GPL-2.0-or-later
/* Incremental fuzzy narrowing of a big name list (see namefilter.h). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "backend/symbols/symlist.h"
#include "namefilter.h"

int namefilter_init(struct kt_namefilter *nf, const struct kt_symlist *list)
{
	size_t i, total = 0, at = 0;

	memset(nf, 0, sizeof(*nf));
	nf->list = list;
	for (i = 0; i < list->count; i++)
		total += strlen(list->names[i]) + 1;
	nf->lower = malloc(total ? total : 1);
	nf->off = malloc((list->count ? list->count : 1) * sizeof(*nf->off));
	nf->cand = malloc((list->count ? list->count : 1) * sizeof(*nf->cand));
	if (!nf->lower || !nf->off || !nf->cand) {
		namefilter_done(nf);
		return -1;
	}
	for (i = 0; i < list->count; i++) {
		const char *s = list->names[i];

		nf->off[i] = at;
		while (*s)
			nf->lower[at++] = (char)tolower((unsigned char)*s++);
		nf->lower[at++] = '\0';
	}
	return 0;
}

void namefilter_done(struct kt_namefilter *nf)
{
	free(nf->lower);
	free(nf->off);
	free(nf->cand);
	memset(nf, 0, sizeof(*nf));
}

size_t namefilter_best(struct kt_namefilter *nf, const char *pattern, size_t *idx, size_t max)
{
	char pat[sizeof(nf->pat)];
	size_t m, i, k, n = 0, j, from, keep = 0;
	int *scores, sc;

	if (!nf->list || !max)
		return 0;
	for (m = 0; pattern[m] && m + 1 < sizeof(pat); m++)
		pat[m] = (char)tolower((unsigned char)pattern[m]);
	pat[m] = '\0';
	if (!m) {
		nf->have = 0;
		for (i = 0; i < nf->list->count && n < max; i++)
			idx[n++] = i;
		return n;
	}
	scores = malloc(max * sizeof(*scores));
	if (!scores)
		return 0;
	/* A longer text matches a subset of what the shorter one matched. */
	from = nf->have && !strncmp(pat, nf->pat, strlen(nf->pat)) ? nf->ncand : nf->list->count;
	for (k = 0; k < from; k++) {
		i = from == nf->ncand && nf->have ? nf->cand[k] : k;
		sc = symlist_score(pat, m, nf->lower + nf->off[i]);
		if (sc < 0)
			continue;
		nf->cand[keep++] = i; /* keep <= k: writes never pass the reads */
		if (n == max && sc <= scores[n - 1])
			continue;
		j = n < max ? n++ : max - 1;
		while (j > 0 && scores[j - 1] < sc) {
			scores[j] = scores[j - 1];
			idx[j] = idx[j - 1];
			j--;
		}
		scores[j] = sc;
		idx[j] = i;
	}
	nf->ncand = keep;
	nf->have = 1;
	memcpy(nf->pat, pat, m + 1);
	free(scores);
	return n;
}
