// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The subsecond heat map (issue 33, FlameScope's view): a column per second of the capture,
 * a row per slice of that second (50 of 20 ms when the pane is tall enough, fewer and
 * longer otherwise), each cell shaded by its events (all, or one type: v cycles). Periodic
 * stalls show as stripes. The cursor moves by cell; Enter marks its cell as the range, r
 * twice marks the run of cells between the two presses, in time order.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/callgraph/timeindex.h"
#include "timeaxis.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define LBL 7	       /* row labels' width: "980ms " */
#define TOP_ROWS 2     /* title, the cursor cell's line */
#define SEC 1000000000ull

static const char SHADE[] = " .:-=+*#%@";

struct hm {
	struct kt_timeindex *ti;
	char why[160];
	int kind;	 /* KT_TI_ALL or a common_type */
	int kind_i;	 /* its place among the index's types, -1: all */
	int col0;	 /* the first second shown */
	int ccol, crow;	 /* the cursor cell */
	bool marking;
	int mcol, mrow;
};

static struct hm *HM(struct kt_view *v)
{
	return v->data;
}

static void hm_init(struct kt_view *v)
{
	struct hm *h = xcalloc(1, sizeof(*h));

	v->data = h;
	h->kind = KT_TI_ALL;
	h->kind_i = -1;
	h->ti = timeaxis_take(v, h->why, sizeof(h->why));
}

static void hm_free(struct kt_view *v)
{
	struct hm *h = HM(v);

	if (h->ti)
		timeaxis_release(v);
	free(h);
}

static void hm_resize(struct kt_view *v)
{
	v->dirty = true;
}

/* Slices of a second: the most of 50, 25, 20, 10, 5, 4, 2 that fit the pane. */
static int nrows(struct kt_view *v)
{
	static const int opts[] = { 50, 25, 20, 10, 5, 4, 2, 1 };
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i] <= v->h - TOP_ROWS - 1)
			return opts[i];
	return 1;
}

static int ncols(struct kt_view *v)
{
	return v->w > LBL + 1 ? v->w - LBL : 1;
}

/* The cell's time: [*from, *from + slice). */
static uint64_t cell_from(struct kt_view *v, int col, int row)
{
	return ui_capture_start(v->ui) + (uint64_t)col * SEC + (uint64_t)row * (SEC / nrows(v));
}

static uint64_t cell_count(struct kt_view *v, int col, int row)
{
	uint64_t a = cell_from(v, col, row);

	return timeindex_count(HM(v)->ti, HM(v)->kind, a, a + SEC / nrows(v));
}

/* Seconds the capture spans so far. */
static int seconds(struct kt_view *v)
{
	struct kt_ti_info info;
	uint64_t t0 = ui_capture_start(v->ui);

	timeindex_info(HM(v)->ti, &info);
	return info.last_ts > t0 ? (int)((info.last_ts - t0) / SEC) + 1 : 1;
}

static bool in_mark(struct hm *h, int c, int r, int rows)
{
	long a = (long)h->mcol * rows + h->mrow, b = (long)h->ccol * rows + h->crow,
	     x = (long)c * rows + r;

	return h->marking && x >= (a < b ? a : b) && x <= (a > b ? a : b);
}

static void draw_cells(struct kt_view *v, int rows, int secs, uint64_t max)
{
	struct hm *h = HM(v);
	const struct kt_range *rg = ui_range(v->ui);
	int r, c, y, lvl;
	char lbl[16];

	for (r = 0; r < rows && TOP_ROWS + r < v->h - 1; r++) {
		y = TOP_ROWS + r;
		snprintf(lbl, sizeof(lbl), "%4llums", (unsigned long long)(SEC / rows * r / 1000000));
		wattrset(v->win, crt_attr(CRT_TIME));
		crt_put_pad(v->win, y, 0, lbl, LBL);
		for (c = 0; c < ncols(v) && h->col0 + c < secs; c++) {
			uint64_t n = cell_count(v, h->col0 + c, r), a = cell_from(v, h->col0 + c, r);
			attr_t at = A_NORMAL;

			lvl = !n ? 0 : 1 + (int)(n * 8 / (max ? max : 1));
			if (lvl > 9)
				lvl = 9;
			if (in_mark(h, h->col0 + c, r, rows))
				at = crt_attr(CRT_CURSOR_DIM);
			else if (rg->on && a + SEC / rows - 1 >= rg->from && a <= rg->to)
				at = crt_attr(CRT_MATCH);
			if (h->col0 + c == h->ccol && r == h->crow)
				at = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
			wattrset(v->win, at);
			mvwaddch(v->win, y, LBL + c, (chtype)SHADE[lvl]);
		}
	}
}

static void draw_axis(struct kt_view *v, int secs)
{
	struct hm *h = HM(v);
	char buf[16];
	int c;

	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put_pad(v->win, v->h - 1, 0, "s:", LBL);
	for (c = 0; c < ncols(v) && h->col0 + c < secs; c += 10) {
		snprintf(buf, sizeof(buf), "+%d", h->col0 + c);
		crt_put(v->win, v->h - 1, LBL + c, buf, ncols(v) - c);
	}
	wattrset(v->win, A_NORMAL);
}

static void hm_draw(struct kt_view *v)
{
	struct hm *h = HM(v);
	int rows = nrows(v), secs, r, c;
	uint64_t max = 0, a;
	char title[160], kname[96], line[256], rel[40];

	werase(v->win);
	if (!h->ti) {
		view_draw_title(v, "Heat map", "");
		crt_put_pad(v->win, 1, 1, h->why, v->w - 1);
		return;
	}
	if (h->kind != KT_TI_ALL)
		timeaxis_kind_name(v, h->kind, 0, kname, sizeof(kname));
	else
		snprintf(kname, sizeof(kname), "all events");
	snprintf(title, sizeof(title), "Heat map: %s per %llu ms", kname,
		 (unsigned long long)(SEC / rows / 1000000));
	secs = seconds(v);
	if (h->ccol >= secs)
		h->ccol = secs - 1;
	if (h->crow >= rows)
		h->crow = rows - 1;
	if (h->ccol < h->col0)
		h->col0 = h->ccol;
	if (h->ccol >= h->col0 + ncols(v))
		h->col0 = h->ccol - ncols(v) + 1;
	for (c = 0; c < ncols(v) && h->col0 + c < secs; c++)
		for (r = 0; r < rows; r++) {
			uint64_t n = cell_count(v, h->col0 + c, r);

			max = n > max ? n : max;
		}
	snprintf(line, sizeof(line), "max %llu", (unsigned long long)max);
	view_draw_title(v, title, line);
	a = cell_from(v, h->ccol, h->crow);
	ui_format_rel(v->ui, a, rel, sizeof(rel));
	snprintf(line, sizeof(line), "cell %s +%llums: %llu%s", rel,
		 (unsigned long long)(SEC / rows / 1000000),
		 (unsigned long long)cell_count(v, h->ccol, h->crow),
		 h->marking ? "  marking: r ends the run, Esc cancels" : "");
	wattrset(v->win, crt_attr(CRT_TIME));
	crt_put_pad(v->win, 1, 0, line, v->w);
	draw_cells(v, rows, secs, max);
	draw_axis(v, secs);
}

/* v: all events, then each type the index has seen, then all again. */
static void next_kind(struct kt_view *v)
{
	struct hm *h = HM(v);
	struct kt_ti_info info;

	timeindex_info(h->ti, &info);
	h->kind_i = h->kind_i + 1 < info.nkinds ? h->kind_i + 1 : -1;
	h->kind = h->kind_i < 0 ? KT_TI_ALL : timeindex_kind(h->ti, h->kind_i, NULL);
}

static void mark(struct kt_view *v, bool cell)
{
	struct hm *h = HM(v);
	int rows = nrows(v);
	uint64_t a, b;

	if (!cell && !h->marking) {
		h->marking = true;
		h->mcol = h->ccol;
		h->mrow = h->crow;
		return;
	}
	a = cell_from(v, h->ccol, h->crow);
	b = a;
	if (!cell) {
		b = cell_from(v, h->mcol, h->mrow);
		if (b < a) {
			uint64_t x = a;

			a = b;
			b = x;
		}
	}
	h->marking = false;
	ui_range_set(v->ui, a, b + SEC / rows - 1);
}

static int hm_key(struct kt_view *v, int key)
{
	struct hm *h = HM(v);
	int rows = nrows(v);

	if (key == 27 && h->marking) {
		h->marking = false;
		v->dirty = true;
		return KT_KEY_HANDLED;
	}
	if (key == 27)
		return KT_KEY_CLOSE;
	if (!h->ti)
		return KT_KEY_IGNORED;
	switch (key) {
	case KEY_LEFT: case 'h':
		h->ccol = h->ccol > 0 ? h->ccol - 1 : 0;
		break;
	case KEY_RIGHT: case 'l':
		h->ccol++;
		break;
	case KEY_UP: case 'k':
		h->crow = h->crow > 0 ? h->crow - 1 : 0;
		break;
	case KEY_DOWN: case 'j':
		h->crow = h->crow + 1 < rows ? h->crow + 1 : h->crow;
		break;
	case KEY_HOME: case 'g':
		h->ccol = h->crow = 0;
		break;
	case KEY_END: case 'G':
		h->ccol = seconds(v) - 1;
		break;
	case 'v':
		next_kind(v);
		break;
	case 'r':
		mark(v, false);
		break;
	case '\n': case '\r': case KEY_ENTER:
		mark(v, true);
		break;
	default:
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void hm_click(struct kt_view *v, int y, int x)
{
	struct hm *h = HM(v);

	if (!h->ti || x < LBL || y < TOP_ROWS || y - TOP_ROWS >= nrows(v))
		return;
	h->ccol = h->col0 + x - LBL;
	h->crow = y - TOP_ROWS;
	v->dirty = true;
}

static void hm_tick(struct kt_view *v)
{
	timeaxis_tick(v);
	v->dirty = true;
}

static void hm_notify(struct kt_view *v, enum kt_view_event ev)
{
	if (ev == KT_EV_RANGE)
		v->dirty = true;
}

static const struct kt_keyhelp heatmap_keys[] = {
	{ "Enter", "the cell is the range" },
	{ "r  r", "a run of cells is the range" },
	{ "v", "all events / one type" },
	{ NULL, NULL },
};

const struct kt_view_ops view_heatmap_ops = {
	.name = "heatmap",
	.title = "Heat map (%)",
	.keys = heatmap_keys,
	.init = hm_init,
	.free = hm_free,
	.resize = hm_resize,
	.draw = hm_draw,
	.key = hm_key,
	.tick = hm_tick,
	.notify = hm_notify,
	.click = hm_click,
};
