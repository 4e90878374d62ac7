// SPDX-License-Identifier: GPL-2.0-or-later
/* The sliding window over stacks (stackwin.h): a ring of per-second trees. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "stackwin.h"

struct kt_stackwin {
	enum kt_stack_unit unit;
	unsigned secs;
	struct kt_stacks **tree; /* secs of them, second s at s % secs */
	uint64_t *sec;		 /* the second each holds */
	bool *used;		 /* holds any second yet */
};

struct kt_stackwin *stackwin_new(enum kt_stack_unit unit, unsigned secs)
{
	struct kt_stackwin *w;

	if (!secs || secs > KT_STACKWIN_MAX_SECS)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->unit = unit;
	w->secs = secs;
	w->tree = calloc(secs, sizeof(*w->tree));
	w->sec = calloc(secs, sizeof(*w->sec));
	w->used = calloc(secs, sizeof(*w->used));
	if (!w->tree || !w->sec || !w->used) {
		stackwin_free(w);
		return NULL;
	}
	return w;
}

void stackwin_free(struct kt_stackwin *w)
{
	if (!w)
		return;
	for (unsigned i = 0; w->tree && i < w->secs; i++)
		stacks_free(w->tree[i]);
	free(w->tree);
	free(w->sec);
	free(w->used);
	free(w);
}

unsigned stackwin_secs(const struct kt_stackwin *w)
{
	return w->secs;
}

int stackwin_add(struct kt_stackwin *w, const struct kt_stacks *from, uint64_t sec)
{
	unsigned i = (unsigned)(sec % w->secs);

	if (!w->tree[i] && !(w->tree[i] = stacks_new(w->unit)))
		return -1;
	/* the ring came round: what it held is older than the window */
	if (w->used[i] && w->sec[i] != sec)
		stacks_clear(w->tree[i]);
	w->used[i] = true;
	w->sec[i] = sec;
	return stacks_merge(w->tree[i], from, 0, NULL);
}

/* Whether slot i holds a second that is out of the window at sec. */
static bool expired(const struct kt_stackwin *w, unsigned i, uint64_t sec)
{
	return w->used[i] && w->sec[i] <= sec && sec - w->sec[i] >= w->secs;
}

void stackwin_expire(struct kt_stackwin *w, uint64_t sec, struct kt_stacks *shown)
{
	for (unsigned i = 0; i < w->secs; i++) {
		if (!expired(w, i, sec))
			continue;
		if (shown)
			stacks_subtract(shown, w->tree[i]);
		stacks_clear(w->tree[i]);
		w->used[i] = false;
	}
}

size_t stackwin_nodes(const struct kt_stackwin *w)
{
	size_t n = 0;

	for (unsigned i = 0; i < w->secs; i++)
		if (w->used[i])
			n += stacks_nodes(w->tree[i]);
	return n;
}

struct kt_stacks *stackwin_tree(const struct kt_stackwin *w, uint64_t sec)
{
	struct kt_stacks *st = stacks_new(w->unit);

	for (unsigned i = 0; st && i < w->secs; i++) {
		if (!w->used[i] || w->sec[i] > sec || expired(w, i, sec))
			continue;
		if (stacks_merge(st, w->tree[i], 0, NULL) < 0) {
			stacks_free(st);
			st = NULL;
		}
	}
	return st;
}

void stackwin_clear(struct kt_stackwin *w)
{
	for (unsigned i = 0; i < w->secs; i++) {
		if (w->tree[i])
			stacks_clear(w->tree[i]);
		w->used[i] = false;
	}
}
