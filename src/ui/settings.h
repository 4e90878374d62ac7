/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explorer's side of themes, ktoprc and profiles: the starting theme and layout (from
 * --theme, -P, ktoprc, in that order), the next theme, saving the
 * configuration (by key and, when something changed, on the way out) and saving a profile.
 * The screen (screen.c) owns the layout; it hands its state over as a struct
 * kt_ui_settings. */
#ifndef KTOP_UI_SETTINGS_H
#define KTOP_UI_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_app;
struct kt_options;

struct kt_ui_settings {
	char theme[64];
	unsigned delay_ms;
	int orient;		/* enum kt_orient */
	int zoom, picker, counters, mouse; /* 0/1 */
	int split;		/* the stream pane's share in percent, 0: automatic */
	char ov_hide[128];	/* the overview's hidden columns (ktoprc's overview-hide) */
};

/* What the session starts with, and the theme set into crt (call before crt_init). A theme
 * that does not load leaves a one-line reason in msg (else msg is ""); so does a ktoprc
 * that did not parse. */
void settings_start(const struct kt_options *o, struct kt_ui_settings *s, char *msg,
		    size_t msglen);
/* The next theme (theme_list order), live. The caller redraws. msg says which, or why not. */
void settings_next_theme(struct kt_ui_settings *s, char *msg, size_t msglen, bool *error);
/* Writes ktoprc with now's settings (refused when the file did not parse). */
void settings_save(const struct kt_options *o, const struct kt_ui_settings *now, char *msg,
		   size_t msglen, bool *error);
/* On the way out: saves what changed between start and now, when anything did. */
void settings_exit(const struct kt_options *o, const struct kt_ui_settings *start,
		   const struct kt_ui_settings *now);
/* Writes ~/.config/ktop/profiles/NAME: the enabled events, the filter, the layout. */
void settings_save_profile(struct kt_app *app, const char *name,
			   const struct kt_ui_settings *now, char *msg, size_t msglen,
			   bool *error);

#endif
