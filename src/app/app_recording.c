// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop -i: the app wired to a recording instead of the kernel. The panes read the same
 * store, decoder and catalogue as in a live session; the event source is the recording's
 * (source_recording.c), which refuses what needs a kernel with the line the panes show. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "backend/tracefs/catalog.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "../source/source.h"
#include "util/xalloc.h"
#include "record/recording.h"
#include "util/clock.h"

/* The catalogue of the events the file has formats for, in available_events form. */
static struct kt_catalog *catalog_of(struct tep_handle *tep)
{
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	size_t len = 1, n = 0, i;
	struct kt_catalog *cat;
	char *text;

	for (i = 0; evs && evs[i]; i++)
		len += strlen(evs[i]->system) + strlen(evs[i]->name) + 2;
	text = xmalloc(len);
	text[0] = '\0';
	for (i = 0; evs && evs[i]; i++)
		n += (size_t)snprintf(text + n, len - n, "%s:%s\n", evs[i]->system, evs[i]->name);
	cat = catalog_parse(text);
	free(text);
	return cat;
}

int app_open_recording(struct kt_app *app, const struct kt_options *opts, char *err,
		       size_t errlen)
{
	struct kt_recording_info info;
	struct kt_recording *rec;
	int ret = app_init(app, opts, err, errlen);

	if (ret != KT_EXIT_OK)
		return ret;
	rec = recording_open(opts->input_path, err, errlen);
	if (!rec)
		return KT_EXIT_FAILURE;
	app->source = source_recording_new(app, rec); /* closes rec with the app */
	app->capture_start = recording_start(rec);
	if (options_ranged(opts)) {
		uint64_t from, to;

		time_range_resolve(&opts->range, app->capture_start, &from, &to);
		recording_set_window(rec, from, to);
	}
	recording_info(rec, &info);
	app->ncpus = info.ncpus > 0 ? info.ncpus : 1;
	app->cpu_stats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_stats));
	app->store = store_new(opts->memory_bytes);
	app->decoder = decoder_new_offline(recording_tep(rec));
	app->catalog = catalog_of(recording_tep(rec));
	if (!app->store || !app->decoder || !app->catalog) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	evstack_setup(app->store, app->decoder);
	if (recording_attach(rec, app->store, app->wake_wr, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	app->last_tick_ns = clock_mono_ns();
	selfstat_sample(&app->self);
	return KT_EXIT_OK;
}
