// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counters pane: one row per performance counter with its scaled value, rate per
 * second, the share of the time it really ran (multiplexing) and a one-cell bar per CPU
 * (or per thread with -p); then the derived ratios; then, for the selected counter, a bar
 * per CPU and the total. A counter the machine cannot give shows "n/a" and the reason.
 * It draws a countersrc.h's figures: this machine's counters, read by app_tick() on the
 * UI tick, never per event, or an agent's, sent on that tick; one code path for both.
 * Several hosts (ktop -H a -H b): a column of value and rate per host, side by side, as
 * many as fit (< and > scroll them; the title says how many more), the hosts' ratios
 * likewise, and for the selected counter a line per host (its figures, or why it has
 * none); a host whose agent refused the counters has its one line under the table.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "source/countersrc.h"
#include "ui/funcbar.h"
#include "ui/header.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define NAME_W 18
#define VALUE_W 8
#define RATE_W 9
#define SHARE_W 5
#define FIXED_W (NAME_W + 1 + VALUE_W + 1 + RATE_W + 1 + SHARE_W + 1)
#define DETAIL_LABEL_W 10
#define DETAIL_MIN_H 3 /* title line, one slot, the total */
#define DETAIL_MAX_H 10 /* rows the list leaves for it; more CPUs scroll */
#define HOST_W (VALUE_W + 1 + RATE_W) /* several hosts: a host's column */

struct pmu_view {
	struct kt_countersrc *c; /* NULL: they could not be opened (err says why) */
	int sel;     /* selected row among the shown counters */
	int top;     /* first counter row on screen */
	int det_off; /* first slot in the detail section */
	int host_off; /* several hosts: the first host's column on screen */
	bool paused;
	char err[320]; /* the counters could not be opened */
	/* the rows: every host's counters, the first host's order first, each by its name
	 * and how many before it in its host's set have that name (--pmu-event cycles
	 * beside the default cycles is a row of its own) */
	struct pmu_row {
		char name[sizeof(((struct kt_pmu_snap_counter *)0)->name)];
		unsigned dup;
	} *rows;
	int nrows, cap;
	int list_h;    /* counter rows that fit, from the last draw */
	bool told[KT_SOURCE_HOSTS_MAX]; /* a host's refused --pmu-event said, or none was */
};

static struct pmu_view *PV(struct kt_view *v)
{
	return v->data;
}

/* A host's counter of row r, or NULL. */
static const struct kt_pmu_snap_counter *find_counter(const struct kt_pmu_snap *s,
						      const struct pmu_row *r)
{
	unsigned dup = 0;

	for (uint32_t k = 0; s && k < s->ncounters; k++)
		if (!strcmp(s->counters[k].name, r->name) && dup++ == r->dup)
			return &s->counters[k];
	return NULL;
}

static void rebuild_rows(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host h;
	unsigned n = pv->c ? pv->c->ops->nhosts(pv->c) : 0;
	struct pmu_row row;
	int r;

	pv->nrows = 0;
	for (unsigned i = 0; i < n; i++) {
		pv->c->ops->host(pv->c, i, &h);
		for (uint32_t k = 0; h.snap && k < h.snap->ncounters; k++) {
			snprintf(row.name, sizeof(row.name), "%s", h.snap->counters[k].name);
			row.dup = 0;
			for (uint32_t j = 0; j < k; j++)
				row.dup += !strcmp(h.snap->counters[j].name, row.name);
			for (r = 0; r < pv->nrows; r++)
				if (!strcmp(pv->rows[r].name, row.name) && pv->rows[r].dup == row.dup)
					break;
			if (r < pv->nrows)
				continue;
			if (pv->nrows == pv->cap) {
				pv->cap = pv->cap ? 2 * pv->cap : 16;
				pv->rows = xreallocarray(pv->rows, (size_t)pv->cap,
							 sizeof(*pv->rows));
			}
			pv->rows[pv->nrows++] = row;
		}
	}
	if (pv->sel >= pv->nrows)
		pv->sel = pv->nrows ? pv->nrows - 1 : 0;
}

/* A counter the user named (--pmu-event) that a host cannot count: the first one in the
 * status line, once per host, as its first figures come (the table says n/a and why). */
static void tell_refused(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host h;
	unsigned n = pv->c->ops->nhosts(pv->c);

	for (unsigned i = 0; i < n && i < KT_SOURCE_HOSTS_MAX; i++) {
		pv->c->ops->host(pv->c, i, &h);
		if (pv->told[i] || !h.snap)
			continue;
		pv->told[i] = true;
		for (uint32_t k = 0; k < h.snap->ncounters; k++) {
			const struct kt_pmu_snap_counter *c = &h.snap->counters[k];

			if (c->user && !c->available) {
				ui_message(v->ui, true, "counters: %s%s%s: %s", h.label ? h.label : "",
					   h.label ? ": " : "", c->name, c->reason);
				break;
			}
		}
	}
}

/* What came since the last update, unless paused. */
static void take(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);

	if (pv->c && !pv->paused && pv->c->ops->update(pv->c)) {
		rebuild_rows(v);
		tell_refused(v);
	}
}

static void pmu_view_init(struct kt_view *v)
{
	struct pmu_view *pv = xcalloc(1, sizeof(*pv));
	struct kt_countersrc_host h;

	v->data = pv;
	pv->paused = ui_paused(v->ui);
	pv->c = source_counters_open(v->app->source, pv->err, sizeof(pv->err));
	if (!pv->c) {
		ui_message(v->ui, true, "counters: %s", pv->err);
		return;
	}
	/* several hosts: the first that refused, in one line; its column says so too */
	for (unsigned i = 0; i < pv->c->ops->nhosts(pv->c); i++) {
		pv->c->ops->host(pv->c, i, &h);
		if (h.refusal) {
			ui_message(v->ui, true, "counters: %s: %s", h.label, h.refusal);
			break;
		}
	}
	rebuild_rows(v);
	tell_refused(v);
}

static void pmu_view_free(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);

	/* Closing the pane closes the counters: no fds and no cost while nobody looks. */
	countersrc_close(pv->c);
	free(pv->rows);
	free(pv);
	v->data = NULL;
}

static void pmu_view_resize(struct kt_view *v)
{
	v->dirty = true;
}

static void fmt_value(const struct kt_pmu_snap_counter *c, double v, char *buf, size_t len)
{
	if (c->fmt == KT_PMU_FMT_NS) {
		if (v < 1e9)
			snprintf(buf, len, "%.0fms", v / 1e6);
		else
			snprintf(buf, len, "%.2fs", v / 1e9);
	} else if (c->fmt == KT_PMU_FMT_UNIT) {
		snprintf(buf, len, "%.3g%s", v, c->unit);
	} else {
		header_fmt_count(v, buf, len);
	}
}

static void fmt_rate(const struct kt_pmu_snap_counter *c, double r, char *buf, size_t len)
{
	char n[32];

	if (isnan(r))
		snprintf(buf, len, "-");
	else if (c->fmt == KT_PMU_FMT_NS)
		snprintf(buf, len, "%.2fCPU", r / 1e9); /* ns per second: CPUs busy */
	else if (c->fmt == KT_PMU_FMT_UNIT)
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

static double max_slot_rate(const struct kt_pmu_snap *p, const struct kt_pmu_snap_counter *c)
{
	double m = 0;
	uint32_t s;

	for (s = 0; s < p->nslots; s++)
		if (c->slots[s].open && !isnan(c->slots[s].rate) && c->slots[s].rate > m)
			m = c->slots[s].rate;
	return m;
}

/* One cell per slot, as high as its rate against the busiest slot. */
static void draw_spark(struct kt_view *v, int y, int x, int w, const struct kt_pmu_snap *p,
		       const struct kt_pmu_snap_counter *c)
{
	const struct crt_glyphs *g = crt_glyphs();
	double m = max_slot_rate(p, c);
	int s, n = (int)p->nslots, lvl;

	wattrset(v->win, crt_attr(CRT_CPU));
	for (s = 0; s < n && s < w; s++) {
		const struct kt_pmu_snap_slot *sv = &c->slots[s];

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

/* Line k of text wrapped at w cells, breaking at spaces, and its length in *len; NULL past
 * the end. */
static const char *wrap_line(const char *r, int w, int k, int *len)
{
	for (;;) {
		int n = (int)strlen(r), take = n < w ? n : w;

		if (take <= 0)
			return NULL;
		if (take < n)
			while (take > 10 && r[take] != ' ')
				take--;
		if (k-- == 0) {
			*len = take;
			return r;
		}
		r += take;
		while (*r == ' ')
			r++;
	}
}

/* Counter c's row; an unavailable one shows line part of its reason, so that a run of
 * counters missing for the same reason says it once, wrapped down the run. */
static void draw_counter(struct kt_view *v, int y, const struct kt_pmu_snap *p,
			 const struct kt_pmu_snap_counter *c, bool cursor, int part)
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
		const char *r;
		int len;

		if (!cursor)
			wattrset(v->win, crt_attr(CRT_ERROR));
		x += crt_put(v->win, y, x, "n/a ", w - x);
		if (!cursor)
			wattrset(v->win, crt_attr(CRT_DIM));
		r = wrap_line(c->reason, w - x - 2, part, &len);
		if (r)
			crt_put(v->win, y, x + (part ? 2 : 0), r, len);
		goto out;
	}
	if (!p->samples) {
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

static void draw_ratios(struct kt_view *v, int y, int h, const struct kt_pmu_snap *p)
{
	const struct kt_pmu_snap_ratio *r = p->ratios;
	char buf[96];
	int i, x;

	if (h <= 0)
		return;
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

/* cpu-clock, task-clock per CPU: pmu.c leaves out each CPU's idle time: busy CPUs. */
static bool busy_clock(const struct kt_pmu_snap *p, const struct kt_pmu_snap_counter *c)
{
	return !p->per_task && c->fmt == KT_PMU_FMT_NS;
}

/* The selected counter: a bar per slot and the total, or the whole reason. */
static void draw_detail(struct kt_view *v, int y, int h, const struct kt_pmu_snap *p,
			const struct kt_pmu_snap_counter *c)
{
	struct pmu_view *pv = PV(v);
	const struct crt_glyphs *g = crt_glyphs();
	int n = (int)p->nslots, rows = h - 2, s, i, bar_w, fill, x, show;
	bool more;
	char title[192], label[32], buf[48];
	double m;

	if (h < DETAIL_MIN_H || v->w < DETAIL_LABEL_W + RATE_W + 4)
		return;
	snprintf(title, sizeof(title), "%s per %s%s", c->name, p->per_task ? "thread" : "CPU",
		 !c->available ? "" : busy_clock(p, c) ? " busy (idle left out)" : " (rate/s)");
	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 0, title, v->w);
	wattrset(v->win, A_NORMAL);
	if (!c->available) {
		/* The whole reason, wrapped. */
		const char *r;
		int len;

		wattrset(v->win, crt_attr(CRT_DIM));
		for (i = 0; i < h - 1 && (r = wrap_line(c->reason, v->w - 2, i, &len)); i++)
			crt_put(v->win, y + i, 2, r, len);
		wattrset(v->win, A_NORMAL);
		return;
	}
	if (pv->det_off > n - 1)
		pv->det_off = n - 1;
	if (pv->det_off < 0)
		pv->det_off = 0;
	m = busy_clock(p, c) ? 1e9 : max_slot_rate(p, c); /* busy: a full bar is one CPU */
	bar_w = v->w - DETAIL_LABEL_W - 1 - RATE_W - 1;
	show = n - pv->det_off;
	more = show > rows;
	if (more)
		show = rows - 1; /* the last line says how many more */
	for (i = 0, s = pv->det_off; i < show; i++, s++) {
		const struct kt_pmu_snap_slot *sv = &c->slots[s];

		wattrset(v->win, crt_attr(CRT_CPU));
		crt_put(v->win, y + i, 0, pmu_snap_slot_label(p, (uint32_t)s, label, sizeof(label)),
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
			 p->per_task ? "threads" : "CPUs");
		crt_put(v->win, y + i, 0, buf, v->w);
		i++;
	}
	wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
	crt_put(v->win, y + i, 0, "total", DETAIL_LABEL_W);
	fmt_rate(c, c->rate, buf, sizeof(buf));
	put_right(v->win, y + i, v->w - RATE_W, RATE_W, buf);
	wattrset(v->win, A_NORMAL);
}

/* The heights below the column heads: the counter rows, extra lines under them, the
 * ratios, the detail; the selection kept in view. */
struct pmu_layout {
	int list_h, extra_h, der_h, det_h;
};

static void place(struct kt_view *v, int extra, int det_want, struct pmu_layout *l)
{
	struct pmu_view *pv = PV(v);
	int avail = v->h - 2, rest;

	l->list_h = pv->nrows < avail ? pv->nrows : avail;
	rest = avail - l->list_h;
	l->extra_h = extra < rest ? extra : rest;
	rest -= l->extra_h;
	l->der_h = rest >= 1 + KT_PMU_NRATIOS ? 1 + KT_PMU_NRATIOS : 0;
	/* Short of room for both (80x24), the selected counter's per-CPU figures first. */
	if (l->der_h && det_want && rest < l->der_h + 1 + det_want)
		l->der_h = 0;
	l->det_h = rest - l->der_h - (l->der_h ? 1 : 0);
	pv->list_h = l->list_h;
	if (pv->sel < pv->top)
		pv->top = pv->sel;
	if (l->list_h > 0 && pv->sel >= pv->top + l->list_h)
		pv->top = pv->sel - l->list_h + 1;
	if (pv->top > pv->nrows - l->list_h)
		pv->top = pv->nrows - l->list_h > 0 ? pv->nrows - l->list_h : 0;
}

/* The title's right end: PAUSED, or the last interval. */
/* Counters are read as totals on the tick: no times to take a range's from, so a marked
 * range is said not to scope them. */
static const char *title_right(struct kt_view *v, const struct kt_pmu_snap *p, char *buf,
			       size_t len)
{
	const char *unscoped = ui_range_unscoped(v->ui);

	if (PV(v)->paused)
		snprintf(buf, len, "%sPAUSED", unscoped);
	else if (p && p->samples)
		snprintf(buf, len, "%s%.1fs", unscoped, p->interval);
	else if (unscoped[0])
		snprintf(buf, len, "%s", unscoped);
	else
		return NULL;
	return buf;
}

/* One host's counters (this machine's, or one agent's). */
static void draw_one(struct kt_view *v, const struct kt_pmu_snap *p)
{
	struct pmu_view *pv = PV(v);
	char title[192], right[96];
	const struct kt_pmu_snap_counter *sel = NULL, *prev = NULL;
	struct pmu_layout l;
	int i, y, part = 0;

	snprintf(title, sizeof(title), "Counters: %s", p ? p->target : "");
	view_draw_title(v, p ? title : "Counters", title_right(v, p, right, sizeof(right)));
	if (v->h - 2 <= 0)
		return;
	if (!p) { /* an agent's: its first figures come at the next tick */
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 2, 1, "... first reading at the next tick", v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}

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
		crt_put(v->win, 1, FIXED_W, p->per_task ? "threads" : "CPUs", v->w - FIXED_W);
	wattrset(v->win, A_NORMAL);

	place(v, 0, (int)p->nslots + 2 < DETAIL_MAX_H ? (int)p->nslots + 2 : DETAIL_MAX_H, &l);
	y = 2;
	for (i = 0; i < l.list_h && pv->top + i < pv->nrows; i++) {
		const struct kt_pmu_snap_counter *c = find_counter(p, &pv->rows[pv->top + i]);

		if (!c)
			continue;
		part = prev && !c->available && !prev->available &&
		       !strcmp(c->reason, prev->reason) ? part + 1 : 0;
		draw_counter(v, y + i, p, c, pv->top + i == pv->sel, part);
		prev = c;
	}
	y += l.list_h;
	if (l.der_h) {
		draw_ratios(v, y, l.der_h, p);
		y += l.der_h + 1;
	}
	if (pv->nrows)
		sel = find_counter(p, &pv->rows[pv->sel]);
	if (sel && l.det_h >= DETAIL_MIN_H)
		draw_detail(v, y, l.det_h, p, sel);
}

/* ---- several hosts: a column each ---------------------------------------------------- */

/* Host columns that fit beside the names (at least one). */
static int hosts_fit(const struct kt_view *v)
{
	int n = (v->w - NAME_W) / (1 + HOST_W);

	return n < 1 ? 1 : n;
}

/* Writes s right-aligned in a host's cell at x, in its value's place when it fits there,
 * clipped to the pane, in attr (0: as is). */
static void cell_text(struct kt_view *v, int y, int x, const char *s, int attr)
{
	int w = (int)strlen(s) <= VALUE_W ? VALUE_W : HOST_W;

	if (w > v->w - x)
		w = v->w - x;
	if (w <= 0)
		return;
	if (attr)
		wattrset(v->win, crt_attr(attr));
	put_right(v->win, y, x, w, s);
}

/* Host h's figures of counter name in its column at x: value and rate, or why not. */
static void draw_cell(struct kt_view *v, int y, int x, const struct kt_countersrc_host *h,
		      const struct pmu_row *row, bool cursor)
{
	const struct kt_pmu_snap_counter *c = find_counter(h->snap, row);
	char buf[64];

	if (h->refusal || !h->snap || !c || !c->available || !h->snap->samples || !c->counted) {
		const char *why = h->refusal ? "refused" : !h->snap || !h->snap->samples ? "..." :
				  !c ? "-" : !c->available ? "n/a" : "not counted";

		cell_text(v, y, x, why, cursor ? 0 : c && !c->available ? CRT_ERROR : CRT_DIM);
		return;
	}
	fmt_value(c, c->value, buf, sizeof(buf));
	if (!cursor) /* multiplexed: scaled */
		wattrset(v->win, crt_attr(!isnan(c->share) && c->share < 0.995 ? CRT_HEADER_WARN :
					  CRT_HEADER_VALUE));
	if (x + VALUE_W <= v->w)
		put_right(v->win, y, x, VALUE_W, buf);
	if (!cursor)
		wattrset(v->win, A_NORMAL);
	fmt_rate(c, c->rate, buf, sizeof(buf));
	if (x + HOST_W <= v->w)
		put_right(v->win, y, x + VALUE_W + 1, RATE_W, buf);
}

/* The hosts' ratios, a column each. */
static void draw_host_ratios(struct kt_view *v, int y, int h, unsigned first, int shown)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host hh;
	char buf[96];
	int i, j, x;

	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 0, "Derived", v->w);
	for (i = 0; i < KT_PMU_NRATIOS && i < h - 1; i++, y++) {
		for (j = 0; j < shown; j++) {
			const struct kt_pmu_snap_ratio *r;

			pv->c->ops->host(pv->c, first + (unsigned)j, &hh);
			x = NAME_W + 1 + j * (HOST_W + 1);
			if (!hh.snap)
				continue;
			r = &hh.snap->ratios[i];
			if (!j) {
				wattrset(v->win, crt_attr(CRT_EVENT));
				crt_put(v->win, y, 0, r->name, NAME_W < v->w ? NAME_W : v->w);
			}
			if (isnan(r->value)) {
				cell_text(v, y, x, "n/a", CRT_ERROR);
				continue;
			}
			snprintf(buf, sizeof(buf), isnan(r->rate_value) ? "-" : "%.2f%s",
				 r->rate_value, r->unit);
			wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
			if (x + VALUE_W <= v->w)
				put_right(v->win, y, x, VALUE_W, buf);
			snprintf(buf, sizeof(buf), "all %.2f%s", r->value, r->unit);
			wattrset(v->win, crt_attr(CRT_DIM));
			if (x + HOST_W <= v->w)
				put_right(v->win, y, x + VALUE_W + 1, RATE_W, buf);
		}
	}
	wattrset(v->win, A_NORMAL);
}

/* The selected counter on each host, from the first host on screen: its figures, or why
 * it has none, whole. */
static void draw_host_detail(struct kt_view *v, int y, int h, const struct pmu_row *row,
			     unsigned first)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host hh;
	unsigned n = pv->c->ops->nhosts(pv->c), i;
	char buf[400], val[32], rate[32];
	int x;

	if (h < 2)
		return;
	snprintf(buf, sizeof(buf), "%s per host", row->name);
	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 0, buf, v->w);
	for (i = first; i < n && (int)(i - first) < h - 1; i++, y++) {
		const struct kt_pmu_snap_counter *c;

		pv->c->ops->host(pv->c, i, &hh);
		c = find_counter(hh.snap, row);
		wattrset(v->win, crt_attr(CRT_CPU));
		crt_put(v->win, y, 0, hh.label, DETAIL_LABEL_W);
		x = DETAIL_LABEL_W + 1;
		if (x >= v->w)
			continue;
		wattrset(v->win, crt_attr(CRT_DIM));
		if (hh.refusal)
			snprintf(buf, sizeof(buf), "refused: %s", hh.refusal);
		else if (!hh.snap || !hh.snap->samples)
			snprintf(buf, sizeof(buf), "... first reading at the next tick");
		else if (!c)
			snprintf(buf, sizeof(buf), "not in its set");
		else if (!c->available)
			snprintf(buf, sizeof(buf), "n/a %s", c->reason);
		else if (!c->counted)
			snprintf(buf, sizeof(buf), "<not counted> multiplexed out: never ran yet");
		else {
			fmt_value(c, c->value, val, sizeof(val));
			fmt_rate(c, c->rate, rate, sizeof(rate));
			snprintf(buf, sizeof(buf), "%*s %*s  ran %.0f%%", VALUE_W, val, RATE_W, rate,
				 isnan(c->share) ? 100.0 : c->share * 100);
			wattrset(v->win, crt_attr(CRT_HEADER_VALUE));
		}
		crt_put(v->win, y, x, buf, v->w - x);
	}
	wattrset(v->win, A_NORMAL);
}

static void draw_hosts(struct kt_view *v, unsigned n)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host hh, h0;
	int fit = hosts_fit(v), shown, more, refused = 0, i, j, x, y;
	char title[160], right[96];
	struct pmu_layout l;
	unsigned first;

	if (pv->host_off > (int)n - fit)
		pv->host_off = (int)n - fit > 0 ? (int)n - fit : 0;
	first = (unsigned)pv->host_off;
	shown = (int)(n - first) < fit ? (int)(n - first) : fit;
	more = (int)n - shown;
	pv->c->ops->host(pv->c, 0, &h0);
	if (more)
		snprintf(title, sizeof(title), "Counters: %u hosts, +%d host%s (< >)", n, more,
			 more == 1 ? "" : "s");
	else
		snprintf(title, sizeof(title), "Counters: %u hosts", n);
	view_draw_title(v, title, title_right(v, h0.snap, right, sizeof(right)));
	if (v->h - 2 <= 0)
		return;

	/* Column heads: each host's label over its column. */
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, 1, 0, "counter", NAME_W < v->w ? NAME_W : v->w);
	for (j = 0; j < shown; j++) {
		pv->c->ops->host(pv->c, first + (unsigned)j, &hh);
		cell_text(v, 1, NAME_W + 1 + j * (HOST_W + 1), hh.label,
			  hh.refusal ? CRT_ERROR : CRT_CPU);
	}
	wattrset(v->win, A_NORMAL);
	for (unsigned k = 0; k < n; k++) {
		pv->c->ops->host(pv->c, k, &hh);
		refused += hh.refusal != NULL;
	}

	place(v, refused, 0, &l);
	y = 2;
	for (i = 0; i < l.list_h && pv->top + i < pv->nrows; i++) {
		bool cursor = pv->top + i == pv->sel;

		if (cursor) {
			wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
			crt_fill(v->win, y + i, 0, v->w);
		} else {
			wattrset(v->win, crt_attr(CRT_EVENT));
		}
		crt_put(v->win, y + i, 0, pv->rows[pv->top + i].name, NAME_W < v->w ? NAME_W : v->w);
		if (!cursor)
			wattrset(v->win, A_NORMAL);
		for (j = 0; j < shown; j++) {
			pv->c->ops->host(pv->c, first + (unsigned)j, &hh);
			x = NAME_W + 1 + j * (HOST_W + 1);
			draw_cell(v, y + i, x, &hh, &pv->rows[pv->top + i], cursor);
		}
		wattrset(v->win, A_NORMAL);
	}
	y += l.list_h;
	/* A host whose agent refused them: its one line. */
	for (unsigned k = 0, done = 0; k < n && (int)done < l.extra_h; k++) {
		char line[512];

		pv->c->ops->host(pv->c, k, &hh);
		if (!hh.refusal)
			continue;
		snprintf(line, sizeof(line), "%s: %s", hh.label, hh.refusal);
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put(v->win, y++, 0, line, v->w);
		done++;
	}
	wattrset(v->win, A_NORMAL);
	if (l.der_h) {
		draw_host_ratios(v, y, l.der_h, first, shown);
		y += l.der_h + 1;
	}
	if (pv->nrows && l.det_h >= 2)
		draw_host_detail(v, y, l.det_h, &pv->rows[pv->sel], first);
}

static void pmu_view_draw(struct kt_view *v)
{
	struct pmu_view *pv = PV(v);
	struct kt_countersrc_host h;
	unsigned n;

	if (!pv->c) {
		view_draw_title(v, "Counters", NULL);
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put(v->win, 2, 1, pv->err[0] ? pv->err : "counters closed", v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	n = pv->c->ops->nhosts(pv->c);
	if (n > 1) {
		draw_hosts(v, n);
		return;
	}
	pv->c->ops->host(pv->c, 0, &h);
	draw_one(v, h.snap);
}

static int pmu_view_key(struct kt_view *v, int key)
{
	struct pmu_view *pv = PV(v);
	int page = pv->list_h > 1 ? pv->list_h - 1 : 1;

	switch (key) {
	case KEY_UP:
		pv->sel--;
		break;
	case KEY_DOWN:
		pv->sel++;
		break;
	case KEY_PPAGE:
		pv->sel -= page;
		break;
	case KEY_NPAGE:
		pv->sel += page;
		break;
	case KEY_HOME:
		pv->sel = 0;
		break;
	case KEY_END:
		pv->sel = pv->nrows - 1;
		break;
	case '<': /* several hosts: their columns; one: the detail's slots */
		if (pv->c && pv->c->ops->nhosts(pv->c) > 1)
			pv->host_off--;
		else
			pv->det_off--;
		break;
	case '>':
		if (pv->c && pv->c->ops->nhosts(pv->c) > 1)
			pv->host_off++;
		else
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
	if (pv->host_off < 0)
		pv->host_off = 0;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void pmu_view_tick(struct kt_view *v)
{
	/* app_tick() read the counters just before (an agent sent its figures meanwhile); a
	 * paused display keeps its figures. */
	take(v);
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

static const struct kt_keyhelp pmu_keys[] = {
	{ "< >", "more CPUs / threads; hosts side by side" },
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_pmu_ops = {
	.name = "counters",
	.title = "Counters (m)",
	.keys = pmu_keys,
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
