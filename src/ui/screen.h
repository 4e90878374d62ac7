/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen's state and the pane operations its actions use: for the screen (screen.c) and
 * the actions (action.c) only. Panes see neither; they reach the screen through view.h. */
#ifndef KTOP_UI_SCREEN_H
#define KTOP_UI_SCREEN_H

#include <stdbool.h>

#include "ui/crt.h"
#include "ui/header.h"
#include "ui/help.h"
#include "ui/layout.h"
#include "ui/prompt.h"
#include "ui/settings.h"
#include "ui/ui_record.h"
#include "ui/view.h"

struct kt_app;
struct kt_view;
struct kt_ui_axis;

struct kt_ui {
	struct kt_app *app;
	struct kt_view *views[KT_LAYOUT_MAX]; /* the open panes, of any kinds (pane.h) */
	struct kt_view *stream; /* views[0], always there */
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
	struct kt_help helpst; /* its lines, scroll and search */
	bool paused;
	bool quit;
	bool cursor_on;

	/* dirty flags; views carry their own */
	bool relayout, full, header_dirty, status_dirty, fbar_dirty, help_dirty;
	char msg[256];
	bool msg_error;
	unsigned note_seq; /* the source's stderr lines shown so far (kt_source_desc) */

	/* a question on the status line (screen_confirm): y runs confirm_yes, another key
	 * says confirm_no */
	void (*confirm_yes)(struct kt_ui *ui);
	const char *confirm_no;

	struct kt_ui_settings start; /* what the session started with (settings.c) */
	char ov_hide[128]; /* the overview's hidden columns now (ovtable_hide_text's) */
	bool mouse;
	struct kt_ui_record rec; /* w, A (ui_record.c) */
	struct kt_flightrec *fr; /* the armed flight recorder (ui_arm.c), NULL: disarmed */
	struct kt_incident_rows *incident_rows; /* the incidents written, armed or not; or NULL */
	/* a drill-down (ui_drill): the pane it opened, and the one that gets the focus back
	 * when that closes */
	struct kt_view *drilled, *back;
	struct kt_range range;	/* the marked time range (range.c) */
	uint64_t capture_start; /* ui_capture_start(), once known */
	struct kt_ui_axis *axis; /* the timeline's and heat map's index (timeaxis.c) */
};

/* The screen's own prompts (no owner pane), numbered here and nowhere else; a pane numbers
 * its own prompts as it likes (the owner tells them apart). */
enum kt_screen_prompt {
	UI_PROMPT_PROFILE = 1, /* W: the profile's name */
	UI_PROMPT_WRITE,       /* w: the trace.dat to write (ui_record.c) */
	UI_PROMPT_RECORD,      /* A: the trace.dat to keep writing (ui_record.c) */
	UI_PROMPT_RANGE,       /* @: a time range typed (range.c) */
	UI_PROMPT_ARM,	       /* ^A: conditions to arm (ui_arm.c) */
};

/* screen_draw.c: (re)creates every window for the terminal's size and the layout; whether
 * anything needs drawing; one redraw of what is dirty. */
void screen_layout(struct kt_ui *ui);
bool screen_dirty(const struct kt_ui *ui);
void screen_redraw(struct kt_ui *ui);
/* Asks question (ending "(y/n)") on the status line, as htop asks before a kill: the next
 * key y runs yes; any other key runs nothing and says no_msg. For what cannot be undone. */
void screen_confirm(struct kt_ui *ui, const char *question, void (*yes)(struct kt_ui *ui),
		    const char *no_msg);
/* screen_prompt.c: a key while the prompt is open. */
void screen_prompt_key(struct kt_ui *ui, int key);
/* range.c: @'s prompt accepted: text ("+40.1..+40.3", absolute) becomes the range. */
void screen_range_prompt(struct kt_ui *ui, const char *text);
/* The settings as they are now, for ktoprc and profiles. */
void screen_settings_now(struct kt_ui *ui, struct kt_ui_settings *s);

#endif
