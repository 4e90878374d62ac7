// SPDX-License-Identifier: GPL-2.0-or-later
/* The explorer's global actions: their handlers and the one table (see action.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "ktoprc.h"
#include "app/options.h"
#include "ui/action.h"
#include "ui/help.h"
#include "ui/pane.h"
#include "ui/screen.h"
#include "ui/ui_arm.h"
#include "ui/view.h"

#define CTRL(c) ((c) & 0x1f)

static void send_to_stream(struct kt_ui *ui, int key)
{
	pane_focus(ui, 0);
	ui->stream->ops->key(ui->stream, key);
}

static void act_help(struct kt_ui *ui, const struct kt_action *a)
{
	help_open(&ui->helpst, ui->views[ui->lay.focus]->ops, ui->app);
	ui->help = true;
	ui->help_dirty = true;
}

static void act_search(struct kt_ui *ui, const struct kt_action *a)
{
	send_to_stream(ui, '/');
}

static void act_search_back(struct kt_ui *ui, const struct kt_action *a)
{
	send_to_stream(ui, '?');
}

static void act_filter(struct kt_ui *ui, const struct kt_action *a)
{
	struct kt_view *picker;
	char spec[256];
	bool have = false;

	/* the picker's place holds the source's event types (a recording's) */
	if (app_can(ui->app, KT_CAP_HIDE)) {
		pane_open(ui, "events", true);
		ui_message(ui, false, "Enter sets the selected event's filter");
		return;
	}
	if (ui->views[ui->lay.focus] == ui->stream)
		have = view_stream_selected_event(ui->stream, spec, sizeof(spec));
	picker = pane_open(ui, "events", true);
	if (picker && !view_picker_edit_filter(picker, have ? spec : NULL))
		ui_message(ui, false, "pick an event, then Enter shows its fields and filter");
}

static void act_layout(struct kt_ui *ui, const struct kt_action *a)
{
	ui->lay.orient = layout_toggle_orient(&ui->lay, ui->rects.panes);
	ui->lay.zoom = false;
	ui->relayout = true;
}

static void act_cpus(struct kt_ui *ui, const struct kt_action *a)
{
	send_to_stream(ui, 'c');
}

static void act_pause(struct kt_ui *ui, const struct kt_action *a)
{
	ui->paused = !ui->paused;
	ui_broadcast(ui, ui->paused ? KT_EV_PAUSE : KT_EV_RESUME);
	ui_message(ui, false, ui->paused ? "display paused, capture goes on (p: resume)" :
					   "display resumed");
}

static void clear_now(struct kt_ui *ui)
{
	store_lock(ui->app->store);
	store_clear(ui->app->store);
	store_unlock(ui->app->store);
	ui_broadcast(ui, KT_EV_CLEAR);
	ui_message(ui, false, "stored events cleared");
}

/* Clearing cannot be undone: asked first, the number that would go said. */
static void act_clear(struct kt_ui *ui, const struct kt_action *a)
{
	char q[160];
	uint64_t n;

	store_lock(ui->app->store);
	n = store_end(ui->app->store) - store_first(ui->app->store);
	store_unlock(ui->app->store);
	snprintf(q, sizeof(q), "Clear all %llu stored records? There is no undo. (y/n)",
		 (unsigned long long)n);
	screen_confirm(ui, q, clear_now, "nothing cleared");
}

static void act_zoom(struct kt_ui *ui, const struct kt_action *a)
{
	if (ui->lay.n > 1) {
		ui->lay.zoom = !ui->lay.zoom;
		ui->relayout = true;
	} else {
		ui_message(ui, false, "only one pane: nothing to zoom");
	}
}

/* The stream pane's share: ] grows it, [ gives the other panes room. */
static void resize_stream(struct kt_ui *ui, int step)
{
	if (ui->lay.n > 1) {
		ui->lay.first_pct = layout_step_pct(ui->lay.first_pct, step);
		ui->relayout = true;
		ui_message(ui, false, "stream pane: %d%% of the panes' area", ui->lay.first_pct);
	} else {
		ui_message(ui, false, "only one pane: nothing to resize");
	}
}

static void act_stream_smaller(struct kt_ui *ui, const struct kt_action *a)
{
	resize_stream(ui, -1);
}

static void act_stream_larger(struct kt_ui *ui, const struct kt_action *a)
{
	resize_stream(ui, 1);
}

static void act_rowfilter(struct kt_ui *ui, const struct kt_action *a)
{
	view_stream_rowfilter_edit(ui->stream);
}

static void act_rowfilter_off(struct kt_ui *ui, const struct kt_action *a)
{
	view_stream_rowfilter_clear(ui->stream);
}

static void act_self(struct kt_ui *ui, const struct kt_action *a)
{
	view_stream_toggle_self(ui->stream);
}

static void act_quit(struct kt_ui *ui, const struct kt_action *a)
{
	ui->quit = true;
}

static void act_focus_next(struct kt_ui *ui, const struct kt_action *a)
{
	pane_focus(ui, layout_focus_step(ui->lay.n, ui->lay.focus, 1));
}

static void act_focus_prev(struct kt_ui *ui, const struct kt_action *a)
{
	pane_focus(ui, layout_focus_step(ui->lay.n, ui->lay.focus, -1));
}

static void act_redraw(struct kt_ui *ui, const struct kt_action *a)
{
	clearok(curscr, TRUE);
	ui->full = true;
}

static void act_theme(struct kt_ui *ui, const struct kt_action *a)
{
	struct kt_ui_settings now;
	int i;

	screen_settings_now(ui, &now);
	settings_next_theme(&now, ui->msg, sizeof(ui->msg), &ui->msg_error);
	ui->status_dirty = true;
	/* every colour changes: draw everything again */
	clearok(curscr, TRUE);
	ui->full = ui->header_dirty = ui->fbar_dirty = true;
	for (i = 0; i < ui->lay.n; i++)
		ui->views[i]->dirty = true;
	if (ui->help)
		ui->help_dirty = true;
}

static void act_save(struct kt_ui *ui, const struct kt_action *a)
{
	struct kt_ui_settings now;

	screen_settings_now(ui, &now);
	settings_save(ui->app->opts, &now, ui->msg, sizeof(ui->msg), &ui->msg_error);
	ui->status_dirty = true;
}

static void act_profile(struct kt_ui *ui, const struct kt_action *a)
{
	ui_prompt_open(ui, NULL, UI_PROMPT_PROFILE, "Save profile as: ", "");
}

static void act_write(struct kt_ui *ui, const struct kt_action *a)
{
	ui_record_key(ui, ui->app, &ui->rec, 'w');
}

static void act_record(struct kt_ui *ui, const struct kt_action *a)
{
	ui_record_key(ui, ui->app, &ui->rec, 'A');
	ui->header_dirty = true; /* REC on or off */
}

static void act_range(struct kt_ui *ui, const struct kt_action *a)
{
	ui_prompt_open(ui, NULL, UI_PROMPT_RANGE, "Range (+40.1..+40.3, absolute, A.. or ..B): ",
		       ui->header.range);
}

static void act_range_clear(struct kt_ui *ui, const struct kt_action *a)
{
	ui_range_clear(ui);
}

static void act_arm(struct kt_ui *ui, const struct kt_action *a)
{
	ui_arm_key(ui);
}

/* In help order, the pane kinds' actions (pane.c) after the first. A new action is one row
 * here and its handler above; a new pane's is its row in pane.c. */
static const struct kt_action actions[] = {
	{ "help", "F1", "Help", "this help: the focused pane's keys first", 0, act_help, true },
	{ "search", "F3 /", "Search", "search forward (the pane's own, or the stream)", 0,
	  act_search, false },
	{ "search-back", "?", NULL, "search backward (the pane's own, or the stream)", 0,
	  act_search_back, false },
	{ "filter", "F4 f", "Filter", "filter of selected event", 0, act_filter, false },
	{ "layout", "F5 o |", "Layout", "side by side / stacked", 0, act_layout, true },
	{ "cpus", "F6 c", "CPUs", "all CPUs / one CPU (the pane's own, or the stream)", 0,
	  act_cpus, false },
	{ "pause", "F7 p", "Pause", "pause display (not capture)", KT_CAP_LIVE, act_pause, false },
	{ "clear", "F8 x", "Clear", "clear stored events (asks)", KT_CAP_CLEAR, act_clear, false },
	{ "zoom", "F9 z", "Zoom", "zoom the focused pane", 0, act_zoom, true },
	{ "stream-smaller", "[", NULL, "stream pane smaller", 0, act_stream_smaller, true },
	{ "stream-larger", "]", NULL, "stream pane larger", 0, act_stream_larger, true },
	{ "rowfilter", "F", NULL, "row filter: pid= comm= cpu=", 0, act_rowfilter, false },
	{ "rowfilter-off", "-", NULL, "row filter off", 0, act_rowfilter_off, false },
	{ "self", "M", NULL, "ktop's own rows on / off", KT_CAP_SELF, act_self, false },
	{ "quit", "F10 q Q", "Quit", "quit (q: not in picker)", 0, act_quit, true },
	{ "focus-next", "Tab", NULL, "focus next pane", 0, act_focus_next, true },
	{ "focus-prev", "S-Tab", NULL, "focus previous pane", 0, act_focus_prev, true },
	{ "redraw", "^L", NULL, "redraw the screen", 0, act_redraw, true },
	{ "theme", "t", NULL, "next colour theme", 0, act_theme, true },
	{ "save", "S", NULL, "save settings (ktoprc)", 0, act_save, true },
	{ "profile", "W", NULL, "save events as a profile", 0, act_profile, false },
	/* before w and A: the help lists a recording's refusals in this order, A last */
	{ "arm", "^A", NULL, "flight recorder: arm conditions (asks) / disarm",
	  KT_CAP_LIVE | KT_CAP_TRIGGERS | KT_CAP_WRITE, act_arm, false },
	{ "write", "w", NULL, "write stored events (trace.dat)", KT_CAP_WRITE, act_write, false },
	{ "record", "A", NULL, "keep writing from now on / stop", KT_CAP_WRITE, act_record, false },
	{ "range", "@", NULL, "time range: +40.1..+40.3 or absolute", 0, act_range, false },
	{ "range-clear", "X", NULL, "time range off", 0, act_range_clear, false },
};

#define NACTIONS ((int)(sizeof(actions) / sizeof(actions[0])))

const struct kt_action *action_at(int i)
{
	const struct kt_pane_kind *k;
	int j;

	if (i < 1)
		return i == 0 ? &actions[0] : NULL;
	for (j = 0; (k = pane_kind_at(j)); j++)
		if (k->act.keys && !--i)
			return &k->act;
	return i < NACTIONS ? &actions[i] : NULL;
}

bool action_per_pane(const struct kt_action *a)
{
	return a->run == act_search || a->run == act_search_back || a->run == act_cpus;
}

const struct kt_action *action_find(const char *name)
{
	const struct kt_action *a;
	int i;

	for (i = 0; (a = action_at(i)); i++)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

int action_key_code(const char *k)
{
	static const struct {
		const char *name;
		int code;
	} named[] = {
		{ "Tab", '\t' },	       { "S-Tab", KEY_BTAB },	  { "Enter", '\n' },
		{ "Esc", 27 },		       { "Space", ' ' },	  { "Backspace", KEY_BACKSPACE },
		{ "Del", KEY_DC },	       { "Up", KEY_UP },	  { "Down", KEY_DOWN },
		{ "Left", KEY_LEFT },	       { "Right", KEY_RIGHT },	  { "PgUp", KEY_PPAGE },
		{ "PgDn", KEY_NPAGE },	       { "Home", KEY_HOME },	  { "End", KEY_END },
	};
	char *end;
	size_t i;
	long n;

	if (k[0] && !k[1])
		return (unsigned char)k[0];
	if (k[0] == '^' && k[1] && !k[2])
		return CTRL(k[1]);
	if (k[0] == 'F' && k[1] >= '0' && k[1] <= '9') {
		n = strtol(k + 1, &end, 10);
		return !*end && n >= 1 && n <= 12 ? KEY_F(n) : -1;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(k, named[i].name))
			return named[i].code;
	return -1;
}

int action_keys_at(const char *keys, int i)
{
	char name[16];
	size_t n;

	for (;;) {
		keys += strspn(keys, " ");
		n = strcspn(keys, " ");
		if (!n)
			return -1;
		if (!i--) {
			snprintf(name, sizeof(name), "%.*s", (int)n, keys);
			return action_key_code(name);
		}
		keys += n;
	}
}

/* The i-th of a's own keys, as a curses code; -1 past the last. */
static int own_key(const struct kt_action *a, int i)
{
	return action_keys_at(a->keys, i);
}

int action_fkey(const struct kt_action *a)
{
	int i, k;

	for (i = 0; (k = own_key(a, i)) >= 0; i++)
		if (k >= KEY_F(1) && k <= KEY_F(12))
			return k - KEY_F0;
	return 0;
}

const struct kt_action *action_for_key(const struct kt_options *o, int key)
{
	const struct kt_config *c = o->config;
	const struct kt_action *a;
	int i, j, k;

	if (c && !o->config_bad)
		for (i = 0; i < c->nbinds; i++)
			if (action_key_code(c->binds[i].key) == key)
				return action_find(c->binds[i].action);
	for (i = 0; (a = action_at(i)); i++)
		for (j = 0; (k = own_key(a, j)) >= 0; j++)
			if (k == key)
				return a;
	return NULL;
}

void action_key(struct kt_ui *ui, int key)
{
	const struct kt_action *a = action_for_key(ui->app->opts, key);

	if (!a)
		return;
	if (ui->app->opts->flame_path && !a->stacks_file) {
		ui_message(ui, false, "%s: a folded-stacks file has no events, only its flame graph",
			   a->name);
		return;
	}
	if (!app_can(ui->app, a->needs)) {
		ui_message(ui, false, "%s", app_refusal(ui->app, a->needs));
		return;
	}
	a->run(ui, a);
}
