// SPDX-License-Identifier: GPL-2.0-or-later
/* The recording event source (ktop -i): a trace.dat read by record/recording.c into the
 * app's paged store. Nothing reaches a kernel: what would is refused with the line the
 * explorer shows; what the user chooses to see is hidden and filtered as the file is read
 * (KT_CAP_HIDE). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/tracefs/filtercheck.h"
#include "record/recording.h"
#include "source/recording_overview.h"
#include "source/source.h"
#include "storehist.h"
#include "util/xalloc.h"

#define REC(s) ((struct kt_recording *)(s)->data)

static const char *recording_refusal(struct kt_source *s, enum kt_cap cap)
{
	switch (cap) {
	case KT_CAP_LIVE:
		return "a recording does not change: nothing to pause";
	case KT_CAP_CLEAR:
		return "a recording is read-only: nothing to clear (e hides events)";
	case KT_CAP_COUNTERS:
		return "counters need a live kernel: a recording has none";
	case KT_CAP_PROBES:
		return "probes need a live kernel: a recording holds the events its probes made";
	case KT_CAP_TRACER:
		return "tracers need a live kernel: a recording's tracer ran when it was made";
	case KT_CAP_WRITE:
		return "w, A: this is a recording; ktop -i FILE --from A --to B -o PART writes a "
		       "part";
	case KT_CAP_TRIGGERS:
		return "triggers act in a live kernel: a recording has none";
	case KT_CAP_STACKS:
		return "stack triggers act in a live kernel: a recording has none";
	case KT_CAP_SELF:
		return "a recording does not say which threads were ktop's (F comm=NAME narrows "
		       "rows)";
	case KT_CAP_KBUF:
		return "ring buffers belong to a live capture: a recording holds only the events read";
	default:
		return "a recording is read, not captured: this needs a live kernel";
	}
}

static void recording_describe(struct kt_source *s, struct kt_source_desc *d)
{
	const char *path = s->app->opts->input_path, *base = strrchr(path, '/');
	struct kt_recording_info info;

	recording_info(REC(s), &info);
	snprintf(d->name, sizeof(d->name), "%s", base ? base + 1 : path);
	snprintf(d->host, sizeof(d->host), "%s", info.file.host);
	snprintf(d->kernel, sizeof(d->kernel), "%s", info.file.kernel);
	d->complete = info.indexed;
	d->events = info.events;
	d->first_ts = info.first_ts;
	d->last_ts = info.last_ts;
	d->corrupt = info.corrupt;
	snprintf(d->corrupt_page, sizeof(d->corrupt_page), "%s", info.corrupt_page);
}

/* The file's figures in the live ones' places: what its pages and the kernel's counters
 * (as recorded) say was lost, and the records indexed so far. */
static void recording_tick(struct kt_source *s)
{
	struct kt_recording_info info;
	struct kt_app *app = s->app;

	recording_info(REC(s), &info);
	app->rstats.events = info.events;
	app->rstats.missed = info.lost_marked;
	app->rstats.missed_unknown = info.lost_unknown;
	app->kernel_lost = info.file.kernel_lost;
}

static void recording_src_close(struct kt_source *s)
{
	recording_close(REC(s));
	s->data = NULL;
}

static uint64_t recording_src_type_count(struct kt_source *s, int id)
{
	return recording_type_count(REC(s), id);
}

static bool recording_src_type_hidden(struct kt_source *s, int id)
{
	return recording_hidden(REC(s), id);
}

static void recording_src_type_set_hidden(struct kt_source *s, int id, bool hidden)
{
	recording_set_hidden(REC(s), id, hidden);
}

static const char *recording_src_type_filter(struct kt_source *s, int id)
{
	return recording_filter(REC(s), id);
}

/* Checked by ktop's grammar first (filtercheck.h): libtraceevent's parser, which
 * recording.c applies, crashes on unfinished text such as "prev_pid == 1 )". */
static int recording_src_type_set_filter(struct kt_source *s, int id, const char *expr,
					 char *err, size_t errlen)
{
	struct tep_event *ev = tep_find_event(recording_tep(REC(s)), id);

	if (ev && expr && filter_check(ev, expr, err, errlen, NULL) < 0)
		return -1;
	return recording_set_filter(REC(s), id, expr, err, errlen);
}

static void recording_src_wait_complete(struct kt_source *s)
{
	recording_wait_indexed(REC(s));
}

static const char *recording_src_kept_stacks(struct kt_source *s)
{
	return recording_stacks(REC(s));
}

/* H: a field histogram of the recording's events, which follows the time range. */
static struct kt_histsrc *recording_src_hist_open(struct kt_source *s, const char *spec,
						  char *err, size_t errlen)
{
	return storehist_open(s->app->store, s->app->decoder, spec, err, errlen);
}

/* -i FILE -o PART: the file's own formats and names, not this machine's. */
static int recording_src_record_meta(struct kt_source *s, struct kt_tdat_meta *meta,
				     char *err, size_t errlen)
{
	return recording_record_meta(REC(s), meta, err, errlen);
}

static const struct kt_source_hide_ops recording_hide_ops = {
	.type_count = recording_src_type_count,
	.type_hidden = recording_src_type_hidden,
	.type_set_hidden = recording_src_type_set_hidden,
	.type_filter = recording_src_type_filter,
	.type_set_filter = recording_src_type_set_filter,
};

static const struct kt_source_seek_ops recording_seek_ops = {
	.wait_complete = recording_src_wait_complete,
	.kept_stacks = recording_src_kept_stacks,
};

/* The overview from the file's sched_switch (recording_overview.c); via is --top=VIA's, a
 * live kernel's choice. */
static struct kt_ovsrc *recording_src_overview_open(struct kt_source *s, const char *via,
						    char *err, size_t errlen)
{
	(void)via;
	return recording_overview_open(s->app, err, errlen);
}

const struct kt_source_ops source_recording_ops = {
	.kind = "recording",
	.refusal = recording_refusal,
	.describe = recording_describe,
	.tick = recording_tick,
	.close = recording_src_close,
	.record_meta = recording_src_record_meta,
	.overview_open = recording_src_overview_open,
	.hide = &recording_hide_ops,
	.seek = &recording_seek_ops,
	/* histograms of its stored events (storehist.h), not BPF's */
	.hist_open = recording_src_hist_open,
};

struct kt_source *source_recording_new(struct kt_app *app, struct kt_recording *rec)
{
	struct kt_source *s = xcalloc(1, sizeof(*s));

	s->ops = &source_recording_ops;
	s->app = app;
	s->data = rec;
	return s;
}
