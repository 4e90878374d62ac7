// SPDX-License-Identifier: GPL-2.0-or-later
/* The time range every pane follows (issue 33): marked in the timeline or the heat map, or
 * typed at @'s prompt; the header shows it, X clears it, and each pane hears KT_EV_RANGE.
 * Relative times count from the capture's first record, as the stream's times do. */
#include "config.h"

#include <stdio.h>

#include "app/app.h"
#include "backend/ingest/store.h"
#include "util/timerange.h"
#include "ui/screen.h"
#include "ui/view.h"

const struct kt_range *ui_range(const struct kt_ui *ui)
{
	return &ui->range;
}

void range_seqs(const struct kt_range *r, const struct kt_store *store, uint64_t lo,
		uint64_t hi, uint64_t *first, uint64_t *end)
{
	*first = store_seek_ts(store, lo, hi, r->from);
	*end = r->to == UINT64_MAX ? hi : store_seek_ts(store, *first, hi, r->to + 1);
}

bool ui_range_clip(const struct kt_ui *ui, const struct kt_store *store, uint64_t *first,
		   uint64_t *end)
{
	if (!ui->range.on)
		return false;
	if (*end > *first)
		range_seqs(&ui->range, store, *first, *end, first, end);
	return true;
}

const char *ui_range_unscoped(const struct kt_ui *ui)
{
	return ui->range.on ? "no times: the whole run, not the range  " : "";
}

uint64_t ui_capture_start(struct kt_ui *ui)
{
	struct kt_source_desc d = { 0 };
	struct kt_rec r;

	if (ui->capture_start)
		return ui->capture_start;
	if (app_can(ui->app, KT_CAP_SEEK)) {
		source_describe(ui->app->source, &d);
		ui->capture_start = d.first_ts;
	}
	if (!ui->capture_start) {
		store_lock(ui->app->store);
		if (store_get(ui->app->store, store_first(ui->app->store), &r))
			ui->capture_start = r.ts;
		store_unlock(ui->app->store);
	}
	return ui->capture_start;
}

void ui_format_rel(struct kt_ui *ui, uint64_t ts, char *buf, size_t len)
{
	uint64_t t0 = ui_capture_start(ui);
	struct kt_time t = { .relative = true, .ns = ts > t0 ? ts - t0 : 0 };

	time_format(&t, buf, len);
}

void ui_range_set(struct kt_ui *ui, uint64_t from, uint64_t to)
{
	char a[40], b[40];

	if (to < from) {
		uint64_t x = to;

		to = from;
		from = x;
	}
	ui->range = (struct kt_range){ true, from, to };
	ui_format_rel(ui, from, a, sizeof(a));
	if (to == UINT64_MAX)
		b[0] = '\0';
	else
		ui_format_rel(ui, to, b, sizeof(b));
	snprintf(ui->header.range, sizeof(ui->header.range), "%s..%s", a, b);
	ui->header_dirty = true;
	/* before the panes hear it: what one of them says about it comes after; in a line
	 * that fits 80 columns */
	ui_message(ui, false, "range %s..%s: panes with times follow (X: off)", a, b);
	ui_broadcast(ui, KT_EV_RANGE);
}

void ui_range_clear(struct kt_ui *ui)
{
	if (!ui->range.on) {
		ui_message(ui, false, "no range marked");
		return;
	}
	ui->range.on = false;
	ui->header.range[0] = '\0';
	ui->header_dirty = true;
	ui_message(ui, false, "range cleared");
	ui_broadcast(ui, KT_EV_RANGE);
}

void screen_range_prompt(struct kt_ui *ui, const char *text)
{
	struct kt_time_range r;
	uint64_t from, to;
	char err[200];

	if (time_range_parse(text, &r, err, sizeof(err)) < 0) {
		ui_message(ui, true, "%s", err);
		return;
	}
	/* an open end is 0 or UINT64_MAX: from the first record, up to the newest */
	time_range_resolve(&r, ui_capture_start(ui), &from, &to);
	ui_range_set(ui, from, to);
}
