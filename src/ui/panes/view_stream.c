// SPDX-License-Identifier: GPL-2.0-or-later
/* The event stream pane: the store's records, formatted only for the rows on screen, all
 * CPUs merged in time order or one column per CPU. Follows the tail until the user scrolls
 * up; a pause freezes the end of what it shows while capture goes on; '/' and '?' search
 * the formatted rows forward and backward, a bounded number of records per step. The row
 * filter (F: pid, comm, CPU; -: off) hides rows already captured without touching the
 * kernel; scrolling, follow and search step over the hidden ones, and over the stack
 * records the store attached to their events (evstack.h): a row with a stack is marked '*'
 * after its event name. Enter opens the selected row's fields and stack below the rows. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "backend/ingest/evtext.h"
#include "source/source.h"
#include "backend/ingest/store.h"
#include "app/stopwhen.h"
#include "util/strutil.h"
#include "stream.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define HSCROLL_STEP 8
#define DETAIL_FIELDS 64 /* an event's fields shown in the row detail */
#define DETAIL_W 160	 /* cells of a field's line */

/* Moves what the view holds of records the store renumbered (a recording's tail, shown
 * before the index reached it, once the index has). Store lock held. */
static void follow_shift(struct stream *st, struct kt_store *store)
{
	uint64_t from, *pos[] = { &st->top,   &st->cur,	  &st->spos,
				  &st->o_cur, &st->o_top, &st->o_bottom };
	int64_t by;
	uint64_t gen = store_shift(store, &from, &by);
	size_t i;

	if (gen == st->shift_gen)
		return;
	st->shift_gen = gen;
	for (i = 0; i < sizeof(pos) / sizeof(pos[0]); i++)
		if (*pos[i] >= from)
			*pos[i] = (uint64_t)((int64_t)*pos[i] + by);
}

/* The time range's records, found again when the store grew (or was cleared) under its
 * end. Store lock held. */
static void range_bounds(struct kt_view *v, struct kt_store *store, uint64_t *first,
			 uint64_t *end)
{
	struct stream *st = S(v);
	const struct kt_range *r = ui_range(v->ui);
	uint64_t e = store_end(store);

	if (!st->r_on)
		return;
	if (st->r_held_end != e && (st->r_end >= st->r_held_end || e < st->r_held_end)) {
		range_seqs(r, store, store_first(store), e, &st->r_first, &st->r_end);
		st->r_held_end = e;
	}
	if (*first < st->r_first)
		*first = st->r_first;
	if (*end > st->r_end)
		*end = st->r_end;
	if (*end < *first)
		*end = *first;
}

/* [first, end) that the view may show: a pause freezes the end; a recording being indexed
 * shows up to its estimated end (its tail is there before its middle); a time range
 * narrows it. Store lock held. */
void stream_view_range(struct kt_view *v, struct kt_store *store, uint64_t *first,
		       uint64_t *end)
{
	struct stream *st = S(v);
	struct kt_store_stats ss;

	follow_shift(st, store);
	st->estimated = store_estimated(store);
	store_stats(store, &ss);
	st->stacks = ss.stacks > 0;
	*first = store_first(store);
	*end = store_browse_end(store);
	if (st->paused && st->frozen_end < *end)
		*end = st->frozen_end;
	if (*end < *first)
		*end = *first;
	range_bounds(v, store, first, end);
}

void stream_reset_widths(struct stream *st)
{
	st->time_w = 8;
	st->task_w = 10;
	st->name_w = 12;
}

static void stream_init(struct kt_view *v)
{
	struct stream *st = xcalloc(1, sizeof(*st));

	st->follow = !app_can(v->app, KT_CAP_SEEK); /* a recording opens at its first event */
	st->sdir = st->pdir = 1;
	st->enabled = source_enabled_count(v->app->source);
	stream_reset_widths(st);
	st->text = evtext_new();
	v->data = st;
}

static void stream_free(struct kt_view *v)
{
	struct stream *st = S(v);

	free(st->rows);
	free(st->seqs);
	evtext_free(st->text);
	free(st);
	v->data = NULL;
}

static void stream_resize(struct kt_view *v)
{
	struct stream *st = S(v);
	int n = v->h > 0 ? v->h : 1;

	/* Enough rows for every column of the split view. */
	n *= v->w / (SPLIT_MIN_W + 1) + 1;
	if (n > st->nrows) {
		st->rows = xreallocarray(st->rows, n, sizeof(*st->rows));
		st->seqs = xreallocarray(st->seqs, n, sizeof(*st->seqs));
		st->nrows = n;
	}
	stream_reset_widths(st);
}

int stream_ncpus(struct kt_view *v)
{
	return v->app->ncpus > 0 ? v->app->ncpus : 1;
}

/* Copies what a row needs out of the store. Store lock held. */
void stream_fill_row(struct kt_view *v, const struct kt_rec *r, struct srow *row)
{
	struct stream *st = S(v);

	row->seq = r->seq;
	row->ts = r->ts;
	row->cpu = r->cpu;
	row->host = source_cpu_host(v->app->source, r->cpu, &row->hcpu);
	row->flags = r->flags;
	row->stack = r->stack != 0;
	row->lost = r->lost;
	row->comm = NULL;
	if (!st->have_base) {
		/* times count from the oldest row held, not from whichever is drawn first (a
		 * first screen of the newest rows would show every older one as 0) */
		struct kt_rec oldest;

		st->base_ts = store_get(v->app->store, store_first(v->app->store), &oldest) ?
				      oldest.ts : r->ts;
		/* a recording's window (--from) counts from the file's start, as typed */
		if (v->app->capture_start && v->app->capture_start < st->base_ts)
			st->base_ts = v->app->capture_start;
		st->have_base = true;
	}
	if (r->flags & KT_REC_LOST) {
		row->pid = 0;
		row->name[0] = row->info[0] = '\0';
		return;
	}
	row->pid = decoder_rec_pid(r);
	decoder_format_name(v->app->decoder, r, row->name, sizeof(row->name));
	evtext_info(st->text, v->app->decoder, r, st->split || v->w < NARROW_W, row->info,
		    sizeof(row->info));
}

static void lost_text(const struct srow *row, char *buf, size_t len)
{
	if (row->lost < 0)
		snprintf(buf, len, "*** CPU %u: lost an unknown number of events ***", row->hcpu);
	else
		snprintf(buf, len, "*** CPU %u: lost %lld events ***", row->hcpu,
			 (long long)row->lost);
}

static void add_seg(struct seg *segs, int *n, int start, int end, enum crt_elem e)
{
	if (segs && end > start) {
		segs[*n] = (struct seg){ start, end, e };
		(*n)++;
	}
}

/* "comm-pid" in at most max cells (0: no limit): the comm gives way, the pid stays. */
static void task_text(char *buf, size_t len, const char *comm, int pid, int max)
{
	char p[24];
	int pl = snprintf(p, sizeof(p), "-%d", pid), cl = (int)strlen(comm);

	if (max > 0 && cl + pl > max && max > pl)
		cl = max - pl;
	snprintf(buf, len, "%.*s%s", cl, comm, p);
}

/* The row's text: time, host (several remote hosts), CPU, task-pid, event, fields. Without
 * RT_PAD single spaces separate the columns (what the search matches). */
int stream_row_text(struct stream *st, const struct srow *row, int how, char *out,
		    size_t len, struct seg *segs, int *nseg)
{
	bool pad = how & RT_PAD, shrt = how & RT_SHORT;
	const char *name = row->name, *colon;
	char ts[32], task[64], lost[96], marked[NAME_MAX_LEN + 1];
	int n = 0, s, w;

	if (nseg)
		*nseg = 0;
	decoder_format_ts(row->ts, st->have_base ? st->base_ts : 0, ts, sizeof(ts));
	w = (int)strlen(ts);
	if (pad && w > st->time_w)
		st->time_w = w < 16 ? w : 16;
	n += snprintf(out + n, len - n, "%*s ", pad ? st->time_w : 0, ts);
	add_seg(segs, nseg, 0, n - 1, CRT_TIME);
	if ((size_t)n >= len)
		return (int)len - 1;
	if (row->host) {
		w = (int)strlen(row->host);
		if (pad && w > st->host_w)
			st->host_w = w < 16 ? w : 16;
		s = n;
		n += snprintf(out + n, len - n, "%-*.*s ", pad ? st->host_w : 0,
			      pad ? st->host_w : w, row->host);
		add_seg(segs, nseg, s, n - 1, CRT_TASK);
		if ((size_t)n >= len)
			return (int)len - 1;
	}
	if (row->flags & KT_REC_LOST) {
		lost_text(row, lost, sizeof(lost));
		s = n;
		n += snprintf(out + n, len - n, "%s", lost);
		add_seg(segs, nseg, s, n, CRT_LOST);
		return (size_t)n >= len ? (int)len - 1 : n;
	}
	if (how & RT_CPU) {
		s = n;
		n += snprintf(out + n, len - n, "[%03u] ", row->hcpu);
		add_seg(segs, nseg, s, n - 1, CRT_CPU);
		if ((size_t)n >= len)
			return (int)len - 1;
	}
	task_text(task, sizeof(task), row->comm ? row->comm : "<...>", row->pid,
		  pad ? (shrt ? 16 : 24) : 0);
	w = (int)strlen(task);
	if (pad && w > st->task_w)
		st->task_w = w;
	s = n;
	n += snprintf(out + n, len - n, "%-*s ", pad ? st->task_w : 0, task);
	add_seg(segs, nseg, s, n - 1, CRT_TASK);
	if ((size_t)n >= len)
		return (int)len - 1;
	if (shrt && (colon = strchr(name, ':')))
		name = colon + 1;
	snprintf(marked, sizeof(marked), "%s%s", name, row->stack ? "*" : "");
	w = (int)strlen(marked);
	if (pad && w > st->name_w)
		st->name_w = w < (shrt ? 22 : 34) ? w : (shrt ? 22 : 34);
	s = n;
	n += snprintf(out + n, len - n, "%-*s ", pad ? st->name_w : 0, marked);
	add_seg(segs, nseg, s, n - 1, CRT_EVENT);
	if ((size_t)n >= len)
		return (int)len - 1;
	n += snprintf(out + n, len - n, "%s", row->info);
	return (size_t)n >= len ? (int)len - 1 : n;
}

static enum crt_elem seg_at(const struct seg *segs, int nseg, int pos)
{
	int i;

	for (i = 0; i < nseg; i++)
		if (pos >= segs[i].start && pos < segs[i].end)
			return segs[i].elem;
	return CRT_NORMAL;
}

/* Draws one row in w cells at (y, x), with the search matches highlighted: its first fixed
 * cells (time, CPU, task) as they are, the rest from column hscroll on. */
static void draw_line(struct kt_view *v, int y, int x, int w, const char *line, int n,
		      const struct seg *segs, int nseg, int fixed, bool cursor)
{
	struct stream *st = S(v);
	char mask[LINE_MAX_LEN];
	attr_t cattr = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	int i;

	memset(mask, 0, n < (int)sizeof(mask) ? n : (int)sizeof(mask));
	if (st->pat[0]) {
		bool icase = !stream_pat_has_upper(st->pat);
		size_t pl = strlen(st->pat);
		const char *p = line;

		while ((p = stream_find_pat(p, st->pat, icase))) {
			memset(mask + (p - line), 1, pl);
			p += pl;
		}
	}
	for (i = 0; i < w; i++) {
		int pos = i < fixed ? i : st->hscroll + i;
		unsigned char c = pos < n ? (unsigned char)line[pos] : ' ';
		attr_t a;

		if (pos < n && mask[pos])
			a = crt_attr(CRT_MATCH);
		else if (cursor)
			a = cattr;
		else if (pos < n)
			a = crt_attr(seg_at(segs, nseg, pos));
		else
			break;
		mvwaddch(v->win, y, x + i, (chtype)(unsigned char)str_shown(c) | a);
	}
}

/* The cells that stay when the row scrolls sideways: up to the task column (the last
 * CRT_TASK segment), when that leaves half the width for the fields. */
static int fixed_cells(const struct seg *segs, int nseg, int w)
{
	int i, fixed = 0;

	for (i = 0; i < nseg; i++)
		if (segs[i].elem == CRT_TASK)
			fixed = segs[i].end + 1;
	return fixed <= w / 2 ? fixed : 0;
}

void stream_fit_widths(struct stream *st, const struct srow *rows, int n, int how)
{
	char line[LINE_MAX_LEN];
	int i;

	for (i = 0; i < n; i++)
		stream_row_text(st, &rows[i], how | RT_PAD, line, sizeof(line), NULL, NULL);
}

void stream_note_held(struct kt_view *v, uint64_t first, uint64_t end)
{
	/* live, the header counts events once a tick: the title counts with it (stream_tick),
	 * or the two figures on one screen disagree */
	if (!app_can(v->app, KT_CAP_LIVE))
		S(v)->held = end - first;
}

void stream_draw_row(struct kt_view *v, int y, int x, int w, struct srow *row, int how)
{
	struct stream *st = S(v);
	char line[LINE_MAX_LEN];
	struct seg segs[8];
	int nseg, n;
	bool cursor = !st->follow && row->seq == st->cur;

	n = stream_row_text(st, row, how | RT_PAD, line, sizeof(line), segs, &nseg);
	draw_line(v, y, x, w, line, n, segs, nseg, fixed_cells(segs, nseg, w), cursor);
}

void stream_draw_empty(struct kt_view *v, int first_row)
{
	struct stream *st = S(v);
	const char *msg;
	int y = first_row + (v->h - first_row) / 2 - 1, len;

	if (app_can(v->app, KT_CAP_SEEK) && st->estimated)
		msg = "Not read yet: these rows show when the index reaches them (Home, End)";
	else if (app_can(v->app, KT_CAP_SEEK))
		msg = "No events: the recording holds none, or e hid them all";
	else if (st->rf_on)
		msg = "No captured row matches the row filter (F: edit, -: off)";
	else if (st->paused)
		msg = "PAUSED: nothing left to show (p resumes)";
	else if (st->enabled == 0)
		msg = "No events enabled: press e (F2) to pick events";
	else
		msg = "Waiting for events...";
	len = (int)strlen(msg);
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, y < first_row ? first_row : y, len < v->w ? (v->w - len) / 2 : 0, msg,
		v->w);
	wattrset(v->win, A_NORMAL);
}

void stream_resolve_comms(struct kt_view *v, struct srow *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!(rows[i].flags & KT_REC_LOST))
			rows[i].comm = decoder_comm(v->app->decoder, rows[i].pid, rows[i].ts);
}

/* Draws the n rows copied out of the store (after the lock), or the empty-pane text. */
static void draw_copied(struct kt_view *v, int n)
{
	struct stream *st = S(v);
	int how = RT_CPU | (v->w < NARROW_W ? RT_SHORT : 0), i;

	st->page_short = n < v->h - 1;
	if (!n) {
		stream_draw_empty(v, 1);
		return;
	}
	st->bottom = st->rows[n - 1].seq;
	stream_resolve_comms(v, st->rows, n);
	stream_fit_widths(st, st->rows, n, how);
	for (i = 0; i < n; i++)
		stream_draw_row(v, 1 + i, 0, v->w, &st->rows[i], how);
}

/* Rows of the pane the stack of the selected row takes (Enter), title line included. */
static int detail_rows(struct kt_view *v)
{
	return S(v)->detail && !S(v)->split ? (v->h - 1) / 2 : 0;
}

/* The selected row's fields, one per line ("  next_pid  15"), copied while the record is
 * there. Store lock held. Returns how many, at most max. */
static int detail_fields(struct kt_view *v, const struct kt_rec *r, char (*lines)[DETAIL_W],
			 int max)
{
	char name[32], val[DETAIL_W];
	int n;

	for (n = 0; n < max && !evtext_field(v->app->decoder, r, n, name, sizeof(name), val,
					      sizeof(val)); n++)
		snprintf(lines[n], DETAIL_W, "  %-16.29s %.*s", name, DETAIL_W - 33, val);
	return n;
}

/* The selected row's detail in the h rows from y (KernelShark's row detail): a title line,
 * each of its event's fields by name, then its stack (if recorded), innermost frame first,
 * named as the kernel names them. */
static void draw_detail(struct kt_view *v, int y, int h)
{
	struct stream *st = S(v);
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	struct kt_store *store = v->app->store;
	char name[NAME_MAX_LEN], line[LINE_MAX_LEN], ts[32], fields[DETAIL_FIELDS][DETAIL_W];
	enum kt_frame_kind kind;
	struct tep_handle *syms = NULL;
	size_t n = 0, i;
	int nf = 0, row;
	bool have = false;
	uint32_t cpu = 0;
	struct kt_rec r;

	if (h <= 0)
		return;
	store_lock(store);
	if (store_get(store, st->cur, &r) && !(r.flags & (KT_REC_LOST | KT_REC_STACK))) {
		have = true;
		decoder_format_name(v->app->decoder, &r, name, sizeof(name));
		decoder_format_ts(r.ts, st->have_base ? st->base_ts : 0, ts, sizeof(ts));
		nf = detail_fields(v, &r, fields, DETAIL_FIELDS);
		n = evstack_read(v->app->decoder, store, &r, f, KT_EVSTACK_MAX);
		syms = source_symbols(v->app->source, r.cpu); /* another host's kernel */
		cpu = r.cpu;
	}
	store_unlock(store);
	if (!have)
		snprintf(line, sizeof(line), " No event selected (Up selects one)");
	else
		snprintf(line, sizeof(line), " %s at %s: %d field%s%s (Esc closes)", name, ts, nf,
			 nf == 1 ? "" : "s", n ? ", stack innermost first" : "");
	wattrset(v->win, crt_attr(CRT_BORDER) | A_REVERSE);
	mvwhline(v->win, y, 0, ' ', v->w);
	crt_put(v->win, y, 0, line, v->w);
	for (row = 1; row < h && row - 1 < nf; row++) {
		wattrset(v->win, crt_attr(CRT_NORMAL));
		mvwhline(v->win, y + row, 0, ' ', v->w);
		crt_put(v->win, y + row, 0, fields[row - 1], v->w);
	}
	for (i = 0; i < n && row < h; i++, row++) {
		evstack_name_syms(v->app->decoder, syms, app_symbolizer_cpu(v->app, cpu), &f[i],
				  true, line, sizeof(line), &kind);
		wattrset(v->win, crt_attr(kind == KT_FRAME_UNRESOLVED ? CRT_DIM : CRT_EVENT));
		mvwhline(v->win, y + row, 0, ' ', v->w);
		mvwprintw(v->win, y + row, 0, "  %-*.*s", v->w - 2, v->w - 2, line);
	}
	if (row == h && (size_t)nf + n > (size_t)h - 1) {
		snprintf(line, sizeof(line), "  ... %zu more lines (z zooms the pane)",
			 (size_t)nf + n - (size_t)h + 2);
		wattrset(v->win, crt_attr(CRT_DIM));
		mvwhline(v->win, y + h - 1, 0, ' ', v->w);
		crt_put(v->win, y + h - 1, 0, line, v->w);
	}
	wattrset(v->win, A_NORMAL);
}

static void draw_merged(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_store *store = v->app->store;
	int rows_h = v->h - 1 - detail_rows(v), n = 0, i, k;
	uint64_t first, end;
	struct kt_rec r;

	if (rows_h <= 0)
		return;
	if (stream_walks(v)) {
		store_lock(store);
		stream_view_range(v, store, &first, &end);
		stream_note_held(v, first, end);
		k = stream_filtered_seqs(v, rows_h, first, end);
		st->none_shown = st->rf_on && !k;
		for (i = 0; i < k; i++)
			if (store_get(store, st->seqs[i], &r))
				stream_fill_row(v, &r, &st->rows[n++]);
		store_unlock(store);
		draw_copied(v, n);
		return;
	}
	/* Short hold: copy the visible rows out, format and draw after unlocking. */
	store_lock(store);
	stream_view_range(v, store, &first, &end);
	stream_note_held(v, first, end);
	st->none_shown = false;
	if (end > first) {
		if (st->follow) {
			st->cur = end - 1;
			st->top = end - first > (uint64_t)rows_h ? end - rows_h : first;
		} else {
			if (st->cur < first)
				st->cur = first;
			if (st->cur >= end)
				st->cur = end - 1;
			if (st->top < first)
				st->top = first;
			if (st->cur < st->top)
				st->top = st->cur;
			if (st->cur >= st->top + rows_h)
				st->top = st->cur - rows_h + 1;
		}
		for (i = 0; i < rows_h && st->top + i < end && n < st->nrows; i++)
			if (store_get(store, st->top + i, &r))
				stream_fill_row(v, &r, &st->rows[n++]);
	}
	store_unlock(store);
	draw_copied(v, n);
}

/* FOLLOW the tail of a live capture; a recording's last row is its END, as less says. */
static const char *stream_state(struct kt_view *v)
{
	if (!S(v)->follow)
		return "SCROLL";
	return app_can(v->app, KT_CAP_LIVE) ? "FOLLOW" : "END";
}

static void stream_draw(struct kt_view *v)
{
	struct stream *st = S(v);
	char title[160], right[160], held[32], scan[48];
	const char *state;

	if (st->split) {
		stream_draw_split(v);
	} else {
		draw_merged(v);
		draw_detail(v, v->h - detail_rows(v), detail_rows(v));
	}

	if (st->split)
		snprintf(title, sizeof(title), "Events: per CPU %d-%d of %d, one time axis",
			 st->cpu_off, st->cpu_off + stream_split_columns(v) - 1, stream_ncpus(v));
	else
		snprintf(title, sizeof(title), "Events: all CPUs");
	if (st->rf_on) {
		char rft[64];
		size_t tl = strlen(title);

		rowfilter_text(&st->rf, rft, sizeof(rft));
		snprintf(title + tl, sizeof(title) - tl, " | only %s", rft);
	}
	if (st->r_on) {
		size_t tl = strlen(title);

		snprintf(title + tl, sizeof(title) - tl, " | in range");
	}
	if (st->stacks && !st->split) {
		size_t tl = strlen(title);

		snprintf(title + tl, sizeof(title) - tl, " | *: stack, Enter");
	}
	if (!v->app->stop)
		st->stop_shown = false; /* removed in the picker: capture goes on */
	if (st->stop_shown) {
		size_t tl = strlen(title);

		snprintf(title + tl, sizeof(title) - tl, " | stopped by %.100s", v->app->stop->desc);
	}
	if (st->searching) {
		snprintf(scan, sizeof(scan), "searching... %llu",
			 (unsigned long long)st->scanned);
		state = scan;
	}
	else if (st->prompting && st->not_found)
		state = "no match";
	else if (st->stop_shown)
		state = "STOPPED";
	else if (st->paused)
		state = "PAUSED";
	else
		state = stream_state(v);
	/* "~": row numbers are estimates until the recording's index is through; "0 of": the
	 * row filter leaves nothing of what is held */
	snprintf(held, sizeof(held), "%s%s%llu", st->none_shown ? "0 of " : "",
		 st->estimated ? "~" : "", (unsigned long long)st->held);
	if (st->hscroll)
		snprintf(right, sizeof(right), "%s held  col %d  %s", held, st->hscroll + 1, state);
	else
		snprintf(right, sizeof(right), "%s held  %s", held, state);
	view_draw_title(v, title, right);
}

/* --- navigation --- */

void stream_get_range(struct kt_view *v, uint64_t *first, uint64_t *end)
{
	store_lock(v->app->store);
	stream_view_range(v, v->app->store, first, end);
	store_unlock(v->app->store);
}

static int page_rows(struct kt_view *v)
{
	struct stream *st = S(v);
	int n;

	if (st->split)
		n = st->split_span > 1 ? (int)(st->split_span > 1000000 ? 1000000 : st->split_span)
				       : 1;
	else
		n = v->h - 2;
	return n > 0 ? n : 1;
}

static void move_cursor(struct kt_view *v, int64_t delta)
{
	struct stream *st = S(v);
	uint64_t first, end;

	if (stream_walks(v) && !st->split) {
		stream_move_filtered(v, delta);
		return;
	}
	stream_get_range(v, &first, &end);
	if (end <= first)
		return;
	if (st->follow) {
		if (delta > 0)
			return;
		st->follow = false;
		st->cur = end - 1;
		st->top = end - first > (uint64_t)(v->h - 1) ? end - (v->h - 1) : first;
	}
	if (delta < 0 && (uint64_t)-delta > st->cur - first)
		st->cur = first;
	else if (delta > 0 && (uint64_t)delta >= end - st->cur)
		st->cur = end - 1;
	else
		st->cur += delta;
	/* A page moves the window with the cursor, like less. */
	if (!st->split && (delta > 1 || delta < -1)) {
		if (delta < 0)
			st->top = st->top > first + (uint64_t)-delta ? st->top + delta : first;
		else
			st->top += delta;
	}
}

static void go_home(struct kt_view *v)
{
	struct stream *st = S(v);
	uint64_t first, end;

	stream_get_range(v, &first, &end);
	st->follow = false;
	st->top = first;
	st->cur = first;
	if (st->split && end > first) {
		uint64_t span = (uint64_t)(v->h - 2); /* one event a row */

		st->cur = end - first > span ? first + span - 1 : end - 1;
	}
}

static void stream_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	if (id == PROMPT_ROWFILTER)
		stream_rowfilter_prompt(v, text, ev);
	else if (id == PROMPT_SEARCH)
		stream_search_prompt(v, text, ev);
}

static int stream_key(struct kt_view *v, int key)
{
	struct stream *st = S(v);

	switch (key) {
	case KEY_UP:
		move_cursor(v, -1);
		break;
	case KEY_DOWN:
		move_cursor(v, 1);
		break;
	case KEY_PPAGE:
		move_cursor(v, -page_rows(v));
		break;
	case KEY_NPAGE:
		move_cursor(v, page_rows(v));
		break;
	case KEY_HOME:
		go_home(v);
		break;
	case KEY_END:
		st->follow = true;
		break;
	case KEY_LEFT:
		st->hscroll = st->hscroll > HSCROLL_STEP ? st->hscroll - HSCROLL_STEP : 0;
		break;
	case KEY_RIGHT:
		if (st->hscroll < LINE_MAX_LEN - HSCROLL_STEP)
			st->hscroll += HSCROLL_STEP;
		break;
	case '/':
		stream_search_open(v, 1);
		break;
	case '?':
		stream_search_open(v, -1);
		break;
	case 'n':
		stream_search_again(v, false);
		break;
	case '=':
		stream_rowfilter_this_pid(v);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (st->split) {
			ui_message(v->ui, false, "a row's stack opens in the merged view (c)");
			break;
		}
		st->detail = !st->detail;
		st->follow = false; /* the row opened stays selected */
		break;
	case 27: /* Esc */
		if (!st->detail)
			return KT_KEY_IGNORED;
		st->detail = false;
		break;
	case 'N':
		stream_search_again(v, true);
		break;
	case 'c':
		st->split = !st->split;
		stream_reset_widths(st);
		ui_message(v->ui, false, st->split ? "one column per CPU (c: merge)" :
						    "all CPUs merged by time (c: split)");
		break;
	case '<':
		if (!st->split)
			return KT_KEY_IGNORED;
		if (st->cpu_off > 0)
			st->cpu_off--;
		break;
	case '>':
		if (!st->split)
			return KT_KEY_IGNORED;
		if (st->cpu_off + stream_split_columns(v) < stream_ncpus(v))
			st->cpu_off++;
		break;
	default:
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

/* The stop-when recipe fired (stopwhen.h): the cursor goes to the matching event, once,
 * as soon as the reader has stored it. */
static void show_stop(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_stopwhen *sw = v->app->stop;
	char ts[32];

	if (!sw || st->stop_shown || !stopwhen_check(v->app) || !stopwhen_locate(v->app))
		return;
	st->stop_shown = true;
	stream_search_found(v, sw->seq);
	decoder_format_ts(sw->ts, 0, ts, sizeof(ts));
	ui_message(v->ui, false, "capture stopped by %s at %s (the cursor is on it)", sw->desc,
		   ts);
}

static void stream_tick(struct kt_view *v)
{
	struct stream *st = S(v);

	show_stop(v);

	if (app_can(v->app, KT_CAP_LIVE)) {
		uint64_t first, end;

		stream_get_range(v, &first, &end);
		st->held = end - first;
	}
	st->enabled = source_enabled_count(v->app->source);
	/* Counts in the title, evictions under a paused view. */
	v->dirty = true;
}

static void stream_notify(struct kt_view *v, enum kt_view_event ev)
{
	struct stream *st = S(v);
	uint64_t first, end;

	switch (ev) {
	case KT_EV_DATA:
		if (st->follow && !st->paused) {
			v->dirty = true;
			break;
		}
		/* Scrolled back or paused: an eviction under the rows shown matters, and so do
		 * new rows when the last frame had room for them (a recording opens at its
		 * first row while its index reads on: its first screen must not wait for the
		 * next tick). */
		stream_get_range(v, &first, &end);
		if (first > (st->split ? st->cur : st->top) || (st->page_short && !st->paused))
			v->dirty = true;
		break;
	case KT_EV_PAUSE:
		store_lock(v->app->store);
		st->frozen_end = store_end(v->app->store);
		store_unlock(v->app->store);
		st->paused = true;
		v->dirty = true;
		break;
	case KT_EV_RESUME:
		st->paused = false;
		v->dirty = true;
		break;
	case KT_EV_CLEAR:
		st->follow = !app_can(v->app, KT_CAP_SEEK);
		st->searching = false;
		st->top = st->cur = 0;
		st->held = 0;
		store_lock(v->app->store);
		st->frozen_end = store_end(v->app->store);
		store_unlock(v->app->store);
		stream_reset_widths(st);
		v->dirty = true;
		break;
	case KT_EV_RANGE: /* its first row at the top, the cursor on it */
		st->r_on = ui_range(v->ui)->on;
		st->r_held_end = UINT64_MAX;
		st->r_end = UINT64_MAX;
		st->searching = false;
		if (st->r_on)
			go_home(v);
		v->dirty = true;
		break;
	case KT_EV_EVENTS:
	case KT_EV_CATALOG:
		st->enabled = source_enabled_count(v->app->source);
		v->dirty = true;
		break;
	}
}


bool view_stream_selected_event(struct kt_view *v, char *buf, size_t len)
{
	struct stream *st = S(v);
	struct kt_rec r;
	bool ok = false;

	if (st->follow)
		return false;
	store_lock(v->app->store);
	if (store_get(v->app->store, st->cur, &r) && !(r.flags & KT_REC_LOST)) {
		decoder_format_name(v->app->decoder, &r, buf, len);
		ok = buf[0] != '\0';
	}
	store_unlock(v->app->store);
	return ok;
}

static const struct kt_keyhelp stream_keys[] = {
	{ "Enter Esc", "the row's fields and stack / close them" },
	{ "/ ?", "search forward / backward (less, vim)" },
	{ "n N", "next match / the other way" },
	{ "=", "only the selected row's pid (row filter)" },
	{ "c", "all CPUs merged by time / one column per CPU" },
	{ "< >", "per CPU: more CPU columns" },
	{ NULL, NULL },
};

const struct kt_view_ops view_stream_ops = {
	.name = "stream",
	.title = "Event stream",
	.keys = stream_keys,
	.init = stream_init,
	.free = stream_free,
	.resize = stream_resize,
	.draw = stream_draw,
	.key = stream_key,
	.tick = stream_tick,
	.notify = stream_notify,
	.prompt = stream_prompt,
	.work = stream_search_work,
	.state = stream_state,
};
