// SPDX-License-Identifier: GPL-2.0-or-later
/* Triggers' and the stop's marks on the timeline's event lanes (timeline_marks.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "app/options.h"
#include "app/stopwhen.h"
#include "backend/callgraph/timeindex.h"
#include "timeline_marks.h"

void tlmarks_load(struct kt_tl_marks *m, struct kt_app *app)
{
	size_t i;

	if (m->loaded || !app->decoder)
		return;
	m->loaded = true;
	for (i = 0; app->opts && i < app->opts->n_triggers && m->n < KT_TLM_MAX; i++) {
		struct kt_trigger t;
		struct tep_event *te;
		char err[256];

		if (trigger_parse(app->opts->triggers[i], true, &t, err, sizeof(err)) < 0)
			continue;
		te = stopwhen_format(app, &t);
		m->trig[m->n].type = te ? te->id : -1;
		m->trig[m->n].count = t.count;
		m->trig[m->n].conditioned = t.filter[0] != '\0';
		m->n++;
	}
}

/* The time of the count-th record of kind from the index's start: the trigger's last fire. */
static bool last_fire(struct kt_timeindex *ti, int kind, long count, uint64_t *out)
{
	struct kt_ti_info info;
	uint64_t ts;
	long k;

	timeindex_info(ti, &info);
	if (!info.records)
		return false;
	ts = info.first_ts;
	if (!timeindex_count(ti, kind, ts, ts + 1) && !timeindex_next(ti, -1, kind, ts, 1, &ts))
		return false;
	for (k = 1; k < count; k++)
		if (!timeindex_next(ti, -1, kind, ts, 1, &ts))
			break;
	*out = ts;
	return true;
}

char tlmarks_at(const struct kt_tl_marks *m, struct kt_app *app, struct kt_timeindex *ti,
		int kind, uint64_t a, uint64_t b)
{
	const struct kt_stopwhen *sw = app->stop;
	uint64_t last;
	int i;

	if (sw && sw->located && sw->ts >= a && sw->ts < b &&
	    timeindex_count(ti, kind, sw->ts, sw->ts + 1))
		return 'S';
	for (i = 0; i < m->n; i++) {
		if (m->trig[i].type != kind || m->trig[i].conditioned ||
		    !timeindex_count(ti, kind, a, b))
			continue;
		if (m->trig[i].count < 0)
			return 'T';
		if (last_fire(ti, kind, m->trig[i].count, &last) && a <= last)
			return 'T';
	}
	return 0;
}

void tlmarks_legend(const struct kt_tl_marks *m, struct kt_app *app, char *buf, size_t len)
{
	bool plain = false, conditioned = false;
	int i, n = 0;

	for (i = 0; i < m->n; i++) {
		plain |= !m->trig[i].conditioned;
		conditioned |= m->trig[i].conditioned;
	}
	buf[0] = '\0';
	if (plain)
		n += snprintf(buf + n, len - (size_t)n, "T trigger fired  ");
	if (conditioned && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "(a trigger's condition unmarked)  ");
	if (app->stop && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "S stop-when hit");
}
