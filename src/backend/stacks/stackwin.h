/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sliding window over stacks: the last N seconds of a live profile, for the flame pane's
 * differential view (the window against a frozen baseline). One stack tree per second in a
 * ring of N; a second's tree is emptied when the ring comes round to it again, so the
 * memory held is N seconds of stacks, and stacks older than the window are gone for good.
 * Seconds are whatever whole-second clock the caller keeps, never going back (the tests give
 * them by hand). No locks: one owner.
 */
#ifndef KTOP_STACKWIN_H
#define KTOP_STACKWIN_H

#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

#define KT_STACKWIN_MAX_SECS 3600

struct kt_stackwin;

/* An empty window of secs seconds (1 to KT_STACKWIN_MAX_SECS) of unit's stacks; NULL when
 * secs is out of range or out of memory. */
struct kt_stackwin *stackwin_new(enum kt_stack_unit unit, unsigned secs);
void stackwin_free(struct kt_stackwin *w);
unsigned stackwin_secs(const struct kt_stackwin *w);

/* Adds the stacks of from, which came in second sec, to that second's tree. Returns 0, or
 * -1 when out of memory (that second then holds some of them). */
int stackwin_add(struct kt_stackwin *w, const struct kt_stacks *from, uint64_t sec);

/* Empties the seconds that are out of the window at sec (sec - secs and older), taking
 * their stacks out of shown (stacks_subtract) when it is not NULL: a tree kept equal to the
 * window by adding what stackwin_add is given and calling this each second costs what
 * comes and goes, not what the window holds. */
void stackwin_expire(struct kt_stackwin *w, uint64_t sec, struct kt_stacks *shown);

/* A new tree (the caller frees it) of the stacks of the seconds sec - secs + 1 to sec: the
 * last secs seconds, sec included. NULL when out of memory. */
struct kt_stacks *stackwin_tree(const struct kt_stackwin *w, uint64_t sec);
/* The nodes the seconds' trees hold together (stacks_nodes), to tell when a tree kept by
 * stackwin_expire carries too many emptied nodes and is better made again. */
size_t stackwin_nodes(const struct kt_stackwin *w);

/* Forgets every second's stacks. */
void stackwin_clear(struct kt_stackwin *w);

#endif
