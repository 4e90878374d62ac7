/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help (F1): every key, generated from the tables that run them (motion.h, action.h,
 * each pane's kt_keyhelp), full screen, in as many 80-column columns as the width holds;
 * the focused pane's keys first (perf top's per-view h), scrolled with the movement keys,
 * searched with / and n N as less does. */
#ifndef KTOP_UI_HELP_H
#define KTOP_UI_HELP_H

#include <stdbool.h>

#include "ui/crt.h"

struct kt_app;
struct kt_view_ops;

#define HELP_MAX_LINES 400
#define HELP_COL_W 80 /* a column: keys, then their line, whole at 80 columns */
#define HELP_KEYS_W 15
#define HELP_MAX_REFUSED 48 /* lines of the refused keys' reasons */

struct kt_help_line {
	const char *keys; /* NULL: a section title in desc; "": a blank line or a line's tail */
	const char *desc;
};

struct kt_help {
	struct kt_help_line lines[HELP_MAX_LINES];
	int n;
	int scroll;	   /* the first line shown */
	int page;	   /* lines one screen shows (all its columns), as drawn last */
	char query[64];	   /* the last search */
	bool typing;	   /* / was pressed: keys edit query */
	char note[96];	   /* "pattern not found" and the like, on the bottom line */
	char why[HELP_MAX_REFUSED][HELP_COL_W]; /* the refused keys' reasons, wrapped */
	int nwhy;
};

/* Fills h: the section of first (the focused pane's ops; NULL: none) first, then the
 * movement keys, the global actions, the prompt's and the mouse's, every other pane's (as
 * app opens it); the keys app's source refuses (a recording's p, w, m...) come last, each
 * with the source's one line instead of its help, and their panes' sections are left out
 * (app NULL: nothing refused). */
void help_open(struct kt_help *h, const struct kt_view_ops *first, const struct kt_app *app);
/* A key while the help shows, movement keys as their curses codes (motion.h); false: the
 * key closes the help. */
bool help_key(struct kt_help *h, int key);
/* Draws the whole of win (w x rows). */
void help_draw(struct kt_help *h, WINDOW *win, int w, int rows);

#endif
