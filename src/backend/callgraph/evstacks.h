/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stream of events with stacks as a stack tree (stacks.h, unit KT_STACK_EVENTS): each
 * event that carries a stack (evstack.h) adds one to the path "task;outermost;...;
 * innermost", the way `perf record -e EVENT -g` folds. What the flame graph pane draws and
 * `ktop -b --folded` prints for event stacks.
 */
#ifndef KTOP_EVSTACKS_H
#define KTOP_EVSTACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/stacks/stacks.h"

struct kt_decoder;
struct kt_rec;
struct kt_store;
struct kt_symbolizer;
struct tep_handle;

/* Adds r's stack, if it has one, to st under the name of r's task at r's time (kernel frames
 * named by syms' kallsyms, the decoder's when NULL; user frames by sym, which may be NULL).
 * Store lock held. Returns 1 when added, 0 when r has no stack (or is not an event), -1 when
 * out of memory. */
int evstacks_add(struct kt_stacks *st, struct kt_decoder *d, struct tep_handle *syms,
		 struct kt_symbolizer *sym, const struct kt_store *store, const struct kt_rec *r);
/* What to look at of each record, with their arg: shown, when not NULL, says which rows
 * count (the stream's row filter); over remote agents, syms_of and sym_of, when not NULL,
 * name a record's kernel and user frames (each host's own) instead of the decoder and sym. */
struct kt_evstacks_scan {
	bool (*shown)(void *arg, const struct kt_rec *r);
	struct tep_handle *(*syms_of)(void *arg, const struct kt_rec *r);
	struct kt_symbolizer *(*sym_of)(void *arg, const struct kt_rec *r);
	void *arg;
};
/* Adds the stacks of the records [first, end) of the store (those still held), user frames
 * named by sym (may be NULL) unless scan (may be NULL: every record) says otherwise. Takes the store lock in batches.
 * Returns the events added, or -1 when out of memory. */
int64_t evstacks_collect(struct kt_stacks *st, struct kt_decoder *d,
			 struct kt_symbolizer *sym, struct kt_store *store, uint64_t first,
			 uint64_t end, const struct kt_evstacks_scan *scan);

#endif
