// SPDX-License-Identifier: GPL-2.0-or-later
/* The event stream pane: the store's records, formatted only for the rows on screen, all
 * CPUs merged in time order or one column per CPU. Follows the tail until the user scrolls
 * up; a pause freezes the end of what it shows while capture goes on; '/' searches the
 * formatted rows backwards, a bounded number of records per step. The row filter (F: pid,
 * comm, CPU; -: off) hides rows already captured without touching the kernel; scrolling,
 * follow and search step over the hidden ones, and over the stack records the store
 * attached to their events (evstack.h): a row with a stack is marked '*' after its event
 * name, and Enter opens the selected row's stack below the rows, innermost frame first. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "backend/decode.h"
#include "backend/evstack.h"
#include "source/source.h"
#include "backend/store.h"
#include "stopwhen.h"
#include "ui/layout.h"
#include "ui/prompt.h"
#include "ui/rowfilter.h"
#include "ui/view.h"
#include "xalloc.h"
#include "clock.h"

#define NAME_MAX_LEN 96
#define INFO_MAX_LEN 512
#define LINE_MAX_LEN 768
#define SEARCH_STEP_RECORDS 200000   /* per step; then the UI gets a turn */
#define SEARCH_STEP_NS 40000000ULL   /* ... or 40 ms, whichever comes first */
#define SEARCH_BATCH 1024	      /* records per store_lock() hold */
#define SPLIT_SCAN_LIMIT 200000	      /* records scanned back to fill the CPU columns */
#define SPLIT_MIN_W 24		      /* narrowest CPU column */
#define HSCROLL_STEP 8
#define NARROW_W 90			/* below: shorter columns, the fields get the room */
#define PROMPT_SEARCH 1
#define PROMPT_ROWFILTER 2
/* Records walked per redraw or key looking for rows the row filter shows: a filter that
 * matches nothing in a full store costs a bounded pause, never a hang. */
#define FILTER_SCAN_LIMIT 4000000

struct srow {
	uint64_t seq, ts;
	uint32_t cpu, flags;
	bool stack; /* a stack is attached */
	int64_t lost;
	int pid;
	const char *comm; /* resolved after the store lock is dropped */
	char name[NAME_MAX_LEN];
	char info[INFO_MAX_LEN];
};

struct seg {
	int start, end;
	enum crt_elem elem;
};

struct stream {
	bool follow;
	bool split;
	bool paused;
	uint64_t frozen_end; /* paused: store_end() when the pause began */
	uint64_t top, cur;   /* merged: first row shown and the cursor; split: cur is the bottom */
	uint64_t held;	     /* records in view range, for the title */
	bool page_short;     /* the last frame had room for more rows than it drew */
	uint64_t split_span; /* split: records between the oldest row shown and the bottom */
	unsigned long long base_ts;
	bool have_base;
	int hscroll;
	int cpu_off; /* split: first CPU column shown */
	int time_w, task_w, name_w;
	int enabled; /* source_enabled_count(), sampled on the tick */

	struct srow *rows;
	int nrows;

	/* search */
	char pat[256];	      /* the pattern in use ("" none) */
	char old_pat[256];    /* restored when the prompt is cancelled */
	bool prompting;
	bool searching;
	bool not_found;
	int sdir;	      /* -1: towards older records, +1: newer */
	uint64_t spos;	      /* next record to test */
	uint64_t scanned;     /* records tested so far, for the title */
	bool o_follow;	      /* the position when the prompt opened */
	uint64_t o_cur, o_top;

	struct kt_rowfilter rf; /* rows shown (rowfilter.h) */
	bool rf_on;
	uint64_t *seqs;		/* merged view under the row filter: the rows' records */
	uint64_t shift_gen;	/* the store's renumbering last applied (store_shift()) */
	bool estimated;		/* the end shown is an estimate (a recording being indexed) */
	bool stacks;		/* the store holds stack records: rows are walked past them */
	bool detail;		/* Enter: the selected row's stack below the rows */
	bool stop_shown;	/* --stop-when fired: the cursor was put on its event once */
};

static struct stream *S(struct kt_view *v)
{
	return v->data;
}

/* Moves what the view holds of records the store renumbered (a recording's tail, shown
 * before the index reached it, once the index has). Store lock held. */
static void follow_shift(struct stream *st, struct kt_store *store)
{
	uint64_t from, *pos[] = { &st->top, &st->cur, &st->spos, &st->o_cur, &st->o_top };
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

/* [first, end) that the view may show: a pause freezes the end; a recording being indexed
 * shows up to its estimated end (its tail is there before its middle). Store lock held. */
static void view_range(struct stream *st, struct kt_store *store, uint64_t *first,
		       uint64_t *end)
{
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
}

static void reset_widths(struct stream *st)
{
	st->time_w = 8;
	st->task_w = 10;
	st->name_w = 12;
}

static void stream_init(struct kt_view *v)
{
	struct stream *st = xcalloc(1, sizeof(*st));

	st->follow = !app_can(v->app, KT_CAP_SEEK); /* a recording opens at its first event */
	st->sdir = -1;
	st->enabled = source_enabled_count(v->app->source);
	reset_widths(st);
	v->data = st;
}

static void stream_free(struct kt_view *v)
{
	struct stream *st = S(v);

	free(st->rows);
	free(st->seqs);
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
	reset_widths(st);
}

static int ncpus(struct kt_view *v)
{
	return v->app->ncpus > 0 ? v->app->ncpus : 1;
}

/* Whether the row filter shows record r. Store lock held. */
bool view_stream_row_shown(struct kt_view *v, const struct kt_rec *r)
{
	struct stream *st = S(v);
	const char *comm = NULL;
	int pid;

	if (r->flags & KT_REC_STACK)
		return false; /* shown with its event */
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

/* Copies what a row needs out of the store. Store lock held. */
static void fill_row(struct kt_view *v, const struct kt_rec *r, struct srow *row)
{
	struct stream *st = S(v);

	row->seq = r->seq;
	row->ts = r->ts;
	row->cpu = r->cpu;
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
		st->have_base = true;
	}
	if (r->flags & KT_REC_LOST) {
		row->pid = 0;
		row->name[0] = row->info[0] = '\0';
		return;
	}
	row->pid = decoder_rec_pid(r);
	decoder_format_name(v->app->decoder, r, row->name, sizeof(row->name));
	decoder_format_info(v->app->decoder, r, row->info, sizeof(row->info));
}

static void lost_text(const struct srow *row, char *buf, size_t len)
{
	if (row->lost < 0)
		snprintf(buf, len, "*** CPU %u: lost an unknown number of events ***", row->cpu);
	else
		snprintf(buf, len, "*** CPU %u: lost %lld events ***", row->cpu,
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

#define RT_CPU 0x1	/* a CPU column (merged view) */
#define RT_PAD 0x2	/* align to the sticky column widths, growing them (display) */
#define RT_SHORT 0x4	/* narrow pane: event name without its system, tighter caps */

/* The row's text: time, CPU, task-pid, event, fields. Without RT_PAD single spaces
 * separate the columns (what the search matches). */
static int row_text(struct stream *st, const struct srow *row, int how, char *out, size_t len,
		    struct seg *segs, int *nseg)
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
	if (row->flags & KT_REC_LOST) {
		lost_text(row, lost, sizeof(lost));
		s = n;
		n += snprintf(out + n, len - n, "%s", lost);
		add_seg(segs, nseg, s, n, CRT_LOST);
		return (size_t)n >= len ? (int)len - 1 : n;
	}
	if (how & RT_CPU) {
		s = n;
		n += snprintf(out + n, len - n, "[%03u] ", row->cpu);
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

/* Smart case, as in less -i: case matters only when the pattern has a capital. */
static bool pat_has_upper(const char *p)
{
	for (; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			return true;
	return false;
}

static const char *find_pat(const char *hay, const char *pat, bool icase)
{
	return icase ? strcasestr(hay, pat) : strstr(hay, pat);
}

static enum crt_elem seg_at(const struct seg *segs, int nseg, int pos)
{
	int i;

	for (i = 0; i < nseg; i++)
		if (pos >= segs[i].start && pos < segs[i].end)
			return segs[i].elem;
	return CRT_NORMAL;
}

/* Draws one row from column hscroll on, in w cells at (y, x), with the search matches
 * highlighted. */
static void draw_line(struct kt_view *v, int y, int x, int w, const char *line, int n,
		      const struct seg *segs, int nseg, bool cursor)
{
	struct stream *st = S(v);
	char mask[LINE_MAX_LEN];
	attr_t cattr = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	int i;

	memset(mask, 0, n < (int)sizeof(mask) ? n : (int)sizeof(mask));
	if (st->pat[0]) {
		bool icase = !pat_has_upper(st->pat);
		size_t pl = strlen(st->pat);
		const char *p = line;

		while ((p = find_pat(p, st->pat, icase))) {
			memset(mask + (p - line), 1, pl);
			p += pl;
		}
	}
	for (i = 0; i < w; i++) {
		int pos = st->hscroll + i;
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
		if (c < 0x20 || c >= 0x7f)
			c = '?';
		mvwaddch(v->win, y, x + i, (chtype)c | a);
	}
}

static void draw_row(struct kt_view *v, int y, int x, int w, struct srow *row, int how)
{
	struct stream *st = S(v);
	char line[LINE_MAX_LEN];
	struct seg segs[8];
	int nseg, n;
	bool cursor = !st->follow && row->seq == st->cur;

	n = row_text(st, row, how | RT_PAD, line, sizeof(line), segs, &nseg);
	draw_line(v, y, x, w, line, n, segs, nseg, cursor);
}

static void draw_empty(struct kt_view *v, int first_row)
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

static void resolve_comms(struct kt_view *v, struct srow *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!(rows[i].flags & KT_REC_LOST))
			rows[i].comm = decoder_comm(v->app->decoder, rows[i].pid, rows[i].ts);
}

/* The merged view's records under the row filter, into st->seqs, oldest first: the cursor
 * on a shown record, the rows above it down to top, the rows below to fill the pane. Store
 * lock held. Returns how many. */
static int filtered_seqs(struct kt_view *v, int rows_h, uint64_t first, uint64_t end)
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

/* Draws the n rows copied out of the store (after the lock), or the empty-pane text. */
static void draw_copied(struct kt_view *v, int n)
{
	struct stream *st = S(v);
	int i;

	st->page_short = n < v->h - 1;
	if (!n) {
		draw_empty(v, 1);
		return;
	}
	resolve_comms(v, st->rows, n);
	for (i = 0; i < n; i++)
		draw_row(v, 1 + i, 0, v->w, &st->rows[i],
			 RT_CPU | (v->w < NARROW_W ? RT_SHORT : 0));
}

/* Rows of the pane the stack of the selected row takes (Enter), title line included. */
static int detail_rows(struct kt_view *v)
{
	return S(v)->detail && !S(v)->split ? (v->h - 1) / 2 : 0;
}

/* The selected row's stack in the h rows from y: a title line, then one frame per line,
 * innermost first, named as the kernel names them. */
static void draw_detail(struct kt_view *v, int y, int h)
{
	struct stream *st = S(v);
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	struct kt_store *store = v->app->store;
	char name[NAME_MAX_LEN], line[LINE_MAX_LEN], ts[32];
	enum kt_frame_kind kind;
	size_t n = 0, i;
	bool have = false;
	struct kt_rec r;

	if (h <= 0)
		return;
	store_lock(store);
	if (store_get(store, st->cur, &r) && !(r.flags & (KT_REC_LOST | KT_REC_STACK))) {
		have = true;
		decoder_format_name(v->app->decoder, &r, name, sizeof(name));
		decoder_format_ts(r.ts, st->have_base ? st->base_ts : 0, ts, sizeof(ts));
		n = evstack_read(v->app->decoder, store, &r, f, KT_EVSTACK_MAX);
	}
	store_unlock(store);
	if (!have)
		snprintf(line, sizeof(line), " No event selected (Up selects one)");
	else if (!n)
		snprintf(line, sizeof(line), " %s at %s: no stack (^K in the picker or --stack "
			 "records its event's)", name, ts);
	else
		snprintf(line, sizeof(line), " Stack of %s at %s, innermost first (Esc closes)",
			 name, ts);
	wattrset(v->win, crt_attr(CRT_BORDER) | A_REVERSE);
	mvwhline(v->win, y, 0, ' ', v->w);
	crt_put(v->win, y, 0, line, v->w);
	for (i = 0; i < n && (int)i + 1 < h; i++) {
		evstack_name(v->app->decoder, app_symbolizer(v->app), &f[i], true, line,
			     sizeof(line), &kind);
		wattrset(v->win, crt_attr(kind == KT_FRAME_UNRESOLVED ? CRT_DIM : CRT_EVENT));
		mvwhline(v->win, y + 1 + (int)i, 0, ' ', v->w);
		mvwprintw(v->win, y + 1 + (int)i, 0, "  %-*.*s", v->w - 2, v->w - 2, line);
	}
	if (n > (size_t)h - 1) {
		snprintf(line, sizeof(line), "  ... %zu more frames", n - (size_t)h + 2);
		wattrset(v->win, crt_attr(CRT_DIM));
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
	if (st->rf_on || st->stacks) {
		store_lock(store);
		view_range(st, store, &first, &end);
		st->held = end - first;
		k = filtered_seqs(v, rows_h, first, end);
		for (i = 0; i < k; i++)
			if (store_get(store, st->seqs[i], &r))
				fill_row(v, &r, &st->rows[n++]);
		store_unlock(store);
		draw_copied(v, n);
		return;
	}
	/* Short hold: copy the visible rows out, format and draw after unlocking. */
	store_lock(store);
	view_range(st, store, &first, &end);
	st->held = end - first;
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
				fill_row(v, &r, &st->rows[n++]);
	}
	store_unlock(store);
	draw_copied(v, n);
}

static int split_columns(struct kt_view *v)
{
	struct stream *st = S(v);
	int nc = ncpus(v), fit = (v->w + 1) / (SPLIT_MIN_W + 1);

	if (fit < 1)
		fit = 1;
	if (st->cpu_off > nc - 1)
		st->cpu_off = nc - 1;
	if (st->cpu_off < 0)
		st->cpu_off = 0;
	return nc - st->cpu_off < fit ? nc - st->cpu_off : fit;
}

static void draw_split(struct kt_view *v)
{
	struct stream *st = S(v);
	struct kt_store *store = v->app->store;
	struct kt_rect cols[KT_LAYOUT_MAX * 8], area;
	const struct crt_glyphs *g = crt_glyphs();
	int rows_h = v->h - 2, ncol = split_columns(v), cnt[KT_LAYOUT_MAX * 8];
	int c, i, y, total = 0;
	uint64_t first, end, seq, oldest = UINT64_MAX, scanned = 0;
	struct kt_rec r;
	char hdr[32];

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
	view_range(st, store, &first, &end);
	st->held = end - first;
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
			fill_row(v, &r, &st->rows[c * rows_h + cnt[c]]);
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
		resolve_comms(v, base, cnt[c]);
		snprintf(hdr, sizeof(hdr), "CPU %d", st->cpu_off + c);
		wattrset(v->win, crt_attr(CRT_CPU) | A_BOLD);
		crt_put(v->win, 1, cols[c].x, hdr, cols[c].w);
		wattrset(v->win, A_NORMAL);
		for (i = 0; i < cnt[c]; i++)
			draw_row(v, 2 + i, cols[c].x, cols[c].w, &base[i],
				 cols[c].w < NARROW_W ? RT_SHORT : 0);
		if (c + 1 < ncol) {
			wattrset(v->win, crt_attr(CRT_BORDER));
			for (y = 1; y < v->h; y++)
				mvwaddstr(v->win, y, cols[c].x + cols[c].w, g->vline);
			wattrset(v->win, A_NORMAL);
		}
	}
	if (!total)
		draw_empty(v, 2);
}

static void stream_draw(struct kt_view *v)
{
	struct stream *st = S(v);
	char title[160], right[160], held[32], scan[48];
	const char *state;

	if (st->split) {
		draw_split(v);
	} else {
		draw_merged(v);
		draw_detail(v, v->h - detail_rows(v), detail_rows(v));
	}

	if (st->split)
		snprintf(title, sizeof(title), "Events: per CPU %d-%d of %d", st->cpu_off,
			 st->cpu_off + split_columns(v) - 1, ncpus(v));
	else
		snprintf(title, sizeof(title), "Events: all CPUs");
	if (st->rf_on) {
		char rft[64];
		size_t tl = strlen(title);

		rowfilter_text(&st->rf, rft, sizeof(rft));
		snprintf(title + tl, sizeof(title) - tl, " | only %s", rft);
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
		state = st->follow ? "FOLLOW" : "SCROLL";
	/* "~": row numbers are estimates until the recording's index is through */
	snprintf(held, sizeof(held), "%s%llu", st->estimated ? "~" : "",
		 (unsigned long long)st->held);
	if (st->hscroll)
		snprintf(right, sizeof(right), "%s held  col %d  %s", held, st->hscroll + 1, state);
	else
		snprintf(right, sizeof(right), "%s held  %s", held, state);
	view_draw_title(v, title, right);
}

/* --- navigation --- */

static void get_range(struct kt_view *v, uint64_t *first, uint64_t *end)
{
	store_lock(v->app->store);
	view_range(S(v), v->app->store, first, end);
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

/* The cursor delta shown rows on, under the row filter. A page keeps the cursor on the
 * same screen row, as without the filter, by moving top the same number of rows. */
static void move_filtered(struct kt_view *v, int64_t delta)
{
	struct stream *st = S(v);
	uint64_t budget = FILTER_SCAN_LIMIT, first, end, s, cur, top;
	int dir = delta < 0 ? -1 : 1;
	bool page = delta > 1 || delta < -1;

	store_lock(v->app->store);
	view_range(st, v->app->store, &first, &end);
	if (end <= first)
		goto out;
	if (st->follow) {
		if (delta > 0)
			goto out;
		st->follow = false;
		filtered_seqs(v, v->h - 1, first, end); /* where the follow view had it */
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

static void move_cursor(struct kt_view *v, int64_t delta)
{
	struct stream *st = S(v);
	uint64_t first, end;

	if ((st->rf_on || st->stacks) && !st->split) {
		move_filtered(v, delta);
		return;
	}
	get_range(v, &first, &end);
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

	get_range(v, &first, &end);
	st->follow = false;
	st->top = first;
	st->cur = first;
	if (st->split && end > first) {
		uint64_t span = (uint64_t)(v->h - 2) * split_columns(v);

		st->cur = end - first > span ? first + span - 1 : end - 1;
	}
}

/* --- search --- */

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

static void search_found(struct kt_view *v, uint64_t seq)
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
	bool icase = !pat_has_upper(st->pat);
	uint64_t done = 0, first, end;
	char line[LINE_MAX_LEN];
	struct srow row;
	struct kt_rec r;
	int i;

	while (done < SEARCH_STEP_RECORDS && clock_mono_ns() < deadline) {
		store_lock(store);
		view_range(st, store, &first, &end);
		if (st->sdir > 0 && st->spos < first)
			st->spos = first;
		for (i = 0; i < SEARCH_BATCH; i++, done++) {
			if (st->spos < first || st->spos >= end) {
				store_unlock(store);
				search_failed(v);
				return false;
			}
			if (store_get(store, st->spos, &r) && view_stream_row_shown(v, &r)) {
				fill_row(v, &r, &row);
				if (!(row.flags & KT_REC_LOST))
					row.comm = decoder_comm(v->app->decoder, row.pid, row.ts);
				row_text(st, &row, RT_CPU, line, sizeof(line), NULL, NULL);
				if (find_pat(line, st->pat, icase)) {
					store_unlock(store);
					search_found(v, st->spos);
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

static bool stream_work(struct kt_view *v)
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
	get_range(v, &first, &end);
	search_begin(v, -1, st->o_follow ? (end ? end - 1 : 0) : st->o_cur);
	/* The first step runs now, so a near match shows with the keystroke. */
	stream_work(v);
}

static void search_again(struct kt_view *v, int dir)
{
	struct stream *st = S(v);
	uint64_t first, end;

	if (!st->pat[0]) {
		ui_message(v->ui, false, "no search pattern yet: press / to search");
		return;
	}
	get_range(v, &first, &end);
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
	stream_work(v);
}

static void rowfilter_changed(struct kt_view *v)
{
	struct stream *st = S(v);

	st->rf_on = rowfilter_active(&st->rf);
	st->searching = false;
	reset_widths(st);
	v->dirty = true;
}

/* The row filter's prompt, applied on Enter; a mistake changes nothing. */
static void rowfilter_prompt(struct kt_view *v, const char *text, enum kt_prompt_event ev)
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

/* Only the selected row's task: its pid. */
static void rowfilter_this_pid(struct kt_view *v)
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
		rowfilter_prompt(v, text, KT_PROMPT_ACCEPT);
}

static void stream_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	struct stream *st = S(v);

	if (id == PROMPT_ROWFILTER) {
		rowfilter_prompt(v, text, ev);
		return;
	}
	if (id != PROMPT_SEARCH)
		return;
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
		restore_origin(st);
		break;
	}
	v->dirty = true;
}

static void open_search(struct kt_view *v)
{
	struct stream *st = S(v);

	snprintf(st->old_pat, sizeof(st->old_pat), "%s", st->pat);
	st->o_follow = st->follow;
	st->o_cur = st->cur;
	st->o_top = st->top;
	st->prompting = true;
	st->not_found = false;
	ui_prompt_open(v->ui, v, PROMPT_SEARCH, "/", "");
	/* Typing starts a new pattern; the old one stays highlighted until then. */
}

static int stream_key(struct kt_view *v, int key)
{
	struct stream *st = S(v);

	switch (key) {
	case KEY_UP:
	case 'k':
		move_cursor(v, -1);
		break;
	case KEY_DOWN:
	case 'j':
		move_cursor(v, 1);
		break;
	case KEY_PPAGE:
		move_cursor(v, -page_rows(v));
		break;
	case KEY_NPAGE:
		move_cursor(v, page_rows(v));
		break;
	case KEY_HOME:
	case 'g':
		go_home(v);
		break;
	case KEY_END:
	case 'G':
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
		open_search(v);
		break;
	case 'n':
		search_again(v, -1);
		break;
	case '=':
		rowfilter_this_pid(v);
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
		search_again(v, 1);
		break;
	case 'c':
		st->split = !st->split;
		reset_widths(st);
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
		if (st->cpu_off + split_columns(v) < ncpus(v))
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
	search_found(v, sw->seq);
	decoder_format_ts(sw->ts, 0, ts, sizeof(ts));
	ui_message(v->ui, false, "capture stopped by %s at %s (the cursor is on it)", sw->desc,
		   ts);
}

static void stream_tick(struct kt_view *v)
{
	struct stream *st = S(v);

	show_stop(v);

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
		get_range(v, &first, &end);
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
		store_lock(v->app->store);
		st->frozen_end = store_end(v->app->store);
		store_unlock(v->app->store);
		reset_widths(st);
		v->dirty = true;
		break;
	case KT_EV_EVENTS:
	case KT_EV_CATALOG:
		st->enabled = source_enabled_count(v->app->source);
		v->dirty = true;
		break;
	}
}

static const char *stream_state(struct kt_view *v)
{
	return S(v)->follow ? "FOLLOW" : "SCROLL";
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

const struct kt_view_ops view_stream_ops = {
	.name = "stream",
	.init = stream_init,
	.free = stream_free,
	.resize = stream_resize,
	.draw = stream_draw,
	.key = stream_key,
	.tick = stream_tick,
	.notify = stream_notify,
	.prompt = stream_prompt,
	.work = stream_work,
	.state = stream_state,
};
