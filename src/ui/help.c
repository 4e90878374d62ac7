// SPDX-License-Identifier: GPL-2.0-or-later
/* The help overlay: the key list is data, so the two column layouts share it; the global
 * keys are the actions' (action.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/action.h"
#include "ui/help.h"

struct help_line {
	const char *keys; /* NULL: section title in desc */
	const char *desc;
};

#define HELP_KEYS_W 11
#define HELP_COL_W 39

/* The left column: "Global keys", a line per action (action.c), then these. */
static const struct help_line help_left_tail[] = {
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
	{ "n  N", "next match / the other way" },
	{ "PgUp PgDn", "one page" },
	{ "Home g", "oldest event" },
	{ "End G", "newest, follow the tail" },
	{ "Left Right", "scroll the fields sideways" },
	{ "< >", "per CPU: more CPU columns" },
	{ "=", "only the selected row's pid" },
	{ "Enter Esc", "row's fields and stack (*)" },
	{ "", "" },
	{ NULL, "Event picker" },
	{ "type", "fuzzy-narrow the list" },
	{ "Backspace", "edit the typed text" },
	{ "Esc", "clear text, then close" },
	{ "Space", "toggle event or system" },
	{ "Enter", "fields + filter prompt" },
	{ "^T", "trigger (or stop if ...)" },
	{ "^R", "remove the event's triggers" },
	{ "^K", "kernel stack on rows on/off" },
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
	{ "s", "scope: pid=1,2 [children] comm=NAME cgroup=PATH" },
	{ "", "" },
	{ NULL, "Probes (P)" },
	{ "k K", "new kprobe / kretprobe" },
	{ "u U", "new uprobe / uretprobe" },
	{ "s", "new USDT probe: binary or pid" },
	{ "Space d", "on/off, delete" },
	{ "Enter", "filter in the picker" },
	{ "", "" },
	{ NULL, "Flame graph (I)" },
	{ "arrows", "parent, child, next frame" },
	{ "Enter Esc", "zoom in / back one zoom" },
	{ "/", "find frames: matched share" },
	{ "f Space", "freeze a live graph" },
	{ "v  a", "icicle / flame, ASCII" },
	{ "s", "only the selected task" },
	{ "c", "only one CPU (live; emptied)" },
	{ "b  B", "baseline = now / diff off" },
	{ "d", "live diff: last N seconds" },
	{ "O", "open a folded-stacks file" },
	{ "click", "select a frame" },
	{ "", "" },
	{ NULL, "Timeline (L)" },
	{ "Left Right", "cursor one column" },
	{ "+ -", "zoom in / out at the cursor" },
	{ "< >", "pan half a screen" },
	{ "Up Dn", "select a lane" },
	{ "n  N", "lane's next / previous event" },
	{ "Home End", "start / tail (live: follow)" },
	{ "m  m", "mark a range: from, to" },
	{ "click", "place the cursor" },
	{ "", "" },
	{ NULL, "Heat map (Y)" },
	{ "arrows", "cursor one cell" },
	{ "Enter", "the cell is the range" },
	{ "m  m", "a run of cells is the range" },
	{ "v", "all events / one type" },
};

#define NTAIL ((int)(sizeof(help_left_tail) / sizeof(help_left_tail[0])))
#define NRIGHT ((int)(sizeof(help_right) / sizeof(help_right[0])))

static int nactions(void)
{
	int n = 0;

	while (action_at(n))
		n++;
	return n;
}

static int nleft(void)
{
	return 1 + nactions() + NTAIL;
}

/* Line i of the left column into *l; false past its end. */
static bool left_line(int i, struct help_line *l)
{
	const struct kt_action *a;

	if (i == 0) {
		l->keys = NULL;
		l->desc = "Global keys";
		return true;
	}
	a = action_at(i - 1);
	if (a) {
		l->keys = a->keys;
		l->desc = a->help;
		return true;
	}
	i -= 1 + nactions();
	if (i < 0 || i >= NTAIL)
		return false;
	*l = help_left_tail[i];
	return true;
}

static int two_columns(int w)
{
	return w >= 2 * HELP_COL_W + 2;
}

static int total_rows(int twocol)
{
	int nl = nleft();

	return twocol ? (nl > NRIGHT ? nl : NRIGHT) : nl + 1 + NRIGHT;
}

void help_size(int cols, int lines, int *w, int *h)
{
	int want_w = 2 * HELP_COL_W + 2, rows;

	if (cols < want_w)
		want_w = cols;
	/* title + content + bottom hint */
	rows = total_rows(two_columns(want_w)) + 2;
	*w = want_w;
	*h = rows < lines ? rows : lines;
}

/* Row i of column col (two columns), or of the one column (the left one, a blank row, the
 * right one) into *l; false for nothing there. */
static bool line_at(int i, int col, int twocol, struct help_line *l)
{
	int nl = nleft();

	if (twocol && col == 1) {
		if (i >= NRIGHT)
			return false;
		*l = help_right[i];
		return true;
	}
	if (twocol || i < nl)
		return left_line(i, l);
	if (i == nl)
		return false;
	i -= nl + 1;
	if (i >= NRIGHT)
		return false;
	*l = help_right[i];
	return true;
}

bool help_line(int i, const char **keys, const char **desc)
{
	struct help_line l = { "", "" };

	if (i < 0 || i >= total_rows(0))
		return false;
	line_at(i, 0, 0, &l);
	*keys = l.keys;
	*desc = l.desc;
	return true;
}

static void draw_line(WINDOW *win, int y, int x, int w, int i, int col, int twocol)
{
	struct help_line l;

	if (w <= 0 || !line_at(i, col, twocol, &l))
		return;
	if (!l.keys) {
		wattrset(win, crt_attr(CRT_SYSTEM));
		crt_put(win, y, x, l.desc, w);
		return;
	}
	wattrset(win, crt_attr(CRT_HELP_KEY));
	crt_put(win, y, x + 1, l.keys, HELP_KEYS_W - 1 < w - 1 ? HELP_KEYS_W - 1 : w - 1);
	wattrset(win, crt_attr(CRT_HELP));
	if (w > HELP_KEYS_W + 1)
		crt_put(win, y, x + HELP_KEYS_W + 1, l.desc, w - HELP_KEYS_W - 1);
}

void help_draw(WINDOW *win, int w, int h, int *scroll)
{
	int twocol = two_columns(w), total, rows = h - 2, i;
	const char *title = " ktop Help - keys ";

	total = total_rows(twocol);
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
			draw_line(win, 1 + i, 0, HELP_COL_W, li, 0, 1);
			draw_line(win, 1 + i, HELP_COL_W + 2, w - HELP_COL_W - 2, li, 1, 1);
		} else {
			draw_line(win, 1 + i, 0, w, li, 0, 0);
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
