// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/timeindex.h"
#include "source/source.h"
#include "util/testhooks.h"
#include "ui/screen.h"
#include "timeaxis.h"
#include "ui/view.h"
#include "util/xalloc.h"

struct kt_ui_axis {
	struct kt_timeindex *ti;
	int users;
	bool final, dumped;
	char no_switch[160]; /* why there are no slices, "" when there are */
};

static int field_off(struct tep_event *ev, const char *name, int *size)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	if (size)
		*size = f ? f->size : 0;
	return f ? f->offset : -1;
}

/* Live, sched_switch is turned on in ktop's instance when it is not (the kernel-state
 * contract: the instance is ktop's own); a recording has it or not. */
static void switch_fields(struct kt_view *v, struct kt_switch_fields *sw, char *why, size_t len)
{
	struct kt_app *app = v->app;
	struct tep_event *ev;
	char err[256];

	sw->type = -1;
	why[0] = '\0';
	if (app_can(app, KT_CAP_EVENTS) &&
	    !source_is_enabled(app->source, "sched", "sched_switch")) {
		if (app_set_events(app, "sched:sched_switch", true, err, sizeof(err)) < 0) {
			snprintf(why, len, "no CPU lanes: sched:sched_switch: %.100s", err);
			return;
		}
		ui_broadcast(v->ui, KT_EV_EVENTS);
		ui_message(v->ui, false, "timeline: sched:sched_switch enabled in ktop's instance");
	}
	if (!app->decoder || decoder_load(app->decoder, "sched", "sched_switch") < 0 ||
	    !(ev = tep_find_event_by_name(decoder_tep(app->decoder), "sched", "sched_switch"))) {
		snprintf(why, len, "no CPU lanes: %s",
			 app_can(app, KT_CAP_SEEK) ? "the recording has no sched:sched_switch" :
						     "no sched:sched_switch format here");
		return;
	}
	sw->type = ev->id;
	sw->prev_comm = field_off(ev, "prev_comm", &sw->comm_len);
	sw->prev_pid = field_off(ev, "prev_pid", NULL);
	sw->prev_prio = field_off(ev, "prev_prio", NULL);
	sw->next_comm = field_off(ev, "next_comm", NULL);
	sw->next_pid = field_off(ev, "next_pid", NULL);
	sw->next_prio = field_off(ev, "next_prio", NULL);
}

struct kt_timeindex *timeaxis_take(struct kt_view *v, char *why, size_t len)
{
	struct kt_ui *ui = v->ui;
	struct kt_switch_fields sw;

	if (!ui->axis) {
		ui->axis = xcalloc(1, sizeof(*ui->axis));
		switch_fields(v, &sw, ui->axis->no_switch, sizeof(ui->axis->no_switch));
		ui->axis->ti = timeindex_new(v->app->store, v->app->ncpus, &sw);
	}
	if (!ui->axis->ti) {
		snprintf(why, len, "no time index: out of memory or threads");
		free(ui->axis);
		ui->axis = NULL;
		return NULL;
	}
	ui->axis->users++;
	return ui->axis->ti;
}

void timeaxis_release(struct kt_view *v)
{
	struct kt_ui *ui = v->ui;

	if (!ui->axis || --ui->axis->users > 0)
		return;
	timeindex_free(ui->axis->ti);
	free(ui->axis);
	ui->axis = NULL;
}

const char *timeaxis_no_switches(struct kt_view *v)
{
	return v->ui->axis && v->ui->axis->no_switch[0] ? v->ui->axis->no_switch : NULL;
}

struct kt_timeindex *timeaxis_index(struct kt_view *v)
{
	return v->ui->axis ? v->ui->axis->ti : NULL;
}

/* The test suite's proof (KTOP_TEST_TIMELINE_DUMP=FILE, test-hook builds): once a
 * recording is indexed to its end, every CPU's slices and the heat map's 20 ms cells of
 * all events, as the panes draw them, in nanoseconds. */
static void print_slice(const struct kt_cpuslice *s, void *arg)
{
	fprintf(arg, "slice %d %llu %llu %d %s\n", s->cpu, (unsigned long long)s->start,
		(unsigned long long)s->end, s->pid, s->comm);
}

static void dump(struct kt_timeindex *ti, const char *path)
{
	struct kt_ti_info info;
	uint64_t t;
	FILE *f = fopen(path, "w");
	int cpu;

	if (!f)
		return;
	timeindex_info(ti, &info);
	for (cpu = 0; cpu < info.ncpus; cpu++)
		timeindex_slices(ti, cpu, 0, UINT64_MAX, print_slice, f);
	for (t = info.first_ts; t <= info.last_ts; t += 20000000ull)
		fprintf(f, "cell %llu %llu\n", (unsigned long long)t,
			(unsigned long long)timeindex_count(ti, KT_TI_ALL, t, t + 20000000ull));
	fclose(f);
}

void timeaxis_tick(struct kt_view *v)
{
	struct kt_ui_axis *ax = v->ui->axis;
	struct kt_source_desc d = { 0 };
	struct kt_ti_info info;
	const char *path;

	if (!ax || !ax->ti)
		return;
	if (!ax->final && app_can(v->app, KT_CAP_SEEK)) {
		source_describe(v->app->source, &d);
		if (d.complete) {
			ax->final = true;
			timeindex_set_final(ax->ti);
		}
	}
	path = test_hook_env("KTOP_TEST_TIMELINE_DUMP");
	if (!path || ax->dumped)
		return;
	timeindex_info(ax->ti, &info);
	if (info.done) {
		ax->dumped = true;
		dump(ax->ti, path);
	}
}

const char *timeaxis_kind_name(struct kt_view *v, int type, uint64_t seq, char *buf,
			       size_t len)
{
	struct tep_event *ev = v->app->decoder ?
				       tep_find_event(decoder_tep(v->app->decoder), type) : NULL;
	struct kt_rec r;

	buf[0] = '\0';
	if (ev) {
		snprintf(buf, len, "%s:%s", ev->system, ev->name);
		return buf;
	}
	store_lock(v->app->store);
	if (v->app->decoder && store_get(v->app->store, seq, &r))
		decoder_format_name(v->app->decoder, &r, buf, len);
	store_unlock(v->app->store);
	if (!buf[0])
		snprintf(buf, len, "type %d", type);
	return buf;
}
