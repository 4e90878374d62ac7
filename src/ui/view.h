/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A pane kind is a const operations table (tmux window_mode, uftrace tui_window_ops) and a
 * row of the registry (pane.c's KT_PANES); one instance is a struct kt_view with its curses
 * window and private data. The screen owns the views, lays them out, routes keys to the
 * focused one and redraws the dirty ones; views only set flags and draw when asked. Below
 * the table: the services the screen offers views. */
#ifndef KTOP_UI_VIEW_H
#define KTOP_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/crt.h"

struct kt_app;
struct kt_ui;
struct kt_store;
struct kt_view;
struct funcbar_item;

/* What a key handler did (htop HandlerResult). */
enum {
	KT_KEY_IGNORED = 0,	 /* not this view's key: the screen tries its global bindings */
	KT_KEY_HANDLED = 1 << 0, /* consumed */
	KT_KEY_CLOSE = 1 << 1,	 /* the view asks to be closed */
};

/* What happened, for views that care (notify). */
enum kt_view_event {
	KT_EV_DATA,   /* new records in the store (wake fd) */
	KT_EV_PAUSE,  /* the user froze the display */
	KT_EV_RESUME,
	KT_EV_CLEAR,  /* the store was emptied */
	KT_EV_EVENTS, /* the set of enabled events changed */
	KT_EV_CATALOG, /* events came or went (dynamic probes): app->catalog was reloaded */
	KT_EV_RANGE,   /* the time range was marked or cleared (ui_range) */
};

/* Prompt callbacks: the text changed (incremental), was accepted (Enter) or cancelled. */
enum kt_prompt_event { KT_PROMPT_CHANGED, KT_PROMPT_ACCEPT, KT_PROMPT_CANCEL, KT_PROMPT_COMPLETE };

/* A line of a pane's own keys in the help: key names as action.h spells them ("letters" for
 * a pane that takes typed text), what they do. A pane's own key is never a movement key
 * (motion.h: the screen translates those first) nor a global action's, unless that action
 * lets the focused pane have it (kt_action.per_pane); check_actions checks every table. */
struct kt_keyhelp {
	const char *keys;
	const char *help;
};

struct kt_view_ops {
	const char *name;
	/* Its section of the help: title, its own keys ending with { NULL, NULL }. */
	const char *title;
	const struct kt_keyhelp *keys;
	/* Side by side, the width this kind is happy with (0: whatever is left). */
	int pref_width;
	/* Allocates v->data. */
	void (*init)(struct kt_view *v);
	void (*free)(struct kt_view *v);
	/* v->win was (re)created with a new size. */
	void (*resize)(struct kt_view *v);
	/* Draws the whole window (title line included); the screen does the refresh. */
	void (*draw)(struct kt_view *v);
	/* Returns KT_KEY_* flags. Movement keys come as their curses codes (motion.h). */
	int (*key)(struct kt_view *v, int key);
	/* Optional: whether it takes typed text now (letters narrow a list, name a choice), so
	 * letters and Space reach key as themselves instead of moving. */
	bool (*typing)(struct kt_view *v);
	/* Once per UI tick. */
	void (*tick)(struct kt_view *v);
	/* Optional from here on (NULL: not interested). */
	void (*notify)(struct kt_view *v, enum kt_view_event ev);
	void (*prompt)(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev);
	/* Bounded background work (a search in progress): does one step, returns true while
	 * more remains. */
	bool (*work)(struct kt_view *v);
	/* Short state word for the header ("FOLLOW"), or NULL. */
	const char *(*state)(struct kt_view *v);
	/* Hints for the function bar while this view is focused; returns the count. */
	int (*funcbar)(struct kt_view *v, const struct funcbar_item **items);
	/* A mouse click at (y, x) of the focused view's window. */
	void (*click)(struct kt_view *v, int y, int x);
	/* The button's release at (y, x) of the window under it, after a click: a drag ends. */
	void (*release)(struct kt_view *v, int y, int x);
	/* The wheel at (y, x) of its window, up or down: a pane that takes it for its own
	 * (the timeline zooms there); NULL: it scrolls the pane by three rows */
	void (*wheel)(struct kt_view *v, int y, int x, bool up);
	/* The user opened it with its key (placed and focused): a prompt to fill it, a source
	 * to start. */
	void (*opened)(struct kt_view *v);
};

struct kt_pane_kind;

struct kt_view {
	const struct kt_pane_kind *kind; /* its registry row (pane.h) */
	const struct kt_view_ops *ops;
	struct kt_ui *ui;
	struct kt_app *app;
	WINDOW *win; /* NULL while not shown (another pane is zoomed) */
	int w, h;    /* size of win */
	bool dirty;
	bool focused;
	void *data;
};

/* The registry (pane.c) declares each kind's view_NAME_ops; this one is no kind of its own:
 * the events kind's factory puts it in the picker's place on a recording. */
extern const struct kt_view_ops view_recevents_ops;

/* Stream: "system:event" of the selected row, when a row is selected (not following). */
bool view_stream_selected_event(struct kt_view *v, char *buf, size_t len);
/* Stream: the row filter's prompt; the row filter off. */
void view_stream_rowfilter_edit(struct kt_view *v);
void view_stream_rowfilter_clear(struct kt_view *v);
/* Stream: ktop's own threads' rows shown or hidden (hidden at first, live). */
void view_stream_toggle_self(struct kt_view *v);
struct kt_rec;
/* Whether the stream shows record r as a row (the row filter; stack records are not rows).
 * Store lock held. */
bool view_stream_row_shown(struct kt_view *v, const struct kt_rec *r);
/* Picker: select spec's event (when given) and open the field list and filter prompt for
 * the selected event. Returns false when no event is selected. */
bool view_picker_edit_filter(struct kt_view *v, const char *spec);

/* Histogram pane: build spec's histogram in it (a refusal is shown in the pane and on the
 * status line, and what the pane showed stays). Opened by its key it prompts for a spec. */
void view_hist_build(struct kt_view *v, const char *spec);

/* Flame graph pane: where a live tree's stacks come from. update is called once a UI tick
 * unless the pane is frozen or the display paused; it adds what came in to st and returns
 * true when st changed. It only adds: st is the pane's tree, whose nodes the pane points at
 * (zooms, the selection), or during a live diff a tree of one tick that the pane moves into
 * its window of the last seconds.
 * close (may be NULL) is called when the pane lets the source go. key (may be NULL) gets the
 * keys the pane does not take (returns KT_KEY_* flags); it may hand the pane another source
 * with view_flame_show, which closes this one: arg is gone when that returns. cpu (may be
 * NULL: the pane's c says the source has no CPUs) makes update add only the stacks of that
 * CPU (-1: every CPU) from its next call on, those already added included when the source
 * still holds them (event stacks); returns 0, or -1 with one line in err (a CPU it does not
 * see, a source not kept by CPU). The pane empties the tree when it returns 0. */
struct kt_stacks;
struct kt_flame_source {
	bool (*update)(void *arg, struct kt_stacks *st);
	void (*close)(void *arg);
	int (*key)(void *arg, struct kt_view *v, int key);
	int (*cpu)(void *arg, int cpu, char *err, size_t errlen);
	void *arg;
	/* Esc with nothing left to undo in the pane: true when the source took it (went back a
	 * step); NULL or false: the pane closes */
	bool (*back)(void *arg, struct kt_view *v);
	/* the time range changed (ui_range): the source shows a new tree of the range's stacks
	 * (view_flame_show), and the pane keeps its baseline to compare; NULL: its stacks have
	 * no times (a profile summed as sampled, a file), so the pane says it stays whole */
	void (*range)(void *arg, struct kt_view *v);
};
/* Shows st in the flame pane, titled name; the pane owns st and base (the differential
 * view's baseline, or NULL) from now on. src NULL: st never changes (a file). pinned: Esc
 * does not close the pane (ktop --flame, where it is all there is to see). */
void view_flame_show(struct kt_view *v, struct kt_stacks *st, struct kt_stacks *base,
		     const char *name, const struct kt_flame_source *src, bool pinned);
/* The frame selected in the flame pane v, NULL when it shows nothing. */
const struct kt_stack_node *view_flame_selected(struct kt_view *v);
/* Takes the tree out of the flame pane v, and its source (*src) with it, unclosed: the
 * caller owns both and may give them back with view_flame_show. NULL when it shows none. */
struct kt_stacks *view_flame_detach(struct kt_view *v, struct kt_flame_source *src);

/* Services of the screen (screen.c). */
bool ui_paused(const struct kt_ui *ui);
/* The overview's hidden columns as ktoprc's overview-hide keeps them (the pane reads them
 * as it opens and writes them on each change; S and the exit save them): a buffer of
 * *len bytes. */
char *ui_ov_hide(struct kt_ui *ui, size_t *len);
/* One line in the status line; error colours it. Never more than one line. */
void ui_message(struct kt_ui *ui, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Opens the prompt on the status line for owner; its prompt op gets the events. */
void ui_prompt_open(struct kt_ui *ui, struct kt_view *owner, int id, const char *label,
		    const char *initial);
/* Tab in the prompt (KT_PROMPT_COMPLETE): completes the word under its cursor from the n
 * names in cands (extra: characters that belong to a word beside letters, digits, '_');
 * the owner then gets KT_PROMPT_CHANGED when the text grew. Several matches: up to listlen
 * bytes of them into list (may be NULL). Returns how many names matched. */
size_t ui_prompt_complete(struct kt_ui *ui, const char *const *cands, size_t n,
			  const char *extra, char *list, size_t listlen);
/* Closes the prompt if owner has it open (the owner's state behind it is going). */
void ui_prompt_drop(struct kt_ui *ui, struct kt_view *owner);
/* The prompt's cursor, a byte offset into its text. */
size_t ui_prompt_cursor(const struct kt_ui *ui);
/* Opens the event picker on spec ("system:event"), its fields and the filter prompt. */
void ui_edit_filter(struct kt_ui *ui, const char *spec);
/* Tells every view (the sender included) that ev happened. */
void ui_broadcast(struct kt_ui *ui, enum kt_view_event ev);

/* Opens (or focuses) the pane of kind for a drill-down from from: when the pane it opens
 * closes, from has the focus again. Returns it, or NULL (no room, said). */
struct kt_view *ui_drill(struct kt_ui *ui, struct kt_view *from, const char *kind);
/* The time range every pane follows (range.c): trace timestamps, both ends inclusive. */
struct kt_range {
	bool on;
	uint64_t from, to;
};
const struct kt_range *ui_range(const struct kt_ui *ui);
/* Marks [from, to] (says so, broadcasts KT_EV_RANGE); clears it. */
void ui_range_set(struct kt_ui *ui, uint64_t from, uint64_t to);
void ui_range_clear(struct kt_ui *ui);
/* The capture's first timestamp, what "+40.1" counts from (0 while nothing is stored). */
uint64_t ui_capture_start(struct kt_ui *ui);
/* r's records among the store's [lo, hi), by bisection (store_seek_ts): [*first, *end).
 * Store lock held; pages a paged store. */
void range_seqs(const struct kt_range *r, const struct kt_store *store, uint64_t lo,
		uint64_t hi, uint64_t *first, uint64_t *end);
/* Narrows [*first, *end) to the range when one is marked (store lock held); true then. For
 * a pane that scans the store once per change, not per frame (the stream keeps its own). */
bool ui_range_clip(const struct kt_ui *ui, const struct kt_store *store, uint64_t *first,
		   uint64_t *end);
/* A pane whose figures have no times (in-kernel BPF counts, counters, a folded profile):
 * what its title says while a range is marked, "" when none is. */
const char *ui_range_unscoped(const struct kt_ui *ui);
/* "+1.250000" (relative to the capture's start) into buf. */
void ui_format_rel(struct kt_ui *ui, uint64_t ts, char *buf, size_t len);

/* Incidents pane: a '!' in row y of v for each incident (ui_arm.h) that fired in the w
 * columns from x, the first starting at from and each colns nanoseconds wide (the
 * timeline's marks row). */
void view_incidents_marks(struct kt_view *v, int y, int x, uint64_t from, uint64_t colns,
			  int w);

/* Draws a pane's title line: name on the left, right-aligned state text. */
void view_draw_title(struct kt_view *v, const char *title, const char *right);

#endif
