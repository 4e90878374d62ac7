// SPDX-License-Identifier: GPL-2.0-or-later
/* The registry of pane kinds and the panes' life: open, focus, close (see pane.h). */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "ui/pane.h"
#include "ui/screen.h"
#include "ui/view.h"
#include "util/xalloc.h"

static void pane_action(struct kt_ui *ui, const struct kt_action *a);

/*
 * The pane kinds, in help order (the help lists their actions after its own line):
 *   X(NAME, action name, keys, function-bar label, help line, the KT_CAP_* it needs of
 *     the event source (without them: the source's refusal), opens many, factory)
 * view_NAME.c defines view_NAME_ops. A new pane is its view_NAME.c, one row here and its
 * name in local.mk (docs/architecture.md, "How to add a pane").
 */
#define KT_PANES(X)                                                                         \
	X(stream, "stream", NULL, NULL, NULL, 0, false, NULL)                            \
	X(picker, "events", "F2 e", "Events", "event picker open / close", 0, false,        \
	  picker_ops)                                                                       \
	X(pmu, "counters", "F11 m", "Counters", "counters pane open / close",               \
	  KT_CAP_COUNTERS, false, NULL)                                                     \
	/* F12 stays off the bar: it fits 80 columns up to F10, F11 just past them */       \
	X(hist, "hist", "F12 H", NULL, "new histogram pane (BPF; -i: its events)", KT_CAP_HIST, true, NULL) \
	X(tree, "tree", "T", NULL, "call-tree pane open / close", 0, false, NULL)           \
	X(flame, "flame", "I", NULL, "flame graph; C: on/off-CPU", 0, false, NULL)          \
	X(probes, "probes", "P", NULL, "probe editor open / close", KT_CAP_PROBES, false,   \
	  NULL)                                                                             \
	X(tracers, "tracers", "R", NULL, "tracer pane, function lists", KT_CAP_TRACER,      \
	  false, NULL)                                                                      \
	X(rings, "rings", "D", NULL, "ring buffers: losses per CPU", KT_CAP_KBUF, false,    \
	  NULL)                                                                             \
	X(overview, "overview", "O", NULL, "overview: every task, counted in the kernel",     \
	  KT_CAP_OVERVIEW, false, NULL)                                                     \
	X(timeline, "timeline", "V", NULL, "timeline: CPU lanes, event lanes", 0, false, NULL) \
	X(heatmap, "heatmap", "%", NULL, "subsecond heat map of events", 0, false, NULL) \
	X(incidents, "incidents", "!", NULL, "flight recorder's incidents (^A arms)", 0,     \
	  false, NULL)

#define PANE_OPS(NAME, ...) extern const struct kt_view_ops view_##NAME##_ops;
KT_PANES(PANE_OPS)
#undef PANE_OPS

/* A recording's events, with their counts, in the picker's place. */
static const struct kt_view_ops *picker_ops(const struct kt_app *app)
{
	return app_can(app, KT_CAP_HIDE) ? &view_recevents_ops : &view_picker_ops;
}

#define PANE_ROW(NAME, ACT, KEYS, BAR, HELP, NEEDS, MANY, FACTORY)                          \
	{ .act = { .name = ACT, .keys = KEYS, .bar = BAR, .help = HELP, .needs = NEEDS,      \
		   .run = pane_action },                                                       \
	  .ops = &view_##NAME##_ops, .factory = FACTORY, .many = MANY },
static const struct kt_pane_kind kinds[] = { KT_PANES(PANE_ROW) };
#undef PANE_ROW

#define NKINDS ((int)(sizeof(kinds) / sizeof(kinds[0])))

const struct kt_pane_kind *pane_kind_at(int i)
{
	return i >= 0 && i < NKINDS ? &kinds[i] : NULL;
}

const struct kt_pane_kind *pane_kind(const char *name)
{
	int i;

	for (i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i].act.name, name))
			return &kinds[i];
	return NULL;
}

int pane_index(const struct kt_ui *ui, const struct kt_view *v)
{
	int i;

	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i] == v)
			return i;
	return -1;
}

static struct kt_view *find_kind(struct kt_ui *ui, const struct kt_pane_kind *k)
{
	int i;

	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i]->kind == k)
			return ui->views[i];
	return NULL;
}

struct kt_view *pane_find(struct kt_ui *ui, const char *name)
{
	const struct kt_pane_kind *k = pane_kind(name);

	return k ? find_kind(ui, k) : NULL;
}

void pane_focus(struct kt_ui *ui, int idx)
{
	int i;

	ui->lay.focus = idx;
	layout_fix(&ui->lay);
	for (i = 0; i < ui->lay.n; i++) {
		bool f = i == ui->lay.focus;

		if (ui->views[i]->focused != f)
			ui->views[i]->dirty = true;
		ui->views[i]->focused = f;
	}
	ui->fbar_dirty = true;
	/* A zoomed or auto-zoomed layout shows only the focused pane. */
	if (ui->lay.zoom || !ui->views[ui->lay.focus]->win)
		ui->relayout = true;
}

static struct kt_view *open_kind(struct kt_ui *ui, const struct kt_pane_kind *k, bool focus)
{
	struct kt_view *v = k->many ? NULL : find_kind(ui, k);

	if (!v) {
		if (ui->lay.n >= KT_LAYOUT_MAX) {
			ui_message(ui, true, "no room for another pane: close one first (Esc in it)");
			return NULL;
		}
		v = xcalloc(1, sizeof(*v));
		v->kind = k;
		v->ops = k->factory ? k->factory(ui->app) : k->ops;
		v->ui = ui;
		v->app = ui->app;
		v->dirty = true;
		v->ops->init(v);
		ui->views[ui->lay.n++] = v;
		ui->relayout = true;
	}
	if (focus)
		pane_focus(ui, pane_index(ui, v));
	return v;
}

struct kt_view *pane_open(struct kt_ui *ui, const char *name, bool focus)
{
	return open_kind(ui, pane_kind(name), focus);
}

static void view_delete(struct kt_view *v)
{
	if (v->win)
		delwin(v->win);
	v->ops->free(v);
	free(v);
}

void pane_close(struct kt_ui *ui, struct kt_view *v)
{
	int i = pane_index(ui, v);
	struct kt_view *back;

	if (i <= 0) /* the stream stays */
		return;
	ui_prompt_drop(ui, v);
	memmove(&ui->views[i], &ui->views[i + 1], (ui->lay.n - i - 1) * sizeof(ui->views[0]));
	ui->lay.n--;
	/* a drill-down's pane gives the focus back to the pane it came from */
	back = v == ui->drilled ? ui->back : NULL;
	if (v == ui->drilled || v == ui->back)
		ui->back = ui->drilled = NULL;
	view_delete(v);
	ui->relayout = true;
	i = back ? pane_index(ui, back) : 0;
	pane_focus(ui, i > 0 ? i : 0);
}

struct kt_view *ui_drill(struct kt_ui *ui, struct kt_view *from, const char *kind)
{
	struct kt_view *v = pane_open(ui, kind, true);

	if (v) {
		ui->drilled = v;
		ui->back = from;
	}
	return v;
}

void pane_close_all(struct kt_ui *ui)
{
	int i;

	for (i = ui->lay.n - 1; i >= 0; i--)
		view_delete(ui->views[i]);
	ui->lay.n = 0;
}

/* A kind's action: a new pane of a kind with many; else open and focus the one, or close it
 * when it has the focus. A pane opened here hears so (its opened op). */
static void pane_action(struct kt_ui *ui, const struct kt_action *a)
{
	const struct kt_pane_kind *k = (const void *)((const char *)a -
						      offsetof(struct kt_pane_kind, act));
	struct kt_view *v = k->many ? NULL : find_kind(ui, k);

	if (v && ui->views[ui->lay.focus] == v) {
		pane_close(ui, v);
		return;
	}
	if (v) {
		pane_focus(ui, pane_index(ui, v));
		return;
	}
	v = open_kind(ui, k, true);
	if (v && v->ops->opened)
		v->ops->opened(v);
}
