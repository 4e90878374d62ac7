/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timeline's marks on an event's lane (issue 33): where --trigger's triggers fired
 * (T) and where --stop-when stopped the capture (S). A trigger without a condition fires on
 * every record of its event, a counted one on its first COUNT; a trigger with a condition
 * is not marked (ktop does not replay the kernel's condition on the stored records: the
 * legend says so). The stop is the record stopwhen_locate found. No curses. */
#ifndef KTOP_UI_TIMELINE_MARKS_H
#define KTOP_UI_TIMELINE_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_app;
struct kt_timeindex;

#define KT_TLM_MAX 16 /* start-up triggers marked */

struct kt_tl_marks {
	bool loaded;
	int n;
	struct {
		int type;   /* the trigger's event's common_type, -1: not in the formats */
		long count; /* -1: every record of the event */
		bool conditioned;
	} trig[KT_TLM_MAX];
};

/* Reads --trigger's triggers once (app->opts) into m; the event formats need the decoder. */
void tlmarks_load(struct kt_tl_marks *m, struct kt_app *app);
/* The mark of lane kind (a common_type) over [a, b): 'S' the stop, 'T' a trigger fired,
 * 0 none. */
char tlmarks_at(const struct kt_tl_marks *m, struct kt_app *app, struct kt_timeindex *ti,
		int kind, uint64_t a, uint64_t b);
/* The legend of the marks there are ("T trigger fired  S stop-when hit"), "" none. */
void tlmarks_legend(const struct kt_tl_marks *m, struct kt_app *app, char *buf, size_t len);

#endif
