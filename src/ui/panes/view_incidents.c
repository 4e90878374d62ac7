// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flight recorder's incidents pane (!): one row per incident written by the armed
 * conditions (ui_arm.c, flightrec.h), oldest first: when it fired, the condition, the value
 * that fired it, the task, the CPU and the kernel's loss in its window; the selected row's
 * directory below. The list outlives a disarm (ui_arm.c keeps it): the incidents are
 * still on disk. Enter marks the incident's window (--pre before to --post after) as the
 * time range, so the stream, the timeline and the flame pane show that window; its
 * trace.dat is in the directory for `ktop -i`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "batch/flightrec.h"
#include "ui/funcbar.h"
#include "ui/ui_arm.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define HEAD_LINES 2 /* title, column names */
#define FOOT_LINES 1 /* the selected incident's directory */

struct incidents {
	size_t sel, top;
	size_t seen; /* rows at the last tick: a new one is followed */
};

static void inc_init(struct kt_view *v)
{
	v->data = xcalloc(1, sizeof(struct incidents));
}

static void inc_free(struct kt_view *v)
{
	free(v->data);
}

static void inc_resize(struct kt_view *v)
{
	v->dirty = true;
}

static void inc_line(struct kt_view *v, int y, const struct kt_fr_row *r, bool sel)
{
	char line[512], when[32], task[40];

	ui_format_rel(v->ui, r->fired, when, sizeof(when));
	snprintf(task, sizeof(task), "%s/%d", r->comm, r->tid);
	snprintf(line, sizeof(line), "%4u %-11s %-20.20s %-11s %-16.16s %3u %6llu", r->n, when,
		 r->cond, r->value, task, r->cpu, r->lost);
	wattrset(v->win, !sel ? A_NORMAL : crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
	crt_put_pad(v->win, y, 0, line, v->w);
	wattrset(v->win, A_NORMAL);
}

static void inc_draw(struct kt_view *v)
{
	struct incidents *in = v->data;
	const struct kt_flightrec *fr = ui_flightrec(v->ui);
	const struct kt_incident_rows *ir = ui_incident_rows(v->ui);
	int rows = v->h - HEAD_LINES - FOOT_LINES;
	char right[96], conds[512];
	size_t n = incident_rows_count(ir);

	if (fr)
		snprintf(right, sizeof(right), "armed, %zu written", n);
	else
		snprintf(right, sizeof(right), "not armed (%s: arm), %zu written", ui_arm_keys(v->ui),
			 n);
	view_draw_title(v, "Incidents", right);
	if (v->h < 3)
		return;
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put_pad(v->win, 1, 0, "   # FIRED       CONDITION            VALUE       TASK             CPU "
		    "  LOST", v->w);
	wattrset(v->win, A_NORMAL);
	for (int y = HEAD_LINES; y < v->h; y++)
		crt_put_pad(v->win, y, 0, "", v->w);
	if (!n) {
		if (fr)
			flightrec_conds(fr, conds, sizeof(conds));
		crt_put_pad(v->win, HEAD_LINES, 1, fr ? conds : "no condition armed", v->w - 1);
		return;
	}
	if (in->sel >= n)
		in->sel = n - 1;
	if (rows > 0 && in->sel >= in->top + (size_t)rows)
		in->top = in->sel - (size_t)rows + 1;
	if (in->sel < in->top)
		in->top = in->sel;
	for (int i = 0; i < rows && in->top + (size_t)i < n; i++)
		inc_line(v, HEAD_LINES + i, incident_rows_get(ir, in->top + (size_t)i),
			 in->top + (size_t)i == in->sel);
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put_pad(v->win, v->h - 1, 0, incident_rows_get(ir, in->sel)->path, v->w);
	wattrset(v->win, A_NORMAL);
}

void view_incidents_marks(struct kt_view *v, int y, int x, uint64_t from, uint64_t colns,
			  int w)
{
	const struct kt_incident_rows *ir = ui_incident_rows(v->ui);
	size_t n = incident_rows_count(ir);

	wattrset(v->win, crt_attr(CRT_ERROR));
	for (size_t i = 0; i < n && colns; i++) {
		uint64_t ts = incident_rows_get(ir, i)->fired;

		if (ts >= from && (ts - from) / colns < (uint64_t)w)
			mvwaddch(v->win, y, x + (int)((ts - from) / colns), '!');
	}
	wattrset(v->win, A_NORMAL);
}

/* Enter: the incident's window becomes the time range every pane follows. */
static void inc_enter(struct kt_view *v, const struct kt_fr_row *r)
{
	ui_range_set(v->ui, r->from, r->to);
}

static int inc_key(struct kt_view *v, int key)
{
	struct incidents *in = v->data;
	const struct kt_incident_rows *ir = ui_incident_rows(v->ui);
	size_t n = incident_rows_count(ir);

	if (key == 27) /* Esc */
		return KT_KEY_CLOSE;
	if (key == KEY_UP && in->sel)
		in->sel--;
	else if (key == KEY_DOWN && in->sel + 1 < n)
		in->sel++;
	else if (key == KEY_HOME)
		in->sel = 0;
	else if (key == KEY_END && n)
		in->sel = n - 1;
	else if ((key == '\n' || key == '\r' || key == KEY_ENTER) && n)
		inc_enter(v, incident_rows_get(ir, in->sel));
	else if (key != KEY_UP && key != KEY_DOWN)
		return KT_KEY_IGNORED;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

/* New incidents: the selection follows the newest while it was on the last. */
static void inc_tick(struct kt_view *v)
{
	struct incidents *in = v->data;
	size_t n = incident_rows_count(ui_incident_rows(v->ui));

	if (n != in->seen && (!in->seen || in->sel + 1 == in->seen))
		in->sel = n ? n - 1 : 0;
	in->seen = n;
	v->dirty = true;
}

static const struct funcbar_item inc_items[] = {
	{ "Enter", "Range" }, { "Esc", "Close" }, { "F10", "Quit" },
};

static int inc_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = inc_items;
	return (int)(sizeof(inc_items) / sizeof(inc_items[0]));
}

static const struct kt_keyhelp inc_keys[] = {
	{ "Enter", "the incident's window as the time range (X: off)" },
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_incidents_ops = {
	.name = "incidents",
	.title = "Incidents (!)",
	.keys = inc_keys,
	.init = inc_init,
	.free = inc_free,
	.resize = inc_resize,
	.draw = inc_draw,
	.key = inc_key,
	.tick = inc_tick,
	.funcbar = inc_funcbar,
};
