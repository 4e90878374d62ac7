/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The function-key bar on the bottom line (htop FunctionBar): key names in one colour,
 * labels in another. Every F-key also has a letter, listed in the help. */
#ifndef KTOP_UI_FUNCBAR_H
#define KTOP_UI_FUNCBAR_H

#include <stdbool.h>

#include "ui/crt.h"

struct funcbar_item {
	const char *key;   /* "F1", "Spc" */
	const char *label; /* "Help" */
};

/* The global bar, from the actions' F-keys and labels (action.c): F1 Help ... F10 Quit, F11
 * Counters; those that need what caps (the event source's, enum kt_cap) lacks say n/a (a
 * recording's live-only ones). Valid until the next call. */
int funcbar_actions(unsigned int caps, const struct funcbar_item **items);
/* Draws items on row 0 of win, as many as fit in w cells, the rest of the line blank. */
void funcbar_draw(WINDOW *win, int w, const struct funcbar_item *items, int n);

#endif
