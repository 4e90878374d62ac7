// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ring-buffer pane: exact about what was lost, CPU by CPU. For each CPU of the capture
 * the kernel's own counters of ktop's instance (per_cpu/cpuN/stats, as app_tick samples
 * them each tick: events still buffered, overwritten, lost in a nested commit, dropped when
 * the buffer was full, read, bytes buffered, the oldest buffered event's age) beside what
 * ktop's reader took from that CPU (events, pages, events its pages said were missed, pages
 * that said so without a count). Both count from the capture's last start (a tracer switch
 * resets the buffers and restarts the reader). Every figure is whole, never rounded. With
 * several remote hosts each CPU is named by its host ("db-1/3"), every host's after the one
 * before's: each host's loss, CPU by CPU.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/ingest/loss.h"
#include "backend/ingest/reader.h"
#include "source/source.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define HEAD_LINES 2 /* title, column names */
#define HSTEP 10     /* Left and Right move the figures this many cells */

struct rings {
	int top;  /* the first CPU shown */
	int left; /* cells of the figures scrolled out on the left; the CPU column stays */
};

static void rings_init(struct kt_view *v)
{
	v->data = xcalloc(1, sizeof(struct rings));
}

/* line in the pane's width: its first nw + 1 cells (the CPU column) where they are, the
 * rest from the scroll on, so every column can be reached at 80 columns. */
static void put_scrolled(struct kt_view *v, int y, int nw, const char *line)
{
	struct rings *rg = v->data;
	int len = (int)strlen(line), keep = nw + 1 < len ? nw + 1 : len;

	if (rg->left > len - keep - (v->w - keep))
		rg->left = len - keep - (v->w - keep);
	if (rg->left < 0)
		rg->left = 0;
	crt_put_pad(v->win, y, 0, "", v->w);
	crt_put(v->win, y, 0, line, keep < v->w ? keep : v->w);
	if (keep < v->w)
		crt_put_pad(v->win, y, keep, line + keep + rg->left, v->w - keep);
}

static void rings_free(struct kt_view *v)
{
	free(v->data);
}

static void rings_resize(struct kt_view *v)
{
	v->dirty = true;
}

/* The oldest buffered event's age, "2.514697s" (the kernel's microseconds); "-" when the
 * buffer holds none or the kernel does not say. */
static void fmt_age(const struct kt_cpu_stats *st, char *buf, size_t len)
{
	uint64_t us;

	if (!st->entries || !st->oldest_us || st->now_us < st->oldest_us) {
		snprintf(buf, len, "-");
		return;
	}
	us = st->now_us - st->oldest_us;
	snprintf(buf, len, "%llu.%06llus", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
}

/* One row: "cpu3" (several hosts: "db-1/3") or "all" in nw cells, the kernel's figures,
 * then the reader's. */
static void put_row(struct kt_view *v, int y, int nw, const char *name,
		    const struct kt_cpu_stats *k, const struct kt_reader_stats *r, const char *age)
{
	char line[400];

	snprintf(line, sizeof(line),
		 "%-*s %9llu %9llu %6llu %9llu %11llu %10llu %10s | %11llu %7llu %8llu %5llu",
		 nw, name, (unsigned long long)k->entries, (unsigned long long)k->overrun,
		 (unsigned long long)k->commit_overrun, (unsigned long long)k->dropped_events,
		 (unsigned long long)k->read_events, (unsigned long long)k->bytes, age,
		 (unsigned long long)r->events, (unsigned long long)r->pages,
		 (unsigned long long)r->missed, (unsigned long long)r->missed_unknown);
	put_scrolled(v, y, nw, line);
}

static void rings_draw(struct kt_view *v)
{
	const struct kt_app *app = v->app;
	struct kt_cpu_stats all = { 0 };
	struct kt_reader_stats rall = { 0 };
	struct rings *rg = v->data;
	int *top = &rg->top, rows = v->h - HEAD_LINES - 1, cpu, y, nw = 5;
	char right[64], name[80], age[32], head[200];
	const char *host;
	uint32_t local;

	snprintf(right, sizeof(right), "lost %llu", (unsigned long long)app->kernel_lost);
	view_draw_title(v, "Ring buffers per CPU: kernel | ktop's reader", right);
	if (v->h < 2)
		return;
	for (cpu = 0; cpu < app->ncpus; cpu++) {
		host = source_cpu_host(app->source, (uint32_t)cpu, &local);
		if (host && (int)strlen(host) + 1 + snprintf(NULL, 0, "%u", local) > nw)
			nw = (int)strlen(host) + 1 + snprintf(NULL, 0, "%u", local);
	}
	snprintf(head, sizeof(head), "%-*s   entries   overrun commit   dropped        read      "
		 "bytes     oldest |   ktop read   pages   missed  ?pgs", nw, "CPU");
	wattrset(v->win, crt_attr(CRT_DIM));
	put_scrolled(v, 1, nw, head);
	wattrset(v->win, A_NORMAL);
	if ((int)strlen(head) > v->w) {
		snprintf(right, sizeof(right), "lost %llu  %s", (unsigned long long)app->kernel_lost,
			 rg->left ? "< Left" : "Right >");
		view_draw_title(v, "Ring buffers per CPU: kernel | ktop's reader", right);
	}
	if (!app->cpu_stats || !app->cpu_rstats) {
		crt_put_pad(v->win, HEAD_LINES, 1, "no ring buffers: ktop reads no kernel here",
			    v->w - 1);
		return;
	}
	if (*top > app->ncpus - rows)
		*top = app->ncpus - rows;
	if (*top < 0)
		*top = 0;
	for (cpu = 0; cpu < app->ncpus; cpu++) {
		const struct kt_cpu_stats *k = &app->cpu_stats[cpu];
		const struct kt_reader_stats *r = &app->cpu_rstats[cpu];

		all.entries += k->entries;
		all.overrun += k->overrun;
		all.commit_overrun += k->commit_overrun;
		all.dropped_events += k->dropped_events;
		all.read_events += k->read_events;
		all.bytes += k->bytes;
		rall.events += r->events;
		rall.pages += r->pages;
		rall.missed += r->missed;
		rall.missed_unknown += r->missed_unknown;
		y = HEAD_LINES + cpu - *top;
		if (cpu < *top || y >= HEAD_LINES + rows)
			continue;
		host = source_cpu_host(app->source, (uint32_t)cpu, &local);
		if (host)
			snprintf(name, sizeof(name), "%.64s/%u", host, local);
		else
			snprintf(name, sizeof(name), "cpu%d", cpu);
		fmt_age(k, age, sizeof(age));
		put_row(v, y, nw, name, k, r, age);
	}
	if (rows >= 0 && v->h > HEAD_LINES) {
		wattrset(v->win, crt_attr(CRT_TITLE));
		put_row(v, v->h - 1, nw, "all", &all, &rall, "");
		wattrset(v->win, A_NORMAL);
	}
}

static int rings_key(struct kt_view *v, int key)
{
	struct rings *rg = v->data;

	if (key == KEY_UP)
		rg->top--;
	else if (key == KEY_DOWN)
		rg->top++;
	else if (key == KEY_LEFT)
		rg->left -= HSTEP; /* the draw keeps it in the line */
	else if (key == KEY_RIGHT)
		rg->left += HSTEP;
	else if (key == 27) /* Esc */
		return KT_KEY_CLOSE;
	else
		return KT_KEY_IGNORED;
	v->dirty = true;
	return KT_KEY_HANDLED;
}

/* app_tick sampled new figures. */
static void rings_tick(struct kt_view *v)
{
	v->dirty = true;
}

static const struct funcbar_item rings_items[] = {
	{ "j/k", "Scroll" }, { "h/l", "Sideways" }, { "Esc", "Close" }, { "F10", "Quit" },
};

static int rings_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = rings_items;
	return (int)(sizeof(rings_items) / sizeof(rings_items[0]));
}

static const struct kt_keyhelp rings_keys[] = {
	{ "Esc", "close the pane" },
	{ NULL, NULL },
};

const struct kt_view_ops view_rings_ops = {
	.name = "rings",
	.title = "Ring buffers (D)",
	.keys = rings_keys,
	.init = rings_init,
	.free = rings_free,
	.resize = rings_resize,
	.draw = rings_draw,
	.key = rings_key,
	.tick = rings_tick,
	.funcbar = rings_funcbar,
};
