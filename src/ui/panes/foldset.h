/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A pane's fold state, out of the backend's data (uftrace keeps it in its TUI node): the set
 * of items shown unfolded, keyed by the item's address and a tag that tells apart two items
 * that had the same address in turn (a call's start time, for a pool that reuses the nodes
 * of evicted calls; 0 where the pane empties the set before the items go). */
#ifndef KTOP_UI_FOLDSET_H
#define KTOP_UI_FOLDSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_fold_slot;

struct kt_foldset {
	struct kt_fold_slot *slots;
	size_t cap, n; /* cap: a power of two, or 0 */
};

/* A zeroed struct is an empty set. */
bool foldset_open(const struct kt_foldset *s, const void *item, uint64_t tag);
/* Marks item unfolded (open) or folded. */
void foldset_set(struct kt_foldset *s, const void *item, uint64_t tag, bool open);
/* Drops every item that keep says no to (items gone, or their address reused). */
void foldset_prune(struct kt_foldset *s, bool (*keep)(const void *item, uint64_t tag));
/* Everything folded. */
void foldset_clear(struct kt_foldset *s);
void foldset_free(struct kt_foldset *s);

#endif
