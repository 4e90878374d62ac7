/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the timeline and heat-map panes share: one time index of the app's store
 * (backend/callgraph/timeindex.h), made when the first of them opens and freed with the last;
 * sched_switch turned on in ktop's instance when it is off; the event types' names. */
#ifndef KTOP_UI_TIMEAXIS_H
#define KTOP_UI_TIMEAXIS_H

#include <stddef.h>
#include <stdint.h>

struct kt_view;
struct kt_timeindex;

/* The index, made on first use. NULL with the reason in why. A pane that got it gives it
 * back with timeaxis_release. */
struct kt_timeindex *timeaxis_take(struct kt_view *v, char *why, size_t len);
void timeaxis_release(struct kt_view *v);
/* Once a tick: a recording read to its end ends the index's slices there. */
void timeaxis_tick(struct kt_view *v);
/* "sched:sched_switch" of common_type type into buf (the index names a record of it). */
const char *timeaxis_kind_name(struct kt_view *v, int type, uint64_t seq, char *buf,
			       size_t len);
/* Whether sched_switch's slices are there (why: the one line when not). */
const char *timeaxis_no_switches(struct kt_view *v);
/* The shared index once a pane took it, else NULL (the timeline bench reads its figures). */
struct kt_timeindex *timeaxis_index(struct kt_view *v);

#endif
