/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal: curses set-up and teardown, the crash reset sequence, stderr capture while
 * curses owns the screen, the colour scheme (semantic elements -> attributes, htop's
 * ColorElements) and the line-drawing glyphs (UTF-8 or ASCII). The only header that pulls
 * in curses. */
#ifndef KTOP_UI_CRT_H
#define KTOP_UI_CRT_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

struct kt_options;

enum crt_elem {
	CRT_NORMAL,
	CRT_HEADER,	    /* header background */
	CRT_HEADER_LABEL,
	CRT_HEADER_VALUE,
	CRT_HEADER_WARN,    /* non-zero loss counters */
	CRT_HEADER_STATE,   /* FOLLOW */
	CRT_PAUSED,	    /* PAUSED */
	CRT_TITLE,	    /* pane title, unfocused */
	CRT_TITLE_FOCUS,    /* pane title, focused */
	CRT_BORDER,	    /* separators */
	CRT_CURSOR,	    /* selected row, focused pane */
	CRT_CURSOR_DIM,	    /* selected row, unfocused pane */
	CRT_LOST,	    /* loss marker rows */
	CRT_MATCH,	    /* search matches */
	CRT_TIME,
	CRT_CPU,
	CRT_TASK,
	CRT_EVENT,
	CRT_SYSTEM,	    /* picker system headers */
	CRT_ENABLED,	    /* picker [x] */
	CRT_DIM,	    /* hints, empty-pane text */
	CRT_FKEY,	    /* function bar key */
	CRT_FLABEL,	    /* function bar label */
	CRT_STATUS,
	CRT_ERROR,
	CRT_PROMPT,
	CRT_HELP,
	CRT_HELP_KEY,
	CRT_HELP_TITLE,
	CRT_FLAME,	    /* flame graph kernel frames (and blocks of narrow ones) */
	CRT_FLAME_ALT,	    /* user-space frames */
	CRT_FLAME_GROW,	    /* differential flame graph: a frame's share grew */
	CRT_FLAME_SHRINK,   /* and shrank */
	CRT_FLAME_JIT,	    /* JIT frames (perf-PID.map) */
	CRT_FLAME_TASK,	    /* tasks, the root */
	CRT_ELEM_COUNT
};

struct crt_glyphs {
	const char *vline;    /* separator between side-by-side panes */
	const char *edge;     /* a flame graph frame's first cell: where it starts */
	const char *hline;    /* title fill */
	const char *ellipsis; /* "…" or "..." */
	const char *up, *down; /* help arrows */
	const char *folded, *unfolded; /* picker system headers */
	int ellipsis_w;	      /* its width in cells */
	const char *spark[8]; /* one-cell bar heights, lowest first (counters pane) */
	const char *bar_full, *bar_empty; /* horizontal bar cells */
	const char *plusminus; /* "±" or "+-" (a clock offset's uncertainty) */
	int plusminus_w;
};

/* Starts curses on the terminal. Returns 0, or -1 with a one-line reason in err (no
 * terminal, unknown TERM). Captures stderr until crt_done(). */
int crt_init(const struct kt_options *opts, char *err, size_t errlen);
/* Restores the terminal, then prints what was written to stderr meanwhile. Idempotent. */
void crt_done(void);

/* Attribute (colour pair or, in monochrome, bold/reverse) of a semantic element. */
attr_t crt_attr(enum crt_elem e);
const struct crt_glyphs *crt_glyphs(void);
bool crt_is_utf8(void);
/* Colours the terminal shows (0: monochrome, by -C, NO_COLOR or terminfo). */
int crt_colors(void);

struct kt_theme;
/* Makes t (src/ui/theme.h) the colour scheme: before crt_init, or live (then the caller
 * redraws everything). */
void crt_set_theme(const struct kt_theme *t);
const char *crt_theme_name(void);

/* Writes s at (y, x) in at most w cells: control bytes and non-ASCII bytes are shown as
 * '?', so the column arithmetic of the callers holds. Returns cells written. */
int crt_put(WINDOW *win, int y, int x, const char *s, int w);
/* Like crt_put, then pads with spaces up to w cells. */
void crt_put_pad(WINDOW *win, int y, int x, const char *s, int w);
/* Fills w cells of row y from x with spaces in the window's current attribute. */
void crt_fill(WINDOW *win, int y, int x, int w);

#endif
