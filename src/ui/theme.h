/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Themes: text files mapping each semantic screen element (crt.h's enum crt_elem, by name)
 * to a foreground, a background and attributes, and the colour fallback for terminals with
 * fewer colours (tmux tty_check_fg: RGB -> 256 -> 16 -> 8). Pure parsing and arithmetic, no
 * curses, so the unit tests cover every line; crt.c turns a theme into colour pairs.
 * The format is documented in themes/README.md. */
#ifndef KTOP_UI_THEME_H
#define KTOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Elements, in crt.h's enum crt_elem order (crt.c checks the count). */
#define KT_THEME_NELEM 35
#define KT_THEME_NAME_MAX 64

/* A colour: KT_COLOUR_DEFAULT (the terminal's own), 0..255 (the palette), or
 * KT_COLOUR_RGB | 0xrrggbb. */
#define KT_COLOUR_DEFAULT (-1)
#define KT_COLOUR_RGB 0x1000000

/* Attributes. */
enum {
	KT_ATTR_BOLD = 1 << 0,
	KT_ATTR_REVERSE = 1 << 1,
	KT_ATTR_UNDERLINE = 1 << 2,
	KT_ATTR_DIM = 1 << 3,
};

struct kt_theme_style {
	int fg, bg;
	unsigned attrs;
};

struct kt_theme {
	char name[KT_THEME_NAME_MAX];
	struct kt_theme_style style[KT_THEME_NELEM];
};

/* The element's name in theme files ("header_label"), or NULL past the end. */
const char *theme_elem_name(int elem);
/* Its index, or -1. */
int theme_elem_find(const char *name);

/* "red", "brightred", "default", "colour42", "42", "#ff8000" -> *out. Returns 0, or -1. */
int theme_parse_colour(const char *s, int *out);
/* "bold", "reverse", "underline", "dim", "normal" -> bits. Returns 0, or -1. */
int theme_parse_attr(const char *s, unsigned *out);

/* The compiled-in default (the same text as themes/default.theme). */
void theme_default(struct kt_theme *t);

/* Parses a whole theme from text. Elements not named keep the default's style. Returns 0;
 * or -1 with "FILE:LINE: reason" in err, and *t reset to the default. */
int theme_parse(struct kt_theme *t, const char *text, const char *file, char *err,
		size_t errlen);
/* Same from a stream. */
int theme_parse_file(struct kt_theme *t, FILE *f, const char *file, char *err, size_t errlen);

/* The directories searched for NAME.theme, first wins: the user's
 * ($XDG_CONFIG_HOME/ktop/themes, default ~/.config/ktop/themes), $KTOP_THEMES_DIR, the
 * source tree's themes/ (running uninstalled), $(pkgdatadir)/themes. Fills up to max
 * paths into dirs (each of dirlen bytes); returns the count. */
int theme_dirs(char dirs[][4096], int max);
/* Loads theme name (a name looked up in theme_dirs(), or a path containing '/'). "default"
 * without a file is the compiled-in one. Returns 0; or -1 with a one-line reason in err
 * (FILE:LINE: for a bad file) and *t set to the default. */
int theme_load(struct kt_theme *t, const char *name, char *err, size_t errlen);
/* Names of the available themes (the four shipped ones first, then the rest found in
 * theme_dirs(), sorted, without duplicates). Returns the count (at most max). */
int theme_list(char names[][KT_THEME_NAME_MAX], int max);

/* The colour fallback (tmux colour_find_rgb, colour_256to16): c as it can be shown on a
 * terminal with ncolours colours. *bold is set when an 8-colour terminal needs bold to
 * show a bright colour (foregrounds only). Returns KT_COLOUR_DEFAULT when ncolours < 8. */
int theme_colour_fit(int c, int ncolours, bool *bold);
/* The nearest of the 240 colours 16..255 to an RGB value. */
int theme_rgb_to_256(int rgb);
/* 0..255 -> 0..15. */
int theme_256_to_16(int c);

#endif
