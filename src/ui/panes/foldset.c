// SPDX-License-Identifier: GPL-2.0-or-later
/* The fold state's set: open addressing, linear probing, deletion by backward shift. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "foldset.h"
#include "util/xalloc.h"

struct kt_fold_slot {
	const void *item; /* NULL: empty */
	uint64_t tag;
};

static size_t slot_of(const struct kt_foldset *s, const void *item, uint64_t tag)
{
	uint64_t h = ((uint64_t)(uintptr_t)item ^ tag) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (s->cap - 1);
}

static struct kt_fold_slot *find(const struct kt_foldset *s, const void *item, uint64_t tag)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = slot_of(s, item, tag); s->slots[i].item; i = (i + 1) & (s->cap - 1))
		if (s->slots[i].item == item && s->slots[i].tag == tag)
			return &s->slots[i];
	return NULL;
}

bool foldset_open(const struct kt_foldset *s, const void *item, uint64_t tag)
{
	return find(s, item, tag) != NULL;
}

static void insert(struct kt_foldset *s, const void *item, uint64_t tag)
{
	size_t i = slot_of(s, item, tag);

	while (s->slots[i].item)
		i = (i + 1) & (s->cap - 1);
	s->slots[i] = (struct kt_fold_slot){ item, tag };
	s->n++;
}

static void grow(struct kt_foldset *s)
{
	struct kt_fold_slot *old = s->slots;
	size_t cap = s->cap, i;

	s->cap = cap ? cap * 2 : 64;
	s->slots = xcalloc(s->cap, sizeof(*s->slots));
	s->n = 0;
	for (i = 0; i < cap; i++)
		if (old[i].item)
			insert(s, old[i].item, old[i].tag);
	free(old);
}

/* Empties slot i and moves up the entries after it that probing would no longer find. */
static void remove_at(struct kt_foldset *s, size_t i)
{
	size_t j = i, home;

	s->slots[i].item = NULL;
	s->n--;
	for (;;) {
		j = (j + 1) & (s->cap - 1);
		if (!s->slots[j].item)
			return;
		home = slot_of(s, s->slots[j].item, s->slots[j].tag);
		/* j stays when its home lies cyclically in (i, j] */
		if (i <= j ? i < home && home <= j : i < home || home <= j)
			continue;
		s->slots[i] = s->slots[j];
		s->slots[j].item = NULL;
		i = j;
	}
}

void foldset_set(struct kt_foldset *s, const void *item, uint64_t tag, bool open)
{
	struct kt_fold_slot *e = find(s, item, tag);

	if (!open) {
		if (e)
			remove_at(s, (size_t)(e - s->slots));
		return;
	}
	if (e)
		return;
	if ((s->n + 1) * 4 > s->cap * 3)
		grow(s);
	insert(s, item, tag);
}

void foldset_prune(struct kt_foldset *s, bool (*keep)(const void *item, uint64_t tag))
{
	size_t i = 0;

	/* a removal can shift a later entry into i: look at i again */
	while (i < s->cap)
		if (s->slots[i].item && !keep(s->slots[i].item, s->slots[i].tag))
			remove_at(s, i);
		else
			i++;
}

void foldset_clear(struct kt_foldset *s)
{
	if (s->cap)
		memset(s->slots, 0, s->cap * sizeof(*s->slots));
	s->n = 0;
}

void foldset_free(struct kt_foldset *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}
