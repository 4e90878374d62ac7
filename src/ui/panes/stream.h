/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The event stream pane's own header: its state and what its files share. view_stream.c is
 * the pane (rows, drawing the merged view, keys, events); stream_split.c the per-CPU
 * columns; stream_walk.c the row filter and the walk over the rows it shows;
 * stream_search.c the search. Nothing outside these files includes it. */
#ifndef KTOP_UI_STREAM_H
#define KTOP_UI_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/crt.h"
#include "rowfilter.h"
#include "ui/view.h"

struct kt_evtext;
struct kt_rec;
struct kt_store;

#define NAME_MAX_LEN 96
#define INFO_MAX_LEN 512
#define LINE_MAX_LEN 768
#define SPLIT_MIN_W 24		      /* narrowest CPU column */
#define NARROW_W 90			/* below: shorter columns, the fields get the room */
#define PROMPT_SEARCH 1
#define PROMPT_ROWFILTER 2

struct srow {
	uint64_t seq, ts;
	uint32_t cpu, flags;
	/* several remote hosts: the host's label (the host column) and cpu's own number on it
	 * (hcpu is cpu with one source of events) */
	const char *host;
	uint32_t hcpu;
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
	uint64_t held;	     /* records in view range, for the title: live, sampled on the
			      * tick with the header's count of events */
	bool none_shown;     /* the row filter shows none of them */
	bool page_short;     /* the last frame had room for more rows than it drew */
	uint64_t split_span; /* split: records between the oldest row shown and the bottom */
	unsigned long long base_ts;
	bool have_base;
	int hscroll;
	int cpu_off; /* split: first CPU column shown */
	int time_w, host_w, task_w, name_w;
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
	int pdir;	      /* the last pattern's direction: / +1, ? -1 (n keeps it) */
	uint64_t spos;	      /* next record to test */
	uint64_t scanned;     /* records tested so far, for the title */
	bool o_follow;	      /* the position when the prompt opened */
	uint64_t o_cur, o_top, o_bottom;
	int o_pdir;	      /* pdir then: a cancelled prompt keeps n's direction */
	uint64_t bottom;      /* merged view: the last row drawn */

	struct kt_rowfilter rf; /* rows shown (rowfilter.h) */
	bool rf_on;
	uint64_t *seqs;		/* merged view under the row filter: the rows' records */
	uint64_t shift_gen;	/* the store's renumbering last applied (store_shift()) */
	bool estimated;		/* the end shown is an estimate (a recording being indexed) */
	bool stacks;		/* the store holds stack records: rows are walked past them */
	bool detail;		/* Enter: the selected row's stack below the rows */
	bool stop_shown;	/* --stop-when fired: the cursor was put on its event once */
	struct kt_evtext *text; /* the rows' text (evtext.h) */
	bool show_self;		/* ktop's own threads' rows shown (M) */
	/* the time range (ui_range): its records [r_first, r_end), found for the store's
	 * [r_held_first, r_held_end); found again when the store grows under an end */
	bool r_on;
	uint64_t r_first, r_end, r_held_end;
};


#define RT_CPU 0x1	/* a CPU column (merged view) */
#define RT_PAD 0x2	/* align to the sticky column widths, growing them (display) */
#define RT_SHORT 0x4	/* narrow pane: event name without its system, tighter caps */

static inline struct stream *S(struct kt_view *v)
{
	return v->data;
}

/* view_stream.c */
/* [first, end) that the view may show: a pause freezes the end; a recording being indexed
 * shows up to its estimated end (its tail is there before its middle). Store lock held. */
void stream_view_range(struct kt_view *v, struct kt_store *store, uint64_t *first,
		       uint64_t *end);
/* The same, taking the store lock. */
void stream_get_range(struct kt_view *v, uint64_t *first, uint64_t *end);
void stream_reset_widths(struct stream *st);
int stream_ncpus(struct kt_view *v);
/* Copies what a row needs out of the store. Store lock held. */
void stream_fill_row(struct kt_view *v, const struct kt_rec *r, struct srow *row);
/* The row's text: time, CPU, task-pid, event, fields. Without RT_PAD single spaces
 * separate the columns (what the search matches). */
int stream_row_text(struct stream *st, const struct srow *row, int how, char *out,
		    size_t len, struct seg *segs, int *nseg);
void stream_draw_row(struct kt_view *v, int y, int x, int w, struct srow *row, int how);
/* The columns' widths grown to the n rows about to be drawn, before the first is: a resize
 * or a new screen starts from narrow widths, and rows drawn first would keep them. */
void stream_fit_widths(struct stream *st, const struct srow *rows, int n, int how);
/* The view range's size into st->held when it is the title's to take now (store lock held). */
void stream_note_held(struct kt_view *v, uint64_t first, uint64_t end);
/* The empty pane's one line, from first_row on. */
void stream_draw_empty(struct kt_view *v, int first_row);
/* The task names of rows copied out (after the store lock). */
void stream_resolve_comms(struct kt_view *v, struct srow *rows, int n);

/* stream_split.c: one column per CPU. */
/* How many CPU columns fit (and cpu_off kept in range). */
int stream_split_columns(struct kt_view *v);
void stream_draw_split(struct kt_view *v);

/* stream_walk.c: the row filter and the rows it shows (view_stream_row_shown, view.h). */
/* Whether rows are walked one by one for the ones shown: a row filter, stack records, or
 * ktop's own rows hidden. */
bool stream_walks(struct kt_view *v);
/* The merged view's records under the row filter, into st->seqs, oldest first. Store lock
 * held. Returns how many. */
int stream_filtered_seqs(struct kt_view *v, int rows_h, uint64_t first, uint64_t end);
/* The cursor delta shown rows on, under the row filter. */
void stream_move_filtered(struct kt_view *v, int64_t delta);
/* The row filter's prompt (PROMPT_ROWFILTER), applied on Enter. */
void stream_rowfilter_prompt(struct kt_view *v, const char *text, enum kt_prompt_event ev);
/* =: only the selected row's task. */
void stream_rowfilter_this_pid(struct kt_view *v);

/* stream_search.c */
/* Smart case, as in less -i: case matters only when the pattern has a capital. */
bool stream_pat_has_upper(const char *p);
const char *stream_find_pat(const char *hay, const char *pat, bool icase);
/* Puts the cursor on seq (mid-pane when it was off screen), ending a search. */
void stream_search_found(struct kt_view *v, uint64_t seq);
/* One bounded step of a search in progress (the ops' work). */
bool stream_search_work(struct kt_view *v);
/* / (dir +1) and ? (dir -1): the prompt, as in less: / searches from the first row shown
 * towards newer records, ? from the last row shown towards older ones; its events
 * (PROMPT_SEARCH). n again in the pattern's direction, N the other way (next: false). */
void stream_search_open(struct kt_view *v, int dir);
void stream_search_prompt(struct kt_view *v, const char *text, enum kt_prompt_event ev);
void stream_search_again(struct kt_view *v, bool reverse);

#endif
