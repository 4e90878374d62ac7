// SPDX-License-Identifier: GPL-2.0-or-later
/* Terminal set-up, colour scheme and glyphs (htop CRT.c). */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <term.h>
#include <unistd.h>

#include "app/options.h"
#include "app/signals.h"
#include "util/strutil.h"
#include "ui/crt.h"
#include "ui/theme.h"

/* Used when terminfo lacks a capability: leave the alternate screen, show the cursor,
 * reset attributes, leave keypad mode. */
#define CRT_RESET_FALLBACK "\033[?1049l\033[?25h\033[0m\033[?1l\033>"

static SCREEN *crt_screen;
static bool crt_color, crt_utf8, crt_default_colors;
static attr_t crt_attrs[CRT_ELEM_COUNT];
static char crt_reset[256];
static int crt_saved_stderr = -1;
static FILE *crt_stderr_file;

static const struct crt_glyphs glyphs_utf8 = {
	.vline = "\xe2\x94\x82",    /* │ */
	.edge = "\xe2\x96\x8f",     /* ▏ */
	.hline = "\xe2\x94\x80",    /* ─ */
	.ellipsis = "\xe2\x80\xa6", /* … */
	.up = "\xe2\x86\x91",	    /* ↑ */
	.down = "\xe2\x86\x93",	    /* ↓ */
	.folded = "\xe2\x96\xb8",	    /* ▸ */
	.unfolded = "\xe2\x96\xbe",    /* ▾ */
	.ellipsis_w = 1,
	/* ▁ ▂ ▃ ▄ ▅ ▆ ▇ █ */
	.spark = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
		   "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" },
	.bar_full = "\xe2\x96\x88",  /* █ */
	.bar_empty = "\xe2\x96\x91", /* ░ */
	.plusminus = "\xc2\xb1", /* ± */
	.plusminus_w = 1,
};

static const struct crt_glyphs glyphs_ascii = {
	.vline = "|",
	.edge = "|",
	.hline = "-",
	.ellipsis = "...",
	.up = "Up",
	.down = "Dn",
	.folded = "+",
	.unfolded = "-",
	.ellipsis_w = 3,
	.spark = { "_", ".", ":", "-", "=", "+", "*", "#" },
	.bar_full = "#",
	.bar_empty = ".",
	.plusminus = "+-",
	.plusminus_w = 2,
};

/* The compiled-in colour scheme: foreground, background (-1: the terminal's default) and
 * extra attributes per element. In colour, the theme (src/ui/theme.c, themes/NAME.theme;
 * the default one is the same as this table) decides; the mono column is what a terminal
 * without colours, -C and NO_COLOR get. */
struct crt_scheme_entry {
	short fg, bg;
	attr_t attr;
	attr_t mono; /* monochrome: A_REVERSE / A_BOLD only */
};

static const struct crt_scheme_entry crt_default_scheme[CRT_ELEM_COUNT] = {
	[CRT_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_HEADER] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_HEADER_LABEL] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[CRT_HEADER_VALUE] = { -1, -1, A_BOLD, A_BOLD },
	[CRT_HEADER_WARN] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_REVERSE },
	[CRT_HEADER_STATE] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[CRT_PAUSED] = { COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_BOLD | A_REVERSE },
	[CRT_TITLE] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[CRT_TITLE_FOCUS] = { COLOR_BLACK, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD },
	[CRT_BORDER] = { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
	[CRT_CURSOR] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[CRT_CURSOR_DIM] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
	[CRT_LOST] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[CRT_MATCH] = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_REVERSE | A_BOLD },
	[CRT_TIME] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_CPU] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
	[CRT_TASK] = { -1, -1, A_BOLD, A_NORMAL },
	[CRT_EVENT] = { COLOR_GREEN, -1, A_NORMAL, A_BOLD },
	[CRT_SYSTEM] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[CRT_ENABLED] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[CRT_DIM] = { COLOR_BLUE, -1, A_BOLD, A_NORMAL },
	[CRT_FKEY] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_FLABEL] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[CRT_STATUS] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_ERROR] = { COLOR_RED, -1, A_BOLD, A_BOLD },
	[CRT_PROMPT] = { -1, -1, A_BOLD, A_BOLD },
	[CRT_HELP] = { -1, -1, A_NORMAL, A_NORMAL },
	[CRT_HELP_KEY] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[CRT_HELP_TITLE] = { COLOR_BLACK, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD },
	[CRT_FLAME] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_NORMAL },
	[CRT_FLAME_ALT] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_NORMAL },
	[CRT_FLAME_GROW] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD },
	[CRT_FLAME_SHRINK] = { COLOR_WHITE, COLOR_BLUE, A_BOLD, A_BOLD },
	[CRT_FLAME_JIT] = { COLOR_BLACK, COLOR_MAGENTA, A_NORMAL, A_NORMAL },
	[CRT_FLAME_TASK] = { -1, -1, A_BOLD, A_BOLD },
};

_Static_assert(CRT_ELEM_COUNT == KT_THEME_NELEM, "theme.c names every crt_elem");

/* The theme in force (crt_set_theme); the compiled-in default until one is set. */
static struct kt_theme crt_theme;

static bool codeset_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static void append_cap(char *buf, size_t len, const char *cap)
{
	char *s = tigetstr(cap);

	if (s && s != (char *)-1)
		strncat(buf, s, len - strlen(buf) - 1);
}

/* What signals.c writes to the terminal on a crash, taken from terminfo when possible. */
static void crt_set_crash_reset(void)
{
	crt_reset[0] = '\0';
	append_cap(crt_reset, sizeof(crt_reset), "rmcup");
	append_cap(crt_reset, sizeof(crt_reset), "cnorm");
	append_cap(crt_reset, sizeof(crt_reset), "sgr0");
	append_cap(crt_reset, sizeof(crt_reset), "rmkx");
	if (!crt_reset[0])
		snprintf(crt_reset, sizeof(crt_reset), "%s", CRT_RESET_FALLBACK);
	strncat(crt_reset, "\r\n", sizeof(crt_reset) - strlen(crt_reset) - 1);
	signals_set_crash_reset(crt_reset);
}

static attr_t theme_attrs(unsigned a)
{
	return ((a & KT_ATTR_BOLD) ? A_BOLD : 0) | ((a & KT_ATTR_REVERSE) ? A_REVERSE : 0) |
	       ((a & KT_ATTR_UNDERLINE) ? A_UNDERLINE : 0) | ((a & KT_ATTR_DIM) ? A_DIM : 0);
}

/* The theme as colour pairs, each colour fitted to what the terminal has (tmux
 * tty_check_fg); monochrome uses the compiled-in attributes. */
static void crt_apply_theme(const struct kt_theme *t)
{
	int i, ncol = COLORS;

	if (!crt_color) {
		for (i = 0; i < CRT_ELEM_COUNT; i++)
			crt_attrs[i] = crt_default_scheme[i].mono;
		return;
	}
	for (i = 0; i < CRT_ELEM_COUNT; i++) {
		const struct kt_theme_style *st = &t->style[i];
		bool bold = false;
		int fg = theme_colour_fit(st->fg, ncol, &bold);
		int bg = theme_colour_fit(st->bg, ncol, NULL);
		attr_t a = theme_attrs(st->attrs) | (bold ? A_BOLD : 0);

		if (!crt_default_colors) {
			fg = fg < 0 ? COLOR_WHITE : fg;
			bg = bg < 0 ? COLOR_BLACK : bg;
		}
		if ((fg < 0 && bg < 0) || i + 1 >= COLOR_PAIRS) {
			crt_attrs[i] = a;
			continue;
		}
		init_pair((short)(i + 1), (short)fg, (short)bg);
		crt_attrs[i] = COLOR_PAIR(i + 1) | a;
	}
}

static void crt_setup_colors(bool mono)
{
	crt_color = !mono && has_colors() && start_color() == OK && COLORS >= 8;
	if (crt_color)
		crt_default_colors = use_default_colors() == OK;
	crt_apply_theme(&crt_theme);
}

void crt_set_theme(const struct kt_theme *t)
{
	crt_theme = *t;
	if (crt_screen)
		crt_apply_theme(&crt_theme);
}

const char *crt_theme_name(void)
{
	return crt_theme.name;
}

int crt_colors(void)
{
	return crt_color ? COLORS : 0;
}

/* Nothing may reach the terminal behind curses' back: stderr goes to a temporary file
 * that crt_done() prints once the screen is restored (htop redirectStderr). */
static void crt_capture_stderr(void)
{
	fflush(stderr);
	crt_stderr_file = tmpfile();
	if (!crt_stderr_file)
		return;
	crt_saved_stderr = dup(STDERR_FILENO);
	if (crt_saved_stderr < 0 || dup2(fileno(crt_stderr_file), STDERR_FILENO) < 0) {
		if (crt_saved_stderr >= 0)
			close(crt_saved_stderr);
		crt_saved_stderr = -1;
		fclose(crt_stderr_file);
		crt_stderr_file = NULL;
	}
}

static void crt_release_stderr(void)
{
	char buf[4096];
	size_t n;

	if (crt_saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(crt_saved_stderr, STDERR_FILENO);
	close(crt_saved_stderr);
	crt_saved_stderr = -1;
	rewind(crt_stderr_file);
	while ((n = fread(buf, 1, sizeof(buf), crt_stderr_file)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(crt_stderr_file);
	crt_stderr_file = NULL;
}

int crt_init(const struct kt_options *opts, char *err, size_t errlen)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen,
			 "the interactive mode needs a terminal (use -b for batch mode)");
		return -1;
	}
	crt_utf8 = codeset_is_utf8() && !opts->ascii;
	/* newterm, unlike initscr, returns instead of exiting on an unknown TERM. */
	crt_screen = newterm(NULL, stdout, stdin);
	if (!crt_screen) {
		snprintf(err, errlen, "cannot use terminal type '%s' (set TERM, e.g. TERM=xterm)",
			 term ? term : "");
		return -1;
	}
	set_term(crt_screen);
	signals_watch_resize();
	if (!crt_theme.name[0])
		theme_default(&crt_theme);
	crt_set_crash_reset();
	crt_capture_stderr();
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* Esc closes things; don't wait a second to tell it from a function key. */
	set_escdelay(25);
	curs_set(0);
	/* One write per update: without this ncurses flushes in small pieces to check for
	 * typeahead, which costs packets on a slow SSH link; the main loop limits the rate. */
	typeahead(-1);
	crt_setup_colors(opts->no_color);
	/* The first getch() would refresh stdscr: do it now, while it is blank. */
	refresh();
	return 0;
}

void crt_done(void)
{
	if (!crt_screen)
		return;
	curs_set(1);
	endwin();
	delscreen(crt_screen);
	crt_screen = NULL;
	signals_set_crash_reset("");
	crt_release_stderr();
}

attr_t crt_attr(enum crt_elem e)
{
	if ((unsigned)e >= CRT_ELEM_COUNT)
		return A_NORMAL;
	return crt_attrs[e];
}

const struct crt_glyphs *crt_glyphs(void)
{
	return crt_utf8 ? &glyphs_utf8 : &glyphs_ascii;
}

bool crt_is_utf8(void)
{
	return crt_utf8;
}

int crt_put(WINDOW *win, int y, int x, const char *s, int w)
{
	char buf[512];
	int n = 0, i = 0;

	if (w <= 0 || !s)
		return 0;
	if (wmove(win, y, x) == ERR)
		return 0;
	while (n < w && s[i]) {
		unsigned char c = (unsigned char)s[i++];

		/* the em dash of kernel-facing messages: one cell, drawn as '-' */
		if (c == 0xe2 && (unsigned char)s[i] == 0x80 && (unsigned char)s[i + 1] == 0x94) {
			c = '-';
			i += 2;
		}
		buf[n % sizeof(buf)] = str_shown(c);
		n++;
		if (n % sizeof(buf) == 0)
			waddnstr(win, buf, sizeof(buf));
	}
	if (n % sizeof(buf))
		waddnstr(win, buf, n % sizeof(buf));
	return n;
}

void crt_fill(WINDOW *win, int y, int x, int w)
{
	if (w <= 0 || wmove(win, y, x) == ERR)
		return;
	while (w-- > 0)
		waddch(win, ' ');
}

void crt_put_pad(WINDOW *win, int y, int x, const char *s, int w)
{
	int n = crt_put(win, y, x, s, w);

	crt_fill(win, y, x + n, w - n);
}
