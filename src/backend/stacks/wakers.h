/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walking a wakeup chain in an off-CPU profile with wakers (offcpu.h): each stack there is
 * the blocked task, its blocked frames, "--", the waker's frames innermost first and the
 * waker's name last. The wakers of a blocked frame are the waker parts of the stacks
 * through it; a waker's own wakers are those of the stacks where that task is the one
 * blocked. Each comes out as a tree of its own, the right way up (the waker's name first,
 * then its user and kernel frames, outermost first), weighing the time blocked.
 */
#ifndef KTOP_BACKEND_WAKERS_H
#define KTOP_BACKEND_WAKERS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_stack_node;
struct kt_stacks;

/* The frame between the blocked frames and the waker's. */
#define KT_WAKERS_SEPARATOR "--"

/* Whether n is one of the waker's frames (the separator is on its path), and not the
 * blocked task's. */
bool wakers_in_waker(const struct kt_stack_node *n);
/* Adds to out the wakers of the stacks of st through n, a frame of the blocked part.
 * Returns 0, or -1 when out of memory. */
int wakers_of_node(const struct kt_stacks *st, const struct kt_stack_node *n,
		   struct kt_stacks *out);
/* Adds to out the wakers of task's own stretches off the CPU in st (the stacks whose
 * blocked task is named task). Returns 0, or -1 when out of memory. */
int wakers_of_task(const struct kt_stacks *st, const char *task, struct kt_stacks *out);
/* The task of a waker's frame: in a chain's tree (waker part false), the frame's first;
 * in the profile's, the name at the end of the widest stack through it. */
const char *wakers_task(const struct kt_stack_node *n, bool profile);
/* "NAME TIME, NAME TIME..." of a chain's tree, the heaviest waker first, into buf (a
 * status line's). */
void wakers_list(const struct kt_stacks *wakers, char *buf, size_t len);

#endif
