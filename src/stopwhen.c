// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Start-up triggers and the "stop when" recipe (stopwhen.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "backend/decode.h"
#include "backend/triggers.h"
#include "log.h"
#include "stopwhen.h"
#include "xalloc.h"

/* The event's parsed format, for ktop's check of a trigger's condition; NULL without one. */
static struct tep_event *format_of(struct kt_app *app, const struct kt_trigger *t)
{
	if (!app->decoder || decoder_load(app->decoder, t->system, t->event) < 0)
		return NULL;
	return tep_find_event_by_name(decoder_tep(app->decoder), t->system, t->event);
}

int stopwhen_start(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_stopwhen *sw;
	char spec[300];
	size_t i;

	for (i = 0; i < o->n_triggers; i++) {
		struct kt_trigger t;

		if (trigger_parse(o->triggers[i], true, &t, err, errlen) < 0 ||
		    trigger_add(app->session, format_of(app, &t), &t, err, errlen) < 0)
			return -1;
	}
	if (!o->stop_when)
		return 0;
	sw = xcalloc(1, sizeof(*sw));
	app->stop = sw;
	if (trigger_parse_stop(o->stop_when, &sw->trig, err, errlen) < 0)
		return -1;
	snprintf(sw->desc, sizeof(sw->desc), "%s:%s%s%s", sw->trig.system, sw->trig.event,
		 sw->trig.filter[0] ? " if " : "", sw->trig.filter);
	/* the trigger first: its checks name a bad event or condition best */
	if (trigger_add(app->session, format_of(app, &sw->trig), &sw->trig, err, errlen) < 0)
		return -1;
	snprintf(spec, sizeof(spec), "%s:%s", sw->trig.system, sw->trig.event);
	if (app_set_events(app, spec, true, err, errlen) < 0)
		return -1;
	log_debug("stopwhen: armed on %s", sw->desc);
	return 0;
}

bool stopwhen_check(struct kt_app *app)
{
	struct kt_stopwhen *sw = app->stop;

	if (!sw || sw->fired || !app->session)
		return sw && sw->fired;
	sw->fired = trigger_spent(app->session, sw->trig.system, sw->trig.event, "traceoff");
	if (sw->fired)
		log_debug("stopwhen: %s fired", sw->desc);
	return sw->fired;
}

bool stopwhen_locate(struct kt_app *app)
{
	struct kt_stopwhen *sw = app->stop;
	struct tep_event *te;
	struct kt_rec r;
	uint64_t seq;

	if (!sw || !sw->fired || !app->decoder)
		return false;
	if (sw->located)
		return true;
	te = tep_find_event_by_name(decoder_tep(app->decoder), sw->trig.system, sw->trig.event);
	if (!te)
		return false;
	store_lock(app->store);
	for (seq = store_end(app->store); seq > store_first(app->store); seq--) {
		if (!store_get(app->store, seq - 1, &r) || (r.flags & KT_REC_LOST) ||
		    decoder_rec_type(&r) != te->id)
			continue;
		sw->seq = r.seq;
		sw->ts = r.ts;
		sw->located = true;
		break;
	}
	store_unlock(app->store);
	return sw->located;
}
