/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen's state and the pane operations its actions use: for the screen (screen.c) and
 * the actions (action.c) only. Panes see neither; they reach the screen through view.h. */
#ifndef KTOP_UI_SCREEN_H
#define KTOP_UI_SCREEN_H

#include <stdbool.h>

#include "ui/crt.h"
#include "ui/header.h"
#include "ui/layout.h"
#include "ui/prompt.h"
#include "ui/settings.h"
#include "ui/ui_record.h"

struct kt_app;
struct kt_view;
struct kt_view_ops;

struct kt_ui {
	struct kt_app *app;
	struct kt_view *views[KT_LAYOUT_MAX];
	struct kt_view *stream; /* views[0], always there */
	struct kt_view *picker; /* NULL while closed */
	struct kt_view *pmu;	/* the counters pane, NULL while closed */
	struct kt_view *tracers; /* the tracer pane, NULL while closed */
	struct kt_view *probes;	 /* the probe editor, NULL while closed */
	struct kt_view *tree;	/* the call-tree pane, NULL while closed */
	struct kt_view *flame;	/* the flame graph pane, NULL while closed */
	struct kt_layout lay;	/* lay.n == number of views */
	struct kt_screen_rects rects;
	struct kt_rect pane[KT_LAYOUT_MAX];
	bool side;
	int cols, lines;

	WINDOW *header_win, *status_win, *fbar_win, *help_win;
	struct kt_header header;
	struct kt_prompt prompt;
	struct kt_view *prompt_owner;
	int prompt_id;

	bool help;
	int help_scroll;
	bool paused;
	bool quit;
	bool cursor_on;

	/* dirty flags; views carry their own */
	bool relayout, full, header_dirty, status_dirty, fbar_dirty, help_dirty;
	char msg[256];
	bool msg_error;

	struct kt_ui_settings start; /* what the session started with (settings.c) */
	bool mouse;
	struct kt_ui_record rec; /* w, A (ui_record.c) */
};

#define UI_PROMPT_PROFILE 1 /* the screen's own prompt (no owner view): profile name */

/* Focuses views[idx] (the function bar follows it). */
void screen_focus(struct kt_ui *ui, int idx);
/* Closes a pane other than the stream; the stream gets the focus. */
void screen_close_view(struct kt_ui *ui, struct kt_view *v);
/* Opens the event picker (a recording's events with -i), focused; silent when full. */
void screen_open_picker(struct kt_ui *ui);
/* Opens the counters pane (and the counters), focused when asked; silent when full. */
void screen_open_pmu(struct kt_ui *ui, bool focus);
/* Opens the pane in *slot focused, or closes it when it is open and focused. */
void screen_toggle_pane(struct kt_ui *ui, struct kt_view **slot, const struct kt_view_ops *ops);
/* A new histogram pane, focused: building spec, or prompting for one when spec is NULL. */
void screen_open_hist(struct kt_ui *ui, const char *spec);
/* The settings as they are now, for ktoprc and profiles. */
void screen_settings_now(struct kt_ui *ui, struct kt_ui_settings *s);

#endif
