// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream pane's row filter (F: pid, comm, CPU; -: off; =: the selected row's task) and
 * the walk over the rows it shows: hidden rows and stack records are stepped over, a bounded
 * number of records at a time (stream.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/ingest/evtext.h"
#include "backend/ingest/selftask.h"
#include "backend/ingest/store.h"
#include "ui/prompt.h"
#include "stream.h"

/* Records walked per redraw or key looking for rows the row filter shows: a filter that
 * matches nothing in a full store costs a bounded pause, never a hang. */
#define FILTER_SCAN_LIMIT 4000000

/* ktop's own threads' rows are left out (M shows them), as perf trace leaves its own out. */
static bool hides_self(struct kt_view *v)
{
	return !S(v)->show_self && app_can(v->app, KT_CAP_SELF);
}

bool stream_walks(struct kt_view *v)
{
	return S(v)->rf_on || S(v)->stacks || hides_self(v);
}

/* A row of ktop's own: one of its threads ran it, or it switches one in or wakes one. */
static bool self_row(struct kt_view *v, const struct kt_rec *r)
{
	return selftask_is_own(decoder_rec_pid(r)) ||
	       selftask_is_own(evtext_task_pid(v->app->decoder, r));
}

/* Whether the row filter shows record r. Store lock held. */
bool view_stream_row_shown(struct kt_view *v, const struct kt_rec *r)
{
	struct stream *st = S(v);
	const char *comm = NULL;
	int pid;

	if (r->flags & KT_REC_STACK)
		return false; /* shown with its event */
	if (hides_self(v) && !(r->flags & KT_REC_LOST) && self_row(v, r))
		return false;
	if (!st->rf_on)
		return true;
	if (r->flags & KT_REC_LOST)
		return rowfilter_match_cpu(&st->rf, r->cpu);
	pid = decoder_rec_pid(r);
	if (rowfilter_needs_comm(&st->rf))
		comm = decoder_comm(v->app->decoder, pid, r->ts);
	return rowfilter_match(&st->rf, pid, comm, r->cpu);
}

/* The first shown record from seq on (dir +1) or back (dir -1) in [first, end), walking at
 * most *budget records. Store lock held. */
static bool next_shown(struct kt_view *v, uint64_t seq, int dir, uint64_t first, uint64_t end,
		       uint64_t *budget, uint64_t *out)
{
	struct kt_rec r;

	while (seq >= first && seq < end && *budget) {
		(*budget)--;
		if (store_get(v->app->store, seq, &r) && view_stream_row_shown(v, &r)) {
			*out = seq;
			return true;
		}
		if (dir < 0 && seq == 0)
			break;
		seq += dir;
	}
	return false;
}

/* The merged view's records under the row filter, into st->seqs, oldest first: the cursor
 * on a shown record, the rows above it down to top, the rows below to fill the pane. Store
 * lock held. Returns how many. */
int stream_filtered_seqs(struct kt_view *v, int rows_h, uint64_t first, uint64_t end)
{
	struct stream *st = S(v);
	uint64_t budget = FILTER_SCAN_LIMIT, s, cur;
	int nb = 0, n;

	if (rows_h > st->nrows)
		rows_h = st->nrows;
	if (end <= first || rows_h <= 0)
		return 0;
	if (st->follow || st->cur >= end)
		st->cur = end - 1;
	if (st->cur < first)
		st->cur = first;
	if (!next_shown(v, st->cur, -1, first, end, &budget, &cur) &&
	    (st->follow || !next_shown(v, st->cur, 1, first, end, &budget, &cur)))
		return 0;
	st->cur = cur;
	if (st->follow || st->top > cur || st->top < first)
		st->top = st->follow ? first : cur;
	/* Backwards from the cursor, not above top: st->seqs is filled from its end. */
	for (s = cur; nb < rows_h && s >= st->top;) {
		st->seqs[rows_h - 1 - nb++] = s;
		if (s == first || !next_shown(v, s - 1, -1, st->top, end, &budget, &s))
			break;
	}
	memmove(st->seqs, st->seqs + rows_h - nb, nb * sizeof(*st->seqs));
	st->top = st->seqs[0];
	for (n = nb, s = cur; n < rows_h && s + 1 < end; n++) {
		if (!next_shown(v, s + 1, 1, first, end, &budget, &s))
			break;
		st->seqs[n] = s;
	}
	return n;
}

/* The cursor delta shown rows on, under the row filter. A page keeps the cursor on the
 * same screen row, as without the filter, by moving top the same number of rows. */
void stream_move_filtered(struct kt_view *v, int64_t delta)
{
	struct stream *st = S(v);
	uint64_t budget = FILTER_SCAN_LIMIT, first, end, s, cur, top;
	int dir = delta < 0 ? -1 : 1;
	bool page = delta > 1 || delta < -1;

	store_lock(v->app->store);
	stream_view_range(v, v->app->store, &first, &end);
	if (end <= first)
		goto out;
	if (st->follow) {
		if (delta > 0)
			goto out;
		st->follow = false;
		stream_filtered_seqs(v, v->h - 1, first, end); /* where the follow view had it */
	}
	cur = st->cur;
	top = st->top;
	for (; delta; delta -= dir) {
		if (!next_shown(v, cur + dir, dir, first, end, &budget, &s) ||
		    (dir < 0 && cur == first))
			break;
		cur = s;
		if (page && next_shown(v, top + dir, dir, first, end, &budget, &s))
			top = s;
	}
	st->cur = cur;
	st->top = page ? top : st->top;
out:
	store_unlock(v->app->store);
}

static void rowfilter_changed(struct kt_view *v)
{
	struct stream *st = S(v);

	st->rf_on = rowfilter_active(&st->rf);
	st->searching = false;
	stream_reset_widths(st);
	v->dirty = true;
}

/* The row filter's prompt, applied on Enter; a mistake changes nothing. */
void stream_rowfilter_prompt(struct kt_view *v, const char *text, enum kt_prompt_event ev)
{
	struct stream *st = S(v);
	struct kt_rowfilter f;
	char err[256], now[KT_PROMPT_MAX];

	if (ev == KT_PROMPT_CANCEL || ev == KT_PROMPT_COMPLETE)
		return;
	if (ev != KT_PROMPT_ACCEPT)
		return;
	if (rowfilter_parse(&f, text, err, sizeof(err)) < 0) {
		ui_message(v->ui, true, "row filter not changed: %s", err);
		return;
	}
	st->rf = f;
	rowfilter_changed(v);
	rowfilter_text(&st->rf, now, sizeof(now));
	if (st->rf_on)
		ui_message(v->ui, false, "showing only %s, of what is captured and to come "
			   "(-: show all)", now);
	else
		ui_message(v->ui, false, "row filter off: every captured row shows");
}

void view_stream_rowfilter_edit(struct kt_view *v)
{
	char now[KT_PROMPT_MAX]; /* the whole text of any filter the prompt takes */

	rowfilter_text(&S(v)->rf, now, sizeof(now));
	ui_prompt_open(v->ui, v, PROMPT_ROWFILTER, "show only (pid= comm= cpu=): ", now);
}

void view_stream_rowfilter_clear(struct kt_view *v)
{
	struct stream *st = S(v);

	if (!st->rf_on) {
		ui_message(v->ui, false, "no row filter (F sets one: pid=N comm=NAME cpu=N)");
		return;
	}
	memset(&st->rf, 0, sizeof(st->rf));
	rowfilter_changed(v);
	ui_message(v->ui, false, "row filter off: every captured row shows");
}

void view_stream_toggle_self(struct kt_view *v)
{
	struct stream *st = S(v);

	st->show_self = !st->show_self;
	st->searching = false;
	stream_reset_widths(st);
	v->dirty = true;
	ui_message(v->ui, false, st->show_self ? "ktop's own threads shown (M hides them)" :
						"ktop's own threads hidden (M shows them)");
}

/* Only the selected row's task: its pid. */
void stream_rowfilter_this_pid(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_rec r;
	char text[32];
	bool ok;

	if (st->follow) {
		ui_message(v->ui, false, "select a row first (Up), then = shows only its task");
		return;
	}
	store_lock(v->app->store);
	ok = store_get(v->app->store, st->cur, &r) && !(r.flags & KT_REC_LOST);
	if (ok)
		snprintf(text, sizeof(text), "pid=%d", decoder_rec_pid(&r));
	store_unlock(v->app->store);
	if (ok)
		stream_rowfilter_prompt(v, text, KT_PROMPT_ACCEPT);
}
