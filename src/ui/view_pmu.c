// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counters pane: one row per performance counter with its scaled value, rate per
 * second, the share of the time it really ran (multiplexing) and a one-cell bar per CPU
 * (or per thread with -p); then the derived ratios; then, for the selected counter, a bar
 * per CPU and the total. A counter the machine cannot give shows "n/a" and the reason.
 * The counters are read by app_tick() on the UI tick, never per event; this pane only
 * draws what the last read left.
 */
#include "config.h"

#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "backend/pmu.h"
#include "ui/funcbar.h"
#include "ui/header.h"
#include "ui/view.h"
#include "xalloc.h"

#define NAME_W 18
#define VALUE_W 8
#define RATE_W 9
#define SHARE_W 5
#define FIXED_W (NAME_W + 1 + VALUE_W + 1 + RATE_W + 1 + SHARE_W + 1)
#define DETAIL_LABEL_W 10
#define DETAIL_MIN_H 3 /* title line, one slot, the total */

struct pmu_view {
	int sel;     /* selected row among the shown counters */
	int top;     /* first counter row on screen */
	int det_off; /* first slot in the detail section */
	bool paused;
	char err[320]; /* the counters could not be opened */
	const struct kt_pmu *built_for; /* the counter set rows was made from */
	int *rows;     /* indices of the shown counters */
	int nrows;
	int list_h;    /* counter rows that fit, from the last draw */
};

static struct pmu_view *PV(struct kt_view *v)
{
	return v->data;
}

static void rebuild_rows(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);
	struct kt_pmu *p = v->app->pmu;
	size_t i, n = p ? pmu_ncounters(p) : 0;

	free(pv->rows);
	pv->built_for = p;
	pv->rows = n ? xcalloc(n, sizeof(*pv->rows)) : NULL;
	pv->nrows = 0;
	for (i = 0; i < n; i++)
		if (pmu_counter_shown(p, i))
			pv->rows[pv->nrows++] = (int)i;
	if (pv->sel >= pv->nrows)
		pv->sel = pv->nrows ? pv->nrows - 1 : 0;
}

static void pmu_view_init(struct kt_view *v)
{
	struct pmu_view *pv = xcalloc(1, sizeof(*pv));

	v->data = pv;
	pv->paused = ui_paused(v->ui);
	if (app_pmu_open(v->app, pv->err, sizeof(pv->err)) < 0)
		ui_message(v->ui, true, "counters: %s", pv->err);
	rebuild_rows(v);
}

static void pmu_view_free(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);

	/* Closing the pane closes the counters: no fds and no cost while nobody looks. */
	app_pmu_close(v->app);
	free(pv->rows);
	free(pv);
	v->data = NULL;
}

static void pmu_view_resize(struct kt_view *v)
{
	v->dirty = true;
}

static bool is_clock(const struct kt_pmu_counter *c)
{
	/* cpu-clock and task-clock count nanoseconds */
	return c->attr.type == PERF_TYPE_SOFTWARE && (c->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
						       c->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

static void fmt_value(const struct kt_pmu_counter *c, double v, char *buf, size_t len)
{
	if (is_clock(c)) {
		if (v < 1e9)
			snprintf(buf, len, "%.0fms", v / 1e6);
		else
			snprintf(buf, len, "%.2fs", v / 1e9);
	} else if (c->attr.scale != 1.0 || c->attr.unit[0]) {
		snprintf(buf, len, "%.3g%s", v, c->attr.unit);
	} else {
		header_fmt_count(v, buf, len);
	}
}

static void fmt_rate(const struct kt_pmu_counter *c, double r, char *buf, size_t len)
{
	char n[32];

	if (isnan(r))
		snprintf(buf, len, "-");
	else if (is_clock(c))
		snprintf(buf, len, "%.2fCPU", r / 1e9); /* ns per second: CPUs busy */
	else if (c->attr.scale != 1.0 || c->attr.unit[0])
		snprintf(buf, len, "%.3g/s", r);
	else
		snprintf(buf, len, "%s/s", header_fmt_count(r, n, sizeof(n)));
}

/* Writes s right-aligned in w cells at (y, x). */
static void put_right(WINDOW *win, int y, int x, int w, const char *s)
{
	int n = (int)strlen(s);

	if (w <= 0)
		return;
	if (n > w)
		n = w;
	crt_put(win, y, x + w - n, s, n);
}

static double max_slot_rate(const struct kt_pmu *p, const struct kt_pmu_counter *c)
{
	double m = 0;
	int s;

	for (s = 0; s < pmu_nslots(p); s++)
		if (c->slots[s].open && !isnan(c->slots[s].rate) && c->slots[s].rate > m)
			m = c->slots[s].rate;
	return m;
}

/* One cell per slot, as high as its rate against the busiest slot. */
static void draw_spark(struct kt_view *v, int y, int x, int w, const struct kt_pmu *p,
		       const struct kt_pmu_counter *c)
{
	const struct crt_glyphs *g = crt_glyphs();
	double m = max_slot_rate(p, c);
	int s, n = pmu_nslots(p), lvl;

	wattrset(v->win, crt_attr(CRT_CPU));
	for (s = 0; s < n && s < w; s++) {
		const struct kt_pmu_slot_value *sv = &c->slots[s];

		if (!sv->open || isnan(sv->rate)) {
			mvwaddstr(v->win, y, x + s, " ");
			continue;
		}
		lvl = m > 0 ? (int)(sv->rate / m * 7.0 + 0.5) : 0;
		if (lvl < 0)
			lvl = 0;
		if (lvl > 7)
			lvl = 7;
		mvwaddstr(v->win, y, x + s, g->spark[lvl]);
	}
	if (n > w && w > 0)
		mvwaddstr(v->win, y, x + w - 1, "+");
	wattrset(v->win, A_NORMAL);
}

static void draw_counter(struct kt_view *v, int y, const struct kt_pmu *p,
			 const struct kt_pmu_counter *c, bool cursor)
{
	char buf[64];
	int x = NAME_W + 1, w = v->w;

	if (cursor) {
		wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
		crt_fill(v->win, y, 0, w);
	} else {
		wattrset(v->win, crt_attr(CRT_EVENT));
	}
	crt_put(v->win, y, 0, c->name, NAME_W < w ? NAME_W : w);
	if (!cursor)
		wattrset(v->win, A_NORMAL);
	if (x >= w)
		goto out;
	if (!c->available) {
		if (!cursor)
			wattrset(v->win, crt_attr(CRT_ERROR));
		x += crt_put(v->win, y, x, "n/a ", w - x);
		if (!cursor)
			wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, x, c->reason, w - x);
		goto out;
	}
	if (!pmu_samples(p)) {
		if (!cursor)
			wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, x, "... first reading at the next tick", w - x);
		goto out;
	}
	if (!c->counted) {
		if (!cursor)
			wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, x, "<not counted> multiplexed out: never ran yet", w - x);
		goto out;
	}
	if (!cursor)
		wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
	fmt_value(c, c->value, buf, sizeof(buf));
	put_right(v->win, y, x, VALUE_W < w - x ? VALUE_W : w - x, buf);
	x += VALUE_W + 1;
	if (!cursor)
		wattrset(v->win, A_NORMAL);
	if (x < w) {
		fmt_rate(c, c->rate, buf, sizeof(buf));
		put_right(v->win, y, x, RATE_W < w - x ? RATE_W : w - x, buf);
	}
	x += RATE_W + 1;
	if (x < w) {
		if (isnan(c->share))
			snprintf(buf, sizeof(buf), "-");
		else
			snprintf(buf, sizeof(buf), "%.0f%%", c->share * 100);
		if (!cursor && !isnan(c->share) && c->share < 0.995)
			wattrset(v->win, crt_attr(CRT_HEADER_WARN)); /* multiplexed: scaled */
		put_right(v->win, y, x, SHARE_W < w - x ? SHARE_W : w - x, buf);
		if (!cursor)
			wattrset(v->win, A_NORMAL);
	}
	x += SHARE_W + 1;
	if (x < w)
		draw_spark(v, y, x, w - x, p, c);
out:
	wattrset(v->win, A_NORMAL);
}

static void draw_ratios(struct kt_view *v, int y, int h, const struct kt_pmu *p)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	char buf[96];
	int i, x;

	if (h <= 0)
		return;
	pmu_ratios(p, r);
	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 0, "Derived", v->w);
	for (i = 0; i < KT_PMU_NRATIOS && i < h - 1; i++, y++) {
		x = NAME_W + 1;
		wattrset(v->win, crt_attr(CRT_EVENT));
		crt_put(v->win, y, 0, r[i].name, NAME_W < v->w ? NAME_W : v->w);
		if (x >= v->w)
			continue;
		if (isnan(r[i].value)) {
			wattrset(v->win, crt_attr(CRT_ERROR));
			x += crt_put(v->win, y, x, "n/a ", v->w - x);
			wattrset(v->win, crt_attr(CRT_DIM));
			crt_put(v->win, y, x, r[i].why, v->w - x);
			continue;
		}
		wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
		snprintf(buf, sizeof(buf), isnan(r[i].rate_value) ? "-" : "%.2f%s",
			 r[i].rate_value, r[i].unit);
		put_right(v->win, y, x, VALUE_W < v->w - x ? VALUE_W : v->w - x, buf);
		x += VALUE_W + 1;
		wattrset(v->win, crt_attr(CRT_DIM));
		snprintf(buf, sizeof(buf), "since start %.2f%s", r[i].value, r[i].unit);
		if (x < v->w)
			crt_put(v->win, y, x, buf, v->w - x);
	}
	wattrset(v->win, A_NORMAL);
}

/* The selected counter: a bar per slot and the total, or the whole reason. */
static void draw_detail(struct kt_view *v, int y, int h, const struct kt_pmu *p,
			const struct kt_pmu_counter *c)
{
	struct pmu_view *pv = PV(v);
	const struct crt_glyphs *g = crt_glyphs();
	int n = pmu_nslots(p), rows = h - 2, s, i, bar_w, fill, x, show;
	bool more;
	char title[192], label[32], buf[48];
	double m;

	if (h < DETAIL_MIN_H || v->w < DETAIL_LABEL_W + RATE_W + 4)
		return;
	snprintf(title, sizeof(title), "%s per %s%s", c->name, pmu_per_task(p) ? "thread" : "CPU",
		 c->available ? " (rate/s)" : "");
	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 0, title, v->w);
	wattrset(v->win, A_NORMAL);
	if (!c->available) {
		/* The whole reason, wrapped. */
		const char *r = c->reason;

		wattrset(v->win, crt_attr(CRT_DIM));
		for (i = 0; i < h - 1 && *r; i++) {
			int len = (int)strlen(r), take = len < v->w - 2 ? len : v->w - 2;

			if (take <= 0)
				break;
			if (take < len)
				while (take > 10 && r[take] != ' ')
					take--;
			crt_put(v->win, y + i, 2, r, take);
			r += take;
			while (*r == ' ')
				r++;
		}
		wattrset(v->win, A_NORMAL);
		return;
	}
	if (pv->det_off > n - 1)
		pv->det_off = n - 1;
	if (pv->det_off < 0)
		pv->det_off = 0;
	m = max_slot_rate(p, c);
	bar_w = v->w - DETAIL_LABEL_W - 1 - RATE_W - 1;
	show = n - pv->det_off;
	more = show > rows;
	if (more)
		show = rows - 1; /* the last line says how many more */
	for (i = 0, s = pv->det_off; i < show; i++, s++) {
		const struct kt_pmu_slot_value *sv = &c->slots[s];

		wattrset(v->win, crt_attr(CRT_CPU));
		crt_put(v->win, y + i, 0, pmu_slot_label(p, s, label, sizeof(label)),
			DETAIL_LABEL_W);
		x = DETAIL_LABEL_W + 1;
		fill = m > 0 && sv->open && !isnan(sv->rate) ?
			       (int)(sv->rate / m * bar_w + 0.5) : 0;
		for (int b = 0; b < bar_w; b++)
			mvwaddstr(v->win, y + i, x + b, b < fill ? g->bar_full : g->bar_empty);
		wattrset(v->win, A_NORMAL);
		if (!sv->open)
			snprintf(buf, sizeof(buf), "closed");
		else
			fmt_rate(c, sv->rate, buf, sizeof(buf));
		put_right(v->win, y + i, v->w - RATE_W, RATE_W, buf);
	}
	if (more) {
		wattrset(v->win, crt_attr(CRT_DIM));
		snprintf(buf, sizeof(buf), "%d more %s (< > to scroll)", n - s,
			 pmu_per_task(p) ? "threads" : "CPUs");
		crt_put(v->win, y + i, 0, buf, v->w);
		i++;
	}
	wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
	crt_put(v->win, y + i, 0, "total", DETAIL_LABEL_W);
	fmt_rate(c, c->rate, buf, sizeof(buf));
	put_right(v->win, y + i, v->w - RATE_W, RATE_W, buf);
	wattrset(v->win, A_NORMAL);
}

static void pmu_view_draw(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);
	struct kt_pmu *p = v->app->pmu;
	char title[160], right[48], target[128];
	int avail = v->h - 2, list_h, rest, der_h, det_h, i, y;
	const struct kt_pmu_counter *sel = NULL;

	if (!p) {
		view_draw_title(v, "Counters", NULL);
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put(v->win, 2, 1, pv->err[0] ? pv->err : "counters closed", v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	if (pv->built_for != p)
		rebuild_rows(v);
	snprintf(title, sizeof(title), "Counters: %s", pmu_target_text(p, target, sizeof(target)));
	if (pv->paused)
		snprintf(right, sizeof(right), "PAUSED");
	else if (pmu_samples(p))
		snprintf(right, sizeof(right), "%.1fs", pmu_interval(p));
	else
		right[0] = '\0';
	view_draw_title(v, title, right[0] ? right : NULL);
	if (avail <= 0)
		return;

	/* Column heads. */
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, 1, 0, "counter", NAME_W < v->w ? NAME_W : v->w);
	if (NAME_W + 1 < v->w)
		put_right(v->win, 1, NAME_W + 1, VALUE_W < v->w - NAME_W - 1 ? VALUE_W :
			  v->w - NAME_W - 1, "value");
	if (NAME_W + 1 + VALUE_W + 1 < v->w)
		put_right(v->win, 1, NAME_W + VALUE_W + 2, RATE_W, "rate");
	if (FIXED_W - SHARE_W - 1 < v->w)
		put_right(v->win, 1, FIXED_W - SHARE_W - 1, SHARE_W, "ran");
	if (FIXED_W < v->w)
		crt_put(v->win, 1, FIXED_W, pmu_per_task(p) ? "threads" : "CPUs", v->w - FIXED_W);
	wattrset(v->win, A_NORMAL);

	list_h = pv->nrows < avail ? pv->nrows : avail;
	rest = avail - list_h;
	der_h = rest >= 1 + KT_PMU_NRATIOS ? 1 + KT_PMU_NRATIOS : 0;
	det_h = rest - der_h - (der_h ? 1 : 0);
	pv->list_h = list_h;
	if (pv->sel < pv->top)
		pv->top = pv->sel;
	if (list_h > 0 && pv->sel >= pv->top + list_h)
		pv->top = pv->sel - list_h + 1;
	if (pv->top > pv->nrows - list_h)
		pv->top = pv->nrows - list_h > 0 ? pv->nrows - list_h : 0;
	y = 2;
	for (i = 0; i < list_h && pv->top + i < pv->nrows; i++) {
		int idx = pv->rows[pv->top + i];

		draw_counter(v, y + i, p, pmu_counter(p, (size_t)idx), pv->top + i == pv->sel);
	}
	y += list_h;
	if (der_h) {
		draw_ratios(v, y, der_h, p);
		y += der_h + 1;
	}
	if (pv->nrows)
		sel = pmu_counter(p, (size_t)pv->rows[pv->sel]);
	if (sel && det_h >= DETAIL_MIN_H)
		draw_detail(v, y, det_h, p, sel);
}

static int pmu_view_key(struct kt_view *v, int key)
{
	struct pmu_view *pv = PV(v);
	int page = pv->list_h > 1 ? pv->list_h - 1 : 1;

	switch (key) {
	case KEY_UP:
	case 'k':
		pv->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		pv->sel++;
		break;
	case KEY_PPAGE:
		pv->sel -= page;
		break;
	case KEY_NPAGE:
		pv->sel += page;
		break;
	case KEY_HOME:
	case 'g':
		pv->sel = 0;
		break;
	case KEY_END:
	case 'G':
		pv->sel = pv->nrows - 1;
		break;
	case '<':
		pv->det_off--;
		break;
	case '>':
		pv->det_off++;
		break;
	case 27: /* Esc */
		return KT_KEY_CLOSE;
	default:
		return KT_KEY_IGNORED;
	}
	if (pv->sel >= pv->nrows)
		pv->sel = pv->nrows - 1;
	if (pv->sel < 0)
		pv->sel = 0;
	if (pv->det_off < 0)
		pv->det_off = 0;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void pmu_view_tick(struct kt_view *v)
{
	/* app_tick() read the counters just before; a paused display keeps its figures. */
	if (!PV(v)->paused)
		v->dirty = true;
}

static void pmu_view_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct pmu_view *pv = PV(v);

	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME) {
		pv->paused = ev == KT_EV_PAUSE;
		v->dirty = true;
	}
}

static const struct funcbar_item pmu_items[] = {
	{ "F1", "Help" },  { "F11", "Close" }, { "Tab", "Focus" },
	{ "F5", "Layout" }, { "F9", "Zoom" },	{ "F10", "Quit" },
};

static int pmu_view_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = pmu_items;
	return (int)(sizeof(pmu_items) / sizeof(pmu_items[0]));
}

const struct kt_view_ops view_pmu_ops = {
	.name = "counters",
	.pref_width = 64, /* name, value, rate, share and a bar per CPU of a small machine */
	.init = pmu_view_init,
	.free = pmu_view_free,
	.resize = pmu_view_resize,
	.draw = pmu_view_draw,
	.key = pmu_view_key,
	.tick = pmu_view_tick,
	.notify = pmu_view_notify,
	.funcbar = pmu_view_funcbar,
};
