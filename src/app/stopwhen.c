// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Start-up triggers and the "stop when" recipe (stopwhen.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "backend/ingest/decode.h"
#include "backend/tracefs/triggers.h"
#include "util/log.h"
#include "stopwhen.h"
#include "util/xalloc.h"

struct tep_event *stopwhen_format(struct kt_app *app, const struct kt_trigger *t)
{
	if (!app->decoder || decoder_load(app->decoder, t->system, t->event) < 0)
		return NULL;
	return tep_find_event_by_name(decoder_tep(app->decoder), t->system, t->event);
}

int stopwhen_arm(struct kt_app *app, const char *spec, char *err, size_t errlen)
{
	struct kt_stopwhen *sw;
	char ev[300];

	if (app->stop) {
		snprintf(err, errlen, "a stop is set already, on %s (Ctrl-R on that event in the "
			 "picker removes it)", app->stop->desc);
		return -1;
	}
	sw = xcalloc(1, sizeof(*sw));
	if (trigger_parse_stop(spec, &sw->trig, err, errlen) < 0 ||
	    source_trigger_add(app->source, stopwhen_format(app, &sw->trig), &sw->trig, err,
			       errlen) < 0) {
		free(sw);
		return -1;
	}
	snprintf(sw->desc, sizeof(sw->desc), "%s:%s%s%s", sw->trig.system, sw->trig.event,
		 sw->trig.filter[0] ? " if " : "", sw->trig.filter);
	app->stop = sw;
	/* recorded, so the moment is in the stream */
	snprintf(ev, sizeof(ev), "%s:%s", sw->trig.system, sw->trig.event);
	if (app_set_events(app, ev, true, err, errlen) < 0)
		return -1;
	err[0] = '\0';
	log_debug("stopwhen: armed on %s", sw->desc);
	return 0;
}

void stopwhen_disarm(struct kt_app *app)
{
	if (!app->stop)
		return;
	if (app->stop->fired)
		source_tracing_on(app->source, true);
	log_debug("stopwhen: %s removed%s", app->stop->desc,
		  app->stop->fired ? ", capture on again" : "");
	free(app->stop);
	app->stop = NULL;
}

int stopwhen_start(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	size_t i;

	for (i = 0; i < o->n_triggers; i++) {
		struct kt_trigger t;

		if (trigger_parse(o->triggers[i], true, &t, err, errlen) < 0 ||
		    source_trigger_add(app->source, stopwhen_format(app, &t), &t, err, errlen) < 0)
			return -1;
	}
	return o->stop_when ? stopwhen_arm(app, o->stop_when, err, errlen) : 0;
}

bool stopwhen_check(struct kt_app *app)
{
	struct kt_stopwhen *sw = app->stop;

	if (!sw || sw->fired || !app_can(app, KT_CAP_TRIGGERS))
		return sw && sw->fired;
	sw->fired = source_trigger_spent(app->source, sw->trig.system, sw->trig.event, "traceoff");
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
