// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flame graph pane's redraw on big trees of 100 k unique stacks: a deep one (40 tasks,
 * one with half the stacks, each a few deep hot paths that stacks leave at every depth, as
 * real profiles are) and a flat one (every stack a different function called by the same one, the worst case
 * for the children sorted on each layout), laid out and drawn into an 80x20 and a 200x55
 * pane the way the screen does it (werase, draw, wnoutrefresh, doupdate, to /dev/null);
 * prints the mean time of one redraw and its ratio to the 100 ms a frame has at the
 * screen's 10 frames a second. Then the live diff's own cost each tick: its window of the
 * last 5 seconds (backend/stacks/stackwin.h) of 100 k unique stacks moved on by a second, against
 * the same budget, and the tree made again from the seconds. Never fails on the numbers.
 *
 *   flame_bench [STACKS] [REDRAWS]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/app.h"
#include "backend/stacks/stacks.h"
#include "backend/stacks/stackwin.h"
#include "ui/pane.h"
#include "ui/screen.h"
#include "ui/view.h"

#define FRAME_BUDGET_MS 100.0

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long rng = 88172645463325252ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void add(struct kt_stacks *st, const struct kt_frame *f, size_t n, uint64_t w)
{
	if (stacks_add(st, f, n, w) < 0) {
		fprintf(stderr, "flame_bench: out of memory\n");
		exit(1);
	}
}

/* Real profiles' shape: a few hot paths, deep, with stacks leaving them at every depth
 * into a tail of rarer calls. Eight paths of 48 frames per task; a stack follows one for 1
 * to 48 frames, then 1 to 8 frames drawn from 3000 names. */
static struct kt_stacks *deep_tree(size_t want)
{
	static char names[3000][24];
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	struct kt_frame f[1 + 48 + 8];

	for (int i = 0; i < 3000; i++)
		snprintf(names[i], sizeof(names[i]), "%s_fn%d", i % 3 ? "lib" : "kernel", i);
	while (stacks_leaves(st) < want) {
		unsigned task = rnd(2) ? 0 : rnd(40), path = rnd(8), along = 1 + rnd(48);
		unsigned tail = 1 + rnd(8), n = 0;
		char comm[16];

		snprintf(comm, sizeof(comm), "task%u", task);
		f[n++] = (struct kt_frame){ comm, KT_FRAME_TASK };
		for (unsigned d = 0; d < along; d++)
			f[n++] = (struct kt_frame){ names[(path * 48 + d) % 3000], KT_FRAME_USER };
		while (tail--)
			f[n++] = (struct kt_frame){ names[rnd(3000)], KT_FRAME_USER };
		add(st, f, n, 1 + rnd(100));
	}
	return st;
}

static struct kt_stacks *flat_tree(size_t want)
{
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	char leaf[32];
	struct kt_frame f[] = { { "app", KT_FRAME_TASK }, { "main", KT_FRAME_USER },
				{ leaf, KT_FRAME_USER } };

	for (size_t i = 0; i < want; i++) {
		snprintf(leaf, sizeof(leaf), "fn%zu", i);
		add(st, f, 3, 1 + rnd(100));
	}
	return st;
}

static void bench(struct kt_view *v, const char *shape, int w, int h, int redraws)
{
	double t0, ms;
	int rows = 0;

	if (v->win)
		delwin(v->win);
	v->win = newwin(h, w, 0, 0);
	v->w = w;
	v->h = h;
	t0 = now();
	for (int i = 0; i < redraws; i++) {
		v->ops->resize(v); /* the layout is made again, as after new stacks */
		werase(v->win);
		v->ops->draw(v);
		wnoutrefresh(v->win);
		doupdate();
	}
	ms = (now() - t0) * 1e3 / redraws;
	/* what was drawn: frame rows (all but the title and status lines) holding text */
	for (int y = 1; y < h - 1; y++)
		for (int x = 0; x < w; x++)
			if ((mvwinch(v->win, y, x) & A_CHARTEXT) != ' ') {
				rows++;
				break;
			}
	printf("flame pane, %s, %dx%d (%d rows of frames drawn): %.2f ms a redraw, %.3f of the "
	       "%.0f ms frame budget (10 frames/s)\n", shape, w, h, rows, ms,
	       ms / FRAME_BUDGET_MS, FRAME_BUDGET_MS);
}

static void need(bool ok)
{
	if (!ok) {
		fprintf(stderr, "flame_bench: out of memory\n");
		exit(1);
	}
}

/* The live diff's window of 5 seconds, want / 5 unique stacks a second (new ones each
 * second, the worst case): a tick that moves it on by a second (the second that left taken
 * out of the tree shown, the new one added), and the tree made again from the seconds
 * (done when the tree shown carries too many emptied nodes). */
static void bench_window(size_t want)
{
	struct kt_stackwin *w = stackwin_new(KT_STACK_SAMPLES, 5);
	struct kt_stacks *sec_tree[10], *shown = stacks_new(KT_STACK_SAMPLES), *again;
	double t0, tick_ms, again_ms;

	need(w && shown);
	for (unsigned sec = 0; sec < 10; sec++)
		need((sec_tree[sec] = deep_tree(want / 5)) != NULL);
	for (unsigned sec = 0; sec < 5; sec++)
		need(stackwin_add(w, sec_tree[sec], sec) == 0 &&
		     stacks_merge(shown, sec_tree[sec], 0, NULL) == 0);
	t0 = now();
	for (unsigned sec = 5; sec < 10; sec++) {
		stackwin_expire(w, sec, shown);
		need(stackwin_add(w, sec_tree[sec], sec) == 0 &&
		     stacks_merge(shown, sec_tree[sec], 0, NULL) == 0);
	}
	tick_ms = (now() - t0) * 1e3 / 5;
	t0 = now();
	need((again = stackwin_tree(w, 9)) != NULL);
	again_ms = (now() - t0) * 1e3;
	printf("live diff, 5 s window of %zu unique stacks (deep, %zu new a second): %.2f ms a "
	       "tick, %.3f of the %.0f ms frame budget; made again: %.2f ms\n",
	       stacks_leaves(again), want / 5, tick_ms, tick_ms / FRAME_BUDGET_MS,
	       FRAME_BUDGET_MS, again_ms);
	stacks_free(again);
	stacks_free(shown);
	for (unsigned sec = 0; sec < 10; sec++)
		stacks_free(sec_tree[sec]);
	stackwin_free(w);
}

int main(int argc, char **argv)
{
	size_t want = argc > 1 ? (size_t)atol(argv[1]) : 100000;
	int redraws = argc > 2 ? atoi(argv[2]) : 50;
	struct kt_stacks *(*const make[])(size_t) = { deep_tree, flat_tree };
	const char *const kind[] = { "deep", "flat" };
	struct kt_options opts;
	struct kt_app app;
	struct kt_ui ui;
	struct kt_view v;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;

	if (!out || !in || want < 1 || redraws < 1) {
		fprintf(stderr, "usage: %s [STACKS] [REDRAWS]\n", argv[0]);
		return 2;
	}
	scr = newterm("xterm-256color", out, in);
	if (!scr) {
		fprintf(stderr, "flame_bench: no terminfo for xterm-256color\n");
		return 1;
	}
	start_color();
	memset(&opts, 0, sizeof(opts));
	memset(&app, 0, sizeof(app));
	memset(&ui, 0, sizeof(ui));
	memset(&v, 0, sizeof(v));
	app.opts = &opts;
	ui.app = &app;
	v.ops = pane_kind("flame")->ops; /* the registry's row (ui/pane.h) */
	v.ui = &ui;
	v.app = &app;
	v.focused = true;
	v.ops->init(&v);
	for (size_t i = 0; i < sizeof(make) / sizeof(make[0]); i++) {
		struct kt_stacks *st = make[i](want);
		char shape[128];

		snprintf(shape, sizeof(shape), "%zu unique stacks, %s (%zu frames)",
			 stacks_leaves(st), kind[i], stacks_nodes(st));
		view_flame_show(&v, st, NULL, "bench", NULL, false);
		bench(&v, shape, 80, 20, redraws);
		bench(&v, shape, 200, 55, redraws);
	}
	bench_window(want);
	v.ops->free(&v);
	delwin(v.win);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return 0;
}
