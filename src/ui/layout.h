/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where things go on the screen: the fixed regions (header, panes, status line, function
 * bar) and the pane rectangles for N panes side by side or stacked, with zoom and focus.
 * Pure arithmetic, no curses, so the unit tests can check every size. */
#ifndef KTOP_UI_LAYOUT_H
#define KTOP_UI_LAYOUT_H

#include <stdbool.h>

#define KT_LAYOUT_MAX 8 /* panes */

struct kt_rect {
	int x, y, w, h;
};

enum kt_orient {
	KT_ORIENT_AUTO,	 /* side by side when wide enough, else stacked */
	KT_ORIENT_SIDE,	 /* columns */
	KT_ORIENT_STACK, /* rows */
};

struct kt_layout {
	int n;		     /* panes, at most KT_LAYOUT_MAX */
	int focus;	     /* index of the focused pane */
	bool zoom;	     /* only the focused pane, full size */
	enum kt_orient orient;
	int min_w, min_h;    /* the smallest useful pane; below that the focused pane is zoomed */
	int auto_side_w;     /* KT_ORIENT_AUTO: side by side from this total width on */
	int want_w[KT_LAYOUT_MAX]; /* side by side: a pane's preferred width, 0: a share of
				    * what the others leave (the stream) */
	int first_pct;	     /* the user's size of the first pane (the stream), in percent of
			      * the panes' area along the split; 0: automatic */
};

#define KT_LAYOUT_PCT_MIN 20
#define KT_LAYOUT_PCT_MAX 80
#define KT_LAYOUT_PCT_STEP 5

/* The first pane's share after growing (dir +1) or shrinking (-1) it one step; from
 * automatic (0) the first step starts at 50. Stays within [PCT_MIN, PCT_MAX]. */
int layout_step_pct(int pct, int dir);

/* The fixed regions of a cols x lines terminal. Heights of 0 mean "not shown" (tiny
 * terminals keep the panes first). */
struct kt_screen_rects {
	struct kt_rect header, panes, status, funcbar;
};

void layout_init(struct kt_layout *l);

/* header_h: lines the header wants. Fills r; never returns negative sizes. */
void layout_screen(int cols, int lines, int header_h, struct kt_screen_rects *r);

/* Splits area into n parts along one axis (side: columns, else rows) with gap cells between
 * them; the remainder goes one cell each to the first parts. Parts that do not fit get zero
 * size. Returns n. */
int layout_split(struct kt_rect area, int n, bool side, int gap, struct kt_rect *out);

/* Rectangles of the l->n panes in area; panes not shown get a zero rect. *side_out (may be
 * NULL) tells whether the panes ended up side by side (a separator column lies between
 * them). Side by side, a pane with a preferred width gets it (at most half the area, at
 * least min_w) and the others share the rest. Returns the number of panes shown. */
int layout_compute(const struct kt_layout *l, struct kt_rect area, struct kt_rect *out,
		   bool *side_out);

/* The effective orientation of l in area: true for side by side. */
bool layout_is_side(const struct kt_layout *l, struct kt_rect area);

/* Focus after moving dir (+1 / -1) among n panes, wrapping. */
int layout_focus_step(int n, int cur, int dir);

/* Keeps l valid after adding or removing panes: focus in range, no zoom with one pane. */
void layout_fix(struct kt_layout *l);

/* Orientation after the user's "toggle": from the effective one to the other. */
enum kt_orient layout_toggle_orient(const struct kt_layout *l, struct kt_rect area);

#endif
