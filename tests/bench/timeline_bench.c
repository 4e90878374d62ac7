// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline pane (issue 33) on a big recording, the way ktop -i FILE runs it: the
 * recording opened (app_open_recording, --memory 64M), the pane made from the registry's
 * row and drawn into an 80x24 window of a screen on /dev/null (werase, draw, wnoutrefresh,
 * doupdate, as the screen does). Prints, beside the targets:
 *   - the first screen: from the pane's opening to its first frame with a CPU lane drawn,
 *     wall and the process's CPU (the index threads' included);
 *   - a frame (a key, + _ < >, then the redraw) at every zoom level from the whole file
 *     down to 1 ns a column: the UI thread's CPU per frame, median and worst, while the
 *     index is still being built and once it is through;
 *   - the index: its bytes as counted, and the resident size it added, against the file.
 * CPU times, not wall: the machine is shared. Never fails on the numbers.
 *
 *   timeline_bench FILE
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "app/app.h"
#include "app/options.h"
#include "backend/callgraph/timeindex.h"
#include "ui/pane.h"
#include "ui/panes/timeaxis.h"
#include "ui/screen.h"
#include "ui/view.h"

#define FIRST_MS 200.0
#define FRAME_MS 30.0
#define INDEX_SHARE 0.10
#define MAX_FRAMES 512

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The process's CPU: the UI thread's and the index threads'. */
static double proc_cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = atol(line + 6);
	if (f)
		fclose(f);
	return kb;
}

static void redraw(struct kt_view *v)
{
	werase(v->win);
	v->ops->draw(v);
	wnoutrefresh(v->win);
	doupdate();
}

/* Whether CPU 0's lane (the first lane row) has anything drawn in it. */
static bool lane_drawn(struct kt_view *v)
{
	for (int x = 9; x < v->w; x++)
		if ((mvwinch(v->win, 3, x) & A_CHARTEXT) != ' ')
			return true;
	return false;
}

static bool indexed(struct kt_view *v)
{
	struct kt_ti_info info;

	timeindex_info(timeaxis_index(v), &info);
	return info.done;
}

struct frames {
	double ms[MAX_FRAMES], wall[MAX_FRAMES];
	int n;
};

/* One frame: the key, then the redraw; the UI thread's CPU for both, and the wall time
 * (which also counts waits for the index's lock, and the host's other work). */
static void frame(struct kt_view *v, int key, struct frames *f)
{
	double t0 = clock_ms(CLOCK_THREAD_CPUTIME_ID), w0 = clock_ms(CLOCK_MONOTONIC);

	v->ops->key(v, key);
	redraw(v);
	if (f->n < MAX_FRAMES) {
		f->wall[f->n] = clock_ms(CLOCK_MONOTONIC) - w0;
		f->ms[f->n++] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - t0;
	}
}

/* Zoom in level by level from the whole view down to a nanosecond a column, panning both
 * ways at each level, then out again to the whole. */
static void sweep(struct kt_view *v, struct frames *f)
{
	char title[81];
	int levels = 0;

	do {
		frame(v, '>', f);
		frame(v, '<', f);
		frame(v, '+', f);
		levels++;
		mvwinnstr(v->win, 0, 0, title, 80);
	} while (!strstr(title, " 1ns a column") && levels < 64);
	while (levels-- > 0)
		frame(v, '_', f);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report_frames(const char *what, struct frames *f)
{
	double sum = 0;

	if (!f->n)
		return;
	qsort(f->ms, (size_t)f->n, sizeof(f->ms[0]), cmp_double);
	qsort(f->wall, (size_t)f->n, sizeof(f->wall[0]), cmp_double);
	for (int i = 0; i < f->n; i++)
		sum += f->ms[i];
	printf("%-44s %6.2f ms median, %6.2f ms worst, %6.2f ms mean of %d, CPU (target <= %.0f "
	       "ms each)\n", what, f->ms[f->n / 2], f->ms[f->n - 1], sum / f->n, f->n, FRAME_MS);
	printf("%-44s %6.2f ms median, %6.2f ms worst, wall\n", "", f->wall[f->n / 2],
	       f->wall[f->n - 1]);
}

static void loadavg(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	char line[128];

	if (f && fgets(line, sizeof(line), f))
		printf("timeline bench: load average %s", line);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	char dash_i[] = "-i", dash_mem[] = "--memory", mem[] = "64M", none[] = "";
	char *args[] = { argv[0], dash_i, argc > 1 ? argv[1] : none, dash_mem, mem, NULL };
	struct timespec one_ms = { 0, 1000000 }, tick = { 0, 20000000 };
	struct kt_options opts;
	struct kt_app app;
	struct kt_ui ui;
	struct kt_view v;
	struct frames during = { .n = 0 }, after = { .n = 0 };
	struct kt_ti_info info;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	double w0, c0, first_wall, first_cpu, idx_wall, idx_cpu;
	long rss0, rss1, rss_freed;
	char err[512];
	struct stat sb;
	SCREEN *scr;

	if (argc != 2 || !out || !in || stat(argv[1], &sb) < 0) {
		fprintf(stderr, "usage: %s RECORDING (a trace.dat)\n", argv[0]);
		return 2;
	}
	if (options_parse(5, args, &opts, err, sizeof(err)) ||
	    app_open_recording(&app, &opts, err, sizeof(err))) {
		fprintf(stderr, "timeline_bench: %s\n", err);
		return 1;
	}
	scr = newterm("xterm-256color", out, in);
	if (!scr) {
		fprintf(stderr, "timeline_bench: no terminfo for xterm-256color\n");
		return 1;
	}
	start_color();
	loadavg();
	memset(&ui, 0, sizeof(ui));
	memset(&v, 0, sizeof(v));
	ui.app = &app;
	v.ops = pane_kind("timeline")->ops;
	v.ui = &ui;
	v.app = &app;
	v.focused = true;
	v.win = newwin(24, 80, 0, 0);
	v.w = 80;
	v.h = 24;
	rss0 = rss_kb();
	w0 = clock_ms(CLOCK_MONOTONIC);
	c0 = proc_cpu_ms();
	v.ops->init(&v);
	for (;;) {
		v.ops->tick(&v);
		redraw(&v);
		if (lane_drawn(&v))
			break;
		if (clock_ms(CLOCK_MONOTONIC) - w0 > 60000) {
			fprintf(stderr, "timeline_bench: no CPU lane drawn in 60 s\n");
			return 1;
		}
		nanosleep(&one_ms, NULL);
	}
	first_wall = clock_ms(CLOCK_MONOTONIC) - w0;
	first_cpu = proc_cpu_ms() - c0;
	if (!indexed(&v))
		sweep(&v, &during);
	while (!indexed(&v)) {
		v.ops->tick(&v);
		nanosleep(&tick, NULL);
	}
	idx_wall = clock_ms(CLOCK_MONOTONIC) - w0;
	idx_cpu = proc_cpu_ms() - c0;
	v.ops->tick(&v);
	redraw(&v);
	sweep(&v, &after);
	timeindex_info(timeaxis_index(&v), &info);
	/* what freeing the index gives back: its share of the resident size, without the
	 * store's pages (filled from the file meanwhile) */
	rss1 = rss_kb();
	v.ops->free(&v);
	rss_freed = rss1 - rss_kb();

	printf("timeline bench: %s, %lld MiB, %llu records, 80x24\n", argv[1],
	       (long long)sb.st_size >> 20, (unsigned long long)info.records);
	printf("%-44s %6.0f ms wall, %6.0f ms CPU (target <= %.0f ms)\n",
	       "first screen (a CPU lane drawn)", first_wall, first_cpu, FIRST_MS);
	report_frames("a frame, zoom/pan, index being built", &during);
	report_frames("a frame, zoom/pan, indexed", &after);
	printf("%-44s %6.0f ms wall, %6.0f ms CPU\n", "the index through the file", idx_wall,
	       idx_cpu);
	printf("%-44s %6.1f MiB counted, %.1f%% of the file (target <= %.0f%%)\n",
	       "the index's memory", (double)info.bytes / 1048576,
	       100.0 * (double)info.bytes / (double)sb.st_size, INDEX_SHARE * 100);
	printf("%-44s %6.1f MiB given back when it is freed (%.1f%%); the process grew %.1f "
	       "MiB, the 64 MiB store filling included\n", "", (double)rss_freed / 1024,
	       100.0 * (double)rss_freed * 1024 / (double)sb.st_size, (double)(rss1 - rss0) / 1024);
	loadavg();
	delwin(v.win);
	endwin();
	delscreen(scr);
	app_close(&app);
	options_free(&opts);
	fclose(out);
	fclose(in);
	return 0;
}
