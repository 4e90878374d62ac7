// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure layout arithmetic of the UI: screen regions, splitting, orientation, zoom and
 * focus, at the sizes that matter (80x24 first). */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "ui/layout.h"
#include "check_main.h"

static int area_sum(const struct kt_rect *r, int n, bool side)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += side ? r[i].w : r[i].h;
	return s;
}

START_TEST(test_screen_80x24)
{
	struct kt_screen_rects r;

	layout_screen(80, 24, 2, &r);
	ck_assert_int_eq(r.header.y, 0);
	ck_assert_int_eq(r.header.h, 2);
	ck_assert_int_eq(r.header.w, 80);
	ck_assert_int_eq(r.panes.y, 2);
	ck_assert_int_eq(r.panes.h, 20);
	ck_assert_int_eq(r.panes.w, 80);
	ck_assert_int_eq(r.status.y, 22);
	ck_assert_int_eq(r.status.h, 1);
	ck_assert_int_eq(r.funcbar.y, 23);
	ck_assert_int_eq(r.funcbar.h, 1);
}
END_TEST

START_TEST(test_screen_tiny)
{
	struct kt_screen_rects r;
	int lines;

	/* Every size down to nothing: regions stay inside the screen and never overlap. */
	for (lines = 0; lines <= 30; lines++) {
		layout_screen(40, lines, 2, &r);
		ck_assert_int_ge(r.panes.h, 0);
		ck_assert_int_le(r.header.h + r.panes.h + r.status.h + r.funcbar.h, lines);
		if (r.panes.h)
			ck_assert_int_eq(r.panes.y, r.header.h);
		if (r.status.h)
			ck_assert_int_eq(r.status.y, r.panes.y + r.panes.h);
		if (r.funcbar.h)
			ck_assert_int_eq(r.funcbar.y, lines - 1);
	}
	layout_screen(40, 7, 2, &r);
	ck_assert_int_eq(r.header.h, 1);
	layout_screen(40, 3, 2, &r);
	ck_assert_int_eq(r.header.h, 0);
	ck_assert_int_eq(r.funcbar.h, 0);
	ck_assert_int_eq(r.panes.h, 2);
}
END_TEST

START_TEST(test_split_remainder_and_gap)
{
	struct kt_rect a = { 0, 2, 80, 20 }, out[3];

	layout_split(a, 3, true, 1, out);
	/* 78 cells for 3 panes: 26 each, gaps at 26 and 53 */
	ck_assert_int_eq(out[0].x, 0);
	ck_assert_int_eq(out[0].w, 26);
	ck_assert_int_eq(out[1].x, 27);
	ck_assert_int_eq(out[2].x, 54);
	ck_assert_int_eq(out[2].x + out[2].w, 80);
	ck_assert_int_eq(area_sum(out, 3, true) + 2, 80);
	ck_assert_int_eq(out[1].y, 2);
	ck_assert_int_eq(out[1].h, 20);

	a.w = 81; /* 79 = 27 + 26 + 26: the extra cell goes first */
	layout_split(a, 3, true, 1, out);
	ck_assert_int_eq(out[0].w, 27);
	ck_assert_int_eq(out[1].w, 26);
	ck_assert_int_eq(out[2].x + out[2].w, 81);

	layout_split(a, 2, false, 0, out);
	ck_assert_int_eq(out[0].y, 2);
	ck_assert_int_eq(out[0].h, 10);
	ck_assert_int_eq(out[1].y, 12);
	ck_assert_int_eq(out[1].h, 10);
	ck_assert_int_eq(out[1].w, 81);
}
END_TEST

START_TEST(test_split_too_small)
{
	struct kt_rect a = { 0, 0, 2, 5 }, out[4];

	/* Two cells, three gaps' worth of panes: zero-size parts, never negative. */
	layout_split(a, 4, true, 1, out);
	ck_assert_int_ge(out[0].w, 0);
	ck_assert_int_eq(out[3].w, 0);
	ck_assert_int_eq(layout_split(a, 0, true, 1, out), 0);
}
END_TEST

START_TEST(test_single_pane_full)
{
	struct kt_layout l;
	struct kt_rect a = { 0, 2, 80, 20 }, out[KT_LAYOUT_MAX];
	bool side = true;

	layout_init(&l);
	l.n = 1;
	ck_assert_int_eq(layout_compute(&l, a, out, &side), 1);
	ck_assert(!side);
	ck_assert_int_eq(out[0].x, 0);
	ck_assert_int_eq(out[0].y, 2);
	ck_assert_int_eq(out[0].w, 80);
	ck_assert_int_eq(out[0].h, 20);
}
END_TEST

START_TEST(test_auto_orientation)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX];
	struct kt_rect narrow = { 0, 2, 80, 20 }, wide = { 0, 2, 160, 40 };
	bool side;

	layout_init(&l);
	l.n = 2;
	/* 80 columns: stacked, both full width. */
	ck_assert_int_eq(layout_compute(&l, narrow, out, &side), 2);
	ck_assert(!side);
	ck_assert_int_eq(out[0].w, 80);
	ck_assert_int_eq(out[1].w, 80);
	ck_assert_int_eq(out[0].h + out[1].h, 20);
	ck_assert_int_eq(out[1].y, out[0].y + out[0].h);
	/* Wide: side by side with a separator column. */
	ck_assert_int_eq(layout_compute(&l, wide, out, &side), 2);
	ck_assert(side);
	ck_assert_int_eq(out[0].w + 1 + out[1].w, 160);
	ck_assert_int_eq(out[1].x, out[0].w + 1);
	ck_assert_int_eq(out[0].h, 40);
}
END_TEST

START_TEST(test_toggle_orientation)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX], a = { 0, 2, 80, 20 };
	bool side;

	layout_init(&l);
	l.n = 2;
	l.orient = layout_toggle_orient(&l, a);
	ck_assert_int_eq(l.orient, KT_ORIENT_SIDE);
	layout_compute(&l, a, out, &side);
	ck_assert(side); /* 39 + 1 + 40 at 80 columns: still useful */
	ck_assert_int_eq(out[0].w, 40);
	ck_assert_int_eq(out[1].w, 39);
	l.orient = layout_toggle_orient(&l, a);
	ck_assert_int_eq(l.orient, KT_ORIENT_STACK);
	layout_compute(&l, a, out, &side);
	ck_assert(!side);
}
END_TEST

START_TEST(test_fallback_when_too_small)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX];
	struct kt_rect thin = { 0, 0, 50, 30 }, tiny = { 0, 0, 40, 6 };
	bool side;

	layout_init(&l);
	l.n = 2;
	l.orient = KT_ORIENT_SIDE;
	/* 50 columns cannot hold two 30-column panes: stacked instead. */
	ck_assert_int_eq(layout_compute(&l, thin, out, &side), 2);
	ck_assert(!side);
	/* ... and the toggle goes to what is not shown now. */
	ck_assert_int_eq(layout_toggle_orient(&l, thin), KT_ORIENT_SIDE);
	/* Neither fits: the focused pane alone. */
	l.focus = 1;
	ck_assert_int_eq(layout_compute(&l, tiny, out, &side), 1);
	ck_assert_int_eq(out[0].w, 0);
	ck_assert_int_eq(out[1].w, 40);
	ck_assert_int_eq(out[1].h, 6);
}
END_TEST

START_TEST(test_zoom)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX], a = { 0, 2, 200, 50 };

	layout_init(&l);
	l.n = 3;
	l.focus = 2;
	l.zoom = true;
	ck_assert_int_eq(layout_compute(&l, a, out, NULL), 1);
	ck_assert_int_eq(out[0].w, 0);
	ck_assert_int_eq(out[1].h, 0);
	ck_assert_int_eq(out[2].x, 0);
	ck_assert_int_eq(out[2].w, 200);
	ck_assert_int_eq(out[2].h, 50);
	l.zoom = false;
	ck_assert_int_eq(layout_compute(&l, a, out, NULL), 3);
	ck_assert_int_eq(area_sum(out, 3, true) + 2, 200);
}
END_TEST

START_TEST(test_focus_and_fix)
{
	struct kt_layout l;

	ck_assert_int_eq(layout_focus_step(3, 0, 1), 1);
	ck_assert_int_eq(layout_focus_step(3, 2, 1), 0);
	ck_assert_int_eq(layout_focus_step(3, 0, -1), 2);
	ck_assert_int_eq(layout_focus_step(1, 0, 1), 0);
	ck_assert_int_eq(layout_focus_step(0, 0, 1), 0);

	layout_init(&l);
	l.n = 2;
	l.focus = 1;
	l.zoom = true;
	l.n = 1; /* a pane closed */
	layout_fix(&l);
	ck_assert_int_eq(l.focus, 0);
	ck_assert(!l.zoom);
	l.n = 99;
	layout_fix(&l);
	ck_assert_int_eq(l.n, KT_LAYOUT_MAX);
}
END_TEST

START_TEST(test_many_panes_cover_area)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX], a = { 3, 2, 237, 61 };
	bool side;
	int n, i;

	layout_init(&l);
	for (n = 1; n <= KT_LAYOUT_MAX; n++) {
		l.n = n;
		l.focus = n - 1;
		layout_compute(&l, a, out, &side);
		for (i = 0; i < n; i++) {
			if (!out[i].w)
				continue;
			ck_assert_int_ge(out[i].x, a.x);
			ck_assert_int_ge(out[i].y, a.y);
			ck_assert_int_le(out[i].x + out[i].w, a.x + a.w);
			ck_assert_int_le(out[i].y + out[i].h, a.y + a.h);
			if (i && out[i - 1].w && side)
				ck_assert_int_eq(out[i].x, out[i - 1].x + out[i - 1].w + 1);
			if (i && out[i - 1].w && !side)
				ck_assert_int_eq(out[i].y, out[i - 1].y + out[i - 1].h);
		}
	}
}
END_TEST

START_TEST(test_preferred_width)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX], a = { 0, 2, 160, 40 }, b = { 0, 2, 100, 40 };
	bool side;

	layout_init(&l);
	l.n = 2;
	l.want_w[1] = 48;
	layout_compute(&l, a, out, &side);
	ck_assert(side);
	ck_assert_int_eq(out[1].w, 48);
	ck_assert_int_eq(out[0].w, 160 - 1 - 48);
	ck_assert_int_eq(out[1].x, out[0].w + 1);
	/* Never more than half the area. */
	l.want_w[1] = 70;
	layout_compute(&l, b, out, &side);
	ck_assert_int_eq(out[1].w, 50);
	ck_assert_int_eq(out[0].w, 49);
	/* Stacked: the preference is about width only. */
	l.orient = KT_ORIENT_STACK;
	layout_compute(&l, a, out, &side);
	ck_assert(!side);
	ck_assert_int_eq(out[0].w, 160);
	ck_assert_int_eq(out[1].w, 160);
	ck_assert_int_eq(out[0].h, 20);
}
END_TEST

START_TEST(test_user_first_pane_share)
{
	struct kt_layout l;
	struct kt_rect out[KT_LAYOUT_MAX], a = { 0, 2, 161, 40 };
	bool side;

	layout_init(&l);
	l.n = 2;
	l.want_w[1] = 48; /* the user's share wins over a pane's preference */
	l.first_pct = 70;
	layout_compute(&l, a, out, &side);
	ck_assert(side);
	ck_assert_int_eq(out[0].w, 160 * 70 / 100);
	ck_assert_int_eq(out[1].w, 160 - 112);
	ck_assert_int_eq(out[1].x, 113);
	/* stacked: along the height */
	l.orient = KT_ORIENT_STACK;
	layout_compute(&l, a, out, &side);
	ck_assert_int_eq(out[0].h, 28);
	ck_assert_int_eq(out[1].h, 12);
	ck_assert_int_eq(out[1].y, 2 + 28);
	/* three panes: the others share the rest, every cell used */
	l.n = 3;
	l.first_pct = 50;
	layout_compute(&l, a, out, &side);
	ck_assert_int_eq(out[0].h, 20);
	ck_assert_int_eq(out[1].h + out[2].h, 20);
	ck_assert_int_eq(out[2].y + out[2].h, 42);
	/* a share that would squeeze a pane below its minimum is not applied */
	l.n = 2;
	l.first_pct = 80;
	a.h = 12;
	layout_compute(&l, a, out, &side);
	ck_assert_int_eq(out[0].h, 6);
	ck_assert_int_eq(out[1].h, 6);
	/* stepping */
	ck_assert_int_eq(layout_step_pct(0, 1), 50);
	ck_assert_int_eq(layout_step_pct(50, 1), 55);
	ck_assert_int_eq(layout_step_pct(50, -1), 45);
	ck_assert_int_eq(layout_step_pct(KT_LAYOUT_PCT_MAX, 1), KT_LAYOUT_PCT_MAX);
	ck_assert_int_eq(layout_step_pct(KT_LAYOUT_PCT_MIN, -1), KT_LAYOUT_PCT_MIN);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_screen_80x24);
	tcase_add_test(tc, test_screen_tiny);
	tcase_add_test(tc, test_split_remainder_and_gap);
	tcase_add_test(tc, test_split_too_small);
	tcase_add_test(tc, test_single_pane_full);
	tcase_add_test(tc, test_auto_orientation);
	tcase_add_test(tc, test_toggle_orientation);
	tcase_add_test(tc, test_fallback_when_too_small);
	tcase_add_test(tc, test_zoom);
	tcase_add_test(tc, test_focus_and_fix);
	tcase_add_test(tc, test_many_panes_cover_area);
	tcase_add_test(tc, test_preferred_width);
	tcase_add_test(tc, test_user_first_pane_share);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(layout_suite());
}
