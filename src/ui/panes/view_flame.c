// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flame graph pane: a stack tree (backend/stacks/stacks.h) drawn as rows of frames, each as
 * wide as its share of the frame at the top of the view (FlameGraph, flamelens). Icicle
 * (root on top) or flame (root at the bottom), switched with v. Children are laid out in
 * name order, as FlameGraph does, so frames keep their order when weights change; the
 * children too narrow for one cell are merged into one "+N" block after their siblings, and
 * what is too narrow even for that is left out, its share said in the title.
 *
 * Enter zooms into the selected frame (its ancestors stay above it, full width), Esc or
 * Backspace goes back one zoom; / finds frames by substring, highlights them and says the
 * share of the weight under them (each stack counted once, however many matches it holds);
 * s scopes the view to the selected frame's task; c asks a live source for one CPU's stacks
 * only (the tree emptied then, so it holds nothing else: an on-CPU profile or event stacks);
 * b takes the tree as it is now as the baseline of the differential view, which colours a
 * frame red when its share grew and blue when it shrank (FlameGraph's difffolded); on a live
 * source the graph then shows only the last N seconds (d sets N, 5 by default) against that
 * frozen baseline, the stacks kept per second (backend/stacks/stackwin.h) while the whole profile
 * goes on beside them for B; Z freezes a live tree. With a time range marked (ui_range), a
 * source whose stacks have times (the events') shows the range's alone, and b then takes
 * that range as the baseline: a second range is drawn against it (issue 33's compare).
 * Every frame begins with an edge, is coloured by its kind (kernel, user, JIT, task:
 * FlameGraph's and inferno's hues) and labelled with perf's mark ([k], [.], [j]) when it
 * has room; a switches the edge to ASCII ('|', '+' grown, '-' shrunk, '*' matched), for
 * terminals without colour.
 * Percentages are of the whole tree, or of the task when scoped (perf report's "children"
 * for the total, its "self" for the rest).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/stacks/folded.h"
#include "backend/stacks/stacks.h"
#include "flame_live.h"
#include "backend/stacks/stackwin.h"
#include "util/clock.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define FLAME_PROMPT_SEARCH 1
#define FLAME_PROMPT_OPEN 2
#define FLAME_PROMPT_CPU 3
#define FLAME_PROMPT_WINDOW 4
#define FLAME_WINDOW_SECS 5
/* Emptied nodes a live diff's tree may carry before it is made again. */
#define FLAME_WINDOW_SLACK 4096
#define FLAME_MAX_ZOOM 64
/* Cells a label needs after the frame's edge: a narrower frame is a bare block. */
#define FLAME_LABEL_MIN 3
/* Diff: a change of share under this many percentage points is no change. */
#define FLAME_DIFF_EPS 0.05

struct box {
	const struct kt_stack_node *node; /* a merged block: the parent of its frames */
	unsigned merged;		   /* 0: one frame; else the frames in the block */
	int row, x, w;			   /* row: 0 is the top of the view's stack */
};

struct flame_view {
	struct kt_stacks *st, *base;
	struct kt_flame_source src; /* .update NULL: a file, the tree never changes */
	char name[256];
	bool pinned;			 /* ktop --flame: Esc does not close it */
	bool flame;			 /* root at the bottom */
	bool ascii;
	bool frozen;
	bool show_idle;			 /* i: the idle task's frame too */
	const struct kt_stack_node *scope; /* a task, or NULL: everything */
	int cpu;			   /* the source's CPU (c), -1: every CPU */
	/* the live diff: st is the window's tree, remade each tick from win's seconds; all the
	 * whole profile (st again when B ends the diff); tick what the source gave this tick */
	struct kt_stackwin *win;
	struct kt_stacks *all, *tick;
	unsigned win_secs;
	uint64_t dropped; /* weight all had no room for (--memory) */
	const struct kt_stack_node *zoom[FLAME_MAX_ZOOM];
	int nzoom;
	const struct kt_stack_node *sel;
	char search[128];
	uint64_t matched;
	struct box *boxes;
	size_t nboxes, cap;
	uint64_t omitted;
	bool laid_out;
	int rows; /* frame rows the last layout had */
};

static struct flame_view *FV(struct kt_view *v)
{
	return v->data;
}

static const struct kt_stack_node *view_top(const struct flame_view *fv)
{
	return fv->scope ? fv->scope : stacks_root(fv->st);
}

static const struct kt_stack_node *view_zoom(const struct flame_view *fv)
{
	return fv->nzoom ? fv->zoom[fv->nzoom - 1] : view_top(fv);
}

/* The idle task (pid 0, "swapper"), hidden until i shows it, as perf top leaves it out:
 * on a quiet machine it would take the whole width. */
static bool idle_hidden(const struct flame_view *fv, const struct kt_stack_node *n)
{
	return !fv->show_idle && n->depth == 1 && n->kind == KT_FRAME_TASK &&
	       !strcmp(n->name, "swapper");
}

/* n's weight as drawn: the root's without a hidden idle task. */
static uint64_t shown(const struct flame_view *fv, const struct kt_stack_node *n)
{
	const struct kt_stack_node *c;

	if (n->depth || fv->show_idle)
		return n->total;
	for (c = n->child; c; c = c->next)
		if (idle_hidden(fv, c))
			return n->total - c->total;
	return n->total;
}

static double pct(const struct flame_view *fv, uint64_t w)
{
	uint64_t all = shown(fv, view_top(fv));

	return all ? 100.0 * (double)w / (double)all : 0.0;
}

/* ---- search --------------------------------------------------------------------------- */

static bool matches(const struct flame_view *fv, const struct kt_stack_node *n)
{
	return fv->search[0] && strstr(n->name, fv->search);
}

/* The weight of the stacks below n holding a match: a matching frame takes its whole
 * subtree, so a stack with several matches counts once (FlameGraph's "Matched"). */
static uint64_t matched_weight(const struct flame_view *fv, const struct kt_stack_node *n)
{
	uint64_t w = 0;

	if (matches(fv, n))
		return shown(fv, n);
	for (const struct kt_stack_node *c = n->child; c; c = c->next)
		if (!idle_hidden(fv, c))
			w += matched_weight(fv, c);
	return w;
}

static void search_update(struct flame_view *fv)
{
	const struct kt_stack_node *n;

	fv->matched = 0;
	if (!fv->st || !fv->search[0])
		return;
	/* a match above the scope holds every stack of it */
	for (n = view_top(fv); n; n = n->parent)
		if (matches(fv, n)) {
			fv->matched = shown(fv, view_top(fv));
			return;
		}
	fv->matched = matched_weight(fv, view_top(fv));
}

/* ---- layout --------------------------------------------------------------------------- */

static void box_add(struct flame_view *fv, const struct kt_stack_node *node, unsigned merged,
		    int row, int x, int w)
{
	if (fv->nboxes == fv->cap) {
		fv->cap = fv->cap ? fv->cap * 2 : 256;
		fv->boxes = xreallocarray(fv->boxes, fv->cap, sizeof(*fv->boxes));
	}
	fv->boxes[fv->nboxes++] = (struct box){ node, merged, row, x, w };
}

static int by_name(const void *a, const void *b)
{
	const struct kt_stack_node *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

/* The cell where weight pos of a frame of weight total, w cells wide from x, falls. */
static int cell(int x, int w, uint64_t pos, uint64_t total)
{
	return x + (int)((long double)pos * w / total);
}

/* n's children in [x, x + w) of row, and theirs below, down to the last row. Only the
 * children a cell wide or more (w of them at most) are sorted: a flat profile's thousands
 * of narrow ones are only added up. */
static void layout_children(struct flame_view *fv, const struct kt_stack_node *n, int row,
			    int x, int w)
{
	const struct kt_stack_node **kids;
	uint64_t pos = 0, small = 0, total = shown(fv, n);
	unsigned nsmall = 0, i = 0;
	int x0, x1;

	if (row >= fv->rows || !n->nchild || !total)
		return;
	kids = xmalloc(n->nchild * sizeof(*kids));
	for (const struct kt_stack_node *c = n->child; c; c = c->next) {
		if (!c->total || idle_hidden(fv, c))
			continue;
		/* narrower than a cell: into the block after the others */
		if ((long double)c->total * w < total) {
			small += c->total;
			nsmall++;
			continue;
		}
		kids[i++] = c;
	}
	qsort(kids, i, sizeof(*kids), by_name);
	for (unsigned k = 0; k < i; k++) {
		const struct kt_stack_node *c = kids[k];

		x0 = cell(x, w, pos, total);
		pos += c->total;
		x1 = cell(x, w, pos, total);
		if (x1 <= x0) {
			fv->omitted += c->total;
			continue;
		}
		box_add(fv, c, 0, row, x0, x1 - x0);
		layout_children(fv, c, row + 1, x0, x1 - x0);
	}
	free(kids);
	if (!nsmall)
		return;
	x0 = cell(x, w, pos, total);
	x1 = cell(x, w, pos + small, total);
	if (x1 > x0)
		box_add(fv, n, nsmall, row, x0, x1 - x0);
	else
		fv->omitted += small;
}

/* The boxes of the view for a w-wide pane with rows rows of frames: the path from the top
 * of the view to the zoomed frame, full width, then the zoomed frame's subtree. */
static void layout(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	const struct kt_stack_node *chain[FLAME_MAX_ZOOM + 1], *z;
	int n = 0, skip, row = 0;
	bool sel_shown = false;

	fv->nboxes = 0;
	fv->omitted = 0;
	fv->laid_out = true;
	fv->rows = v->h - 2;
	if (!fv->st || fv->rows <= 0 || v->w <= 0)
		return;
	z = view_zoom(fv);
	for (const struct kt_stack_node *a = z; a && n <= FLAME_MAX_ZOOM; a = a->parent) {
		chain[n++] = a;
		if (a == view_top(fv))
			break;
	}
	/* deep zooms keep two thirds of the rows for the zoomed frame's subtree */
	skip = n - 1 > fv->rows / 3 ? n - 1 - fv->rows / 3 : 0;
	for (int i = n - 1 - skip; i >= 0 && row < fv->rows; i--)
		box_add(fv, chain[i], 0, row++, 0, v->w);
	layout_children(fv, z, row, 0, v->w);
	for (size_t i = 0; i < fv->nboxes; i++)
		if (!fv->boxes[i].merged && fv->boxes[i].node == fv->sel)
			sel_shown = true;
	if (!sel_shown)
		fv->sel = z;
}

static void ensure_layout(struct kt_view *v)
{
	if (!FV(v)->laid_out)
		layout(v);
}

static void changed(struct kt_view *v)
{
	FV(v)->laid_out = false;
	v->dirty = true;
}

/* ---- drawing -------------------------------------------------------------------------- */

static int screen_row(struct kt_view *v, int row)
{
	return FV(v)->flame ? v->h - 2 - row : 1 + row;
}

/* The share of n in the baseline tree, at the same path, of the same top; -1: no baseline. */
static double base_pct(const struct flame_view *fv, const struct kt_stack_node *n)
{
	const struct kt_stack_node *b, *btop;

	if (!fv->base)
		return -1;
	btop = fv->scope ? stacks_same_path(fv->base, fv->scope) : stacks_root(fv->base);
	if (!btop || !btop->total)
		return 0;
	b = stacks_same_path(fv->base, n);
	return b ? 100.0 * (double)b->total / (double)btop->total : 0;
}

/* -1 shrank, 0 same, 1 grew against the baseline. */
static int growth(const struct flame_view *fv, const struct kt_stack_node *n)
{
	double b = base_pct(fv, n), d;

	if (b < 0)
		return 0;
	d = pct(fv, n->total) - b;
	return d > FLAME_DIFF_EPS ? 1 : d < -FLAME_DIFF_EPS ? -1 : 0;
}

/* text in w cells: cut with ".." when longer, then padded. */
static void put_cut(WINDOW *win, int y, int x, const char *text, int w)
{
	int len = (int)strlen(text);

	if (len <= w || w < 3) {
		crt_put_pad(win, y, x, text, w);
		return;
	}
	crt_put(win, y, x, text, w - 2);
	mvwaddstr(win, y, x + w - 2, "..");
}

/* A frame's colour by its kind, as FlameGraph and inferno colour them. */
static enum crt_elem kind_colour(const struct box *b)
{
	if (b->merged)
		return CRT_FLAME;
	switch (b->node->kind) {
	case KT_FRAME_TASK:
		return CRT_FLAME_TASK;
	case KT_FRAME_KERNEL:
		return CRT_FLAME;
	case KT_FRAME_JIT:
		return CRT_FLAME_JIT;
	default:
		return CRT_FLAME_ALT;
	}
}

/* perf's mark before a frame's name: [k] kernel, [.] user space, [j] JIT; none for a task,
 * a name that says its kind already (folded "_[k]") or one without a name. */
static const char *mark(const struct kt_stack_node *n)
{
	size_t len = strlen(n->name);

	if (!n->depth || (len > 4 && n->name[len - 1] == ']' && n->name[len - 4] == '_'))
		return "";
	switch (n->kind) {
	case KT_FRAME_KERNEL:
		return "[k] ";
	case KT_FRAME_USER:
		return "[.] ";
	case KT_FRAME_JIT:
		return "[j] ";
	default:
		return "";
	}
}

/* The frame's label in w cells: its mark and name, the name alone when both do not fit;
 * [unknown] for a bare address, as perf writes a frame without a name (the status line
 * keeps the address). */
static void frame_label(const struct kt_stack_node *n, int w, char *buf, size_t len)
{
	bool bare = n->kind == KT_FRAME_UNRESOLVED && !strncmp(n->name, "0x", 2);
	const char *name = bare ? "[unknown]" : n->name;

	snprintf(buf, len, "%s%s", strlen(mark(n)) + strlen(name) <= (size_t)w ? mark(n) : "",
		 name);
}

static void draw_box(struct kt_view *v, const struct box *b)
{
	struct flame_view *fv = FV(v);
	int y = screen_row(v, b->row), x = b->x, w = b->w, g = 0;
	bool match = !b->merged && matches(fv, b->node);
	char text[160];
	attr_t a = crt_attr(kind_colour(b));

	if (!b->merged)
		g = growth(fv, b->node);
	if (g)
		a = crt_attr(g > 0 ? CRT_FLAME_GROW : CRT_FLAME_SHRINK);
	if (match)
		a = crt_attr(CRT_MATCH);
	if (!b->merged && b->node == fv->sel)
		a = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	if (b->merged)
		snprintf(text, sizeof(text), "+%u", b->merged);
	else
		frame_label(b->node, w - 1, text, sizeof(text));
	wattrset(v->win, a);
	/* every frame starts with an edge, so neighbours' labels never run together */
	if (fv->ascii)
		mvwaddch(v->win, y, x, match ? '*' : g > 0 ? '+' : g < 0 ? '-' : '|');
	else
		mvwaddstr(v->win, y, x, crt_glyphs()->edge);
	if (w > 1)
		put_cut(v->win, y, x + 1, w - 1 >= FLAME_LABEL_MIN ? text : "", w - 1);
	wattrset(v->win, A_NORMAL);
}

static void fmt_weight(const struct flame_view *fv, uint64_t w, char *buf, size_t len)
{
	if (stacks_unit(fv->st) != KT_STACK_NSEC) {
		snprintf(buf, len, "%llu %s", (unsigned long long)w,
			 stacks_unit_name(stacks_unit(fv->st)));
		return;
	}
	stacks_format_ns(w, buf, len);
}

static void draw_status(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	const struct kt_stack_node *s = fv->sel;
	char line[512], total[48], self[48], diff[64] = "";
	double b;

	if (!s)
		return;
	fmt_weight(fv, shown(fv, s), total, sizeof(total));
	fmt_weight(fv, s->self, self, sizeof(self));
	b = base_pct(fv, s);
	if (b >= 0)
		snprintf(diff, sizeof(diff), "  base %.1f%% %+.1f", b, pct(fv, shown(fv, s)) - b);
	snprintf(line, sizeof(line), "%s%s  total %s %.1f%%  self %s %.1f%%%s", mark(s), s->name, total,
		 pct(fv, shown(fv, s)), self, pct(fv, s->self), diff);
	wattrset(v->win, crt_attr(CRT_STATUS));
	crt_put_pad(v->win, v->h - 1, 0, line, v->w);
	wattrset(v->win, A_NORMAL);
}

static void flame_view_draw(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	char title[320], right[160];
	size_t n = 0;

	ensure_layout(v);
	if (!fv->st) {
		view_draw_title(v, "Flame graph", NULL);
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 2, 1, "No stacks to show. r reads a folded-stacks file", v->w - 2);
		crt_put(v->win, 3, 1, "(ktop --flame FILE; perf script | stackcollapse-perf.pl).",
			v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	snprintf(title, sizeof(title), "Flame graph: %s", fv->name);
	right[0] = '\0';
#define ADD(...) n += (size_t)snprintf(right + n, n < sizeof(right) ? sizeof(right) - n : 0, __VA_ARGS__)
	if (fv->search[0])
		ADD("matched %.1f%%  ", pct(fv, fv->matched));
	if (fv->omitted)
		ADD("omitted %.1f%%  ", pct(fv, fv->omitted));
	if (!fv->scope && shown(fv, stacks_root(fv->st)) < stacks_root(fv->st)->total)
		ADD("idle %.0f%% hidden (i)  ", 100.0 - 100.0 * (double)shown(fv, stacks_root(fv->st)) /
			(double)stacks_root(fv->st)->total);
	if (fv->cpu >= 0)
		ADD("CPU %d  ", fv->cpu);
	if (fv->scope)
		ADD("task %s  ", fv->scope->name);
	if (fv->win)
		ADD("diff last %us  ", stackwin_secs(fv->win));
	else if (fv->base)
		ADD("diff  ");
	if (fv->dropped)
		ADD("past --memory: %llu  ", (unsigned long long)fv->dropped);
	if (ui_range(v->ui)->on)
		ADD("%s", fv->src.range ? "in range  " : ui_range_unscoped(v->ui));
	if (fv->frozen)
		ADD("FROZEN  ");
	ADD("%s", fv->flame ? "flame" : "icicle");
#undef ADD
	view_draw_title(v, title, right);
	for (size_t i = 0; i < fv->nboxes; i++)
		draw_box(v, &fv->boxes[i]);
	draw_status(v);
}

/* ---- keys ----------------------------------------------------------------------------- */

static const struct box *box_of(const struct flame_view *fv, const struct kt_stack_node *n)
{
	for (size_t i = 0; i < fv->nboxes; i++)
		if (!fv->boxes[i].merged && fv->boxes[i].node == n)
			return &fv->boxes[i];
	return NULL;
}

/* The widest shown child of the selection (the hot path). */
static void select_child(struct flame_view *fv)
{
	const struct box *best = NULL;

	for (size_t i = 0; i < fv->nboxes; i++) {
		const struct box *b = &fv->boxes[i];

		if (!b->merged && b->node->parent == fv->sel && (!best || b->w > best->w))
			best = b;
	}
	if (best)
		fv->sel = best->node;
}

static void select_parent(struct flame_view *fv)
{
	if (fv->sel->parent && box_of(fv, fv->sel->parent))
		fv->sel = fv->sel->parent;
}

/* The next frame on the selection's row, dir cells away: its sibling, or its cousin at the
 * end of its siblings. */
static void select_beside(struct flame_view *fv, int dir)
{
	const struct box *cur = box_of(fv, fv->sel), *best = NULL;

	if (!cur)
		return;
	for (size_t i = 0; i < fv->nboxes; i++) {
		const struct box *b = &fv->boxes[i];

		if (b->merged || b->row != cur->row || (dir > 0 ? b->x <= cur->x : b->x >= cur->x))
			continue;
		if (!best || (dir > 0 ? b->x < best->x : b->x > best->x))
			best = b;
	}
	if (best)
		fv->sel = best->node;
}

static void zoom_in(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	if (fv->sel == view_zoom(fv))
		return;
	if (fv->nzoom == FLAME_MAX_ZOOM) {
		ui_message(v->ui, true, "%d zoom levels already: Esc goes back one",
			   FLAME_MAX_ZOOM);
		return;
	}
	fv->zoom[fv->nzoom++] = fv->sel;
	changed(v);
}

/* Esc: back one zoom, else the search off, else the pane closes (but ktop --flame's). */
static int back(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	if (fv->nzoom) {
		fv->sel = fv->zoom[--fv->nzoom];
		changed(v);
		return KT_KEY_HANDLED;
	}
	if (fv->search[0]) {
		fv->search[0] = '\0';
		search_update(fv);
		changed(v);
		return KT_KEY_HANDLED;
	}
	if (fv->pinned) {
		ui_message(v->ui, false, "the whole graph is shown (q quits)");
		return KT_KEY_HANDLED;
	}
	/* last: it may replace the source, and the tree with it */
	if (fv->src.back && fv->src.back(fv->src.arg, v))
		return KT_KEY_HANDLED;
	return KT_KEY_CLOSE;
}

static void toggle_scope(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	const struct kt_stack_node *t = fv->sel;

	if (fv->scope) {
		fv->scope = NULL;
		ui_message(v->ui, false, "all tasks");
	} else {
		while (t && t->depth > 1)
			t = t->parent;
		if (!t || !t->depth) {
			ui_message(v->ui, false, "select a frame of a task first");
			return;
		}
		fv->scope = t;
		fv->sel = t;
		ui_message(v->ui, false, "only task %s (s: all tasks)", t->name);
	}
	fv->nzoom = 0;
	search_update(fv);
	changed(v);
}

static void toggle_idle(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	fv->show_idle = !fv->show_idle;
	/* a zoom or scope inside the idle task has nothing left to show */
	fv->nzoom = 0;
	if (fv->scope && idle_hidden(fv, fv->scope))
		fv->scope = NULL;
	fv->sel = NULL;
	ui_message(v->ui, false, fv->show_idle ? "the idle task (swapper) shown (i: hide it)" :
						 "the idle task (swapper) hidden (i: show it)");
	search_update(fv);
	changed(v);
}

/* Forgets the zooms, the task scope and the selection of the tree before (whose nodes may be
 * gone). */
static void forget_nodes(struct flame_view *fv)
{
	fv->scope = NULL;
	fv->nzoom = 0;
	fv->sel = stacks_root(fv->st);
}

static void cpu_prompt(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	char now[16] = "";

	if (!fv->src.cpu) {
		ui_message(v->ui, false, fv->src.update ?
			   "these stacks are not kept by CPU (c: on-CPU profile, event stacks)" :
			   "a file's stacks say no CPU: c scopes a live profile or event stacks");
		return;
	}
	if (fv->cpu >= 0)
		snprintf(now, sizeof(now), "%d", fv->cpu);
	ui_prompt_open(v->ui, v, FLAME_PROMPT_CPU, "Only CPU (empty: every CPU): ", now);
}

/* The CPU prompt's text: the source keeps that CPU's stacks only, in an emptied tree. */
static void cpu_scope(struct kt_view *v, const char *text)
{
	struct flame_view *fv = FV(v);
	char err[256], *end;
	long cpu = -1;

	while (*text == ' ')
		text++;
	if (*text) {
		cpu = strtol(text, &end, 10);
		while (*end == ' ')
			end++;
		if (*end || cpu < 0 || cpu > 1 << 20) {
			ui_message(v->ui, true, "CPU '%s': give a CPU number, or nothing for every CPU",
				   text);
			return;
		}
	}
	if (fv->src.cpu(fv->src.arg, (int)cpu, err, sizeof(err)) < 0) {
		ui_message(v->ui, true, "%s", err);
		return;
	}
	fv->cpu = (int)cpu;
	stacks_clear(fv->st);
	if (fv->win) {
		stacks_clear(fv->all);
		stackwin_clear(fv->win);
	}
	forget_nodes(fv);
	search_update(fv);
	changed(v);
	if (cpu >= 0)
		ui_message(v->ui, false, "only CPU %ld from now on (c, empty: every CPU)", cpu);
	else
		ui_message(v->ui, false, "every CPU from now on");
}

/* The node of to at the same path as n of the tree before, or NULL. */
static const struct kt_stack_node *same(const struct kt_stacks *to,
					const struct kt_stack_node *n)
{
	return n ? stacks_same_path(to, n) : NULL;
}

/* Shows st instead of the tree before (freed): the zooms, task scope and selection follow
 * their paths, as far as st holds them. */
static void replace_tree(struct flame_view *fv, struct kt_stacks *st)
{
	const struct kt_stack_node *scope = same(st, fv->scope), *sel = same(st, fv->sel);
	int n = 0;

	if (fv->scope && !scope) {
		fv->nzoom = 0;
		sel = NULL;
	}
	while (n < fv->nzoom && (fv->zoom[n] = same(st, fv->zoom[n])))
		n++;
	fv->nzoom = n;
	fv->scope = scope;
	stacks_free(fv->st);
	fv->st = st;
	fv->sel = sel ? sel : view_zoom(fv);
}

static uint64_t now_sec(void)
{
	return clock_mono_ns() / 1000000000ULL;
}

/* The window's tree for this second in place of the one shown. */
static void window_show(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	struct kt_stacks *st = stackwin_tree(fv->win, now_sec());

	if (!st) {
		ui_message(v->ui, true, "out of memory for the diff's last %u s",
			   stackwin_secs(fv->win));
		return;
	}
	replace_tree(fv, st);
	search_update(fv);
	changed(v);
}

/* Ends the live diff's window: the whole profile is shown again. */
static void window_end(struct flame_view *fv)
{
	if (!fv->win)
		return;
	replace_tree(fv, fv->all);
	fv->all = NULL;
	stackwin_free(fv->win);
	fv->win = NULL;
	stacks_free(fv->tick);
	fv->tick = NULL;
}

/* A live source's diff: from now on st is the last win_secs seconds, all the whole profile.
 * Returns false (said why) when out of memory. */
static bool window_start(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	enum kt_stack_unit unit = stacks_unit(fv->st);
	struct kt_stacks *empty = stacks_new(unit);

	fv->win = stackwin_new(unit, fv->win_secs);
	fv->tick = stacks_new(unit);
	if (!fv->win || !fv->tick || !empty) {
		stackwin_free(fv->win);
		fv->win = NULL;
		stacks_free(fv->tick);
		fv->tick = NULL;
		stacks_free(empty);
		ui_message(v->ui, true, "out of memory for the diff's last %u s", fv->win_secs);
		return false;
	}
	/* the window fills from the next tick on */
	fv->all = fv->st;
	fv->st = NULL;
	replace_tree(fv, empty);
	search_update(fv);
	return true;
}

static void take_baseline(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	struct kt_stacks *copy = stacks_dup(fv->st);

	if (!copy) {
		ui_message(v->ui, true, "out of memory for a baseline");
		return;
	}
	stacks_free(fv->base);
	fv->base = copy;
	if (fv->src.range && ui_range(v->ui)->on) {
		/* ranges are compared range to range, not against a sliding window */
		ui_message(v->ui, false, "baseline = this range: mark another (r, @) to compare "
			   "(B: off)");
	} else if (!fv->src.update) {
		ui_message(v->ui, false, "baseline = now: red grows, blue shrinks from here (B: off)");
	} else if (fv->win || window_start(v)) {
		ui_message(v->ui, false, "baseline frozen: the last %u s against it, red grew, blue "
			   "shrank (d: seconds, B: off)", stackwin_secs(fv->win));
	}
	changed(v);
}

static void window_prompt(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	char now[16];

	if (!fv->src.update) {
		ui_message(v->ui, false, "a file does not change: its diff has no window (d)");
		return;
	}
	snprintf(now, sizeof(now), "%u", fv->win_secs);
	ui_prompt_open(v->ui, v, FLAME_PROMPT_WINDOW, "Diff window, seconds: ", now);
}

/* d's text: the window's length from now on, its seconds gathered again. */
static void window_secs(struct kt_view *v, const char *text)
{
	struct flame_view *fv = FV(v);
	char *end;
	long secs = strtol(text, &end, 10);

	while (*end == ' ')
		end++;
	if (end == text || *end || secs < 1 || secs > KT_STACKWIN_MAX_SECS) {
		ui_message(v->ui, true, "diff window '%s': give 1 to %d seconds", text,
			   KT_STACKWIN_MAX_SECS);
		return;
	}
	fv->win_secs = (unsigned)secs;
	if (fv->win) {
		struct kt_stackwin *w = stackwin_new(stacks_unit(fv->st), fv->win_secs);

		if (!w) {
			ui_message(v->ui, true, "out of memory for the diff's last %ld s", secs);
			return;
		}
		stackwin_free(fv->win);
		fv->win = w;
		window_show(v);
	}
	ui_message(v->ui, false, "the diff compares the last %ld s from now on", secs);
}

static int flame_view_key(struct kt_view *v, int key)
{
	struct flame_view *fv = FV(v);

	if (key == 'r') {
		ui_prompt_open(v->ui, v, FLAME_PROMPT_OPEN, "Open folded stacks: ", "");
		return KT_KEY_HANDLED;
	}
	if (!fv->st)
		return key == 27 ? (fv->pinned ? KT_KEY_HANDLED : KT_KEY_CLOSE) : KT_KEY_IGNORED;
	ensure_layout(v);
	switch (key) {
	case KEY_UP:
		fv->flame ? select_child(fv) : select_parent(fv);
		break;
	case KEY_DOWN:
		fv->flame ? select_parent(fv) : select_child(fv);
		break;
	case KEY_LEFT:
		select_beside(fv, -1);
		break;
	case KEY_RIGHT:
		select_beside(fv, 1);
		break;
	case KEY_ENTER:
	case '\n':
	case '\r':
		zoom_in(v);
		break;
	case 27:
	case KEY_BACKSPACE:
	case 127:
	case 8:
		return back(v);
	case '/':
		ui_prompt_open(v->ui, v, FLAME_PROMPT_SEARCH, "Find frames: ", fv->search);
		break;
	case 'Z':
		if (!fv->src.update) {
			ui_message(v->ui, false, "a file does not change: nothing to freeze");
			break;
		}
		fv->frozen = !fv->frozen;
		ui_message(v->ui, false, fv->frozen ? "flame graph frozen (Z: go on)" :
			   "flame graph follows the stacks again");
		break;
	case 'v':
		fv->flame = !fv->flame;
		break;
	case 'a':
		fv->ascii = !fv->ascii;
		break;
	case 's':
		toggle_scope(v);
		break;
	case 'c':
		cpu_prompt(v);
		break;
	case 'b':
		take_baseline(v);
		break;
	case 'B':
		stacks_free(fv->base);
		fv->base = NULL;
		window_end(fv);
		search_update(fv);
		changed(v);
		break;
	case 'd':
		window_prompt(v);
		break;
	case 'i':
		toggle_idle(v);
		break;
	default:
		/* last: it may replace the source, and the tree with it */
		return fv->src.key ? fv->src.key(fv->src.arg, v, key) : KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void flame_view_click(struct kt_view *v, int y, int x)
{
	struct flame_view *fv = FV(v);

	ensure_layout(v);
	for (size_t i = 0; i < fv->nboxes; i++) {
		const struct box *b = &fv->boxes[i];

		if (screen_row(v, b->row) != y || x < b->x || x >= b->x + b->w)
			continue;
		/* a merged block: its frames' parent */
		fv->sel = b->node;
		v->dirty = true;
		return;
	}
}

/* Puts st in the pane, forgetting the zooms, scope and selection of the tree before. */
static void set_tree(struct kt_view *v, struct kt_stacks *st, struct kt_stacks *base,
		     const char *name)
{
	struct flame_view *fv = FV(v);

	window_end(fv);
	stacks_free(fv->st);
	stacks_free(fv->base);
	fv->st = st;
	fv->base = base;
	fv->dropped = 0;
	snprintf(fv->name, sizeof(fv->name), "%s (%s)", name,
		 stacks_unit_name(stacks_unit(st)));
	fv->cpu = -1;
	forget_nodes(fv);
	search_update(fv);
	changed(v);
}

static void flame_view_prompt(struct kt_view *v, int id, const char *text,
			      enum kt_prompt_event ev)
{
	struct flame_view *fv = FV(v);
	struct kt_stacks *st;
	char err[512];

	if (id == FLAME_PROMPT_SEARCH) {
		if (ev == KT_PROMPT_COMPLETE)
			return;
		snprintf(fv->search, sizeof(fv->search), "%s",
			 ev == KT_PROMPT_CANCEL ? "" : text);
		search_update(fv);
		changed(v);
		return;
	}
	if (id == FLAME_PROMPT_CPU || id == FLAME_PROMPT_WINDOW) {
		if (ev == KT_PROMPT_ACCEPT)
			(id == FLAME_PROMPT_CPU ? cpu_scope : window_secs)(v, text);
		return;
	}
	if (ev != KT_PROMPT_ACCEPT || !*text)
		return;
	/* a bad file changes nothing: the pane keeps what it showed */
	st = folded_load(text, err, sizeof(err));
	if (!st) {
		ui_message(v->ui, true, "open: %s", err);
		return;
	}
	set_tree(v, st, NULL, text);
}

/* ---- the rest ------------------------------------------------------------------------- */

static void flame_view_init(struct kt_view *v)
{
	struct flame_view *fv = xcalloc(1, sizeof(*fv));

	v->data = fv;
	fv->cpu = -1;
	fv->win_secs = FLAME_WINDOW_SECS;
	/* without colour, frames need the ASCII edges to be told apart */
	fv->ascii = v->app->opts->ascii || !crt_colors();
}

static void flame_view_free(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	ui_prompt_drop(v->ui, v);
	if (fv->src.close)
		fv->src.close(fv->src.arg);
	window_end(fv);
	stacks_free(fv->st);
	stacks_free(fv->base);
	free(fv->boxes);
	free(fv);
}

static void flame_view_resize(struct kt_view *v)
{
	changed(v);
}

/* The live diff's tick: the seconds that left the window are taken out of the tree shown,
 * and what the source gives goes into this second of the window, into the tree shown and
 * into the whole profile (bounded as the profile bounds its tree): the cost is what comes
 * and goes, not what the window holds. Once the tree shown carries more emptied nodes than
 * live ones, it is made again from the window. */
static void window_tick(struct kt_view *v)
{
	struct flame_view *fv = FV(v);
	uint64_t sec = now_sec();

	stackwin_expire(fv->win, sec, fv->st);
	stacks_clear(fv->tick);
	if (fv->src.update(fv->src.arg, fv->tick) &&
	    (stackwin_add(fv->win, fv->tick, sec) < 0 ||
	     stacks_merge(fv->st, fv->tick, 0, NULL) < 0 ||
	     stacks_merge(fv->all, fv->tick, v->app->opts->memory_bytes / 4, &fv->dropped) < 0))
		ui_message(v->ui, true, "out of memory for the diff's stacks");
	if (stacks_nodes(fv->st) > 2 * stackwin_nodes(fv->win) + FLAME_WINDOW_SLACK) {
		window_show(v);
		return;
	}
	search_update(fv);
	changed(v);
}

static void flame_view_tick(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	if (!fv->src.update || fv->frozen || ui_paused(v->ui) || !fv->st)
		return;
	if (fv->win) {
		window_tick(v);
		return;
	}
	/* sources only add (view.h): nodes stay where they are, so do zooms and selection */
	if (fv->src.update(fv->src.arg, fv->st)) {
		search_update(fv);
		changed(v);
	}
}

static const struct funcbar_item flame_items[] = {
	{ "Enter", "Zoom" }, { "Esc", "Back" }, { "/", "Find" },  { "Z", "Freeze" },
	{ "v", "Flip" },     { "s", "Task" },   { "b", "Base" },  { "a", "ASCII" },
	{ "r", "Read" },     { "F10", "Quit" },
};

static int flame_view_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	(void)v;
	*items = flame_items;
	return (int)(sizeof(flame_items) / sizeof(flame_items[0]));
}

void view_flame_show(struct kt_view *v, struct kt_stacks *st, struct kt_stacks *base,
		     const char *name, const struct kt_flame_source *src, bool pinned)
{
	struct flame_view *fv = FV(v);

	if (fv->src.close)
		fv->src.close(fv->src.arg);
	memset(&fv->src, 0, sizeof(fv->src));
	if (src)
		fv->src = *src;
	fv->pinned = pinned;
	set_tree(v, st, base, name);
}

const struct kt_stack_node *view_flame_selected(struct kt_view *v)
{
	struct flame_view *fv = FV(v);

	return fv->st ? fv->sel : NULL;
}

struct kt_stacks *view_flame_detach(struct kt_view *v, struct kt_flame_source *src)
{
	struct flame_view *fv = FV(v);
	struct kt_stacks *st;

	window_end(fv);
	st = fv->st;
	*src = fv->src;
	memset(&fv->src, 0, sizeof(fv->src));
	fv->st = NULL;
	fv->sel = NULL;
	fv->scope = NULL;
	fv->nzoom = 0;
	stacks_free(fv->base);
	fv->base = NULL;
	changed(v);
	return st;
}

/* A range marked or cleared: a source whose stacks have times shows the range's; the
 * baseline stays, so b on one range and a second range compare them (red: grew in the
 * second). Stacks without times stay whole, and the pane says so. */
static void flame_view_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct flame_view *fv = FV(v);
	struct kt_stacks *base;

	if (ev != KT_EV_RANGE || !fv->st)
		return;
	v->dirty = true;
	if (!fv->src.range) {
		if (ui_range(v->ui)->on)
			ui_message(v->ui, false, "flame graph: %s has no times: it stays whole, "
				   "not the range", fv->name);
		return;
	}
	base = fv->base;
	fv->base = NULL;
	fv->src.range(fv->src.arg, v);
	if (fv->base) {
		stacks_free(base);
		return;
	}
	fv->base = base;
	search_update(fv);
	changed(v);
	if (base && ui_range(v->ui)->on)
		ui_message(v->ui, false, "flame graph: this range against the baseline (b): red "
			   "grew, blue shrank (B: off)");
}

/* Opened by its key on a live session it starts a live source (flame_live.h) that feeds it
 * each tick; on a recording it shows the recording's profile. */
static void flame_view_opened(struct kt_view *v)
{
	if (app_can(v->app, KT_CAP_EVENTS) || app_can(v->app, KT_CAP_SEEK))
		flame_live_open(v);
}

static const struct kt_keyhelp flame_keys[] = {
	{ "Enter", "zoom into the selected frame" },
	{ "Esc Backspace", "back one zoom" },
	{ "/", "find frames: the matched share" },
	{ "Z", "freeze a live graph" },
	{ "v a", "icicle / flame, ASCII" },
	{ "s", "only the selected task" },
	{ "c", "only one CPU (live; emptied)" },
	{ "C", "live: on-CPU / off-CPU / event stacks" },
	{ "b B", "baseline = now / diff off" },
	{ "d", "live diff: the last N seconds" },
	{ "i", "the idle task (swapper) shown / hidden" },
	{ "y", "off-CPU: each wait under its waker (why)" },
	{ "Y", "wakers of the selected frame: a chain" },
	{ "r", "read a folded-stacks file" },
	{ NULL, NULL },
};

const struct kt_view_ops view_flame_ops = {
	.name = "flame",
	.title = "Flame graph (I)",
	.keys = flame_keys,
	.init = flame_view_init,
	.free = flame_view_free,
	.resize = flame_view_resize,
	.draw = flame_view_draw,
	.key = flame_view_key,
	.tick = flame_view_tick,
	.prompt = flame_view_prompt,
	.funcbar = flame_view_funcbar,
	.click = flame_view_click,
	.opened = flame_view_opened,
	.notify = flame_view_notify,
};
