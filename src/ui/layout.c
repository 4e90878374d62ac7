// SPDX-License-Identifier: GPL-2.0-or-later
/* Screen regions and pane rectangles (see layout.h). */
#include "config.h"

#include <string.h>

#include "ui/layout.h"

void layout_init(struct kt_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->orient = KT_ORIENT_AUTO;
	/* A stream row needs time, task and event name to be worth showing. */
	l->min_w = 30;
	l->min_h = 4;
	/* Two 50-column panes: below that, stacking keeps the stream readable at 80x24. */
	l->auto_side_w = 100;
}

void layout_screen(int cols, int lines, int header_h, struct kt_screen_rects *r)
{
	int y = 0;

	memset(r, 0, sizeof(*r));
	if (cols < 0)
		cols = 0;
	if (lines < 0)
		lines = 0;
	/* Tiny terminals give up the chrome first, the panes last. */
	if (lines < 8 && header_h > 1)
		header_h = 1;
	if (lines < 5)
		header_h = 0;
	r->header = (struct kt_rect){ 0, 0, cols, header_h };
	y = header_h;
	if (lines >= 4) {
		r->funcbar = (struct kt_rect){ 0, lines - 1, cols, 1 };
		r->status = (struct kt_rect){ 0, lines - 2, cols, 1 };
		r->panes = (struct kt_rect){ 0, y, cols, lines - 2 - y };
	} else if (lines >= 2) {
		r->status = (struct kt_rect){ 0, lines - 1, cols, 1 };
		r->panes = (struct kt_rect){ 0, y, cols, lines - 1 - y };
	} else {
		r->panes = (struct kt_rect){ 0, y, cols, lines - y };
	}
	if (r->panes.h < 0)
		r->panes.h = 0;
}

int layout_split(struct kt_rect area, int n, bool side, int gap, struct kt_rect *out)
{
	int total = side ? area.w : area.h;
	int room, each, extra, pos, i;

	if (n <= 0)
		return 0;
	room = total - gap * (n - 1);
	if (room < 0)
		room = 0;
	each = room / n;
	extra = room % n;
	pos = side ? area.x : area.y;
	for (i = 0; i < n; i++) {
		int size = each + (i < extra ? 1 : 0);

		if (side)
			out[i] = (struct kt_rect){ pos, area.y, size, area.h };
		else
			out[i] = (struct kt_rect){ area.x, pos, area.w, size };
		if (size == 0)
			out[i] = (struct kt_rect){ 0, 0, 0, 0 };
		pos += size + gap;
	}
	return n;
}

static bool fits(const struct kt_layout *l, struct kt_rect area, bool side)
{
	if (side)
		return (area.w - (l->n - 1)) / l->n >= l->min_w && area.h >= l->min_h;
	return area.h / l->n >= l->min_h && area.w >= l->min_w;
}

/* Side by side: panes with a preferred width take it, the others share what is left. */
static void apply_widths(const struct kt_layout *l, struct kt_rect area, struct kt_rect *out)
{
	int fixed = 0, nflex = 0, i, x, each, extra, k = 0;
	int w[KT_LAYOUT_MAX];

	for (i = 0; i < l->n; i++) {
		w[i] = l->want_w[i];
		if (w[i] > 0) {
			if (w[i] > area.w / 2)
				w[i] = area.w / 2;
			if (w[i] < l->min_w)
				w[i] = l->min_w;
			fixed += w[i];
		} else {
			nflex++;
		}
	}
	if (!nflex || !fixed)
		return; /* all alike: the equal split stands */
	each = area.w - (l->n - 1) - fixed;
	if (each / nflex < l->min_w)
		return;
	extra = each % nflex;
	each /= nflex;
	for (i = 0, x = area.x; i < l->n; i++) {
		if (w[i] <= 0)
			w[i] = each + (k++ < extra ? 1 : 0);
		out[i] = (struct kt_rect){ x, area.y, w[i], area.h };
		x += w[i] + 1;
	}
}

int layout_step_pct(int pct, int dir)
{
	pct = pct ? pct + dir * KT_LAYOUT_PCT_STEP : 50;
	if (pct < KT_LAYOUT_PCT_MIN)
		pct = KT_LAYOUT_PCT_MIN;
	if (pct > KT_LAYOUT_PCT_MAX)
		pct = KT_LAYOUT_PCT_MAX;
	return pct;
}

/* The user's size for the first pane; the others share the rest equally. Kept only when
 * every pane still gets its minimum. */
static void apply_first_pct(const struct kt_layout *l, struct kt_rect area, bool side,
			    struct kt_rect *out)
{
	int gaps = side ? l->n - 1 : 0, total = (side ? area.w : area.h) - gaps;
	int min = side ? l->min_w : l->min_h, first, rest, each, extra, pos, i, size;

	first = total * l->first_pct / 100;
	rest = total - first;
	if (first < min || rest / (l->n - 1) < min)
		return;
	each = rest / (l->n - 1);
	extra = rest % (l->n - 1);
	pos = side ? area.x : area.y;
	for (i = 0; i < l->n; i++) {
		size = i == 0 ? first : each + (i - 1 < extra ? 1 : 0);
		if (side)
			out[i] = (struct kt_rect){ pos, area.y, size, area.h };
		else
			out[i] = (struct kt_rect){ area.x, pos, area.w, size };
		pos += size + (side ? 1 : 0);
	}
}

bool layout_is_side(const struct kt_layout *l, struct kt_rect area)
{
	switch (l->orient) {
	case KT_ORIENT_SIDE:
		return true;
	case KT_ORIENT_STACK:
		return false;
	case KT_ORIENT_AUTO:
	default:
		return area.w >= l->auto_side_w;
	}
}

int layout_compute(const struct kt_layout *l, struct kt_rect area, struct kt_rect *out,
		   bool *side_out)
{
	bool side;
	int i, focus;

	if (side_out)
		*side_out = false;
	if (l->n <= 0)
		return 0;
	focus = l->focus >= 0 && l->focus < l->n ? l->focus : 0;
	for (i = 0; i < l->n; i++)
		out[i] = (struct kt_rect){ 0, 0, 0, 0 };
	if (l->n == 1 || l->zoom) {
		out[focus] = area;
		return 1;
	}
	side = layout_is_side(l, area);
	/* Too small for the orientation asked: try the other, then show the focused pane. */
	if (!fits(l, area, side)) {
		if (!fits(l, area, !side)) {
			out[focus] = area;
			return 1;
		}
		side = !side;
	}
	layout_split(area, l->n, side, side ? 1 : 0, out);
	if (l->first_pct > 0)
		apply_first_pct(l, area, side, out);
	else if (side)
		apply_widths(l, area, out);
	if (side_out)
		*side_out = side;
	return l->n;
}

int layout_focus_step(int n, int cur, int dir)
{
	if (n <= 0)
		return 0;
	cur = (cur + dir) % n;
	if (cur < 0)
		cur += n;
	return cur;
}

void layout_fix(struct kt_layout *l)
{
	if (l->n < 0)
		l->n = 0;
	if (l->n > KT_LAYOUT_MAX)
		l->n = KT_LAYOUT_MAX;
	if (l->focus >= l->n)
		l->focus = l->n ? l->n - 1 : 0;
	if (l->focus < 0)
		l->focus = 0;
	if (l->n <= 1)
		l->zoom = false;
}

enum kt_orient layout_toggle_orient(const struct kt_layout *l, struct kt_rect area)
{
	bool side = layout_is_side(l, area);

	/* Toggle what the user sees, which may be the fallback orientation. */
	if (l->n > 1 && !fits(l, area, side) && fits(l, area, !side))
		side = !side;
	return side ? KT_ORIENT_STACK : KT_ORIENT_SIDE;
}
