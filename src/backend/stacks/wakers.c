// SPDX-License-Identifier: GPL-2.0-or-later
/* Walking a wakeup chain (wakers.h): the stacks' waker parts, turned the right way up. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"
#include "wakers.h"
#include "util/xalloc.h"

struct collect {
	const struct kt_stack_node *under; /* stacks through this node only; NULL: any */
	const char *task;		   /* stacks of this blocked task only; NULL: any */
	struct kt_stacks *out;
	struct kt_frame *frames;
	size_t cap;
};

static bool is_separator(const struct kt_stack_node *n)
{
	return n->kind == KT_FRAME_TASK && n->depth > 1 && !strcmp(n->name, KT_WAKERS_SEPARATOR);
}

bool wakers_in_waker(const struct kt_stack_node *n)
{
	for (; n; n = n->parent)
		if (is_separator(n))
			return true;
	return false;
}

/* One stack: its waker part, last frame first, into the tree. */
static int collect_one(void *arg, const struct kt_stack_node *const *path, size_t n,
		       uint64_t self)
{
	struct collect *c = arg;
	size_t sep = n, i, k = 0;

	if (c->under && (c->under->depth > n || path[c->under->depth - 1] != c->under))
		return 0;
	if (c->task && strcmp(path[0]->name, c->task))
		return 0;
	for (i = 1; i < n && sep == n; i++)
		if (is_separator(path[i]))
			sep = i;
	if (sep + 1 >= n)
		return 0;
	if (n > c->cap) {
		c->cap = n;
		c->frames = xreallocarray(c->frames, c->cap, sizeof(*c->frames));
	}
	for (i = n - 1; i > sep; i--, k++) {
		c->frames[k].name = path[i]->name;
		c->frames[k].kind = path[i]->kind;
	}
	return stacks_add(c->out, c->frames, k, self) < 0 ? -1 : 0;
}

static int collect(struct collect *c, const struct kt_stacks *st)
{
	int r = stacks_walk(st, collect_one, c);

	free(c->frames);
	return r;
}

int wakers_of_node(const struct kt_stacks *st, const struct kt_stack_node *n,
		   struct kt_stacks *out)
{
	struct collect c = { .under = n->depth ? n : NULL, .out = out };

	return collect(&c, st);
}

int wakers_of_task(const struct kt_stacks *st, const char *task, struct kt_stacks *out)
{
	struct collect c = { .task = task, .out = out };

	return collect(&c, st);
}

/* n's heaviest child; n has one. */
static const struct kt_stack_node *widest(const struct kt_stack_node *n)
{
	const struct kt_stack_node *c, *best = n->child;

	for (c = best->next; c; c = c->next)
		if (c->total > best->total)
			best = c;
	return best;
}

const char *wakers_task(const struct kt_stack_node *n, bool profile)
{
	const struct kt_stack_node *up = n;

	/* a chain's first frame is the waker's name; a profile's stacks end in it */
	while (!profile && up && up->depth >= 1) {
		n = up;
		up = up->parent;
	}
	while (profile && n->child)
		n = widest(n);
	return n->name;
}

static int by_total(const void *a, const void *b)
{
	const struct kt_stack_node *x = *(const struct kt_stack_node *const *)a;
	const struct kt_stack_node *y = *(const struct kt_stack_node *const *)b;

	return x->total < y->total ? 1 : x->total > y->total ? -1 : strcmp(x->name, y->name);
}

void wakers_list(const struct kt_stacks *wakers, char *buf, size_t len)
{
	const struct kt_stack_node *root = stacks_root(wakers), *c, **v;
	size_t n = 0, i, used = 0;
	char t[32];

	v = xcalloc(root->nchild ? root->nchild : 1, sizeof(*v));
	for (c = root->child; c && n < root->nchild; c = c->next)
		v[n++] = c;
	qsort(v, n, sizeof(*v), by_total);
	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++) {
		stacks_format_ns(v[i]->total, t, sizeof(t));
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", i ? ", " : "",
					 v[i]->name, t);
	}
	free(v);
}
