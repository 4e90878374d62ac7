// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "histhosts.h"
#include "util/xalloc.h"

static bool same_key(const struct kt_hist_key *a, const struct kt_hist_key *b)
{
	return a->id == b->id && !strncmp(a->name, b->name, sizeof(a->name));
}

/* By key, then by where it first appeared: equal keys end up next to each other. */
struct keyed {
	const struct kt_hist_row *row;
	size_t at;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c;

	if (x->row->key.id != y->row->key.id)
		return x->row->key.id < y->row->key.id ? -1 : 1;
	c = strncmp(x->row->key.name, y->row->key.name, sizeof(x->row->key.name));
	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int by_first(const void *a, const void *b)
{
	const struct kt_hist_group *x = a, *y = b;
	int fx = -1, fy = -1;

	for (unsigned int h = 0; h < KT_HIST_HOSTS; h++) {
		if (x->row[h] >= 0 && (fx < 0 || x->row[h] < fx))
			fx = x->row[h];
		if (y->row[h] >= 0 && (fy < 0 || y->row[h] < fy))
			fy = y->row[h];
	}
	return fx < fy ? -1 : fx > fy;
}

size_t hist_groups(const struct kt_hist_row *rows, size_t n, unsigned int nhosts,
		   struct kt_hist_group **groups)
{
	struct kt_hist_group *g;
	struct keyed *k;
	size_t i, m = 0, ng = 0;

	*groups = NULL;
	if (!n)
		return 0;
	if (nhosts > KT_HIST_HOSTS)
		nhosts = KT_HIST_HOSTS;
	k = xcalloc(n, sizeof(*k));
	for (i = 0; i < n; i++)
		if (rows[i].host < nhosts)
			k[m++] = (struct keyed){ &rows[i], i };
	qsort(k, m, sizeof(*k), by_key);
	g = m ? xcalloc(m, sizeof(*g)) : NULL;
	for (i = 0; i < m; i++) {
		if (!ng || !same_key(&g[ng - 1].key, &k[i].row->key)) {
			g[ng].key = k[i].row->key;
			memset(g[ng].row, -1, sizeof(g[ng].row));
			ng++;
		}
		/* a host's key twice (never from one map): its first row stands */
		if (g[ng - 1].row[k[i].row->host] < 0)
			g[ng - 1].row[k[i].row->host] = (int)k[i].at;
	}
	free(k);
	qsort(g, ng, sizeof(*g), by_first);
	*groups = g;
	return ng;
}

void hist_host_totals(const struct kt_hist_row *rows, size_t n, unsigned int nhosts,
		      struct kt_hist_row *totals)
{
	memset(totals, 0, nhosts * sizeof(*totals));
	for (size_t i = 0; i < n; i++) {
		if (rows[i].host >= nhosts)
			continue;
		totals[rows[i].host].host = rows[i].host;
		hist_val_add(&totals[rows[i].host].cum, &rows[i].cum);
		hist_val_add(&totals[rows[i].host].iv, &rows[i].iv);
	}
}

void hist_group_sum(const struct kt_hist_group *g, const struct kt_hist_row *rows,
		    unsigned int nhosts, struct kt_hist_row *out)
{
	memset(out, 0, sizeof(*out));
	out->key = g->key;
	for (unsigned int h = 0; h < nhosts && h < KT_HIST_HOSTS; h++) {
		if (g->row[h] < 0)
			continue;
		hist_val_add(&out->cum, &rows[g->row[h]].cum);
		hist_val_add(&out->iv, &rows[g->row[h]].iv);
	}
}
