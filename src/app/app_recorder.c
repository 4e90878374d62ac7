// SPDX-License-Identifier: GPL-2.0-or-later
/* What a recording of the app is made of (app_recorder.h). */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "app.h"
#include "app_recorder.h"
#include "backend/ingest/decode.h"
#include "record/incident.h"
#include "record/recorder.h"
#include "source/source.h"

/* The writer asks for task names; "<...>" means ktop does not know one. */
static const char *app_recorder_comm(void *ctx, int pid)
{
	struct kt_app *app = ctx;
	const char *c = decoder_comm(app->decoder, pid, ULLONG_MAX);

	return c && strcmp(c, "<...>") ? c : NULL;
}

int app_recorder_from(struct kt_app *app, struct kt_recorder_from *from, char *err,
		      size_t errlen)
{
	*from = (struct kt_recorder_from){
		.store = app->store,
		.cpu_stats = app->cpu_stats,
		.meta = {
			.tracing_dir = app->tracing_dir,
			.ncpus = app->ncpus,
			.clock = "mono",
			.comm = app_recorder_comm,
			.comm_ctx = app,
			.replace = app->opts->force,
		},
	};
	/* another machine's capture: its kernel's files, as the agent sent them (1: filled) */
	return source_record_meta(app->source, &from->meta, err, errlen) < 0 ? -1 : 0;
}

static struct kt_symbolizer *app_recorder_sym(void *ctx)
{
	return app_symbolizer(ctx);
}

int app_incident_from(struct kt_app *app, struct kt_incident_from *from, char *err,
		      size_t errlen)
{
	from->decoder = app->decoder;
	from->sym = app_recorder_sym;
	from->sym_ctx = app;
	return app_recorder_from(app, &from->rec, err, errlen);
}
