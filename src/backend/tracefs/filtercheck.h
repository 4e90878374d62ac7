/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checking an event filter expression before it goes to the kernel, on every key of the
 * filter prompt: the kernel's grammar, against the event's fields as libtraceevent parsed
 * them from its format (names, string or number), with the operators each type takes.
 * libtraceevent's own filter parser (tep_filter_add_filter_str) is not used: in 1.7.1 it
 * crashes on unfinished expressions ("prev_pid >", "a > 0 &&"), double-frees on
 * "a > 0 && !", loops forever on "a == 1 && !(b == 2)", and leaks on '!' and negative
 * numbers; a prompt holds such text half the time. No kernel access; the kernel still has
 * the last word (session_set_filter). */
#ifndef KTOP_FILTERCHECK_H
#define KTOP_FILTERCHECK_H

#include <stddef.h>

struct tep_event;

/* Checks expr against ev's fields (common_* and the kernel's COMM/comm/CPU/cpu included).
 * An empty expr is fine (it clears the filter). Returns 0, or -1 with a one-line reason in
 * err and in *errpos (may be NULL) the byte offset in expr of the offending token:
 *   "'prev_pd' is not a field of sched_switch (Tab completes field names)"
 *   "'>' needs a value after it" */
int filter_check(struct tep_event *ev, const char *expr, char *err, size_t errlen,
		 int *errpos);

/* The names an expression may use for ev, NULL-terminated, malloc'd array of pointers into
 * ev's format and static strings (free only the array). */
const char **filter_field_names(struct tep_event *ev);

#endif
