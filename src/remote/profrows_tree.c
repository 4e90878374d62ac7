// SPDX-License-Identifier: GPL-2.0-or-later
/* The PROFROWS frame from and into stack trees (profrows.h). No proto.h here: its struct
 * kt_frame is not stacks.h's. */
#include "config.h"

#include <stdlib.h>

#include "backend/stacks/stacks.h"
#include "profrows.h"
#include "util/xalloc.h"

struct enc {
	struct kt_wbuf *b;
	uint32_t n;
	uint8_t kinds[KT_PROFROWS_MAX_DEPTH];
	const char *names[KT_PROFROWS_MAX_DEPTH];
};

static int put_stack(void *arg, const struct kt_stack_node *const *path, size_t n,
		     uint64_t self)
{
	struct enc *e = arg;

	if (!n || n > KT_PROFROWS_MAX_DEPTH)
		return 0;
	for (size_t i = 0; i < n; i++) {
		e->kinds[i] = (uint8_t)path[i]->kind;
		e->names[i] = path[i]->name;
	}
	profrows_put(e->b, self, n, e->kinds, e->names);
	e->n++;
	return 0;
}

void msg_profrows_encode(struct kt_wbuf *b, uint32_t id, const char *note,
			 const struct kt_stacks *st)
{
	struct enc *e = xcalloc(1, sizeof(*e));
	size_t at = profrows_begin(b, id, note);

	e->b = b;
	stacks_walk(st, put_stack, e);
	profrows_end(b, at, e->n);
	free(e);
}

struct add {
	struct kt_stacks *into;
	const char *label;
	size_t max_bytes;
	uint64_t *dropped;
	struct kt_frame frames[KT_PROFROWS_MAX_DEPTH + 1];
};

static int add_stack(void *arg, uint64_t weight, size_t n, const uint8_t *kinds,
		     const char *const *names)
{
	struct add *a = arg;
	size_t k = 0;

	if (a->label)
		a->frames[k++] = (struct kt_frame){ a->label, KT_FRAME_TASK };
	for (size_t i = 0; i < n; i++)
		a->frames[k++] = (struct kt_frame){ names[i], (enum kt_frame_kind)kinds[i] };
	if (a->max_bytes && stacks_bytes_adding(a->into, a->frames, k) > a->max_bytes &&
	    !stacks_has_path(a->into, a->frames, k)) {
		if (a->dropped)
			*a->dropped += weight;
		return 0;
	}
	return stacks_add(a->into, a->frames, k, weight) < 0 ? -1 : 0;
}

int profrows_add(const struct kt_profrows *h, struct kt_stacks *into, const char *label,
		 size_t max_bytes, uint64_t *dropped)
{
	struct add *a = xcalloc(1, sizeof(*a));
	int ret;

	a->into = into;
	a->label = label;
	a->max_bytes = max_bytes;
	a->dropped = dropped;
	ret = profrows_each(h, add_stack, a);
	free(a);
	return ret;
}
