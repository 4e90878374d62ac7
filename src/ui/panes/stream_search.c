// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream pane's search, as less and vim search: '/' from the first row shown towards
 * newer records, '?' from the last row shown towards older ones, incrementally as the
 * pattern is typed; n for the next match the same way, N the other way; a bounded number
 * of records per step, so the UI keeps its turn (stream.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "util/clock.h"
#include "stream.h"

#define SEARCH_STEP_RECORDS 200000   /* per step; then the UI gets a turn */
#define SEARCH_STEP_NS 40000000ULL   /* ... or 40 ms, whichever comes first */
#define SEARCH_BATCH 1024	      /* records per store_lock() hold */

/* Smart case, as in less -i: case matters only when the pattern has a capital. */
bool stream_pat_has_upper(const char *p)
{
	for (; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			return true;
	return false;
}

const char *stream_find_pat(const char *hay, const char *pat, bool icase)
{
	return icase ? strcasestr(hay, pat) : strstr(hay, pat);
}

static void search_begin(struct kt_view *v, int dir, uint64_t from)
{
	struct stream *st = S(v);

	st->sdir = dir;
	st->spos = from;
	st->scanned = 0;
	st->searching = st->pat[0] != '\0';
	st->not_found = false;
	v->dirty = true;
}

void stream_search_found(struct kt_view *v, uint64_t seq)
{
	struct stream *st = S(v);
	int rows_h = v->h - 1;

	st->searching = false;
	/* A match off screen lands mid-pane, with context on both sides. */
	if (seq < st->top || seq >= st->top + rows_h)
		st->top = seq > (uint64_t)(rows_h / 2) ? seq - rows_h / 2 : 0;
	st->follow = false;
	st->cur = seq;
}

static void search_failed(struct kt_view *v)
{
	struct stream *st = S(v);

	st->searching = false;
	st->not_found = true;
	if (!st->prompting)
		ui_message(v->ui, true, "pattern not found: %s", st->pat);
}

/* Tests records from spos in direction sdir: at most SEARCH_STEP_RECORDS or
 * SEARCH_STEP_NS per call, the lock taken per batch so the reader is never held up long.
 * Returns true while the search goes on. */
static bool search_step(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_store *store = v->app->store;
	unsigned long long deadline = clock_mono_ns() + SEARCH_STEP_NS;
	bool icase = !stream_pat_has_upper(st->pat);
	uint64_t done = 0, first, end;
	char line[LINE_MAX_LEN];
	struct srow row;
	struct kt_rec r;
	int i;

	while (done < SEARCH_STEP_RECORDS && clock_mono_ns() < deadline) {
		store_lock(store);
		stream_view_range(v, store, &first, &end);
		if (st->sdir > 0 && st->spos < first)
			st->spos = first;
		for (i = 0; i < SEARCH_BATCH; i++, done++) {
			if (st->spos < first || st->spos >= end) {
				store_unlock(store);
				search_failed(v);
				return false;
			}
			if (store_get(store, st->spos, &r) && view_stream_row_shown(v, &r)) {
				stream_fill_row(v, &r, &row);
				if (!(row.flags & KT_REC_LOST))
					row.comm = decoder_comm(v->app->decoder, row.pid, row.ts);
				stream_row_text(st, &row, RT_CPU, line, sizeof(line), NULL, NULL);
				if (stream_find_pat(line, st->pat, icase)) {
					store_unlock(store);
					stream_search_found(v, st->spos);
					return false;
				}
			}
			st->scanned++;
			if (st->sdir < 0 && st->spos == 0) {
				store_unlock(store);
				search_failed(v);
				return false;
			}
			st->spos += st->sdir;
		}
		store_unlock(store);
	}
	return true;
}

bool stream_search_work(struct kt_view *v)
{
	struct stream *st = S(v);

	if (!st->searching)
		return false;
	search_step(v);
	v->dirty = true;
	return st->searching;
}

static void restore_origin(struct stream *st)
{
	st->follow = st->o_follow;
	st->cur = st->o_cur;
	st->top = st->o_top;
}

/* Incremental: every edit searches again from where the prompt was opened. */
static void search_from_origin(struct kt_view *v)
{
	struct stream *st = S(v);
	uint64_t first, end;

	restore_origin(st);
	if (!st->pat[0]) {
		st->searching = false;
		st->not_found = false;
		v->dirty = true;
		return;
	}
	stream_get_range(v, &first, &end);
	if (st->pdir > 0)
		search_begin(v, 1, st->o_top);
	else
		search_begin(v, -1, st->o_follow || st->o_bottom >= end ? (end ? end - 1 : 0) :
									 st->o_bottom);
	/* The first step runs now, so a near match shows with the keystroke. */
	stream_search_work(v);
}

void stream_search_again(struct kt_view *v, bool reverse)
{
	struct stream *st = S(v);
	int dir = reverse ? -st->pdir : st->pdir;
	uint64_t first, end;

	if (!st->pat[0]) {
		ui_message(v->ui, false, "no search pattern yet: press / to search");
		return;
	}
	stream_get_range(v, &first, &end);
	if (end <= first)
		return;
	if (st->follow) {
		if (dir > 0) {
			ui_message(v->ui, false, "at the newest event already");
			return;
		}
		search_begin(v, dir, end - 1);
	} else if (dir < 0) {
		if (st->cur <= first) {
			ui_message(v->ui, true, "pattern not found: %s", st->pat);
			return;
		}
		search_begin(v, dir, st->cur - 1);
	} else {
		search_begin(v, dir, st->cur + 1);
	}
	ui_message(v->ui, false, "searching %s for: %s", dir < 0 ? "older" : "newer", st->pat);
	stream_search_work(v);
}

void stream_search_open(struct kt_view *v, int dir)
{
	struct stream *st = S(v);

	snprintf(st->old_pat, sizeof(st->old_pat), "%s", st->pat);
	st->o_pdir = st->pdir;
	st->pdir = dir;
	st->o_follow = st->follow;
	st->o_cur = st->cur;
	st->o_top = st->top;
	st->o_bottom = st->bottom;
	st->prompting = true;
	st->not_found = false;
	ui_prompt_open(v->ui, v, PROMPT_SEARCH, dir > 0 ? "/" : "?", "");
	/* Typing starts a new pattern; the old one stays highlighted until then. */
}

void stream_search_prompt(struct kt_view *v, const char *text, enum kt_prompt_event ev)
{
	struct stream *st = S(v);

	switch (ev) {
	case KT_PROMPT_COMPLETE:
		break;
	case KT_PROMPT_CHANGED:
		snprintf(st->pat, sizeof(st->pat), "%s", text);
		search_from_origin(v);
		break;
	case KT_PROMPT_ACCEPT:
		st->prompting = false;
		snprintf(st->pat, sizeof(st->pat), "%s", text);
		if (!st->pat[0]) {
			restore_origin(st);
			st->searching = false;
		} else if (st->not_found && !st->searching) {
			ui_message(v->ui, true, "pattern not found: %s", st->pat);
		}
		break;
	case KT_PROMPT_CANCEL:
		st->prompting = false;
		st->searching = false;
		st->not_found = false;
		snprintf(st->pat, sizeof(st->pat), "%s", st->old_pat);
		st->pdir = st->o_pdir;
		restore_origin(st);
		break;
	}
	v->dirty = true;
}
