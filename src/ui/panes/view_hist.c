// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The histogram pane: one BPF histogram, aggregated in the kernel, here or on an agent's
 * (src/source/histsrc.h), refreshed on the UI tick. Three ways to look at it:
 *
 *   bars     the buckets of all keys together, or of the selected key, as bars
 *   keys     one row per key with count, average, p50, p99 and max, sorted by count or p99
 *   heatmap  one row per tick, newest at the bottom, one column per bucket, shaded and
 *            coloured by how many values the bucket got in that tick
 *
 * Counts are per tick (interval) or since the start (total). Z freezes this pane; the
 * global pause freezes them all. Over several agents the hosts stand side by side: bars and
 * keys get a column per host (< > move along them when they do not all fit), each key on
 * one line across the hosts (histhosts.h); the heatmap shows them summed. Enter (or H)
 * opens a prompt to build another histogram; a spec the kernel refuses leaves the current
 * one running and says why in one line.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/bpf/histdata.h"
#include "app/histhosts.h"
#include "source/histsrc.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define PROMPT_SPEC 1
#define HEAT_ROWS 256 /* ticks of heatmap history */
#define LABEL_W 7
#define COUNT_W 8

enum hist_mode { MODE_BARS, MODE_KEYS, MODE_HEAT, MODE_COUNT };

struct hist_view {
	struct kt_histsrc *h; /* histsrc_close */
	char err[512];	      /* why the last spec was refused, until the next key */
	char hint[256];	      /* Tab's matching built-ins while the prompt is open */
	enum hist_mode mode;
	bool cumulative;
	bool frozen;  /* F: this pane only */
	bool paused;  /* the global pause */
	bool sort_p99;
	/* what is drawn: a copy of the last read, kept while frozen */
	struct kt_hist_row *rows;
	size_t nrows;
	struct kt_hist_row total;
	int sel;	   /* selected key row; -1: all keys together */
	bool has_selkey;
	struct kt_hist_key selkey; /* follows the key across re-sorts */
	unsigned int selhost;	   /* and its host (several remote hosts) */
	int top;
	int list_h;
	int bucket_off; /* bars: the first non-empty bucket's row is this far above the top */
	/* several hosts side by side: the keys grouped across hosts (sel indexes them then),
	 * each host's total, the selected key summed over the hosts (the heatmap's) */
	unsigned int nhosts; /* 1: one machine */
	struct kt_hist_group *groups;
	size_t ngroups;
	struct kt_hist_row host_total[KT_HIST_HOSTS];
	struct kt_hist_row sel_sum;
	unsigned int host_first; /* the first host column shown (< >) */
	/* heatmap: interval buckets of the shown key set, one row per tick */
	unsigned long long (*heat)[KT_HIST_SLOTS];
	int heat_n, heat_head;
};

static struct hist_view *HV(struct kt_view *v)
{
	return v->data;
}

static const struct kt_hist_val *val_of(const struct hist_view *hv, const struct kt_hist_row *r)
{
	return hv->cumulative ? &r->cum : &r->iv;
}

static bool side_by_side(const struct hist_view *hv)
{
	return hv->nhosts > 1;
}

/* The rows the list selects among: keys, or with several hosts keys across them. */
static size_t list_len(const struct hist_view *hv)
{
	return side_by_side(hv) ? hv->ngroups : hv->nrows;
}

/* The values the bars, the stats line and the heatmap describe: a key, or all of them
 * (with several hosts: summed over the hosts). */
static const struct kt_hist_row *shown_row(const struct hist_view *hv)
{
	if (hv->sel < 0 || (size_t)hv->sel >= list_len(hv))
		return &hv->total;
	return side_by_side(hv) ? &hv->sel_sum : &hv->rows[hv->sel];
}

/* Several hosts: host's values of the selected key (NULL when it has none), or its total. */
static const struct kt_hist_val *host_val(const struct hist_view *hv, unsigned int host)
{
	int row;

	if (hv->sel < 0 || (size_t)hv->sel >= hv->ngroups)
		return val_of(hv, &hv->host_total[host]);
	row = hv->groups[hv->sel].row[host];
	return row >= 0 ? val_of(hv, &hv->rows[row]) : NULL;
}

static const struct kt_hist_spec *spec_of(const struct hist_view *hv)
{
	return &hv->h->spec;
}

static int sort_count_iv(const void *a, const void *b)
{
	const struct kt_hist_row *x = a, *y = b;

	return x->iv.count == y->iv.count ? 0 : x->iv.count > y->iv.count ? -1 : 1;
}

static int sort_count_cum(const void *a, const void *b)
{
	const struct kt_hist_row *x = a, *y = b;

	return x->cum.count == y->cum.count ? 0 : x->cum.count > y->cum.count ? -1 : 1;
}

/* p99 sorting needs the spec; qsort has no context argument, and the UI is one thread. */
static const struct kt_hist_spec *sort_spec;
static bool sort_cum;

static int sort_p99(const void *a, const void *b)
{
	const struct kt_hist_row *x = a, *y = b;
	unsigned long long px = hist_percentile(sort_spec, sort_cum ? &x->cum : &x->iv, 0.99);
	unsigned long long py = hist_percentile(sort_spec, sort_cum ? &y->cum : &y->iv, 0.99);

	return px == py ? 0 : px > py ? -1 : 1;
}

/* Several hosts: a key's figure to sort by, over every host (the most p99, the counts'
 * sum). */
static unsigned long long group_rank(const struct hist_view *hv, const struct kt_hist_group *g)
{
	unsigned long long v = 0, p;

	for (unsigned int h = 0; h < hv->nhosts; h++) {
		const struct kt_hist_val *val;

		if (g->row[h] < 0)
			continue;
		val = val_of(hv, &hv->rows[g->row[h]]);
		if (!hv->sort_p99) {
			v += val->count;
		} else if ((p = hist_percentile(spec_of(hv), val, 0.99)) > v) {
			v = p;
		}
	}
	return v;
}

struct ranked {
	unsigned long long rank;
	struct kt_hist_group g;
};

static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->rank == y->rank ? 0 : x->rank > y->rank ? -1 : 1;
}

static void sort_groups(struct hist_view *hv)
{
	struct ranked *r;
	size_t i;

	if (!hv->ngroups)
		return;
	r = xcalloc(hv->ngroups, sizeof(*r));
	for (i = 0; i < hv->ngroups; i++)
		r[i] = (struct ranked){ group_rank(hv, &hv->groups[i]), hv->groups[i] };
	/* stable enough: equal ranks keep no promised order, as the one-host list */
	qsort(r, hv->ngroups, sizeof(*r), by_rank);
	for (i = 0; i < hv->ngroups; i++)
		hv->groups[i] = r[i].g;
	free(r);
	if (!hv->has_selkey)
		return;
	hv->sel = -1;
	for (i = 0; i < hv->ngroups; i++)
		if (!memcmp(&hv->groups[i].key, &hv->selkey, sizeof(hv->selkey)))
			hv->sel = (int)i;
	if (hv->sel >= 0)
		hist_group_sum(&hv->groups[hv->sel], hv->rows, hv->nhosts, &hv->sel_sum);
}

static void sort_rows(struct hist_view *hv)
{
	size_t i;

	if (side_by_side(hv)) {
		sort_groups(hv);
		return;
	}
	if (!hv->nrows || !hv->h)
		return;
	sort_spec = spec_of(hv);
	sort_cum = hv->cumulative;
	qsort(hv->rows, hv->nrows, sizeof(*hv->rows),
	      hv->sort_p99 ? sort_p99 : hv->cumulative ? sort_count_cum : sort_count_iv);
	if (!hv->has_selkey)
		return;
	hv->sel = -1;
	for (i = 0; i < hv->nrows; i++)
		if (!memcmp(&hv->rows[i].key, &hv->selkey, sizeof(hv->selkey)) &&
		    hv->rows[i].host == hv->selhost)
			hv->sel = (int)i;
}

static void heat_push(struct hist_view *hv)
{
	const struct kt_hist_row *r = shown_row(hv);

	hv->heat_head = (hv->heat_head + 1) % HEAT_ROWS;
	memcpy(hv->heat[hv->heat_head], r->iv.slots, sizeof(hv->heat[0]));
	if (hv->heat_n < HEAT_ROWS)
		hv->heat_n++;
}

/* Copies what the last update left (app_tick's read of the map, or the agent's last
 * rows), unless frozen. */
static void snapshot(struct kt_view *v)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_row *rows;

	if (!hv->h || hv->frozen || hv->paused)
		return;
	hv->nrows = hv->h->ops->rows(hv->h, &rows);
	free(hv->rows);
	hv->rows = hv->nrows ? xcalloc(hv->nrows, sizeof(*hv->rows)) : NULL;
	if (hv->nrows)
		memcpy(hv->rows, rows, hv->nrows * sizeof(*hv->rows));
	hv->total = *hv->h->ops->total(hv->h);
	hv->nhosts = hv->h->ops->hosts ? hv->h->ops->hosts(hv->h) : 1;
	if (hv->nhosts > KT_HIST_HOSTS)
		hv->nhosts = KT_HIST_HOSTS;
	free(hv->groups);
	hv->groups = NULL;
	hv->ngroups = 0;
	if (side_by_side(hv)) {
		hv->ngroups = hist_groups(hv->rows, hv->nrows, hv->nhosts, &hv->groups);
		hist_host_totals(hv->rows, hv->nrows, hv->nhosts, hv->host_total);
	}
	sort_rows(hv);
}

static void reset(struct hist_view *hv)
{
	free(hv->rows);
	hv->rows = NULL;
	hv->nrows = 0;
	free(hv->groups);
	hv->groups = NULL;
	hv->ngroups = 0;
	hv->host_first = 0;
	memset(&hv->total, 0, sizeof(hv->total));
	hv->sel = -1;
	hv->has_selkey = false;
	hv->top = 0;
	hv->bucket_off = 0;
	hv->heat_n = 0;
}

static void hist_view_init(struct kt_view *v)
{
	struct hist_view *hv = xcalloc(1, sizeof(*hv));

	v->data = hv;
	hv->heat = xcalloc(HEAT_ROWS, sizeof(*hv->heat));
	hv->sel = -1;
	hv->paused = ui_paused(v->ui);
}

static void hist_view_free(struct kt_view *v)
{
	struct hist_view *hv = HV(v);

	histsrc_close(hv->h);
	free(hv->rows);
	free(hv->groups);
	free(hv->heat);
	free(hv);
}

static void hist_view_resize(struct kt_view *v)
{
	v->dirty = true;
}

/* A histogram of stored events counts the range's alone (its range op); one counted in
 * the kernel cannot, and its title says so. */
static void follow_range(struct kt_view *v)
{
	struct hist_view *hv = HV(v);
	const struct kt_range *r = ui_range(v->ui);

	if (!hv->h || !hv->h->ops->range)
		return;
	hv->h->ops->range(hv->h, r->on, r->from, r->to);
	reset(hv);
	if (!hv->frozen && !hv->paused)
		hv->h->ops->update(hv->h);
	snapshot(v);
}

static void adopt(struct kt_view *v, struct kt_histsrc *h)
{
	struct hist_view *hv = HV(v);

	histsrc_close(hv->h);
	hv->h = h;
	hv->err[0] = '\0';
	reset(hv);
	follow_range(v);
	snapshot(v);
	v->dirty = true;
}

/* The prompt for a spec (Enter, H, and the pane's opening by its key). */
static void hist_edit(struct kt_view *v)
{
	struct hist_view *hv = HV(v);

	ui_prompt_open(v->ui, v, PROMPT_SPEC, "histogram> ",
		       hv->h ? spec_of(hv)->text : "syscall-latency");
}

void view_hist_build(struct kt_view *v, const char *text)
{
	struct hist_view *hv = HV(v);
	struct kt_histsrc *h;
	char err[512];

	h = source_hist_open(v->app->source, text, err, sizeof(err));
	if (!h) {
		/* the histogram on screen keeps running; the reason stays in the pane too */
		snprintf(hv->err, sizeof(hv->err), "%s", err);
		ui_message(v->ui, true, "%s", err);
		v->dirty = true;
		return;
	}
	adopt(v, h);
	ui_message(v->ui, false, "histogram %s via %s", text, h->ops->variant(h));
}

static void hist_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	struct hist_view *hv = HV(v);
	char list[sizeof(hv->hint)];
	const char *const *names;
	size_t n;

	if (id != PROMPT_SPEC)
		return;
	hv->hint[0] = '\0';
	v->dirty = true;
	if (ev == KT_PROMPT_ACCEPT) {
		view_hist_build(v, text);
	} else if (ev == KT_PROMPT_COMPLETE) {
		/* Tab: the built-ins; several matching are listed in the pane */
		names = histspec_builtins(&n);
		/* into a copy: the text growing calls back here (KT_PROMPT_CHANGED) */
		list[0] = '\0';
		if (ui_prompt_complete(v->ui, names, n, "-:", list, sizeof(list)) > 1)
			snprintf(hv->hint, sizeof(hv->hint), "%s", list);
	}
}

/* Attribute and glyph for a heat level 0..4. */
static void heat_cell(int level, attr_t *attr, const char **glyph)
{
	static const char *const utf8[] = { " ", "\u2591", "\u2592", "\u2593", "\u2588" };
	static const char *const ascii[] = { " ", ".", ":", "*", "#" };
	static const enum crt_elem colour[] = { CRT_NORMAL, CRT_DIM, CRT_TIME, CRT_TASK, CRT_ERROR };

	*glyph = crt_is_utf8() ? utf8[level] : ascii[level];
	*attr = crt_attr(colour[level]) | (level == 4 ? A_BOLD : 0);
}

/* A row's key as hist_key_label names it, after its host's label with several hosts. */
static void row_label(const struct hist_view *hv, const struct kt_hist_row *r, char *buf,
		      size_t len)
{
	const char *host = hv->h->ops->host_label ? hv->h->ops->host_label(hv->h, r->host) :
						     NULL;
	char key[48];

	hist_key_label(spec_of(hv), &r->key, key, sizeof(key));
	snprintf(buf, len, "%s%s%s", host ? host : "", host ? " " : "", key);
}

/* Several hosts: the host columns of colw that fit in w, from host_first (kept in range). */
static unsigned int hosts_shown(struct hist_view *hv, int w, int colw)
{
	unsigned int fit = colw > 0 && w >= colw ? (unsigned int)(w / colw) : 1;

	if (fit > hv->nhosts)
		fit = hv->nhosts;
	if (hv->host_first + fit > hv->nhosts)
		hv->host_first = hv->nhosts - fit;
	return fit;
}

static const char *host_name(const struct hist_view *hv, unsigned int host)
{
	const char *l = hv->h->ops->host_label ? hv->h->ops->host_label(hv->h, host) : NULL;

	return l ? l : "?";
}

/* "n=... avg=... p50=... p90=... p99=... max=..." of val, into buf. */
static void stats_text(const struct hist_view *hv, const struct kt_hist_val *val, bool brief,
		       char *buf, size_t len)
{
	const struct kt_hist_spec *s = spec_of(hv);
	char avg[16], p50[16], p90[16], p99[16], max[16];

	hist_format_value(s, val->count ? val->sum / val->count : 0, avg, sizeof(avg));
	hist_format_value(s, hist_percentile(s, val, 0.5), p50, sizeof(p50));
	hist_format_value(s, hist_percentile(s, val, 0.9), p90, sizeof(p90));
	hist_format_value(s, hist_percentile(s, val, 0.99), p99, sizeof(p99));
	hist_format_value(s, val->max, max, sizeof(max));
	if (brief)
		snprintf(buf, len, "n=%llu p50=%s p99=%s", val->count, p50, p99);
	else
		snprintf(buf, len, "n=%llu avg=%s p50=%s p90=%s p99=%s max=%s", val->count, avg,
			 p50, p90, p99, max);
}

static void draw_stats(struct kt_view *v, int y)
{
	struct hist_view *hv = HV(v);
	char key[64], figures[160], line[640];
	size_t at;

	if (hv->sel >= 0 && side_by_side(hv))
		hist_key_label(spec_of(hv), &hv->sel_sum.key, key, sizeof(key));
	else if (hv->sel >= 0)
		row_label(hv, shown_row(hv), key, sizeof(key));
	else
		snprintf(key, sizeof(key), "all %zu keys", list_len(hv));
	if (!side_by_side(hv)) {
		stats_text(hv, val_of(hv, shown_row(hv)), false, figures, sizeof(figures));
		/* which count this is, first: it changes every tick or only grows */
		snprintf(line, sizeof(line), "%s | %s: %s", hv->cumulative ? "since start" :
			 "last tick", key, figures);
		crt_put(v->win, y, 0, line, v->w);
		return;
	}
	/* each host's, from the first column shown, as far as the line goes */
	at = (size_t)snprintf(line, sizeof(line), "%s:", key);
	for (unsigned int h = hv->host_first; h < hv->nhosts && at < sizeof(line); h++) {
		const struct kt_hist_val *val = host_val(hv, h);

		if (val)
			stats_text(hv, val, true, figures, sizeof(figures));
		else
			snprintf(figures, sizeof(figures), "none");
		at += (size_t)snprintf(line + at, sizeof(line) - at, "  %s %s", host_name(hv, h),
				       figures);
	}
	crt_put(v->win, y, 0, line, v->w);
}

/* Bucket label: its lower bound, short ("16us", "4K"). */
static void bucket_label(const struct kt_hist_spec *s, unsigned int slot, char *buf, size_t len)
{
	unsigned long long lo, hi;

	hist_bounds(s, slot, &lo, &hi);
	hist_format_value(s, lo, buf, len);
}

/* Several hosts: a column a host (its label above), each with its counts and bars of one
 * scale, the bucket labels once at the left. */
static void draw_bars_hosts(struct kt_view *v, int y, int h)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_val *val[KT_HIST_HOSTS];
	unsigned int fit = hosts_shown(hv, v->w - LABEL_W - 1, COUNT_W + 9), k;
	int colw = (v->w - LABEL_W - 1) / (int)fit, barw = colw - COUNT_W - 2;
	int first = -1, last = -1, i, row, n, x;
	unsigned long long most = 0, lo_sum, hi_sum;
	char label[16], count[24];

	for (k = 0; k < fit; k++)
		val[k] = host_val(hv, hv->host_first + k);
	for (i = 0; i < KT_HIST_SLOTS; i++)
		for (k = 0; k < fit; k++) {
			if (!val[k] || !val[k]->slots[i])
				continue;
			first = first < 0 ? i : first;
			last = i;
			most = val[k]->slots[i] > most ? val[k]->slots[i] : most;
		}
	wattrset(v->win, crt_attr(CRT_DIM));
	for (k = 0; k < fit; k++)
		crt_put(v->win, y, LABEL_W + 1 + (int)k * colw, host_name(hv, hv->host_first + k),
			colw - 1);
	if (fit < hv->nhosts)
		crt_put(v->win, y, 0, "< >", LABEL_W);
	if (first < 0)
		crt_put(v->win, y + 1, 1,
			hv->cumulative ? "no values yet" : "no values in the last tick", v->w - 1);
	wattrset(v->win, A_NORMAL);
	if (first < 0)
		return;
	y++;
	h--;
	while (last - first + 1 > h) {
		for (k = 0, lo_sum = hi_sum = 0; k < fit; k++)
			if (val[k]) {
				lo_sum += val[k]->slots[first];
				hi_sum += val[k]->slots[last];
			}
		if (lo_sum <= hi_sum)
			first++;
		else
			last--;
	}
	for (row = 0, i = first; i <= last && row < h; i++, row++) {
		bucket_label(spec_of(hv), (unsigned int)i, label, sizeof(label));
		mvwprintw(v->win, y + row, 0, "%*.*s ", LABEL_W, LABEL_W, label);
		for (k = 0; k < fit; k++) {
			unsigned long long c = val[k] ? val[k]->slots[i] : 0;

			x = LABEL_W + 1 + (int)k * colw;
			snprintf(count, sizeof(count), "%llu", c);
			mvwprintw(v->win, y + row, x, "%*.*s ", COUNT_W, COUNT_W, count);
			if (barw <= 0 || !c)
				continue;
			n = (int)((c * (unsigned long long)barw + most - 1) / most);
			wattrset(v->win, crt_attr(CRT_TASK));
			wmove(v->win, y + row, x + COUNT_W + 1);
			while (n-- > 0)
				waddstr(v->win, crt_is_utf8() ? "\u2588" : "#");
			wattrset(v->win, A_NORMAL);
		}
	}
}

static void draw_bars(struct kt_view *v, int y, int h)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_spec *s = spec_of(hv);
	const struct kt_hist_val *val = val_of(hv, shown_row(hv));
	int first = -1, last = -1, i, row, barw = v->w - LABEL_W - COUNT_W - 3, n;
	unsigned long long most = 0;
	char label[16], count[24];

	if (side_by_side(hv)) {
		draw_bars_hosts(v, y, h);
		return;
	}
	hv->list_h = h; /* a page of buckets */
	for (i = 0; i < KT_HIST_SLOTS; i++) {
		if (!val->slots[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (val->slots[i] > most)
			most = val->slots[i];
	}
	if (first < 0) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 1, hv->cumulative ? "no values yet" : "no values in the last tick",
			v->w - 1);
		wattrset(v->win, A_NORMAL);
		return;
	}
	/* more buckets than rows: PgUp and PgDn scroll them, the last row says what is out */
	if (last - first + 1 > h && h > 1) {
		h--;
		if (hv->bucket_off > last - first + 1 - h)
			hv->bucket_off = last - first + 1 - h;
		snprintf(count, sizeof(count), "%d", last - first + 1);
		wattrset(v->win, crt_attr(CRT_DIM));
		mvwprintw(v->win, y + h, 0, " buckets %d-%d of %s (PgUp PgDn)", hv->bucket_off + 1,
			  hv->bucket_off + h, count);
		wattrset(v->win, A_NORMAL);
		first += hv->bucket_off;
	}
	for (row = 0, i = first; i <= last && row < h; i++, row++) {
		bucket_label(s, (unsigned int)i, label, sizeof(label));
		mvwprintw(v->win, y + row, 0, "%*.*s ", LABEL_W, LABEL_W, label);
		snprintf(count, sizeof(count), "%llu", val->slots[i]);
		mvwprintw(v->win, y + row, LABEL_W + 1, "%*.*s ", COUNT_W, COUNT_W, count);
		if (barw <= 0)
			continue;
		n = (int)((val->slots[i] * (unsigned long long)barw + most - 1) / most);
		wattrset(v->win, crt_attr(CRT_TASK));
		wmove(v->win, y + row, LABEL_W + COUNT_W + 2);
		while (n-- > 0)
			waddstr(v->win, crt_is_utf8() ? "\u2588" : "#");
		wattrset(v->win, A_NORMAL);
	}
}

/* The key list's h rows from top, moved so the selected one is among them. */
static void scroll_to_sel(struct hist_view *hv, int h)
{
	hv->list_h = h;
	if (hv->sel >= 0 && hv->sel < hv->top)
		hv->top = hv->sel;
	if (h > 0 && hv->sel >= hv->top + h)
		hv->top = hv->sel - h + 1;
}

/* Several hosts: a line a key, each host's count and p99 in its own column under its
 * label; a host without the key shows "-". */
static void draw_keys_hosts(struct kt_view *v, int y, int h)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_spec *s = spec_of(hv);
	const int colw = COUNT_W + 1 + 6 + 2;
	unsigned int fit = hosts_shown(hv, v->w - 12, colw), k;
	int keyw = v->w - (int)fit * colw, i, x;
	char key[64], p99[16], cell[64];

	if (keyw < 6)
		keyw = 6;
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, y, 0, fit < hv->nhosts ? "< > hosts" : "", keyw);
	snprintf(cell, sizeof(cell), "%s by %s",
		 histspec_by_name(s)[0] ? histspec_by_name(s) : "key",
		 hv->sort_p99 ? "p99" : "count");
	crt_put(v->win, y + 1, 0, cell, keyw);
	for (k = 0; k < fit; k++) {
		x = keyw + (int)k * colw;
		snprintf(cell, sizeof(cell), "%*.*s", colw - 2, colw - 2,
			 host_name(hv, hv->host_first + k));
		crt_put(v->win, y, x, cell, colw);
		snprintf(cell, sizeof(cell), "%*s %6s", COUNT_W, hv->sort_p99 ? "count" : "*count",
			 hv->sort_p99 ? "*p99" : "p99");
		crt_put(v->win, y + 1, x, cell, colw);
	}
	wattrset(v->win, A_NORMAL);
	y += 2;
	h -= 2;
	scroll_to_sel(hv, h);
	for (i = 0; i < h && (size_t)(hv->top + i) < hv->ngroups; i++) {
		const struct kt_hist_group *g = &hv->groups[hv->top + i];

		if (hv->top + i == hv->sel)
			wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
		hist_key_label(s, &g->key, key, sizeof(key));
		crt_put_pad(v->win, y + i, 0, key, v->w);
		for (k = 0; k < fit; k++) {
			int row = g->row[hv->host_first + k];
			const struct kt_hist_val *val = row >= 0 ? val_of(hv, &hv->rows[row]) : NULL;

			if (val) {
				hist_format_value(s, hist_percentile(s, val, 0.99), p99, sizeof(p99));
				snprintf(cell, sizeof(cell), "%*llu %6s", COUNT_W, val->count, p99);
			} else {
				snprintf(cell, sizeof(cell), "%*s %6s", COUNT_W, "-", "-");
			}
			crt_put(v->win, y + i, keyw + (int)k * colw, cell, colw);
		}
		wattrset(v->win, A_NORMAL);
	}
}

static void draw_keys(struct kt_view *v, int y, int h)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_spec *s = spec_of(hv);
	char key[64], avg[16], p50[16], p99[16], max[16], line[256];
	int i, keyw = v->w - 4 * 7 - COUNT_W - 2;

	if (side_by_side(hv)) {
		draw_keys_hosts(v, y, h);
		return;
	}
	if (keyw < 6)
		keyw = 6;
	/* the sort column is marked with a star */
	wattrset(v->win, crt_attr(CRT_DIM));
	snprintf(line, sizeof(line), "%-*.*s %*s %6s %6s %6s %6s", keyw, keyw,
		 histspec_by_name(s)[0] ? histspec_by_name(s) : "key", COUNT_W,
		 hv->sort_p99 ? "count" : "*count", "avg", "p50", hv->sort_p99 ? "*p99" : "p99",
		 "max");
	crt_put(v->win, y, 0, line, v->w);
	wattrset(v->win, A_NORMAL);
	y++;
	h--;
	scroll_to_sel(hv, h);
	for (i = 0; i < h && (size_t)(hv->top + i) < hv->nrows; i++) {
		const struct kt_hist_row *r = &hv->rows[hv->top + i];
		const struct kt_hist_val *val = val_of(hv, r);

		row_label(hv, r, key, sizeof(key));
		hist_format_value(s, val->count ? val->sum / val->count : 0, avg, sizeof(avg));
		hist_format_value(s, hist_percentile(s, val, 0.5), p50, sizeof(p50));
		hist_format_value(s, hist_percentile(s, val, 0.99), p99, sizeof(p99));
		hist_format_value(s, val->max, max, sizeof(max));
		snprintf(line, sizeof(line), "%-*.*s %*llu %6s %6s %6s %6s", keyw, keyw, key,
			 COUNT_W, val->count, avg, p50, p99, max);
		if (hv->top + i == hv->sel)
			wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
		crt_put_pad(v->win, y + i, 0, line, v->w);
		wattrset(v->win, A_NORMAL);
	}
}

static void draw_heat(struct kt_view *v, int y, int h)
{
	struct hist_view *hv = HV(v);
	const struct kt_hist_spec *s = spec_of(hv);
	int first = KT_HIST_SLOTS, last = -1, rows = h - 1, r, i, cw, idx, level, x;
	unsigned long long most = 0, c;
	const char *glyph;
	char label[16];
	attr_t attr;

	if (rows > hv->heat_n)
		rows = hv->heat_n;
	for (r = 0; r < rows; r++) {
		idx = (hv->heat_head - r + HEAT_ROWS) % HEAT_ROWS;
		for (i = 0; i < KT_HIST_SLOTS; i++) {
			if (!hv->heat[idx][i])
				continue;
			first = i < first ? i : first;
			last = i > last ? i : last;
			most = hv->heat[idx][i] > most ? hv->heat[idx][i] : most;
		}
	}
	if (last < 0) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 1, "no values yet: one row per tick", v->w - 1);
		wattrset(v->win, A_NORMAL);
		return;
	}
	cw = (v->w - 1) / (last - first + 1);
	if (cw > 6)
		cw = 6;
	if (cw < 1) {
		cw = 1;
		last = first + v->w - 2;
	}
	/* newest tick at the bottom, just above the bucket axis */
	for (r = 0; r < rows; r++) {
		idx = (hv->heat_head - r + HEAT_ROWS) % HEAT_ROWS;
		for (i = first; i <= last; i++) {
			c = hv->heat[idx][i];
			level = c ? 1 + (int)((c * 3 + most - 1) / most) : 0;
			level = level > 4 ? 4 : level;
			heat_cell(level, &attr, &glyph);
			wattrset(v->win, attr);
			for (x = 0; x < cw; x++)
				mvwaddstr(v->win, y + rows - 1 - r, 1 + (i - first) * cw + x, glyph);
		}
	}
	wattrset(v->win, crt_attr(CRT_DIM));
	for (i = first, x = 1; i <= last; i++, x += cw) {
		bucket_label(s, (unsigned int)i, label, sizeof(label));
		/* a label every few columns, where it fits */
		if ((int)strlen(label) < v->w - x && (i - first) % (cw >= 6 ? 1 : 6 / cw + 1) == 0)
			crt_put(v->win, y + rows, x, label, v->w - x);
	}
	wattrset(v->win, A_NORMAL);
}

static void hist_view_draw(struct kt_view *v)
{
	struct hist_view *hv = HV(v);
	static const char *const mode_names[] = { "bars", "keys", "heatmap" };
	char title[320], right[128];

	if (!hv->h) {
		int y = 1, len = (int)strlen(hv->err), off, w = v->w - 2 > 8 ? v->w - 2 : 8;

		view_draw_title(v, "Histogram", NULL);
		/* the whole reason, wrapped: the kernel's words are what the user needs */
		wattrset(v->win, crt_attr(CRT_ERROR));
		for (off = 0; off < len && y < v->h - 1; off += w, y++)
			mvwaddnstr(v->win, y, 1, hv->err + off, w);
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 1, "Enter: build a histogram (Tab lists the built-ins)",
			v->w - 1);
		if (y + 1 < v->h)
			crt_put(v->win, y + 1, 1, "Esc: close this pane", v->w - 1);
		len = (int)strlen(hv->hint);
		for (off = 0, y += 2; off < len && y < v->h; off += w, y++)
			mvwaddnstr(v->win, y, 1, hv->hint + off, w);
		wattrset(v->win, A_NORMAL);
		return;
	}
	if (hv->h->ops->missed(hv->h))
		snprintf(title, sizeof(title), "Hist %s [%s, %llu missed]", spec_of(hv)->text,
			 hv->h->ops->variant(hv->h), (unsigned long long)hv->h->ops->missed(hv->h));
	else
		snprintf(title, sizeof(title), "Hist %s [%s]", spec_of(hv)->text,
			 hv->h->ops->variant(hv->h));
	/* counted in the kernel as they come: no times to take a range's from */
	snprintf(right, sizeof(right), "%s%s %s%s",
		 !ui_range(v->ui)->on ? "" : hv->h->ops->range ? "in range  " :
		 ui_range_unscoped(v->ui), mode_names[hv->mode],
		 hv->mode == MODE_HEAT ? "interval" : hv->cumulative ? "total" : "interval",
		 hv->frozen ? " FROZEN" : hv->paused ? " PAUSED" : "");
	view_draw_title(v, title, right);
	if (v->h < 3)
		return;
	if (hv->err[0]) {
		/* a refused spec: said once here, the running histogram below is untouched */
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put(v->win, 1, 0, hv->err, v->w);
		wattrset(v->win, A_NORMAL);
	} else if (hv->hint[0]) {
		/* Tab's matches in place of the stats while the prompt is open */
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 1, 0, hv->hint, v->w);
		wattrset(v->win, A_NORMAL);
	} else {
		draw_stats(v, 1);
	}
	switch (hv->mode) {
	case MODE_BARS:
		draw_bars(v, 2, v->h - 2);
		break;
	case MODE_KEYS:
		draw_keys(v, 2, v->h - 2);
		break;
	default:
		draw_heat(v, 2, v->h - 2);
		break;
	}
}

static void select_row(struct hist_view *hv, int sel)
{
	if (sel >= (int)list_len(hv))
		sel = (int)list_len(hv) - 1;
	if (sel < -1)
		sel = -1;
	hv->sel = sel;
	hv->has_selkey = sel >= 0;
	if (sel >= 0 && side_by_side(hv)) {
		hv->selkey = hv->groups[sel].key;
		hist_group_sum(&hv->groups[sel], hv->rows, hv->nhosts, &hv->sel_sum);
	} else if (sel >= 0) {
		hv->selkey = hv->rows[sel].key;
		hv->selhost = hv->rows[sel].host;
	}
	/* the heatmap describes one key set: a new one starts a new history */
	hv->heat_n = 0;
}

/* b: the range's rows as the baseline, beside which the next range's are shown (a
 * histogram of stored events); B: none. */
static void baseline(struct kt_view *v, bool on)
{
	struct hist_view *hv = HV(v);

	if (!hv->h->ops->baseline) {
		ui_message(v->ui, true, "this histogram is counted in the kernel without times: "
			   "ranges cannot be compared (a recording's can)");
		return;
	}
	if (on && !ui_range(v->ui)->on) {
		ui_message(v->ui, true, "mark a range first (r, @): b takes it as the baseline");
		return;
	}
	hv->h->ops->baseline(hv->h, on);
	reset(hv);
	snapshot(v);
	ui_message(v->ui, false, on ? "baseline = this range: mark another (r, @) to see both "
		   "side by side (B: off)" : "baseline off");
}

static int hist_view_key(struct kt_view *v, int key)
{
	struct hist_view *hv = HV(v);
	int page = hv->list_h > 1 ? hv->list_h - 1 : 1;

	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		hist_edit(v);
		return KT_KEY_HANDLED;
	case 27: /* Esc */
		return KT_KEY_CLOSE;
	}
	if (!hv->h)
		return KT_KEY_IGNORED;
	hv->err[0] = '\0'; /* a refusal shown since the last key has been read */
	switch (key) {
	case 'v':
		hv->mode = (hv->mode + 1) % MODE_COUNT;
		break;
	case 'i':
		hv->cumulative = !hv->cumulative;
		sort_rows(hv);
		break;
	case 's':
		hv->sort_p99 = !hv->sort_p99;
		sort_rows(hv);
		break;
	case 'Z':
		hv->frozen = !hv->frozen;
		snapshot(v);
		break;
	case 'a':
		select_row(hv, -1);
		break;
	case 'b':
	case 'B':
		baseline(v, key == 'b');
		break;
	case '<': /* several hosts: their columns */
		if (hv->host_first > 0)
			hv->host_first--;
		break;
	case '>':
		if (hv->host_first + 1 < hv->nhosts)
			hv->host_first++;
		break;
	case KEY_UP:
		select_row(hv, hv->sel - 1);
		break;
	case KEY_DOWN:
		select_row(hv, hv->sel + 1);
		break;
	case KEY_PPAGE: /* the bars scroll their buckets, the key list its keys */
		if (hv->mode == MODE_BARS)
			hv->bucket_off = hv->bucket_off > page ? hv->bucket_off - page : 0;
		else
			select_row(hv, hv->sel - page);
		break;
	case KEY_NPAGE:
		if (hv->mode == MODE_BARS)
			hv->bucket_off += page; /* the draw stops it at the last bucket */
		else
			select_row(hv, hv->sel + page);
		break;
	default:
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void hist_view_tick(struct kt_view *v)
{
	struct hist_view *hv = HV(v);

	/* a tick the data has nothing new for (an agent's rows not come yet) adds no row */
	if (!hv->h || hv->frozen || hv->paused || !hv->h->ops->update(hv->h))
		return;
	snapshot(v);
	heat_push(hv);
	v->dirty = true;
}

static void hist_view_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct hist_view *hv = HV(v);

	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME) {
		hv->paused = ev == KT_EV_PAUSE;
		v->dirty = true;
	}
	if (ev == KT_EV_RANGE)
		follow_range(v);
}

static const char *hist_view_state(struct kt_view *v)
{
	return HV(v)->frozen ? "FROZEN" : NULL;
}

static const struct funcbar_item hist_items[] = {
	{ "Enter", "Build" }, { "v", "View" },	 { "i", "Intvl" }, { "s", "Sort" },
	{ "Z", "Freeze" },    { "a", "AllKeys" }, { "Esc", "Close" },
};

static int hist_view_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = hist_items;
	return (int)(sizeof(hist_items) / sizeof(hist_items[0]));
}

static const struct kt_keyhelp hist_keys[] = {
	{ "Enter", "build another (prompt)" },
	{ "v", "bars / keys / heat map" },
	{ "i", "per tick / since start" },
	{ "s", "sort keys: count / p99" },
	{ "a", "all keys (after selecting one)" },
	{ "Z", "freeze this pane" },
	{ "< >", "several hosts: their columns" },
	{ "b B", "recording: this range as the baseline / none" },
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_hist_ops = {
	.name = "histogram",
	.title = "Histogram (H)",
	.keys = hist_keys,
	.pref_width = 48,
	.init = hist_view_init,
	.free = hist_view_free,
	.resize = hist_view_resize,
	.draw = hist_view_draw,
	.key = hist_view_key,
	.tick = hist_view_tick,
	.notify = hist_view_notify,
	.prompt = hist_prompt,
	.state = hist_view_state,
	.funcbar = hist_view_funcbar,
	.opened = hist_edit,
};
