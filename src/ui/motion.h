/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The movement keys, one table for every pane (less, vim, htop): arrows and hjkl, PgUp/PgDn
 * with ^B/^F and Space, ^U/^D half a page, Home/End with g/G. The screen turns each into its
 * curses code before the focused pane sees it, so no pane can give a movement key another
 * meaning; only while a pane takes typed text (the picker's narrowing) do letters, Space and
 * the control keys stay themselves. The help's movement section is this table. */
#ifndef KTOP_UI_MOTION_H
#define KTOP_UI_MOTION_H

#include <stdbool.h>

struct kt_motion {
	const char *keys; /* as the help shows them, space-separated key names (action.h) */
	const char *help;
	int code;	  /* what the pane gets: KEY_UP ... KEY_END, or a half page (below) */
};

/* The half-page moves, which no pane sees: the screen sends them as rows of KEY_UP/DOWN. */
#define KT_MOTION_HALF_UP (-2)
#define KT_MOTION_HALF_DOWN (-3)

/* The i-th movement, NULL past the last. */
const struct kt_motion *motion_at(int i);
/* The movement key is, or NULL; text: the pane takes typed text now, so only the named keys
 * move (arrows, PgUp/PgDn, Home/End): letters, Space and ^U (kill the text) stay keys. */
const struct kt_motion *motion_of(int key, bool text);

#endif
