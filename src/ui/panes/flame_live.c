// SPDX-License-Identifier: GPL-2.0-or-later
/* The flame graph pane's live sources (flame_live.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/callgraph/evstacks.h"
#include "backend/stacks/folded.h"
#include "backend/perf/pmu.h"
#include "backend/stacks/stacks.h"
#include "backend/ingest/store.h"
#include "app/options.h"
#include "source/profsrc.h"
#include "source/source.h"
#include "flame_live.h"
#include "flame_wakers.h"
#include "ui/screen.h"
#include "ui/view.h"
#include "util/xalloc.h"

/* LIVE_FAULTS: one process's page faults, each with its stack (the overview's drill-down) */
enum live_kind { LIVE_ONCPU, LIVE_OFFCPU, LIVE_EVENTS, LIVE_FAULTS };

struct live {
	struct kt_ui *ui;
	enum live_kind kind;
	struct kt_profsrc *ps; /* on- or off-CPU, taken by the source (profsrc.h) */
	uint64_t next; /* events: the first record not added yet */
	int cpu;       /* events: only this CPU's (the pane's c), -1: every CPU */
	bool wakers;   /* off-CPU: joined to the wakers' stacks (w) */
	char name[128]; /* the pane's title, for a wakeup chain to give back */
	char said[256]; /* off-CPU: the failure the status line was given, "" after a good poll */
};

/* Says err in the status line once, not every tick: the status line stays free for the
 * keys' words; "" forgets it (a good poll). */
static void live_say(struct live *lv, const char *err)
{
	if (err[0] && strcmp(err, lv->said))
		ui_message(lv->ui, true, "%s", err);
	snprintf(lv->said, sizeof(lv->said), "%s", err);
}

static bool row_shown(void *arg, const struct kt_rec *r)
{
	const struct live *lv = arg;

	return (lv->cpu < 0 || r->cpu == (uint32_t)lv->cpu) &&
	       view_stream_row_shown(lv->ui->stream, r);
}

/* A remote agent's names for a record's user frames (its host's, over several). */
static struct kt_symbolizer *row_symbolizer(void *arg, const struct kt_rec *r)
{
	const struct live *lv = arg;

	return app_symbolizer_cpu(lv->ui->app, r->cpu);
}

/* Another host's kernel, which names a record's kernel frames (several agents; NULL: the
 * decoder's). */
static struct tep_handle *row_symbols(void *arg, const struct kt_rec *r)
{
	const struct live *lv = arg;

	return source_symbols(lv->ui->app->source, r->cpu);
}

/* The records from lv->next to the store's end, those the stream shows as rows, within the
 * time range when one is marked. */
static int64_t collect_events(struct live *lv, struct kt_stacks *st)
{
	struct kt_app *app = lv->ui->app;
	struct kt_evstacks_scan scan;
	uint64_t first, end;

	store_lock(app->store);
	first = store_first(app->store);
	end = store_end(app->store);
	/* evicted, or the store numbered afresh (store_restart) */
	if (lv->next < first || lv->next > end)
		lv->next = first;
	first = lv->next;
	ui_range_clip(lv->ui, app->store, &first, &end);
	store_unlock(app->store);
	if (first >= end)
		return 0;
	lv->next = end;
	scan = (struct kt_evstacks_scan){
		.shown = row_shown,
		.syms_of = row_symbols,
		.sym_of = source_user_symbolizer(app->source, 0) ? row_symbolizer : NULL,
		.arg = lv,
	};
	return evstacks_collect(st, app->decoder, app_symbolizer(app), app->store, first, end,
				&scan);
}

static bool live_update(void *arg, struct kt_stacks *st)
{
	struct live *lv = arg;
	char err[256];
	bool changed;

	if (lv->kind == LIVE_EVENTS)
		return collect_events(lv, st) > 0;
	changed = lv->ps->ops->update(lv->ps, st, err, sizeof(err));
	live_say(lv, err);
	return changed;
}

/* c: a CPU this machine has online (what the profile samples and the records come from). */
static int live_cpu(void *arg, int cpu, char *err, size_t errlen)
{
	struct live *lv = arg;
	int *cpus = NULL, n, i;
	bool known = cpu < 0;

	if (app_can(lv->ui->app, KT_CAP_SEEK)) {
		/* a recording's CPUs are the machine's it was made on */
		if (cpu >= lv->ui->app->ncpus) {
			snprintf(err, errlen, "the recording has CPUs 0-%d: give one of them, or "
				 "nothing for every CPU", lv->ui->app->ncpus - 1);
			return -1;
		}
		known = true;
	}
	n = known ? 0 : pmu_online_cpus(&cpus);
	for (i = 0; i < n && !known; i++)
		known = cpus[i] == cpu;
	free(cpus);
	if (!known) {
		snprintf(err, errlen, "CPU %d is not online here (%d online): give one of them, "
			 "or nothing for every CPU", cpu, n);
		return -1;
	}
	if (lv->ps) {
		lv->ps->ops->set_cpu(lv->ps, cpu);
	} else {
		/* the store still holds the events before: the tree is made again from them */
		lv->cpu = cpu;
		lv->next = 0;
	}
	return 0;
}

static void live_close(void *arg)
{
	struct live *lv = arg;

	if (lv->ps)
		lv->ps->ops->close(lv->ps);
	free(lv);
}

/* Whether a first collection of added stacks leaves nothing to show: none, unless a range
 * is marked in a store that holds stacks (the range has none: an empty graph says so). */
static bool events_refused(struct live *lv, int64_t added)
{
	struct kt_store_stats ss;

	if (added < 0)
		return true;
	if (added > 0 || !ui_range(lv->ui)->on)
		return added == 0;
	store_lock(lv->ui->app->store);
	store_stats(lv->ui->app->store, &ss);
	store_unlock(lv->ui->app->store);
	return ss.stacks == 0;
}

/* Starts kind into a new tree: lv and st filled, name its title. Returns 0, or -1 with the
 * reason in err ("" when there is nothing of that kind to show). */
static int live_start(struct kt_ui *ui, enum live_kind kind, pid_t pid, bool wakers,
		      struct live *lv, struct kt_stacks **st, char *name, size_t namelen, char *err,
		      size_t errlen)
{
	struct kt_profsrc_req req = { .off_cpu = kind == LIVE_OFFCPU, .freq = ui->app->opts->freq,
				      .pid = pid, .wakers = wakers,
				      .faults = kind == LIVE_FAULTS };

	memset(lv, 0, sizeof(*lv));
	lv->ui = ui;
	lv->kind = kind;
	lv->cpu = -1;
	lv->wakers = wakers;
	err[0] = '\0';
	if (kind == LIVE_EVENTS) {
		snprintf(name, namelen, "event stacks");
		*st = stacks_new(KT_STACK_EVENTS);
		if (*st && events_refused(lv, collect_events(lv, *st))) {
			stacks_free(*st);
			return -1;
		}
	} else {
		/* sampled and named where the source's kernel is */
		lv->ps = source_profile_open(ui->app->source, &req, err, errlen);
		if (!lv->ps)
			return -1;
		snprintf(name, namelen, "%s", lv->ps->name);
		*st = stacks_new(lv->ps->off_cpu ? KT_STACK_NSEC : KT_STACK_SAMPLES);
	}
	if (!*st) {
		if (lv->ps)
			lv->ps->ops->close(lv->ps);
		snprintf(err, errlen, "%sout of memory",
			 kind == LIVE_OFFCPU ? "off-CPU profile: " : "");
		return -1;
	}
	return 0;
}

/* what a refusal begins with (offcpu.h's own say "off-CPU profile: ") */
static const char *const kind_prefix[] = { "on-CPU profile: ", "", "event stacks: ",
					   "faults profile: " };

static int live_key(void *arg, struct kt_view *v, int key);
static void live_range(void *arg, struct kt_view *v);
static int recorded_switch(struct kt_ui *ui, struct kt_view *v, int key, bool on_profile);
static int recorded_key(void *arg, struct kt_view *v, int key);

/* Shows kind in the pane, the profile of process pid alone when pid is not 0 (an agent's
 * is its scope's: the title names the pid only where it holds), the off-CPU one with its
 * wakers when wakers. Returns false with the refusal in the status line. */
static bool live_show_pid(struct kt_ui *ui, struct kt_view *v, enum live_kind kind, pid_t pid,
			  bool wakers)
{
	struct kt_flame_source src = { .update = live_update, .close = live_close, .key = live_key,
					.cpu = live_cpu };
	struct kt_stacks *st = NULL;
	struct live *lv = xmalloc(sizeof(*lv));
	char name[128], err[512];

	if (live_start(ui, kind, pid, wakers, lv, &st, name, sizeof(name), err, sizeof(err)) < 0) {
		if (err[0])
			ui_message(ui, true, "%s%s", kind_prefix[kind], err);
		free(lv);
		return false;
	}
	src.arg = lv;
	snprintf(lv->name, sizeof(lv->name), "%s", name);
	if (lv->ps && !lv->ps->ops->set_cpu) /* the profile has no CPU choice (profsrc.h) */
		src.cpu = NULL;
	/* only the events' stacks have times; a profile's samples are summed as they come */
	if (kind == LIVE_EVENTS)
		src.range = live_range;
	view_flame_show(v, st, NULL, name, &src, false);
	return true;
}

static bool live_show(struct kt_ui *ui, struct kt_view *v, enum live_kind kind)
{
	return live_show_pid(ui, v, kind, 0, false);
}

/* y in the off-CPU profile: again, with its wakers or without; Y with them: a wakeup chain
 * (flame_wakers.h). Other keys are not these. */
static int wakers_key(struct live *lv, struct kt_view *v, int key)
{
	bool on = !lv->wakers;

	if (key == 'y') {
		/* lv is freed once the new profile is shown */
		if (live_show_pid(lv->ui, v, LIVE_OFFCPU, 0, on))
			ui_message(v->ui, false, on ? "wakers on: each wait under its waker's frames, "
				   "above the -- (Y: a frame's wakers, y: off)" : "wakers off");
		return KT_KEY_HANDLED;
	}
	flame_wakers_open(v, lv->name);
	return KT_KEY_HANDLED;
}

/* The range changed: the stored events' stacks again, those in it (an empty tree when it
 * holds none). lv is freed once the new tree is shown. */
static void live_range(void *arg, struct kt_view *v)
{
	struct live *lv = arg;

	live_show(lv->ui, v, LIVE_EVENTS);
}

/* C: on-CPU, off-CPU, the events' stacks when the stream has rows with stacks, on-CPU. */
static int live_key(void *arg, struct kt_view *v, int key)
{
	struct live *lv = arg;
	struct kt_ui *ui = lv->ui;

	if (app_can(ui->app, KT_CAP_SEEK))
		return recorded_switch(ui, v, key, false);
	if (lv->kind == LIVE_OFFCPU && (key == 'y' || (key == 'Y' && lv->wakers)))
		return wakers_key(lv, v, key);
	if (key != 'C')
		return KT_KEY_IGNORED;
	/* lv is freed once another source is shown */
	switch (lv->kind) {
	case LIVE_ONCPU:
		live_show(ui, v, LIVE_OFFCPU);
		break;
	case LIVE_OFFCPU:
		if (!live_show(ui, v, LIVE_EVENTS))
			live_show(ui, v, LIVE_ONCPU);
		break;
	case LIVE_EVENTS:
	case LIVE_FAULTS:
		live_show(ui, v, LIVE_ONCPU);
		break;
	}
	return KT_KEY_HANDLED;
}

/* -i: the profile the recording keeps (its folded text, the counts line first). Returns 1
 * shown, 0 when the file keeps none, -1 when it could not be read (said). */
static int recorded_show(struct kt_view *v)
{
	struct kt_ui *ui = v->ui;
	const char *text = source_kept_stacks(ui->app->source);
	const char *ev = text ? strstr(text, "event=") : NULL;
	struct kt_flame_source src = { .key = recorded_key, .arg = ui };
	char event[32] = "profile", name[64], err[512], *copy;
	struct kt_stacks *st;
	FILE *in;

	if (!text)
		return 0;
	if (ev)
		sscanf(ev, "event=%31s", event);
	/* fmemopen takes a writable buffer */
	copy = xstrdup(text);
	in = fmemopen(copy, strlen(copy), "r");
	if (!in) {
		free(copy);
		ui_message(ui, true, "the recorded profile: out of memory");
		return -1;
	}
	st = folded_read(in, ui->app->opts->input_path, err, sizeof(err));
	fclose(in);
	free(copy);
	if (!st) {
		ui_message(ui, true, "the recorded profile: %s", err);
		return -1;
	}
	snprintf(name, sizeof(name), "recorded %s", event);
	view_flame_show(v, st, NULL, name, &src, false);
	return 1;
}

/* The recording's file name alone: the status line is one line. */
static const char *recording_name(const struct kt_ui *ui)
{
	const char *path = ui->app->opts->input_path, *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

/* A recording samples nothing: C goes between what the file keeps (its profile, its events'
 * stacks), as live C goes between the kinds; what only a live kernel gives says so. */
static int recorded_switch(struct kt_ui *ui, struct kt_view *v, int key, bool on_profile)
{
	switch (key) {
	case 'C':
		if (on_profile ? live_show(ui, v, LIVE_EVENTS) : recorded_show(v) != 0)
			return KT_KEY_HANDLED;
		ui_message(ui, false, on_profile ?
			   "%s: no stacks on its events to switch to (record with --stack EV)" :
			   "%s: no profile; on/off-CPU are sampled live (-b --profile -o keeps one)",
			   recording_name(ui));
		return KT_KEY_HANDLED;
	case 'y':
		ui_message(ui, false, "wakers are joined live (ktop --off-cpu --wakers): a "
			   "recording has its stacks");
		return KT_KEY_HANDLED;
	case 'Y':
		flame_wakers_open(v, on_profile ? "recorded profile" : "event stacks");
		return KT_KEY_HANDLED;
	}
	return KT_KEY_IGNORED;
}

static int recorded_key(void *arg, struct kt_view *v, int key)
{
	return recorded_switch(arg, v, key, true);
}

/* On a recording (-i) the profile it keeps, else its events' stacks; live the events'
 * stacks, else the on-CPU profile. */
void flame_live_open(struct kt_view *v)
{
	if (!app_can(v->app, KT_CAP_SEEK)) {
		if (!live_show(v->ui, v, LIVE_EVENTS))
			live_show(v->ui, v, LIVE_ONCPU);
		return;
	}
	if (recorded_show(v) == 0 && !live_show(v->ui, v, LIVE_EVENTS))
		ui_message(v->ui, true, "%s: no profile, no stacks (record with -b --profile -o, "
			   "or --stack EV -o)", recording_name(v->ui));
}

void flame_live_open_pid(struct kt_view *v, pid_t pid, bool off_cpu)
{
	live_show_pid(v->ui, v, off_cpu ? LIVE_OFFCPU : LIVE_ONCPU, pid, false);
}

bool flame_live_open_faults(struct kt_view *v, pid_t pid)
{
	return live_show_pid(v->ui, v, LIVE_FAULTS, pid, false);
}
