// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream pane's split view: a column per CPU on one time axis, a row per event in its
 * CPU's column, filled bottom-up by one backward pass over the store (stream.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/ingest/store.h"
#include "source/source.h"
#include "ui/layout.h"
#include "stream.h"

#define SPLIT_SCAN_LIMIT 200000	      /* records scanned back to fill the CPU columns */

int stream_split_columns(struct kt_view *v)
{
	struct stream *st = S(v);
	int nc = stream_ncpus(v), fit = (v->w + 1) / (SPLIT_MIN_W + 1);

	if (fit < 1)
		fit = 1;
	if (st->cpu_off > nc - 1)
		st->cpu_off = nc - 1;
	if (st->cpu_off < 0)
		st->cpu_off = 0;
	return nc - st->cpu_off < fit ? nc - st->cpu_off : fit;
}

void stream_draw_split(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_store *store = v->app->store;
	struct kt_rect cols[KT_LAYOUT_MAX * 8], area;
	const struct crt_glyphs *g = crt_glyphs();
	int rows_h = v->h - 2, ncol = stream_split_columns(v), *col;
	int c, i, y, total = 0;
	uint64_t first, end, seq, oldest = UINT64_MAX, scanned = 0;
	struct kt_rec r;
	const char *host;
	uint32_t hcpu;
	char hdr[96];

	if (rows_h <= 0)
		return;
	if (ncol > (int)(sizeof(cols) / sizeof(cols[0])))
		ncol = (int)(sizeof(cols) / sizeof(cols[0]));
	if (rows_h > st->nrows)
		rows_h = st->nrows;
	col = malloc((size_t)rows_h * sizeof(*col));
	if (!col)
		return;
	area = (struct kt_rect){ 0, 2, v->w, rows_h };
	layout_split(area, ncol, true, 1, cols);

	/* One time axis, as KernelShark's list: each row is one event, the newest at the
	 * bottom, starting in its CPU's column; one backward pass fills the rows up, idle CPUs
	 * stopping it at the scan limit rather than at the start of the store. */
	store_lock(store);
	stream_view_range(v, store, &first, &end);
	stream_note_held(v, first, end);
	if (end > first) {
		if (st->follow)
			st->cur = end - 1;
		if (st->cur < first)
			st->cur = first;
		if (st->cur >= end)
			st->cur = end - 1;
		/* At the start (a recording opens there, Home goes there) the rows fill down. */
		if (!st->follow && st->cur - first < (uint64_t)rows_h - 1)
			st->cur = end - first > (uint64_t)rows_h ? first + (uint64_t)rows_h - 1 : end - 1;
		for (seq = st->cur + 1; seq > first && total < rows_h &&
					scanned < SPLIT_SCAN_LIMIT; scanned++) {
			seq--;
			if (!store_get(store, seq, &r))
				continue;
			c = (int)r.cpu - st->cpu_off;
			if (c < 0 || c >= ncol || !view_stream_row_shown(v, &r))
				continue;
			/* Filled bottom-up; reversed below. */
			stream_fill_row(v, &r, &st->rows[total]);
			col[total++] = c;
			oldest = seq;
		}
	}
	store_unlock(store);
	st->split_span = oldest != UINT64_MAX ? st->cur - oldest : 0;
	st->page_short = total < rows_h;

	for (i = 0; i < total / 2; i++) {
		struct srow tmp = st->rows[i];

		st->rows[i] = st->rows[total - 1 - i];
		st->rows[total - 1 - i] = tmp;
		c = col[i];
		col[i] = col[total - 1 - i];
		col[total - 1 - i] = c;
	}
	stream_resolve_comms(v, st->rows, total);
	stream_fit_widths(st, st->rows, total, v->w - cols[ncol - 1].x < NARROW_W ? RT_SHORT : 0);
	for (c = 0; c < ncol; c++) {
		host = source_cpu_host(v->app->source, (uint32_t)(st->cpu_off + c), &hcpu);
		snprintf(hdr, sizeof(hdr), "%s%sCPU %u", host ? host : "", host ? " " : "", hcpu);
		wattrset(v->win, crt_attr(CRT_CPU) | A_BOLD);
		crt_put(v->win, 1, cols[c].x, hdr, cols[c].w);
		wattrset(v->win, A_NORMAL);
		if (c + 1 < ncol) {
			wattrset(v->win, crt_attr(CRT_BORDER));
			for (y = 1; y < v->h; y++)
				mvwaddstr(v->win, y, cols[c].x + cols[c].w, g->vline);
			wattrset(v->win, A_NORMAL);
		}
	}
	/* A row's other columns are empty: its fields run on to the right edge. */
	for (i = 0; i < total; i++) {
		int x = cols[col[i]].x;

		stream_draw_row(v, 2 + i, x, v->w - x, &st->rows[i],
				v->w - x < NARROW_W ? RT_SHORT : 0);
	}
	free(col);
	if (!total)
		stream_draw_empty(v, 2);
}
