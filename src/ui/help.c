// SPDX-License-Identifier: GPL-2.0-or-later
/* The help overlay: the key list is data, so the two column layouts share it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/help.h"

struct help_line {
	const char *keys; /* NULL: section title in desc */
	const char *desc;
};

#define HELP_KEYS_W 11
#define HELP_COL_W 39

static const struct help_line help_left[] = {
	{ NULL, "Global keys" },
	{ "F1 h ?", "this help" },
	{ "F2 e", "event picker open / close" },
	{ "F3 /", "search stream backwards" },
	{ "n  N", "next older / newer match" },
	{ "F4 f", "filter of selected event" },
	{ "F5 o |", "side by side / stacked" },
	{ "F6 c", "all CPUs / one per CPU" },
	{ "F7 p", "pause display (not capture)" },
	{ "F8 x", "clear stored events" },
	{ "F9 z", "zoom the focused pane" },
	{ "[  ]", "stream pane smaller / larger" },
	{ "F11 m", "counters pane open / close" },
	{ "F12 H", "new histogram pane (BPF)" },
	{ "T", "call-tree pane open / close" },
	{ "P", "probe editor open / close" },
	{ "R", "tracer pane, function lists" },
	{ "F", "row filter: pid= comm= cpu=" },
	{ "-", "row filter off" },
	{ "F10 q", "quit (q: not in picker)" },
	{ "Tab S-Tab", "focus next / previous pane" },
	{ "^L", "redraw the screen" },
	{ "t", "next colour theme" },
	{ "S", "save settings (ktoprc)" },
	{ "W", "save events as a profile" },
	{ "w", "write stored events (trace.dat)" },
	{ "A", "keep writing from now on / stop" },
	{ "mouse", "click: focus, toggle event" },
	{ "wheel", "scroll the pane under it" },
	{ "", "" },
	{ NULL, "Prompt (search, filter)" },
	{ "Enter Esc", "accept / cancel" },
	{ "^U ^W", "kill line / word" },
	{ "Tab", "complete field, function" },
};

static const struct help_line help_right[] = {
	{ NULL, "Event stream" },
	{ "Up Dn j k", "one row (leaves follow)" },
	{ "PgUp PgDn", "one page" },
	{ "Home g", "oldest event" },
	{ "End G", "newest, follow the tail" },
	{ "Left Right", "scroll sideways" },
	{ "< >", "per CPU: more CPU columns" },
	{ "=", "only the selected row's pid" },
	{ "", "" },
	{ NULL, "Event picker" },
	{ "type", "fuzzy-narrow the list" },
	{ "Backspace", "edit the typed text" },
	{ "Esc", "clear text, then close" },
	{ "Space", "toggle event or system" },
	{ "Enter", "fields + filter prompt" },
	{ "Left Right", "fold / unfold a system" },
	{ "Up Dn PgUp", "move (PgDn Home End too)" },
	{ "", "" },
	{ NULL, "Counters" },
	{ "Up Dn j k", "select: per-CPU bars below" },
	{ "< >", "more CPUs / threads" },
	{ "Esc", "close the pane" },
	{ "", "" },
	{ NULL, "Histogram" },
	{ "Enter H", "build another (prompt)" },
	{ "v", "bars / keys / heatmap" },
	{ "i", "per tick / since start" },
	{ "s", "sort keys: count / p99" },
	{ "Up Dn a", "select a key / all keys" },
	{ "F", "freeze this pane" },
	{ NULL, "Call trees (function_graph)" },
	{ "Enter + -", "fold toggle / unfold / fold" },
	{ "E  C", "unfold / fold everything" },
	{ "u  J  K", "parent, next / prev sibling" },
	{ "L", "longest child: where time went" },
	{ "v", "tree / merged graph / report" },
	{ "/  n", "find a function, next match" },
	{ "O", "open a trace.dat's call trees" },
	{ "", "" },
	{ NULL, "Tracers (R)" },
	{ "Enter", "switch tracer / edit list" },
	{ "type Tab", "narrow / take a function" },
	{ "Enter !NAME", "add / remove an entry" },
	{ "^K", "empty the function list" },
	{ "", "" },
	{ NULL, "Probes (P)" },
	{ "k K", "new kprobe / kretprobe" },
	{ "u U", "new uprobe / uretprobe" },
	{ "Space d", "on/off, delete" },
	{ "Enter", "filter in the picker" },
};

#define NLEFT ((int)(sizeof(help_left) / sizeof(help_left[0])))
#define NRIGHT ((int)(sizeof(help_right) / sizeof(help_right[0])))

static int two_columns(int w)
{
	return w >= 2 * HELP_COL_W + 2;
}

void help_size(int cols, int lines, int *w, int *h)
{
	int want_w = 2 * HELP_COL_W + 2, rows;

	if (cols < want_w)
		want_w = cols;
	rows = two_columns(want_w) ? (NLEFT > NRIGHT ? NLEFT : NRIGHT) : NLEFT + 1 + NRIGHT;
	/* title + content + bottom hint */
	rows += 2;
	*w = want_w;
	*h = rows < lines ? rows : lines;
}

static const struct help_line *line_at(int i, int col, int twocol)
{
	if (twocol) {
		if (col == 0)
			return i < NLEFT ? &help_left[i] : NULL;
		return i < NRIGHT ? &help_right[i] : NULL;
	}
	if (i < NLEFT)
		return &help_left[i];
	if (i == NLEFT)
		return NULL;
	i -= NLEFT + 1;
	return i < NRIGHT ? &help_right[i] : NULL;
}

static void draw_line(WINDOW *win, int y, int x, int w, const struct help_line *l)
{
	if (!l || w <= 0)
		return;
	if (!l->keys) {
		wattrset(win, crt_attr(CRT_SYSTEM));
		crt_put(win, y, x, l->desc, w);
		return;
	}
	wattrset(win, crt_attr(CRT_HELP_KEY));
	crt_put(win, y, x + 1, l->keys, HELP_KEYS_W - 1 < w - 1 ? HELP_KEYS_W - 1 : w - 1);
	wattrset(win, crt_attr(CRT_HELP));
	if (w > HELP_KEYS_W + 1)
		crt_put(win, y, x + HELP_KEYS_W + 1, l->desc, w - HELP_KEYS_W - 1);
}

void help_draw(WINDOW *win, int w, int h, int *scroll)
{
	int twocol = two_columns(w), total, rows = h - 2, i;
	const char *title = " ktop Help - keys ";

	total = twocol ? (NLEFT > NRIGHT ? NLEFT : NRIGHT) : NLEFT + 1 + NRIGHT;
	if (rows < 1)
		rows = 1;
	if (*scroll > total - rows)
		*scroll = total - rows;
	if (*scroll < 0)
		*scroll = 0;
	wattrset(win, crt_attr(CRT_HELP));
	werase(win);
	for (i = 0; i < h; i++)
		crt_fill(win, i, 0, w);
	wattrset(win, crt_attr(CRT_HELP_TITLE));
	crt_fill(win, 0, 0, w);
	crt_put(win, 0, 0, title, w);
	for (i = 0; i < rows && *scroll + i < total; i++) {
		int li = *scroll + i;

		if (twocol) {
			draw_line(win, 1 + i, 0, HELP_COL_W, line_at(li, 0, 1));
			draw_line(win, 1 + i, HELP_COL_W + 2, w - HELP_COL_W - 2,
				  line_at(li, 1, 1));
		} else {
			draw_line(win, 1 + i, 0, w, line_at(li, 0, 0));
		}
	}
	if (h >= 2) {
		char hint[96];

		snprintf(hint, sizeof(hint), " Esc/q/h/F1 close%s",
			 total > rows ? "   Up/Down scroll" : "");
		wattrset(win, crt_attr(CRT_DIM));
		crt_fill(win, h - 1, 0, w);
		crt_put(win, h - 1, 0, hint, w);
	}
	wattrset(win, A_NORMAL);
}
