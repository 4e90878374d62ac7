// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream pane's split view: one column per CPU, each filled bottom-up by one backward
 * pass over the store (stream.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "backend/store.h"
#include "source/source.h"
#include "ui/layout.h"
#include "ui/stream.h"

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
	int rows_h = v->h - 2, ncol = stream_split_columns(v), cnt[KT_LAYOUT_MAX * 8];
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
	if (rows_h * ncol > st->nrows)
		rows_h = st->nrows / ncol;
	area = (struct kt_rect){ 0, 2, v->w, rows_h };
	layout_split(area, ncol, true, 1, cols);
	memset(cnt, 0, sizeof(cnt));

	/* One backward pass from the bottom fills every column up; idle CPUs stop it at the
	 * scan limit rather than at the start of the store. */
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
		for (seq = st->cur + 1; seq > first && total < rows_h * ncol &&
					scanned < SPLIT_SCAN_LIMIT; scanned++) {
			seq--;
			if (!store_get(store, seq, &r))
				continue;
			c = (int)r.cpu - st->cpu_off;
			if (c < 0 || c >= ncol || cnt[c] >= rows_h || !view_stream_row_shown(v, &r))
				continue;
			/* Filled bottom-up; reversed below. */
			stream_fill_row(v, &r, &st->rows[c * rows_h + cnt[c]]);
			cnt[c]++;
			total++;
			if (seq < oldest)
				oldest = seq;
		}
	}
	store_unlock(store);
	st->split_span = oldest != UINT64_MAX ? st->cur - oldest : 0;
	st->page_short = total < rows_h * ncol;

	for (c = 0; c < ncol; c++) {
		struct srow *base = &st->rows[c * rows_h];

		for (i = 0; i < cnt[c] / 2; i++) {
			struct srow tmp = base[i];

			base[i] = base[cnt[c] - 1 - i];
			base[cnt[c] - 1 - i] = tmp;
		}
		stream_resolve_comms(v, base, cnt[c]);
		stream_fit_widths(st, base, cnt[c], cols[c].w < NARROW_W ? RT_SHORT : 0);
		host = source_cpu_host(v->app->source, (uint32_t)(st->cpu_off + c), &hcpu);
		snprintf(hdr, sizeof(hdr), "%s%sCPU %u", host ? host : "", host ? " " : "", hcpu);
		wattrset(v->win, crt_attr(CRT_CPU) | A_BOLD);
		crt_put(v->win, 1, cols[c].x, hdr, cols[c].w);
		wattrset(v->win, A_NORMAL);
		for (i = 0; i < cnt[c]; i++)
			stream_draw_row(v, 2 + i, cols[c].x, cols[c].w, &base[i],
				 cols[c].w < NARROW_W ? RT_SHORT : 0);
		if (c + 1 < ncol) {
			wattrset(v->win, crt_attr(CRT_BORDER));
			for (y = 1; y < v->h; y++)
				mvwaddstr(v->win, y, cols[c].x + cols[c].w, g->vline);
			wattrset(v->win, A_NORMAL);
		}
	}
	if (!total)
		stream_draw_empty(v, 2);
}
