// SPDX-License-Identifier: GPL-2.0-or-later
/* The time axis's two shared pieces: typed times and ranges parsed exactly to nanoseconds,
 * and sched_switch records turned into per-CPU task slices, clipped to the capture. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "util/timerange.h"
#include "backend/callgraph/cpuslice.h"
#include "check_main.h"

START_TEST(test_time_parse)
{
	static const struct {
		const char *in;
		int rel;
		uint64_t ns;
	} ok[] = {
		{ "+40.1", 1, 40100000000ull },	{ "205.060123", 0, 205060123000ull },
		{ "+40100ms", 1, 40100000000ull }, { "300us", 0, 300000ull },
		{ "+0.000000001", 1, 1 },	  { "7ns", 0, 7 },
		{ "12", 0, 12000000000ull },	  { "+1.5ms", 1, 1500000ull },
	};
	static const char *const bad[] = { "", "+", "abc", "1.2.3", "5 s", "1h", "+1.0000000001",
					   "1.5ns", "99999999999999999999" };
	char err[200];
	struct kt_time t;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(time_parse(ok[i].in, &t, err, sizeof(err)) == 0, "%s: %s", ok[i].in,
			      err);
		ck_assert_int_eq(t.relative, ok[i].rel);
		ck_assert_uint_eq(t.ns, ok[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(time_parse(bad[i], &t, err, sizeof(err)) < 0, "%s accepted", bad[i]);
		ck_assert_msg(err[0] && !strchr(err, '\n'), "%s: no one-line reason", bad[i]);
	}
}
END_TEST

START_TEST(test_range)
{
	struct kt_time_range r;
	uint64_t from, to;
	char err[200], buf[40];

	ck_assert_int_eq(time_range_parse("+40.1..+40.3", &r, err, sizeof(err)), 0);
	ck_assert(time_range_contains(&r, 1000000000ull, 41100000000ull));
	ck_assert(time_range_contains(&r, 1000000000ull, 41300000000ull));
	ck_assert(!time_range_contains(&r, 1000000000ull, 41300000001ull));
	ck_assert(!time_range_contains(&r, 1000000000ull, 41099999999ull));
	ck_assert_int_eq(time_range_parse("..205.5", &r, err, sizeof(err)), 0);
	time_range_resolve(&r, 7, &from, &to);
	ck_assert_uint_eq(from, 0);
	ck_assert_uint_eq(to, 205500000000ull);
	ck_assert_int_eq(time_range_parse("+3", &r, err, sizeof(err)), 0);
	time_range_resolve(&r, 7, &from, &to);
	ck_assert_uint_eq(from, 3000000007ull);
	ck_assert_uint_eq(to, UINT64_MAX);
	/* a printed timestamp as the end keeps its whole µs; a coarser end stays a point */
	ck_assert_int_eq(time_range_parse("200..205.060123", &r, err, sizeof(err)), 0);
	time_range_resolve(&r, 7, &from, &to);
	ck_assert_uint_eq(to, 205060123999ull);
	ck_assert_int_eq(time_range_parse("..205.060123456", &r, err, sizeof(err)), 0);
	time_range_resolve(&r, 7, &from, &to);
	ck_assert_uint_eq(to, 205060123456ull);
	ck_assert_int_lt(time_range_parse("..", &r, err, sizeof(err)), 0);
	ck_assert_int_lt(time_range_parse("+5..+4", &r, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(strstr(err, "ends before it starts"));
	ck_assert_int_lt(time_range_parse("+5..x", &r, err, sizeof(err)), 0);
	time_format(&(struct kt_time){ true, 40100000000ull, 1 }, buf, sizeof(buf));
	ck_assert_str_eq(buf, "+40.100000");
	time_format(&(struct kt_time){ false, 205060123999ull, 1 }, buf, sizeof(buf));
	ck_assert_str_eq(buf, "205.060123");
}
END_TEST

struct got {
	struct kt_cpuslice s[8];
	int n;
};

static void keep(const struct kt_cpuslice *s, void *arg)
{
	struct got *g = arg;

	ck_assert_int_lt(g->n, 8);
	g->s[g->n++] = *s;
}

START_TEST(test_slices)
{
	struct got g = { 0 };
	struct kt_cpuslicer *s = cpuslicer_new(2, 100, keep, &g);
	struct kt_slice_task idle = { 0, 120, "swapper/0" }, a = { 10, 120, "a" },
			     b = { 11, 100, "b" };

	ck_assert_ptr_nonnull(s);
	cpuslicer_switch(s, 0, 150, &idle, &a);
	cpuslicer_switch(s, 0, 170, &a, &b);
	cpuslicer_switch(s, 0, 160, &b, &a);	/* out of order: ignored */
	cpuslicer_switch(s, 5, 160, &b, &a);	/* no such CPU: ignored */
	cpuslicer_switch(s, 1, 100, &idle, &b);	/* at the start: no empty slice */
	cpuslicer_finish(s, 200);
	ck_assert_int_eq(g.n, 4);
	ck_assert(g.s[0].pid == 0 && g.s[0].start == 100 && g.s[0].end == 150);
	ck_assert(g.s[0].clipped_start && !g.s[0].clipped_end);
	ck_assert(g.s[1].pid == 10 && g.s[1].start == 150 && g.s[1].end == 170);
	ck_assert_str_eq(g.s[1].comm, "a");
	ck_assert(!g.s[1].clipped_start);
	ck_assert(g.s[2].cpu == 0 && g.s[2].pid == 11 && g.s[2].prio == 100);
	ck_assert(g.s[2].start == 170 && g.s[2].end == 200 && g.s[2].clipped_end);
	ck_assert(g.s[3].cpu == 1 && g.s[3].pid == 11 && g.s[3].start == 100);
}
END_TEST

static Suite *timeaxis_suite(void)
{
	Suite *s = suite_create("timeaxis");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_time_parse);
	tcase_add_test(tc, test_range);
	tcase_add_test(tc, test_slices);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(timeaxis_suite());
}
