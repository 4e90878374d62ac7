// SPDX-License-Identifier: GPL-2.0-or-later
/* Open addressing, linear probing, backward-shift deletion (storelat.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "storelat.h"
#include "util/xalloc.h"

static size_t home(const struct kt_starts *s, uint64_t key)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (s->cap - 1);
}

static struct kt_start *find(const struct kt_starts *s, uint64_t key)
{
	size_t i;

	if (!s->cap)
		return NULL;
	for (i = home(s, key); s->slot[i].used; i = (i + 1) & (s->cap - 1))
		if (s->slot[i].key == key)
			return &s->slot[i];
	return NULL;
}

static void grow(struct kt_starts *s)
{
	struct kt_starts bigger = { 0 };
	size_t i;

	bigger.cap = s->cap ? 2 * s->cap : 1024;
	bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
	for (i = 0; i < s->cap; i++)
		if (s->slot[i].used)
			starts_put(&bigger, s->slot[i].key, s->slot[i].ts, s->slot[i].id);
	free(s->slot);
	*s = bigger;
}

void starts_put(struct kt_starts *s, uint64_t key, uint64_t ts, long id)
{
	struct kt_start *e = find(s, key);
	size_t i;

	if (!e) {
		if (2 * (s->n + 1) > s->cap)
			grow(s);
		for (i = home(s, key); s->slot[i].used; i = (i + 1) & (s->cap - 1))
			;
		e = &s->slot[i];
		e->used = true;
		e->key = key;
		s->n++;
	}
	e->ts = ts;
	e->id = id;
}

bool starts_take(struct kt_starts *s, uint64_t key, uint64_t *ts, long *id)
{
	struct kt_start *e = find(s, key);
	size_t i, j, h;

	if (!e)
		return false;
	*ts = e->ts;
	*id = e->id;
	/* backward shift: later entries of the run move up so no probe stops early */
	i = (size_t)(e - s->slot);
	for (j = (i + 1) & (s->cap - 1); s->slot[j].used; j = (j + 1) & (s->cap - 1)) {
		h = home(s, s->slot[j].key);
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			s->slot[i] = s->slot[j];
			i = j;
		}
	}
	s->slot[i].used = false;
	s->n--;
	return true;
}

void starts_clear(struct kt_starts *s)
{
	if (s->cap)
		memset(s->slot, 0, s->cap * sizeof(*s->slot));
	s->n = 0;
}

void starts_free(struct kt_starts *s)
{
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
