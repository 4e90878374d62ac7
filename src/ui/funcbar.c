// SPDX-License-Identifier: GPL-2.0-or-later
/* The function-key bar (htop FunctionBar_draw). */
#include "config.h"

#include <string.h>

#include "ui/action.h"
#include "ui/funcbar.h"

int funcbar_actions(unsigned int caps, const struct funcbar_item **items)
{
	static const char *const fkeys[] = { "F1", "F2", "F3", "F4",  "F5",  "F6",
					     "F7", "F8", "F9", "F10", "F11", "F12" };
	static struct funcbar_item bar[12];
	const struct kt_action *a;
	int f, i, n = 0;

	for (f = 1; f <= 12; f++)
		for (i = 0; (a = action_at(i)); i++)
			if (a->bar && action_fkey(a) == f) {
				bar[n].key = fkeys[f - 1];
				/* what the source cannot do is shown unavailable; pressing it says
				 * why */
				bar[n++].label = a->needs & ~caps ? "n/a" : a->bar;
			}
	*items = bar;
	return n;
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
