// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call-tree pane: function_graph records from the store (a live capture or a recording)
 * become call trees (backend/callgraph/callgraph.c), shown three ways, switched with v:
 *   tree    every call, foldable, with its duration and the calls below it;
 *   graph   identical call paths merged: count, total, average, minimum, maximum;
 *   report  functions ranked by self time.
 * Durations carry the kernel's own markers and colours (+ >10us, ! >100us, # >1ms, * >10ms,
 * @ >100ms, $ >1s). While the display is paused the store keeps filling; the pane catches up
 * on resume, and marks as lost what the store evicted meanwhile.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/callgraph/callgraph.h"
#include "backend/ingest/decode.h"
#include "record/callgraph_file.h"
#include "foldset.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define TREE_POOL_NODES (1u << 20) /* ~100 MB at most */
#define TREE_FEED_CHUNK 50000	    /* records per store lock */
#define TREE_FEED_TICK 400000	    /* records per UI tick, so keys stay responsive */
#define TREE_MAX_ROWS 500000
#define DUR_W 13 /* "! 1234.567 us" */
#define CALLS_W 7
#define TREE_PROMPT_SEARCH 1
#define TREE_PROMPT_OPEN 2

enum tree_mode { MODE_TREE, MODE_GRAPH, MODE_REPORT };

struct row {
	void *item;	/* struct kt_cg_node (tree), struct kt_cg_agg (graph, report) */
	int level;	/* indentation */
	uint64_t more;	/* bit i: the ancestor at level i has a later sibling */
};

struct tree_view {
	struct kt_callgraph *cg;	 /* the live one, or the file's */
	struct kt_callgraph_file *file; /* a trace.dat opened with O, or NULL */
	char file_name[256];
	char unavailable[512]; /* why there can be no trees, or "" */
	uint64_t next_seq;
	uint64_t range_end; /* the time range's end as a sequence number, UINT64_MAX: none */
	bool paused;
	enum tree_mode mode;
	struct kt_cg_agg *graph, *rank; /* rebuilt when shown and the trees changed */
	size_t nrank;
	bool aggs_stale;
	/* the fold state: the calls (address, serial) and the graph's paths shown unfolded */
	struct kt_foldset open_nodes, open_aggs;
	uint64_t pruned_at; /* evicted_nodes at the last pruning */
	struct row *rows;
	int nrows, cap;
	int sel, top;
	void *sel_item;
	char search[128];
};

static struct tree_view *TV(struct kt_view *v)
{
	return v->data;
}

/* ---- fold state ------------------------------------------------------------------------- */

static bool node_open(const struct tree_view *tv, const struct kt_cg_node *n)
{
	return foldset_open(&tv->open_nodes, n, n->serial);
}

/* Unfolds n (only when it has calls below it) or folds it. */
static void node_unfold(struct tree_view *tv, struct kt_cg_node *n, bool open)
{
	foldset_set(&tv->open_nodes, n, n->serial, open && n->child);
}

static bool agg_open(const struct tree_view *tv, const struct kt_cg_agg *a)
{
	return foldset_open(&tv->open_aggs, a, 0);
}

static void agg_unfold(struct tree_view *tv, struct kt_cg_agg *a, bool open)
{
	foldset_set(&tv->open_aggs, a, 0, open && a->child);
}

/* An evicted call's node is only ever reused (the pool keeps its memory): a reused one has
 * another serial. */
static bool node_same(const void *item, uint64_t serial)
{
	return ((const struct kt_cg_node *)item)->serial == serial;
}

/* ---- unavailable ------------------------------------------------------------------------ */

/* A live session on a kernel without the function_graph tracer: the reason, and the way
 * out. Returns false when the tracer is there (or this is no live session). */
static bool live_without_graph(struct kt_view *v, char *buf, size_t len)
{
	char why[400];

	if (!app_can(v->app, KT_CAP_TRACER) || !v->app->tracing_dir ||
	    callgraph_kernel_has_graph(v->app->tracing_dir, why, sizeof(why)))
		return false;
	snprintf(buf, len, "No call trees here: %s (or press r here to read one).", why);
	return true;
}

/* Where feeding starts: the store's first record, or the time range's (ui_range), whose end
 * it also keeps, found once here rather than per tick; at_end: the store's end (x). */
static void range_start(struct kt_view *v, bool at_end)
{
	struct tree_view *tv = TV(v);
	struct kt_store *st = v->app->store;
	uint64_t first, end;

	store_lock(st);
	end = store_end(st);
	first = at_end ? end : store_first(st);
	tv->range_end = UINT64_MAX;
	if (!at_end && ui_range_clip(v->ui, st, &first, &end) && ui_range(v->ui)->to != UINT64_MAX)
		tv->range_end = end;
	tv->next_seq = first;
	store_unlock(st);
}

/* No funcgraph formats to read records with: a recording was made without the tracer, and
 * says how to make one that has it, as the live line does. */
static void no_graph_formats(struct kt_view *v, char *buf, size_t len)
{
	const char *path = v->app->opts->input_path, *base;

	if (app_can(v->app, KT_CAP_SEEK) && path) {
		base = strrchr(path, '/');
		snprintf(buf, len, "No call trees: %s was recorded without the function_graph "
			 "tracer; record with it (trace-cmd record -p function_graph -g vfs_read) "
			 "and open that file (ktop -i, or press r here to read one).",
			 base ? base + 1 : path);
		return;
	}
	snprintf(buf, len, "No call trees: the funcgraph_entry / funcgraph_exit event formats "
		 "are missing (no ftrace events in %s).",
		 v->app->tracing_dir ? v->app->tracing_dir : "this session");
}

static void tree_view_init(struct kt_view *v)
{
	struct tree_view *tv = xcalloc(1, sizeof(*tv));
	struct kt_decoder *d = v->app->decoder;

	v->data = tv;
	tv->paused = ui_paused(v->ui);
	tv->cg = callgraph_new(TREE_POOL_NODES);
	if (live_without_graph(v, tv->unavailable, sizeof(tv->unavailable)))
		return;
	if (!d || decoder_load(d, "ftrace", "funcgraph_entry") < 0 ||
	    decoder_load(d, "ftrace", "funcgraph_exit") < 0 ||
	    callgraph_set_tep(tv->cg, decoder_tep_with_symbols(d)) < 0)
		no_graph_formats(v, tv->unavailable, sizeof(tv->unavailable));
	tv->range_end = UINT64_MAX;
	if (v->app->store)
		range_start(v, false);
}

static void tree_view_free(struct kt_view *v)
{
	struct tree_view *tv = TV(v);

	if (tv->file)
		callgraph_file_close(tv->file);
	else
		callgraph_free(tv->cg);
	callgraph_agg_free(tv->graph);
	free(tv->rank);
	free(tv->rows);
	foldset_free(&tv->open_nodes);
	foldset_free(&tv->open_aggs);
	free(tv);
}

static void tree_view_resize(struct kt_view *v)
{
	v->dirty = true;
}

/* ---- feeding ---------------------------------------------------------------------------- */

/* Takes what the store gained; true when anything was fed. */
static bool feed(struct kt_view *v)
{
	struct tree_view *tv = TV(v);
	struct kt_store *st = v->app->store;
	struct kt_cg_stats cs;
	uint64_t end, first, fed = 0;
	struct kt_rec r;
	bool any = false;

	if (!st || tv->unavailable[0] || tv->file)
		return false;
	while (fed < TREE_FEED_TICK) {
		unsigned n = 0;

		store_lock(st);
		first = store_first(st);
		end = store_end(st);
		if (end > tv->range_end)
			end = tv->range_end;
		if (tv->next_seq < first) {
			/* Evicted before the pane saw them: every CPU may have lost calls. */
			for (int cpu = 0; cpu < v->app->ncpus; cpu++)
				callgraph_lost(tv->cg, (unsigned)cpu);
			tv->next_seq = first;
		}
		for (; tv->next_seq < end && n < TREE_FEED_CHUNK; tv->next_seq++, n++) {
			if (!store_get(st, tv->next_seq, &r))
				continue;
			if (r.flags & KT_REC_LOST)
				callgraph_lost(tv->cg, r.cpu);
			else
				any |= callgraph_feed_raw(tv->cg, r.cpu, r.ts, r.data, (int)r.size);
		}
		store_unlock(st);
		fed += n;
		if (tv->next_seq >= end)
			break;
	}
	if (any)
		tv->aggs_stale = true;
	/* Unfolded calls whose nodes went to newer calls are dropped, once evictions made
	 * more of them than there are calls. */
	callgraph_stats(tv->cg, &cs);
	if (cs.evicted_nodes != tv->pruned_at && tv->open_nodes.n > cs.nodes) {
		foldset_prune(&tv->open_nodes, node_same);
		tv->pruned_at = cs.evicted_nodes;
	}
	return any;
}

/* ---- rows ------------------------------------------------------------------------------- */

static void row_add(struct tree_view *tv, void *item, int level, uint64_t more)
{
	if (tv->nrows >= TREE_MAX_ROWS)
		return;
	if (tv->nrows == tv->cap) {
		tv->cap = tv->cap ? tv->cap * 2 : 256;
		tv->rows = xreallocarray(tv->rows, (size_t)tv->cap, sizeof(*tv->rows));
	}
	tv->rows[tv->nrows++] = (struct row){ .item = item, .level = level, .more = more };
}

static void rows_tree(struct tree_view *tv, struct kt_cg_node *n, int level, uint64_t more)
{
	for (; n; n = n->next) {
		uint64_t m = more | (n->next && level < 64 ? 1ull << level : 0);

		row_add(tv, n, level, m);
		if (node_open(tv, n))
			rows_tree(tv, n->child, level + 1, m);
	}
}

static void rows_graph(struct tree_view *tv, struct kt_cg_agg *a, int level, uint64_t more)
{
	for (; a; a = a->next) {
		uint64_t m = more | (a->next && level < 64 ? 1ull << level : 0);

		row_add(tv, a, level, m);
		if (agg_open(tv, a))
			rows_graph(tv, a->child, level + 1, m);
	}
}

static void refresh_aggs(struct tree_view *tv)
{
	if (!tv->aggs_stale && tv->graph)
		return;
	/* Rebuilt from the trees as they are now (fold state starts over). */
	foldset_clear(&tv->open_aggs);
	callgraph_agg_free(tv->graph);
	free(tv->rank);
	tv->graph = callgraph_merge_paths(tv->cg);
	tv->rank = callgraph_rank_self(tv->cg, &tv->nrank);
	tv->aggs_stale = false;
}

static void rebuild_rows(struct tree_view *tv)
{
	tv->nrows = 0;
	switch (tv->mode) {
	case MODE_TREE:
		rows_tree(tv, callgraph_first_root(tv->cg), 0, 0);
		break;
	case MODE_GRAPH:
		refresh_aggs(tv);
		rows_graph(tv, tv->graph->child, 0, 0);
		break;
	case MODE_REPORT:
		refresh_aggs(tv);
		for (size_t i = 0; i < tv->nrank; i++)
			row_add(tv, &tv->rank[i], 0, 0);
		break;
	}
	/* The selection follows its item when it is still shown. */
	if (tv->sel_item) {
		for (int i = 0; i < tv->nrows; i++)
			if (tv->rows[i].item == tv->sel_item) {
				tv->sel = i;
				break;
			}
	}
	if (tv->sel >= tv->nrows)
		tv->sel = tv->nrows - 1;
	if (tv->sel < 0)
		tv->sel = 0;
	tv->sel_item = tv->nrows ? tv->rows[tv->sel].item : NULL;
}

static void select_item(struct tree_view *tv, void *item)
{
	tv->sel_item = item;
	rebuild_rows(tv);
}

/* ---- drawing ---------------------------------------------------------------------------- */

/* The kernel's duration marker and a colour for it (the theme has no elements of its own
 * for these: warnings for ! and #, errors from * up). */
static char dur_mark(uint64_t ns, attr_t *attr)
{
	char m = callgraph_mark(ns);

	*attr = crt_attr(m == '+' ? CRT_TIME : m == '!' || m == '#' ? CRT_HEADER_WARN
			 : m == ' ' ? CRT_NORMAL : CRT_ERROR);
	return m;
}

/* "123.456 us", "12.345 ms", "1.234 s", "999 ns". */
static void fmt_dur(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
}

static void put_dur(WINDOW *win, int y, int x, uint64_t ns, const char *instead)
{
	char num[32], cell[40];
	attr_t a;
	char m = instead ? ' ' : dur_mark(ns, &a);

	if (instead) {
		a = crt_attr(CRT_DIM);
		snprintf(cell, sizeof(cell), "  %10s", instead);
	} else {
		fmt_dur(ns, num, sizeof(num));
		snprintf(cell, sizeof(cell), "%c %10s", m, num);
	}
	wattrset(win, a);
	crt_put_pad(win, y, x, cell, DUR_W);
	wattrset(win, A_NORMAL);
}

/* Tree glyphs for a row: "│ " for ancestors with more siblings, "├─"/"└─" for itself, and
 * a fold sign; two cells each (glyphs are ours, so written as they are, not via crt_put). */
static void put_prefix(struct kt_view *v, int y, int *x, const struct row *r, bool has_child,
		       bool expanded)
{
	bool utf8 = crt_is_utf8();
	const char *g;

	wattrset(v->win, crt_attr(CRT_BORDER));
	for (int l = 0; l <= r->level && *x + 2 <= v->w; l++, *x += 2) {
		bool last = l == r->level - 1;
		/* bit l + 1: the call at level l + 1 on the path (this one, last) has more */
		bool more = l + 1 < 64 && (r->more >> (l + 1)) & 1;

		if (l == r->level)
			g = !has_child ? " " : expanded ? crt_glyphs()->unfolded : crt_glyphs()->folded;
		else if (last)
			g = more ? (utf8 ? "├─" : "|-") : (utf8 ? "└─" : "`-");
		else
			g = more ? (utf8 ? "│ " : "| ") : "  ";
		mvwaddstr(v->win, y, *x, g);
		if (l == r->level)
			waddch(v->win, ' ');
	}
	wattrset(v->win, A_NORMAL);
}

static void draw_node_row(struct kt_view *v, int y, const struct row *r, bool sel)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_node *n = r->item;
	char name[160], b[40], tail[96] = "";
	int x = 0;

	if (n->flags & KT_CG_OPEN)
		put_dur(v->win, y, x, 0, "open");
	else if (n->flags & KT_CG_BROKEN)
		put_dur(v->win, y, x, 0, "?");
	else
		put_dur(v->win, y, x, n->duration, NULL);
	x += DUR_W + 1;
	snprintf(b, sizeof(b), "%u", n->calls);
	crt_put_pad(v->win, y, x, n->calls ? b : "", CALLS_W);
	x += CALLS_W + 1;
	put_prefix(v, y, &x, r, n->child != NULL, node_open(tv, n));
	snprintf(name, sizeof(name), "%s()",
		 callgraph_func_name(tv->cg, n->func, b, sizeof(b)));
	if (n->flags & KT_CG_NO_ENTRY)
		strcat(tail, " [began before the capture]");
	if (n->flags & KT_CG_NO_PARENT)
		strcat(tail, " [caller not seen]");
	if (n->flags & KT_CG_LOST)
		strcat(tail, " [events lost inside]");
	if (!r->level)
		snprintf(tail + strlen(tail), sizeof(tail) - strlen(tail), "  pid %d cpu %u",
			 n->pid, n->cpu);
	if (sel)
		wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
	x += crt_put(v->win, y, x, name, v->w - x);
	wattrset(v->win, sel ? crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM)
			     : crt_attr(CRT_DIM));
	crt_put_pad(v->win, y, x, tail, v->w - x);
	wattrset(v->win, A_NORMAL);
}

static void draw_agg_row(struct kt_view *v, int y, const struct row *r, bool sel)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_agg *a = r->item;
	char b[40], name[160], cnt[24], avg[24], mn[24], mx[24], line[256];
	int x = 0;

	put_dur(v->win, y, x, tv->mode == MODE_REPORT ? a->self : a->total, NULL);
	x += DUR_W + 1;
	snprintf(cnt, sizeof(cnt), "%llu", (unsigned long long)a->count);
	crt_put_pad(v->win, y, x, cnt, CALLS_W);
	x += CALLS_W + 1;
	if (tv->mode == MODE_REPORT) {
		fmt_dur(a->total, avg, sizeof(avg));
		snprintf(line, sizeof(line), "%10s ", avg);
	} else {
		fmt_dur(a->count ? a->total / a->count : 0, avg, sizeof(avg));
		fmt_dur(a->count ? a->min : 0, mn, sizeof(mn));
		fmt_dur(a->max, mx, sizeof(mx));
		snprintf(line, sizeof(line), "%10s %10s %10s ", avg, mn, mx);
	}
	x += crt_put(v->win, y, x, line, v->w - x);
	if (tv->mode == MODE_GRAPH)
		put_prefix(v, y, &x, r, a->child != NULL, agg_open(tv, a));
	snprintf(name, sizeof(name), "%s()", callgraph_func_name(tv->cg, a->func, b, sizeof(b)));
	if (sel)
		wattrset(v->win, crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM));
	crt_put_pad(v->win, y, x, name, v->w - x);
	wattrset(v->win, A_NORMAL);
}

static const char *mode_name(enum tree_mode m)
{
	return m == MODE_TREE ? "tree" : m == MODE_GRAPH ? "graph" : "report";
}

static void tree_view_draw(struct kt_view *v)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_stats st;
	char title[320], right[128];
	int list_h = v->h - 2;

	callgraph_stats(tv->cg, &st);
	snprintf(title, sizeof(title), "Call %s%s%s", mode_name(tv->mode), tv->file ? ": " : "",
		 tv->file ? tv->file_name : "");
	snprintf(right, sizeof(right), "%s%s%llu trees%s%s",
		 !ui_range(v->ui)->on ? "" : tv->file ? "the file's, not the range  " : "in range  ",
		 tv->paused ? "PAUSED " : "", (unsigned long long)(st.trees),
		 st.evicted_trees ? ", oldest evicted" : "", st.lost_marks ? ", events lost" : "");
	view_draw_title(v, title, right);
	if (v->h < 2)
		return;
	if (tv->unavailable[0]) {
		/* The reason, wrapped over the pane's lines. */
		const char *p = tv->unavailable;

		wattrset(v->win, crt_attr(CRT_DIM));
		for (int y = 2; *p && y < v->h; y++) {
			int w = v->w - 2, len = (int)strlen(p);
			char line[512];

			if (w <= 0)
				break;
			if (len > w) {
				len = w;
				while (len > 0 && p[len] != ' ')
					len--;
				if (len == 0)
					len = w;
			}
			snprintf(line, sizeof(line), "%.*s", len, p);
			crt_put_pad(v->win, y, 1, line, v->w - 1);
			p += len;
			while (*p == ' ')
				p++;
		}
		wattrset(v->win, A_NORMAL);
		return;
	}
	rebuild_rows(tv);
	wattrset(v->win, crt_attr(CRT_DIM));
	if (tv->mode == MODE_TREE)
		snprintf(title, sizeof(title), "%*s %-*s function", DUR_W, "duration", CALLS_W,
			 "calls");
	else if (tv->mode == MODE_GRAPH)
		snprintf(title, sizeof(title), "%*s %-*s %10s %10s %10s call path", DUR_W, "total",
			 CALLS_W, "count", "avg", "min", "max");
	else
		snprintf(title, sizeof(title), "%*s %-*s %10s function", DUR_W, "self", CALLS_W,
			 "count", "total");
	crt_put_pad(v->win, 1, 0, title, v->w);
	wattrset(v->win, A_NORMAL);
	if (list_h <= 0)
		return;
	if (!tv->nrows) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put_pad(v->win, 2, 1, "no function_graph calls yet", v->w - 1);
		wattrset(v->win, A_NORMAL);
		return;
	}
	if (tv->sel < tv->top)
		tv->top = tv->sel;
	if (tv->sel >= tv->top + list_h)
		tv->top = tv->sel - list_h + 1;
	for (int i = 0; i < list_h; i++) {
		int idx = tv->top + i;

		if (idx >= tv->nrows) {
			crt_fill(v->win, 2 + i, 0, v->w);
			continue;
		}
		if (tv->mode == MODE_TREE)
			draw_node_row(v, 2 + i, &tv->rows[idx], idx == tv->sel);
		else
			draw_agg_row(v, 2 + i, &tv->rows[idx], idx == tv->sel);
	}
}

/* ---- keys ------------------------------------------------------------------------------- */

/* E: every call with calls below it unfolded (C folds all: the set emptied). */
static void unfold_all(struct tree_view *tv, struct kt_cg_node *n)
{
	for (; n; n = n->next) {
		node_unfold(tv, n, true);
		unfold_all(tv, n->child);
	}
}

static void unfold_all_agg(struct tree_view *tv, struct kt_cg_agg *a)
{
	for (; a; a = a->next) {
		agg_unfold(tv, a, true);
		unfold_all_agg(tv, a->child);
	}
}

/* Pre-order successor of n among all nodes (folded or not). */
static struct kt_cg_node *next_node(struct kt_cg_node *n)
{
	if (n->child)
		return n->child;
	while (n && !n->next)
		n = n->parent;
	return n ? n->next : NULL;
}

/* Selects the next call (after the selection, wrapping once) whose name contains text,
 * unfolding its callers. */
static bool search_next(struct kt_view *v, bool from_next)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_node *start, *n;
	char b[40];

	if (tv->mode != MODE_TREE || !tv->search[0] || !tv->nrows)
		return false;
	start = tv->rows[tv->sel].item;
	n = from_next ? next_node(start) : start;
	for (int wrapped = 0; wrapped < 2; wrapped++) {
		for (; n; n = next_node(n)) {
			if (strstr(callgraph_func_name(tv->cg, n->func, b, sizeof(b)), tv->search)) {
				for (struct kt_cg_node *p = n->parent; p; p = p->parent)
					node_unfold(tv, p, true);
				select_item(tv, n);
				return true;
			}
			if (wrapped && n == start)
				return false;
		}
		n = callgraph_first_root(tv->cg);
	}
	return false;
}

/* The nodes a recording's trees may take: within --memory, as ktop -i's store. */
static size_t file_nodes(const struct kt_app *app)
{
	size_t n = app->opts->memory_bytes / sizeof(struct kt_cg_node);

	return n < TREE_POOL_NODES ? n : TREE_POOL_NODES;
}

/* r: the trees of a trace.dat instead of the live ones. A file that cannot be read changes
 * nothing on screen. */
static void open_file(struct kt_view *v, const char *path)
{
	struct tree_view *tv = TV(v);
	struct kt_callgraph_file *f;
	char err[512];
	const char *base;

	f = callgraph_file_open(path, file_nodes(v->app), err, sizeof(err));
	if (!f) {
		ui_message(v->ui, true, "open: %s", err);
		return;
	}
	if (tv->file)
		callgraph_file_close(tv->file);
	else
		callgraph_free(tv->cg);
	tv->file = f;
	tv->cg = callgraph_file_graph(f);
	foldset_clear(&tv->open_nodes);
	base = strrchr(path, '/');
	snprintf(tv->file_name, sizeof(tv->file_name), "%s", base ? base + 1 : path);
	tv->unavailable[0] = '\0';
	tv->aggs_stale = true;
	tv->sel = tv->top = 0;
	tv->sel_item = NULL;
	ui_message(v->ui, false, "call trees of %s", path);
}

static void tree_view_prompt(struct kt_view *v, int id, const char *text,
			     enum kt_prompt_event ev)
{
	struct tree_view *tv = TV(v);

	if (id == TREE_PROMPT_OPEN) {
		if (ev == KT_PROMPT_ACCEPT && text[0])
			open_file(v, text);
		v->dirty = true;
		return;
	}
	if (id != TREE_PROMPT_SEARCH)
		return;
	if (ev == KT_PROMPT_CANCEL)
		return;
	snprintf(tv->search, sizeof(tv->search), "%s", text);
	if (tv->search[0] && !search_next(v, false) && ev == KT_PROMPT_ACCEPT)
		ui_message(v->ui, true, "search: no call of a function matching \"%s\"",
			   tv->search);
	v->dirty = true;
}

static void jump(struct tree_view *tv, void *item)
{
	if (item)
		select_item(tv, item);
}

static int tree_key_node(struct kt_view *v, int key)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_node *n = tv->nrows ? tv->rows[tv->sel].item : NULL, *c, *best = NULL;

	if (!n)
		return KT_KEY_IGNORED;
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		node_unfold(tv, n, !node_open(tv, n));
		break;
	case '+':
	case KEY_RIGHT:
		node_unfold(tv, n, true);
		break;
	case KEY_LEFT:
		if (node_open(tv, n))
			node_unfold(tv, n, false);
		else
			jump(tv, n->parent);
		break;
	case 'u':
	case KEY_BACKSPACE:
		jump(tv, n->parent);
		break;
	case 'J':
		jump(tv, n->next);
		break;
	case 'K':
		jump(tv, n->prev);
		break;
	case 'L': /* where did the time go: the longest child */
		for (c = n->child; c; c = c->next)
			if (!best || c->duration > best->duration)
				best = c;
		if (!best) {
			ui_message(v->ui, false, "no calls below this one");
			return KT_KEY_HANDLED;
		}
		node_unfold(tv, n, true);
		jump(tv, best);
		if (n->duration && !(best->flags & (KT_CG_OPEN | KT_CG_BROKEN))) {
			char b1[40], b2[40], d[32];

			fmt_dur(best->duration, d, sizeof(d));
			ui_message(v->ui, false, "longest call in %s(): %s(), %s, %.0f%% of it",
				   callgraph_func_name(tv->cg, n->func, b1, sizeof(b1)),
				   callgraph_func_name(tv->cg, best->func, b2, sizeof(b2)), d,
				   100.0 * (double)best->duration / (double)n->duration);
		}
		break;
	case 'E':
		unfold_all(tv, callgraph_first_root(tv->cg));
		break;
	case 'C':
		foldset_clear(&tv->open_nodes);
		break;
	default:
		return KT_KEY_IGNORED;
	}
	rebuild_rows(tv);
	return KT_KEY_HANDLED;
}

static int tree_key_agg(struct kt_view *v, int key)
{
	struct tree_view *tv = TV(v);
	struct kt_cg_agg *a = tv->nrows ? tv->rows[tv->sel].item : NULL, *c, *best = NULL;

	if (!a || tv->mode != MODE_GRAPH)
		return KT_KEY_IGNORED;
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		agg_unfold(tv, a, !agg_open(tv, a));
		break;
	case '+':
	case KEY_RIGHT:
		agg_unfold(tv, a, true);
		break;
	case KEY_LEFT:
		agg_unfold(tv, a, false);
		break;
	case 'u':
	case KEY_BACKSPACE:
		if (a->parent != tv->graph)
			jump(tv, a->parent);
		break;
	case 'J':
		jump(tv, a->next);
		break;
	case 'L':
		for (c = a->child; c; c = c->next)
			if (!best || c->total > best->total)
				best = c;
		agg_unfold(tv, a, best != NULL);
		jump(tv, best);
		break;
	case 'E':
		unfold_all_agg(tv, tv->graph->child);
		break;
	case 'C':
		foldset_clear(&tv->open_aggs);
		break;
	default:
		return KT_KEY_IGNORED;
	}
	rebuild_rows(tv);
	return KT_KEY_HANDLED;
}

static int tree_view_key(struct kt_view *v, int key)
{
	struct tree_view *tv = TV(v);
	int page = v->h > 3 ? v->h - 3 : 1, r;

	switch (key) {
	case KEY_UP:
		tv->sel--;
		break;
	case KEY_DOWN:
		tv->sel++;
		break;
	case KEY_PPAGE:
		tv->sel -= page;
		break;
	case KEY_NPAGE:
		tv->sel += page;
		break;
	case KEY_HOME:
		tv->sel = 0;
		break;
	case KEY_END:
		tv->sel = tv->nrows - 1;
		break;
	case 'v': /* tree -> graph -> report */
		tv->mode = (enum tree_mode)((tv->mode + 1) % 3);
		tv->sel = tv->top = 0;
		tv->sel_item = NULL;
		rebuild_rows(tv);
		ui_message(v->ui, false, "call %s view", mode_name(tv->mode));
		break;
	case '/':
		if (tv->mode != MODE_TREE) {
			ui_message(v->ui, false, "search works in the tree view (v switches)");
			return KT_KEY_HANDLED;
		}
		ui_prompt_open(v->ui, v, TREE_PROMPT_SEARCH, "Find function: ", tv->search);
		return KT_KEY_HANDLED;
	case 'r':
		ui_prompt_open(v->ui, v, TREE_PROMPT_OPEN, "Open trace.dat: ", "");
		return KT_KEY_HANDLED;
	case 'n':
		if (tv->search[0] && !search_next(v, true))
			ui_message(v->ui, true, "search: no other call matching \"%s\"", tv->search);
		break;
	case 27: /* Esc */
		return KT_KEY_CLOSE;
	default:
		if (tv->unavailable[0])
			return KT_KEY_IGNORED;
		r = tv->mode == MODE_TREE ? tree_key_node(v, key) : tree_key_agg(v, key);
		if (r == KT_KEY_HANDLED)
			v->dirty = true;
		return r;
	}
	if (tv->sel >= tv->nrows)
		tv->sel = tv->nrows - 1;
	if (tv->sel < 0)
		tv->sel = 0;
	tv->sel_item = tv->nrows ? tv->rows[tv->sel].item : NULL;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void tree_view_tick(struct kt_view *v)
{
	struct tree_view *tv = TV(v);

	if (!tv->paused && feed(v))
		v->dirty = true;
}

/* The trees made again from the store: from its end (x), or from the range's start. A
 * call begun before the range is one without entry (callgraph.h's NO_ENTRY), as the
 * kernel's own text shows a window's first returns. */
static void restart(struct kt_view *v, bool at_end)
{
	struct tree_view *tv = TV(v);

	callgraph_free(tv->cg);
	tv->cg = callgraph_new(TREE_POOL_NODES);
	callgraph_set_tep(tv->cg, decoder_tep(v->app->decoder));
	foldset_clear(&tv->open_nodes);
	foldset_clear(&tv->open_aggs);
	range_start(v, at_end);
	tv->aggs_stale = true;
	tv->sel = tv->top = 0;
	tv->sel_item = NULL;
	if (!tv->paused)
		feed(v);
	v->dirty = true;
}

static void tree_view_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct tree_view *tv = TV(v);

	switch (ev) {
	case KT_EV_PAUSE:
	case KT_EV_RESUME:
		tv->paused = ev == KT_EV_PAUSE;
		v->dirty = true;
		break;
	case KT_EV_DATA:
		if (!tv->paused && feed(v))
			v->dirty = true;
		break;
	case KT_EV_CLEAR: /* x: the live trees start over with the store */
	case KT_EV_RANGE: /* the range's calls alone, from its first record */
		if (tv->file || tv->unavailable[0]) {
			v->dirty = true;
			break;
		}
		restart(v, ev == KT_EV_CLEAR);
		break;
	default:
		break;
	}
}

static const char *tree_view_state(struct kt_view *v)
{
	return TV(v)->paused ? "PAUSED" : NULL;
}

static const struct funcbar_item tree_items[] = {
	{ "Ent", "Fold" }, { "L", "Longest" }, { "u", "Parent" }, { "J/K", "Sibling" },
	{ "v", "View" },   { "/", "Find" },    { "T", "Close" },  { "F10", "Quit" },
};

static int tree_view_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	(void)v;
	*items = tree_items;
	return (int)(sizeof(tree_items) / sizeof(tree_items[0]));
}

static const struct kt_keyhelp tree_keys[] = {
	{ "Enter +", "fold toggle / unfold" },
	{ "E C", "unfold / fold everything" },
	{ "u Backspace", "the parent call" },
	{ "J K", "next / previous sibling" },
	{ "L", "longest child: where the time went" },
	{ "v", "tree / merged graph / report" },
	{ "/ n", "find a function, next match" },
	{ "r", "read a trace.dat's call trees" },
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_tree_ops = {
	.name = "calls",
	.title = "Call trees (T, function_graph)",
	.keys = tree_keys,
	.pref_width = 72,
	.init = tree_view_init,
	.free = tree_view_free,
	.resize = tree_view_resize,
	.draw = tree_view_draw,
	.key = tree_view_key,
	.tick = tree_view_tick,
	.notify = tree_view_notify,
	.prompt = tree_view_prompt,
	.state = tree_view_state,
	.funcbar = tree_view_funcbar,
};
