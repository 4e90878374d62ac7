// SPDX-License-Identifier: GPL-2.0-or-later
/* The function-key bar (htop FunctionBar_draw). */
#include "config.h"

#include <string.h>

#include "ui/funcbar.h"

/* Fits 80 columns: the letters are in the help (F1/h). */
static const struct funcbar_item funcbar_global[] = {
	{ "F1", "Help" },   { "F2", "Events" }, { "F3", "Search" }, { "F4", "Filter" },
	{ "F5", "Layout" }, { "F6", "CPUs" },	{ "F7", "Pause" },  { "F8", "Clear" },
	{ "F9", "Zoom" },   { "F10", "Quit" },
	/* Past 80 columns: the letter (m) is in the help. */
	{ "F11", "Counters" },
};

/* ktop -i: what needs a live kernel is shown unavailable; pressing it says why. */
static const struct funcbar_item funcbar_offline[] = {
	{ "F1", "Help" },   { "F2", "Events" }, { "F3", "Search" }, { "F4", "Filter" },
	{ "F5", "Layout" }, { "F6", "CPUs" },	{ "F7", "n/a" },    { "F8", "n/a" },
	{ "F9", "Zoom" },   { "F10", "Quit" },	{ "F11", "n/a" },
};

int funcbar_recording(const struct funcbar_item **items)
{
	*items = funcbar_offline;
	return (int)(sizeof(funcbar_offline) / sizeof(funcbar_offline[0]));
}

int funcbar_default(const struct funcbar_item **items)
{
	*items = funcbar_global;
	return (int)(sizeof(funcbar_global) / sizeof(funcbar_global[0]));
}

void funcbar_draw(WINDOW *win, int w, const struct funcbar_item *items, int n)
{
	int x = 0, i;

	wattrset(win, crt_attr(CRT_FLABEL));
	crt_fill(win, 0, 0, w);
	for (i = 0; i < n; i++) {
		int kw = (int)strlen(items[i].key), lw = (int)strlen(items[i].label);

		if (x + kw + lw > w)
			break;
		wattrset(win, crt_attr(CRT_FKEY));
		x += crt_put(win, 0, x, items[i].key, w - x);
		wattrset(win, crt_attr(CRT_FLABEL));
		x += crt_put(win, 0, x, items[i].label, w - x);
		if (x < w)
			x += crt_put(win, 0, x, " ", w - x);
	}
	wattrset(win, A_NORMAL);
}
