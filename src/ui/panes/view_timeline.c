// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline pane (issue 33): one lane per CPU showing which task ran when (sched_switch's
 * slices, from timeaxis.h's index), tasks coloured by a hash of their pid and named where
 * the slice is wide enough, idle as dots; below, one lane per event type (a tick per event,
 * a shade where they crowd) and one of loss markers. The cursor is a time: arrows move it by
 * a column, + and _ (or the wheel, at the pointer) zoom around it (down to a nanosecond a
 * column), < and > pan, n and N jump to the selected lane's next and previous event, r
 * twice (or a drag of the mouse) marks a range. Live it
 * follows the tail until moved (End follows again) and stands still while paused; on a
 * recording it opens on the whole file.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/callgraph/timeindex.h"
#include "app/stopwhen.h"
#include "timeaxis.h"
#include "timeline_marks.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define LBL 9		/* lane labels' width */
#define TOP_ROWS 3	/* title, cursor line, range/cursor marks */
#define MAX_KINDS 32	/* event-type lanes */
#define LIVE_COL_NS 10000000ull /* live: 10 ms a column to start with */

struct col {
	int pid;	  /* -1: nothing known here; 0: idle */
	uint64_t overlap; /* of the slice chosen */
	char comm[KT_SLICE_COMM];
};

struct tl {
	struct kt_timeindex *ti;
	char why[160];
	uint64_t from, colns; /* the first column's time, a column's nanoseconds */
	uint64_t base;	      /* colns before zooming: + and - halve and double it exactly */
	int level;	      /* zoomed in this many times (out: negative) */
	uint64_t cur;	      /* the cursor's time */
	bool follow, paused, moved;
	bool marking;
	uint64_t mark;
	bool pressed;	      /* the button is down: its release elsewhere marks a range */
	int press_x;	      /* where it went down */
	int lane, top;	      /* selected lane; first lane shown */
	struct col *cols;
	int ncols;
	struct kt_tl_marks marks; /* triggers' and the stop's, on their event's lane */
};

static struct tl *TL(struct kt_view *v)
{
	return v->data;
}

static int data_w(struct kt_view *v)
{
	return v->w > LBL + 1 ? v->w - LBL : 1;
}

static void tl_init(struct kt_view *v)
{
	struct tl *t = xcalloc(1, sizeof(*t));

	v->data = t;
	t->follow = app_can(v->app, KT_CAP_LIVE);
	t->colns = t->base = LIVE_COL_NS;
	t->ti = timeaxis_take(v, t->why, sizeof(t->why));
}

static void tl_free(struct kt_view *v)
{
	struct tl *t = TL(v);

	if (t->ti)
		timeaxis_release(v);
	free(t->cols);
	free(t);
}

static void ensure_cols(struct kt_view *v)
{
	struct tl *t = TL(v);

	if (data_w(v) > t->ncols) {
		t->ncols = data_w(v);
		t->cols = xreallocarray(t->cols, (size_t)t->ncols, sizeof(*t->cols));
	}
}

static void tl_resize(struct kt_view *v)
{
	ensure_cols(v);
	v->dirty = true;
}

static int nkinds(struct tl *t)
{
	struct kt_ti_info info;

	timeindex_info(t->ti, &info);
	return info.nkinds < MAX_KINDS ? info.nkinds : MAX_KINDS;
}

/* Lanes: the CPUs, the event types, the loss markers. */
static int nlanes(struct kt_view *v)
{
	return v->app->ncpus + nkinds(TL(v)) + 1;
}

/* Where the view is when nobody moved it: a recording whole, live the tail. */
static void place(struct kt_view *v)
{
	struct tl *t = TL(v);
	struct kt_ti_info info;
	uint64_t w = (uint64_t)data_w(v);

	timeindex_info(t->ti, &info);
	if (!info.records)
		return;
	if (!t->moved && !app_can(v->app, KT_CAP_LIVE)) {
		t->colns = t->base = (info.last_ts - info.first_ts) / w + 1;
		t->from = info.first_ts;
		t->cur = info.first_ts;
	} else if (t->follow && !t->paused) {
		t->cur = info.last_ts;
		t->from = info.last_ts > t->colns * (w - 1) ? info.last_ts - t->colns * (w - 1) : 0;
	}
}

/* --- the CPU lanes --- */

struct fill {
	struct tl *t;
	int w;
};

/* Each column shows the task that held the CPU longest in it (idle only when nothing
 * else ran there). */
static void take_slice(const struct kt_cpuslice *s, void *arg)
{
	struct fill *f = arg;
	struct tl *t = f->t;
	uint64_t a, b, ov;
	int c, c0, c1;

	if (s->end <= t->from)
		return;
	c0 = s->start > t->from ? (int)((s->start - t->from) / t->colns) : 0;
	c1 = (s->end - 1 - t->from) / t->colns < (uint64_t)f->w ?
		     (int)((s->end - 1 - t->from) / t->colns) : f->w - 1;
	for (c = c0; c <= c1 && c < f->w; c++) {
		struct col *col = &t->cols[c];

		a = t->from + (uint64_t)c * t->colns;
		b = a + t->colns;
		ov = (s->end < b ? s->end : b) - (s->start > a ? s->start : a);
		if (col->pid < 0 || (s->pid && (!col->pid || ov > col->overlap)) ||
		    (!s->pid && !col->pid && ov > col->overlap)) {
			col->pid = s->pid;
			col->overlap = ov;
			memcpy(col->comm, s->comm, sizeof(col->comm));
		}
	}
}

static attr_t task_attr(int pid)
{
	static const enum crt_elem pal[] = { CRT_FLAME, CRT_FLAME_ALT, CRT_TIME, CRT_CPU,
					     CRT_TASK,	CRT_EVENT,     CRT_SYSTEM, CRT_ENABLED };
	uint32_t h = (uint32_t)pid * 2654435761u;

	return crt_attr(pal[(h >> 16) % (sizeof(pal) / sizeof(pal[0]))]) | A_REVERSE;
}

/* One cell: a run of one task shows its name from the run's first cell. */
static char cell_char(const struct col *cols, int c, int w)
{
	int start = c, len = 0, end = c;

	while (start > 0 && cols[start - 1].pid == cols[c].pid)
		start--;
	while (end < w && cols[end].pid == cols[c].pid)
		end++;
	len = end - start;
	if (len >= 3 && c - start < (int)strlen(cols[c].comm)) {
		char ch = cols[c].comm[c - start];

		return ch > ' ' && ch < 127 ? ch : '?';
	}
	return ' ';
}

/* Zoomed far out over many slices: each column is the task found at SAMPLES points in it
 * (the one found most, idle only when nothing else), so a frame costs the same whatever the
 * file's size. */
#define SAMPLES 4
static void sample_cols(struct tl *t, int cpu, int w)
{
	struct kt_cpuslice *all = xreallocarray(NULL, (size_t)w * SAMPLES, sizeof(*all)), *s;
	uint64_t *at = xreallocarray(NULL, (size_t)w * SAMPLES, sizeof(*at));
	int c, k, j, best, hits, most;

	for (c = 0; c < w; c++)
		for (k = 0; k < SAMPLES; k++)
			at[c * SAMPLES + k] = t->from + (uint64_t)c * t->colns +
					      t->colns * (2 * k + 1) / (2 * SAMPLES);
	timeindex_slices_at(t->ti, cpu, at, w * SAMPLES, all);
	for (c = 0; c < w; c++) {
		struct col *col = &t->cols[c];

		s = all + c * SAMPLES;
		for (best = -1, most = 0, k = 0; k < SAMPLES; k++) {
			for (hits = 0, j = 0; j < SAMPLES; j++)
				hits += s[j].pid == s[k].pid;
			if (s[k].pid >= 0 && (best < 0 || (s[k].pid && !s[best].pid) ||
					      ((!s[k].pid == !s[best].pid) && hits > most))) {
				best = k;
				most = hits;
			}
		}
		col->pid = best < 0 ? -1 : s[best].pid;
		if (best >= 0)
			memcpy(col->comm, s[best].comm, sizeof(col->comm));
	}
	free(at);
	free(all);
}

static void draw_cpu_lane(struct kt_view *v, int y, int cpu)
{
	struct tl *t = TL(v);
	struct fill f = { t, data_w(v) };
	uint64_t to = t->from + t->colns * (uint64_t)f.w;
	int c;

	for (c = 0; c < f.w; c++)
		t->cols[c].pid = -1;
	if (timeindex_nslices(t->ti, cpu, t->from, to) > (size_t)f.w * 8)
		sample_cols(t, cpu, f.w);
	else
		timeindex_slices(t->ti, cpu, t->from, to, take_slice, &f);
	for (c = 0; c < f.w; c++) {
		const struct col *col = &t->cols[c];

		if (col->pid < 0) {
			wattrset(v->win, A_NORMAL);
			mvwaddch(v->win, y, LBL + c, ' ');
		} else if (col->pid == 0) {
			wattrset(v->win, crt_attr(CRT_DIM));
			mvwaddch(v->win, y, LBL + c, '.');
		} else {
			wattrset(v->win, task_attr(col->pid));
			mvwaddch(v->win, y, LBL + c, (chtype)(unsigned char)cell_char(t->cols, c, f.w));
		}
	}
}

/* --- the event lanes --- */

static void draw_kind_lane(struct kt_view *v, int y, int kind, enum crt_elem e)
{
	struct tl *t = TL(v);
	const struct crt_glyphs *g = crt_glyphs();
	uint64_t n[1024], max = 0;
	int c, w = data_w(v) < 1024 ? data_w(v) : 1024, lvl;

	timeindex_counts(t->ti, kind, t->from, t->colns, w, n);
	for (c = 0; c < w; c++)
		if (n[c] > max)
			max = n[c];
	wattrset(v->win, crt_attr(e));
	for (c = 0; c < w; c++) {
		uint64_t a = t->from + (uint64_t)c * t->colns;
		char mk = n[c] ? tlmarks_at(&t->marks, v->app, t->ti, kind, a, a + t->colns) : 0;

		if (!n[c]) {
			mvwaddch(v->win, y, LBL + c, ' ');
			continue;
		}
		if (mk) {
			wattrset(v->win, crt_attr(CRT_ERROR) | A_BOLD);
			mvwaddch(v->win, y, LBL + c, (chtype)mk);
			wattrset(v->win, crt_attr(e));
			continue;
		}
		if (n[c] == 1 || max < 2) {
			mvwaddch(v->win, y, LBL + c, kind == KT_TI_LOST ? 'L' : '|');
			continue;
		}
		/* crowded: a shade of how many, against the lane's busiest column */
		lvl = (int)((n[c] * 7 + max - 1) / max);
		mvwaddstr(v->win, y, LBL + c, g->spark[lvl > 7 ? 7 : lvl]);
	}
}

/* --- the pane --- */

static void lane_label(struct kt_view *v, int lane, char *buf, size_t len, int *kind)
{
	struct tl *t = TL(v);
	int nk = nkinds(t);
	uint64_t seq;
	char name[96];
	const char *colon;

	*kind = KT_TI_LOST;
	if (lane < v->app->ncpus) {
		snprintf(buf, len, "cpu%d", lane);
	} else if (lane < v->app->ncpus + nk) {
		*kind = timeindex_kind(t->ti, lane - v->app->ncpus, &seq);
		timeaxis_kind_name(v, *kind, seq, name, sizeof(name));
		colon = strchr(name, ':');
		snprintf(buf, len, "%.60s", colon ? colon + 1 : name);
	} else {
		snprintf(buf, len, "lost");
	}
}

static int col_of(struct tl *t, uint64_t ts)
{
	return ts < t->from ? -1 : (int)((ts - t->from) / t->colns > 100000 ? 100000 :
					  (ts - t->from) / t->colns);
}

/* The cursor's column, the mark and the range along one row. */
static void draw_marks(struct kt_view *v, int y)
{
	struct tl *t = TL(v);
	const struct kt_range *r = ui_range(v->ui);
	int c, w = data_w(v);

	wattrset(v->win, crt_attr(CRT_MATCH));
	for (c = 0; c < w; c++) {
		uint64_t a = t->from + (uint64_t)c * t->colns, b = a + t->colns - 1;
		bool in_range = r->on && b >= r->from && a <= r->to;
		bool in_mark = t->marking && b >= (t->mark < t->cur ? t->mark : t->cur) &&
			       a <= (t->mark > t->cur ? t->mark : t->cur);

		mvwaddch(v->win, y, LBL + c, in_mark ? '~' : in_range ? '=' : ' ');
	}
	view_incidents_marks(v, y, LBL, t->from, t->colns, w);
	c = col_of(t, t->cur);
	if (c >= 0 && c < w) {
		wattrset(v->win, crt_attr(CRT_CURSOR));
		mvwaddch(v->win, y, LBL + c, 'v');
	}
	wattrset(v->win, A_NORMAL);
}

static void fmt_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000000ull)
		snprintf(buf, len, "%.3gs", (double)ns / 1e9);
	else if (ns >= 1000000ull)
		snprintf(buf, len, "%.3gms", (double)ns / 1e6);
	else if (ns >= 1000ull)
		snprintf(buf, len, "%.3gus", (double)ns / 1e3);
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

static void draw_cursor_line(struct kt_view *v)
{
	struct tl *t = TL(v);
	char abs[40], rel[40], line[512], legend[160];

	snprintf(abs, sizeof(abs), "%llu.%06llu", (unsigned long long)(t->cur / 1000000000ull),
		 (unsigned long long)(t->cur % 1000000000ull / 1000ull));
	ui_format_rel(v->ui, t->cur, rel, sizeof(rel));
	tlmarks_legend(&t->marks, v->app, legend, sizeof(legend));
	snprintf(line, sizeof(line), "cursor %s %s%s%s%s", abs, rel,
		 t->marking ? "  marking: r ends the range, Esc cancels" : "",
		 legend[0] && !t->marking ? "  " : "", t->marking ? "" : legend);
	wattrset(v->win, crt_attr(CRT_TIME));
	crt_put_pad(v->win, 1, 0, line, v->w);
	wattrset(v->win, A_NORMAL);
}

static void tl_draw(struct kt_view *v)
{
	struct tl *t = TL(v);
	struct kt_ti_info info = { 0 };
	char title[128], right[64], col[32], label[64];
	int y, lane, n, kind, rows = v->h - TOP_ROWS;
	const char *why;

	werase(v->win);
	ensure_cols(v);
	tlmarks_load(&t->marks, v->app); /* the first frame has its marks, not the first tick's */
	if (t->ti) {
		place(v);
		timeindex_info(t->ti, &info);
	}
	fmt_ns(t->colns, col, sizeof(col));
	snprintf(title, sizeof(title), "Timeline: %s a column", col);
	if (t->paused || t->follow || app_can(v->app, KT_CAP_LIVE) || info.done)
		snprintf(right, sizeof(right), "%s", t->paused ? "PAUSED" : t->follow ? "FOLLOW" :
								     "SCROLL");
	else /* a recording drawn as far as it is indexed */
		snprintf(right, sizeof(right), "indexing %d%%",
			 info.total > info.records ? (int)(info.records * 100 / info.total) : 99);
	view_draw_title(v, title, right);
	if (!t->ti) {
		crt_put_pad(v->win, 1, 1, t->why, v->w - 1);
		return;
	}
	draw_cursor_line(v);
	if (v->h > 2)
		draw_marks(v, 2);
	n = nlanes(v);
	if (t->lane >= n)
		t->lane = n - 1;
	if (t->top > t->lane)
		t->top = t->lane;
	if (rows > 0 && t->lane >= t->top + rows)
		t->top = t->lane - rows + 1;
	why = timeaxis_no_switches(v);
	for (y = TOP_ROWS, lane = t->top; y < v->h && lane < n; y++, lane++) {
		lane_label(v, lane, label, sizeof(label), &kind);
		wattrset(v->win, crt_attr(lane == t->lane ? (v->focused ? CRT_CURSOR : CRT_CURSOR_DIM)
						      : CRT_CPU));
		crt_put_pad(v->win, y, 0, label, LBL - 1);
		wattrset(v->win, A_NORMAL);
		if (lane < v->app->ncpus && why)
			crt_put_pad(v->win, y, LBL, lane ? "" : why, data_w(v));
		else if (lane < v->app->ncpus)
			draw_cpu_lane(v, y, lane);
		else
			draw_kind_lane(v, y, kind, kind == KT_TI_LOST ? CRT_LOST : CRT_EVENT);
	}
	wattrset(v->win, A_NORMAL);
}

/* Keeps the cursor on screen, panning by half a screen when it left. */
static void show_cursor(struct kt_view *v)
{
	struct tl *t = TL(v);
	uint64_t w = (uint64_t)data_w(v), half = t->colns * w / 2;

	if (t->cur < t->from || t->cur >= t->from + t->colns * w)
		t->from = t->cur > half ? t->cur - half : 0;
}

static void zoom(struct kt_view *v, bool in)
{
	struct tl *t = TL(v);
	uint64_t c = t->cur >= t->from ? (t->cur - t->from) / t->colns : 0;

	if ((in && t->colns == 1) || (!in && t->colns > 1000000000000ull))
		return;
	t->level += in ? 1 : -1;
	t->colns = t->level >= 0 ? t->base >> t->level : t->base << -t->level;
	if (!t->colns)
		t->colns = 1;
	t->from = t->cur > c * t->colns ? t->cur - c * t->colns : 0;
}

static void jump(struct kt_view *v, int dir)
{
	struct tl *t = TL(v);
	uint64_t to;
	int kind = KT_TI_LOST;
	char label[64];

	lane_label(v, t->lane, label, sizeof(label), &kind);
	if (!timeindex_next(t->ti, t->lane < v->app->ncpus ? t->lane : -1, kind, t->cur, dir,
			    &to)) {
		ui_message(v->ui, false, "no %s event on lane %s", dir > 0 ? "later" : "earlier",
			   label);
		return;
	}
	t->cur = to;
	show_cursor(v);
}

static void mark(struct kt_view *v)
{
	struct tl *t = TL(v);

	if (!t->marking) {
		t->marking = true;
		t->mark = t->cur;
		return;
	}
	t->marking = false;
	ui_range_set(v->ui, t->mark, t->cur);
}

static void home_end(struct kt_view *v, bool end)
{
	struct tl *t = TL(v);
	struct kt_ti_info info;

	timeindex_info(t->ti, &info);
	t->cur = end ? info.last_ts : info.first_ts;
	t->follow = end && app_can(v->app, KT_CAP_LIVE);
	if (!end)
		t->from = t->cur;
	show_cursor(v);
	if (t->follow)
		place(v);
}

/* Keys that move along time: the view stops following the tail (a zoom follows on). */
static bool moves_time(int key)
{
	return !(key > 0 && key < 128 && strchr("kjrG+=_", key)) && key != KEY_UP &&
	       key != KEY_DOWN && key != KEY_END;
}

static int tl_key(struct kt_view *v, int key)
{
	struct tl *t = TL(v);
	uint64_t half;

	if (key == 27 && t->marking) {
		t->marking = false;
		v->dirty = true;
		return KT_KEY_HANDLED;
	}
	if (key == 27)
		return KT_KEY_CLOSE;
	if (!t->ti)
		return KT_KEY_IGNORED;
	half = t->colns * (uint64_t)data_w(v) / 2;
	switch (key) {
	case KEY_LEFT: case 'h':
		t->cur = t->cur > t->colns ? t->cur - t->colns : 0;
		break;
	case KEY_RIGHT: case 'l':
		t->cur += t->colns;
		break;
	case '<': case ',':
		t->from = t->from > half ? t->from - half : 0;
		t->cur = t->cur > half ? t->cur - half : 0;
		break;
	case '>': case '.':
		t->from += half;
		t->cur += half;
		break;
	case '+': case '=':
		zoom(v, true);
		break;
	case '_':
		zoom(v, false);
		break;
	case KEY_UP: case 'k':
		t->lane = t->lane > 0 ? t->lane - 1 : 0;
		break;
	case KEY_DOWN: case 'j':
		t->lane = t->lane + 1 < nlanes(v) ? t->lane + 1 : t->lane;
		break;
	case 'n':
		jump(v, 1);
		break;
	case 'N':
		jump(v, -1);
		break;
	case KEY_HOME: case 'g':
		home_end(v, false);
		break;
	case KEY_END: case 'G':
		home_end(v, true);
		break;
	case 'r':
		mark(v);
		break;
	default:
		return KT_KEY_IGNORED;
	}
	t->moved = true; /* a recording no longer fits itself to the pane */
	if (moves_time(key)) {
		t->follow = false;
		show_cursor(v);
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void tl_click(struct kt_view *v, int y, int x)
{
	struct tl *t = TL(v);

	if (!t->ti || x < LBL)
		return;
	t->moved = true;
	t->follow = false;
	t->cur = t->from + (uint64_t)(x - LBL) * t->colns;
	t->pressed = true;
	t->press_x = x;
	if (y >= TOP_ROWS && t->top + y - TOP_ROWS < nlanes(v))
		t->lane = t->top + y - TOP_ROWS;
	v->dirty = true;
}

/* A drag: released over another column than pressed, the columns from one to the other
 * (both whole) become the range, and the cursor stays where the button went up. */
static void tl_release(struct kt_view *v, int y, int x)
{
	struct tl *t = TL(v);
	int a, b;

	(void)y;
	if (!t->ti || !t->pressed)
		return;
	t->pressed = false;
	if (x < LBL || x == t->press_x)
		return;
	a = (t->press_x < x ? t->press_x : x) - LBL;
	b = (t->press_x < x ? x : t->press_x) - LBL;
	t->marking = false;
	t->cur = t->from + (uint64_t)(x - LBL) * t->colns;
	ui_range_set(v->ui, t->from + (uint64_t)a * t->colns,
		     t->from + (uint64_t)(b + 1) * t->colns - 1);
}

/* The wheel zooms at the pointer: the cursor goes there first, as a click puts it. */
static void tl_wheel(struct kt_view *v, int y, int x, bool up)
{
	if (!TL(v)->ti || x < LBL)
		return;
	tl_click(v, y, x);
	TL(v)->pressed = false;
	zoom(v, up);
}

static void tl_tick(struct kt_view *v)
{
	struct kt_stopwhen *sw = v->app->stop;

	timeaxis_tick(v);
	if (sw && !sw->located && stopwhen_check(v->app))
		stopwhen_locate(v->app);
	if (TL(v)->ti)
		place(v);
	v->dirty = true;
}

static void tl_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct tl *t = TL(v);

	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME)
		t->paused = ev == KT_EV_PAUSE;
	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME || ev == KT_EV_RANGE)
		v->dirty = true;
}

static const struct kt_keyhelp timeline_keys[] = {
	{ "+ _", "zoom in / out at the cursor" },
	{ "< >", "pan half a screen" },
	{ "n  N", "lane's next / previous event" },
	{ "r  r", "mark a range: from, to" },
	{ NULL, NULL },
};

const struct kt_view_ops view_timeline_ops = {
	.name = "timeline",
	.title = "Timeline (V)",
	.keys = timeline_keys,
	.init = tl_init,
	.free = tl_free,
	.resize = tl_resize,
	.draw = tl_draw,
	.key = tl_key,
	.tick = tl_tick,
	.notify = tl_notify,
	.click = tl_click,
	.release = tl_release,
	.wheel = tl_wheel,
};
