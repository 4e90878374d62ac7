/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flame pane's wakeup chains, on an off-CPU profile with wakers (flame_live.c's y): Y on
 * a blocked frame shows its wakers, each a flame graph (backend/stacks/wakers.h), and lists them
 * by time in the status line; W on a waker's frame (there, or in the profile above the
 * "--") shows that waker's own wakers, one step further along the chain; Esc goes back a
 * step, and from the first to the profile. The profile's tree and source are taken out of
 * the pane meanwhile, the source not polled but open: the kernel goes on counting, and the
 * profile comes back with all of it.
 */
#ifndef KTOP_UI_FLAME_WAKERS_H
#define KTOP_UI_FLAME_WAKERS_H

struct kt_view;

/* W in the profile shown in v, titled name (without its unit): the first step, or a
 * one-line reason in the status line. */
void flame_wakers_open(struct kt_view *v, const char *name);

#endif
