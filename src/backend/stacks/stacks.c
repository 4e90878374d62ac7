// SPDX-License-Identifier: GPL-2.0-or-later
/* Stacks aggregated into a tree of frames. Two hash tables keep adding O(depth): names are
 * interned once, and the child of a node with more than FEW_CHILDREN is found by (parent,
 * interned name) without walking sibling lists, which matters at the root (every task name)
 * and in hot callers. A node with few children (most of a deep profile's: a new stack's
 * nodes have none) has its list walked instead, keeping the table small and out of the way
 * of the cache. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "stacks.h"

struct name_table {
	char **slot;
	size_t cap, used;
};

/* A slot keeps its node's hash: a probe that meets another node's slot is told apart
 * without reading the node (a cache miss each, the most of a profile's adding). */
struct child_slot {
	struct kt_stack_node *node;
	uint64_t hash;
};

struct child_table {
	struct child_slot *slot;
	size_t cap, used;
};

#define FEW_CHILDREN 8

/* Nodes are carved out of chunks, freed together: no malloc and free per node. */
#define CHUNK_NODES 1024

struct node_chunk {
	struct node_chunk *next;
	size_t used;
	struct kt_stack_node node[CHUNK_NODES];
};

struct kt_stacks {
	enum kt_stack_unit unit;
	struct kt_stack_node root;
	struct name_table names;
	struct child_table children;
	struct node_chunk *chunks; /* the newest first */
	size_t nodes, leaves, name_bytes;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* Both pointers are malloc-aligned, so their low bits say nothing: every bit is mixed into
 * the low ones the table indexes by (murmur3's finalizer). */
static uint64_t hash_child(const struct kt_stack_node *parent, const char *name)
{
	uint64_t h = (uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)name;

	h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
	h = (h ^ (h >> 33)) * 0xc4ceb93f8053fe1bULL;
	return h ^ (h >> 33);
}

static int names_grow(struct name_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	char **slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slot[i])
			continue;
		for (j = hash_str(t->slot[i]) & (cap - 1); slot[j]; j = (j + 1) & (cap - 1))
			;
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

static const char *intern(struct kt_stacks *st, const char *name)
{
	struct name_table *t = &st->names;
	size_t j;

	if ((t->used + 1) * 2 > t->cap && names_grow(t) < 0)
		return NULL;
	for (j = hash_str(name) & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (!strcmp(t->slot[j], name))
			return t->slot[j];
	t->slot[j] = strdup(name);
	if (!t->slot[j])
		return NULL;
	t->used++;
	st->name_bytes += strlen(name) + 1;
	return t->slot[j];
}

static int children_grow(struct child_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct child_slot *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slot[i].node)
			continue;
		for (j = t->slot[i].hash & (cap - 1); slot[j].node; j = (j + 1) & (cap - 1))
			;
		slot[j] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

/* The slot where (parent, name) of hash h is or would go; the table has room. */
static struct child_slot *child_slot(const struct child_table *t,
				     const struct kt_stack_node *parent, const char *name,
				     uint64_t h)
{
	size_t j;

	for (j = h & (t->cap - 1); t->slot[j].node; j = (j + 1) & (t->cap - 1))
		if (t->slot[j].hash == h && t->slot[j].node->parent == parent &&
		    t->slot[j].node->name == name)
			break;
	return &t->slot[j];
}

static struct kt_stack_node *node_new(struct kt_stacks *st)
{
	struct node_chunk *c = st->chunks;

	if (!c || c->used == CHUNK_NODES) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->next = st->chunks;
		c->used = 0;
		st->chunks = c;
	}
	memset(&c->node[c->used], 0, sizeof(c->node[0]));
	return &c->node[c->used++];
}

struct kt_stacks *stacks_new(enum kt_stack_unit unit)
{
	struct kt_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->unit = unit;
	st->root.name = "all";
	return st;
}

void stacks_clear(struct kt_stacks *st)
{
	while (st->chunks) {
		struct node_chunk *c = st->chunks;

		st->chunks = c->next;
		free(c);
	}
	for (size_t i = 0; i < st->names.cap; i++)
		free(st->names.slot[i]);
	free(st->names.slot);
	free(st->children.slot);
	memset(&st->names, 0, sizeof(st->names));
	memset(&st->children, 0, sizeof(st->children));
	memset(&st->root, 0, sizeof(st->root));
	st->root.name = "all";
	st->nodes = st->leaves = st->name_bytes = 0;
}

void stacks_free(struct kt_stacks *st)
{
	if (!st)
		return;
	stacks_clear(st);
	free(st);
}

enum kt_stack_unit stacks_unit(const struct kt_stacks *st)
{
	return st->unit;
}

const char *stacks_unit_name(enum kt_stack_unit unit)
{
	switch (unit) {
	case KT_STACK_SAMPLES:
		return "samples";
	case KT_STACK_NSEC:
		return "ns";
	case KT_STACK_EVENTS:
		return "events";
	}
	return "?";
}

/* parent's child named name (interned), or NULL. */
static struct kt_stack_node *child_find(const struct kt_stacks *st,
					const struct kt_stack_node *parent, const char *name)
{
	struct kt_stack_node *c;

	if (parent->nchild > FEW_CHILDREN)
		return child_slot(&st->children, parent, name, hash_child(parent, name))->node;
	for (c = parent->child; c && c->name != name; c = c->next)
		;
	return c;
}

/* Files n in the table; it has room. */
static void child_index(struct kt_stacks *st, struct kt_stack_node *n)
{
	uint64_t h = hash_child(n->parent, n->name);

	*child_slot(&st->children, n->parent, n->name, h) = (struct child_slot){ n, h };
	st->children.used++;
}

static struct kt_stack_node *child_get(struct kt_stacks *st, struct kt_stack_node *parent,
				       const struct kt_frame *f)
{
	const char *name = intern(st, f->name);
	struct kt_stack_node *n, *c;

	if (!name)
		return NULL;
	n = child_find(st, parent, name);
	if (n)
		return n;
	/* room for the new node and, when parent has just too many, its siblings */
	while ((st->children.used + FEW_CHILDREN + 1) * 2 > st->children.cap &&
	       parent->nchild >= FEW_CHILDREN)
		if (children_grow(&st->children) < 0)
			return NULL;
	n = node_new(st);
	if (!n)
		return NULL;
	n->name = name;
	n->kind = f->kind;
	n->parent = parent;
	n->depth = parent->depth + 1;
	/* Appended, so siblings keep the order they first appeared in. */
	if (!parent->child)
		parent->child = n;
	else
		parent->last->next = n;
	parent->last = n;
	parent->nchild++;
	if (parent->nchild == FEW_CHILDREN + 1)
		for (c = parent->child; c; c = c->next)
			child_index(st, c);
	else if (parent->nchild > FEW_CHILDREN + 1)
		child_index(st, n);
	st->nodes++;
	return n;
}

int stacks_add(struct kt_stacks *st, const struct kt_frame *frames, size_t n, uint64_t weight)
{
	struct kt_stack_node *node = &st->root;

	if (!n)
		return -1;
	/* Nodes made before a failure stay with zero weight: harmless, and freed with the tree. */
	for (size_t i = 0; i < n; i++) {
		node = child_get(st, node, &frames[i]);
		if (!node)
			return -1;
	}
	if (!node->self)
		st->leaves++;
	node->self += weight;
	for (; node; node = node->parent)
		node->total += weight;
	return 0;
}

const struct kt_stack_node *stacks_root(const struct kt_stacks *st)
{
	return &st->root;
}

/* st's interned copy of name, or NULL when no node has that name. */
static const char *interned(const struct kt_stacks *st, const char *name)
{
	size_t j;

	if (!st->names.cap)
		return NULL;
	for (j = hash_str(name) & (st->names.cap - 1); st->names.slot[j];
	     j = (j + 1) & (st->names.cap - 1))
		if (!strcmp(st->names.slot[j], name))
			return st->names.slot[j];
	return NULL;
}

const struct kt_stack_node *stacks_child(const struct kt_stacks *st,
					 const struct kt_stack_node *parent, const char *name)
{
	const char *in = interned(st, name);

	return in ? child_find(st, parent, in) : NULL;
}

const struct kt_stack_node *stacks_same_path(const struct kt_stacks *other,
					     const struct kt_stack_node *node)
{
	const struct kt_stack_node *path[256], *at = stacks_root(other);
	size_t n = 0;

	for (; node && node->parent; node = node->parent) {
		if (n == sizeof(path) / sizeof(path[0]))
			return NULL;
		path[n++] = node;
	}
	while (n && at)
		at = stacks_child(other, at, path[--n]->name);
	return at;
}

size_t stacks_leaves(const struct kt_stacks *st)
{
	return st->leaves;
}

size_t stacks_nodes(const struct kt_stacks *st)
{
	return st->nodes;
}

size_t stacks_bytes(const struct kt_stacks *st)
{
	return sizeof(*st) + st->nodes * sizeof(struct kt_stack_node) + st->name_bytes +
	       st->names.cap * sizeof(*st->names.slot) +
	       st->children.cap * sizeof(*st->children.slot);
}

/* A table's capacity once it holds used + more (kept at most half full, doubling). */
static size_t grown_cap(size_t cap, size_t used, size_t more)
{
	while ((used + more) * 2 > cap)
		cap = cap ? cap * 2 : 1024;
	return cap;
}

bool stacks_has_path(const struct kt_stacks *st, const struct kt_frame *frames, size_t n)
{
	const struct kt_stack_node *at = stacks_root(st);

	for (size_t i = 0; i < n && at; i++)
		at = stacks_child(st, at, frames[i].name);
	return at != NULL;
}

size_t stacks_bytes_adding(const struct kt_stacks *st, const struct kt_frame *frames, size_t n)
{
	size_t names = 0;

	for (size_t i = 0; i < n; i++)
		names += strlen(frames[i].name) + 1;
	return sizeof(*st) + (st->nodes + n) * sizeof(struct kt_stack_node) + st->name_bytes +
	       names + grown_cap(st->names.cap, st->names.used, n) * sizeof(*st->names.slot) +
	       grown_cap(st->children.cap, st->children.used, n * (FEW_CHILDREN + 1)) *
	       sizeof(*st->children.slot);
}

static int by_name(const void *a, const void *b)
{
	const struct kt_stack_node *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

struct walk {
	int (*fn)(void *arg, const struct kt_stack_node *const *path, size_t n, uint64_t self);
	void *arg;
	const struct kt_stack_node **path;
	size_t cap;
};

static int walk_node(struct walk *w, const struct kt_stack_node *node, size_t depth)
{
	const struct kt_stack_node **kids;
	size_t i = 0;
	int rc = 0;

	if (depth >= w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		const struct kt_stack_node **p = realloc(w->path, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->path = p;
		w->cap = cap;
	}
	w->path[depth] = node;
	if (node->self) {
		rc = w->fn(w->arg, w->path, depth + 1, node->self);
		if (rc)
			return rc;
	}
	if (!node->nchild)
		return 0;
	if (node->nchild == 1) /* most nodes of deep stacks: nothing to sort */
		return walk_node(w, node->child, depth + 1);
	kids = malloc(node->nchild * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	for (const struct kt_stack_node *c = node->child; c; c = c->next)
		kids[i++] = c;
	qsort(kids, i, sizeof(*kids), by_name);
	for (size_t k = 0; k < i && !rc; k++)
		rc = walk_node(w, kids[k], depth + 1);
	free(kids);
	return rc;
}

int stacks_walk(const struct kt_stacks *st,
		int (*fn)(void *arg, const struct kt_stack_node *const *path, size_t n,
			  uint64_t self),
		void *arg)
{
	struct walk w = { .fn = fn, .arg = arg };
	const struct kt_stack_node **kids;
	size_t i = 0;
	int rc = 0;

	if (!st->root.nchild)
		return 0;
	kids = malloc(st->root.nchild * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	for (const struct kt_stack_node *c = st->root.child; c; c = c->next)
		kids[i++] = c;
	qsort(kids, i, sizeof(*kids), by_name);
	for (size_t k = 0; k < i && !rc; k++)
		rc = walk_node(&w, kids[k], 0);
	free(kids);
	free(w.path);
	return rc;
}

/* A frame name as folded text: ';' separates frames and the line ends at '\n', so neither
 * may appear inside one. */
static void put_frame(FILE *out, const char *name)
{
	for (; *name; name++)
		putc(*name == ';' || *name == '\n' ? '_' : *name, out);
}

static int write_line(void *arg, const struct kt_stack_node *const *path, size_t n,
		      uint64_t self)
{
	FILE *out = arg;

	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(';', out);
		put_frame(out, path[i]->name);
	}
	fprintf(out, " %llu\n", (unsigned long long)self);
	return ferror(out) ? -EIO : 0;
}

int stacks_write_folded(const struct kt_stacks *st, FILE *out)
{
	return stacks_walk(st, write_line, out) ? -1 : 0;
}

/* A merge in progress (stacks_merge). */
struct merge {
	struct kt_stacks *to;
	size_t max_bytes;
	uint64_t dropped;
	int err;
};

/* Adds the subtree below f (another tree's node) below t, returning the weight added: the
 * totals are added on the way back up, so what the bound leaves out is in none of them. */
static uint64_t merge_below(struct merge *m, struct kt_stack_node *t,
			    const struct kt_stack_node *f)
{
	uint64_t added = 0, w;

	for (const struct kt_stack_node *c = f->child; c && !m->err; c = c->next) {
		const char *name;
		struct kt_stack_node *tc;

		if (!c->total)
			continue;
		name = interned(m->to, c->name);
		tc = name ? child_find(m->to, t, name) : NULL;
		if (!tc && m->max_bytes && stacks_bytes(m->to) >= m->max_bytes) {
			m->dropped += c->total;
			continue;
		}
		if (!tc)
			tc = child_get(m->to, t, &(struct kt_frame){ c->name, c->kind });
		if (!tc) {
			m->err = -1;
			break;
		}
		w = c->self;
		if (w && !tc->self)
			m->to->leaves++;
		tc->self += w;
		w += merge_below(m, tc, c);
		tc->total += w;
		added += w;
	}
	return added;
}

int stacks_merge(struct kt_stacks *to, const struct kt_stacks *from, size_t max_bytes,
		 uint64_t *dropped)
{
	struct merge m = { .to = to, .max_bytes = max_bytes };

	to->root.total += merge_below(&m, &to->root, &from->root);
	if (dropped)
		*dropped += m.dropped;
	return m.err;
}

/* Takes the weights below f (another tree's node) out of the subtree below t; returns the
 * weight taken. */
static uint64_t subtract_below(struct kt_stacks *st, struct kt_stack_node *t,
			       const struct kt_stack_node *f)
{
	uint64_t taken = 0, w;

	for (const struct kt_stack_node *c = f->child; c; c = c->next) {
		struct kt_stack_node *tc;
		const char *name;

		if (!c->total || !(name = interned(st, c->name)) ||
		    !(tc = child_find(st, t, name)))
			continue; /* never added (a bound left it out) */
		w = c->self < tc->self ? c->self : tc->self;
		tc->self -= w;
		if (w && !tc->self)
			st->leaves--;
		w += subtract_below(st, tc, c);
		tc->total -= w;
		taken += w;
	}
	return taken;
}

void stacks_subtract(struct kt_stacks *st, const struct kt_stacks *sub)
{
	st->root.total -= subtract_below(st, &st->root, &sub->root);
}

struct kt_stacks *stacks_dup(const struct kt_stacks *st)
{
	struct kt_stacks *to = stacks_new(st->unit);

	if (to && stacks_merge(to, st, 0, NULL) < 0) {
		stacks_free(to);
		to = NULL;
	}
	return to;
}

struct json_walk {
	FILE *out;
	bool first;
};

static int json_stack(void *arg, const struct kt_stack_node *const *path, size_t n,
		      uint64_t self)
{
	struct json_walk *w = arg;

	fputs(w->first ? "{\"frames\":[" : ",{\"frames\":[", w->out);
	w->first = false;
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', w->out);
		json_string(w->out, path[i]->name);
	}
	fprintf(w->out, "],\"count\":%llu}", (unsigned long long)self);
	return ferror(w->out) ? -EIO : 0;
}

int stacks_write_json(const struct kt_stacks *st, FILE *out)
{
	struct json_walk w = { out, true };

	fputc('[', out);
	if (stacks_walk(st, json_stack, &w))
		return -1;
	fputc(']', out);
	return ferror(out) ? -1 : 0;
}

void stacks_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
}
