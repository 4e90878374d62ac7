/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A one-line editor for the status line: search patterns and filter expressions. */
#ifndef KTOP_UI_PROMPT_H
#define KTOP_UI_PROMPT_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/crt.h"

#define KT_PROMPT_MAX 512

struct kt_prompt {
	bool active;
	char label[128];
	char buf[KT_PROMPT_MAX];
	size_t len, cur; /* bytes; the text is ASCII */
	size_t scroll;	 /* first byte shown when the text is wider than the line */
};

enum kt_prompt_result {
	KT_PR_NONE,    /* key ignored */
	KT_PR_MOVED,   /* cursor moved, text unchanged */
	KT_PR_CHANGED, /* text changed */
	KT_PR_ACCEPT,  /* Enter */
	KT_PR_CANCEL,  /* Esc, Ctrl-C, Ctrl-G */
	KT_PR_COMPLETE, /* Tab: the owner completes the word under the cursor */
};

void prompt_open(struct kt_prompt *p, const char *label, const char *initial);
void prompt_close(struct kt_prompt *p);
/* Edits: printable ASCII inserts; Backspace, Delete, Left/Right, Home/End (Ctrl-A/E),
 * Ctrl-U (kill line), Ctrl-W (kill word). */
enum kt_prompt_result prompt_key(struct kt_prompt *p, int key);
/* Draws label and text on row 0 of win (w cells) and leaves the curses cursor at the
 * editing position. */
void prompt_draw(struct kt_prompt *p, WINDOW *win, int w);

#endif
