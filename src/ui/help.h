/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help overlay (F1, h, ?): every key, in two columns when the terminal is wide enough,
 * scrollable when it is not. */
#ifndef KTOP_UI_HELP_H
#define KTOP_UI_HELP_H

#include <stdbool.h>

#include "ui/crt.h"

/* Line i of the key list in its one-column order (the global keys, one per action, first):
 * keys NULL for a section title, "" with desc "" for a blank line. False past the last. */
bool help_line(int i, const char **keys, const char **desc);
/* Size of the overlay for a cols x lines area. */
void help_size(int cols, int lines, int *w, int *h);
/* Draws into win (w x h) from content line *scroll, clamping *scroll. */
void help_draw(WINDOW *win, int w, int h, int *scroll);

#endif
