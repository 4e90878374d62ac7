// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ingest/loss.h"
#include "check_main.h"

/* per_cpu/cpu1/stats of a 6.18 instance after an overload, as the kernel prints it. */
static const char stats_text[] =
	"entries: 175092\n"
	"overrun: 2093157\n"
	"commit overrun: 3\n"
	"bytes: 7003680\n"
	"oldest event ts:  1320.037306\n"
	"now ts:  1322.552003\n"
	"dropped events: 17\n"
	"read events: 4204863\n";

START_TEST(test_parse_real)
{
	struct kt_cpu_stats st;

	ck_assert_int_eq(loss_parse_stats(stats_text, &st), 0);
	ck_assert_uint_eq(st.entries, 175092);
	ck_assert_uint_eq(st.overrun, 2093157);
	ck_assert_uint_eq(st.commit_overrun, 3);
	ck_assert_uint_eq(st.bytes, 7003680);
	ck_assert_uint_eq(st.dropped_events, 17);
	ck_assert_uint_eq(st.read_events, 4204863);
	ck_assert_uint_eq(loss_total(&st), 2093157 + 3 + 17);
	/* the oldest event's age, as the rings pane shows it: 2.514697 s */
	ck_assert_uint_eq(st.oldest_us, 1320037306ULL);
	ck_assert_uint_eq(st.now_us, 1322552003ULL);
}
END_TEST

START_TEST(test_parse_idle)
{
	/* A fresh CPU buffer, byte for byte. */
	const char *idle = "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\n"
			   "oldest event ts:     0.000000\nnow ts:   302.441769\n"
			   "dropped events: 0\nread events: 0\n";
	struct kt_cpu_stats st;

	memset(&st, 0xff, sizeof(st));
	ck_assert_int_eq(loss_parse_stats(idle, &st), 0);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.overrun, 0);
	ck_assert_uint_eq(st.read_events, 0);
	ck_assert_uint_eq(loss_total(&st), 0);
}
END_TEST

START_TEST(test_parse_large_and_unterminated)
{
	const char *big = "entries: 1\noverrun: 18446744073709551615\ncommit overrun: 0\n"
			  "bytes: 4\ndropped events: 0\nread events: 5"; /* no final newline */
	struct kt_cpu_stats st;

	ck_assert_int_eq(loss_parse_stats(big, &st), 0);
	ck_assert_uint_eq(st.overrun, UINT64_MAX);
	ck_assert_uint_eq(st.read_events, 5);
}
END_TEST

/* Each required counter, left out in turn (_i), makes the parse fail. */
START_TEST(test_missing_field)
{
	static const char *const lines[] = {
		"entries: 1\n", "overrun: 2\n", "commit overrun: 3\n", "bytes: 4\n",
		"dropped events: 5\n", "read events: 6\n",
	};
	struct kt_cpu_stats st;
	char text[512] = "";
	size_t j;

	for (j = 0; j < sizeof(lines) / sizeof(lines[0]); j++)
		if (j != (size_t)_i)
			strcat(text, lines[j]);
	ck_assert_msg(loss_parse_stats(text, &st) == -1, "missing '%s' accepted", lines[_i]);
	/* And with it the same text parses. */
	strcat(text, lines[_i]);
	ck_assert_int_eq(loss_parse_stats(text, &st), 0);
}
END_TEST

START_TEST(test_keys_match_whole)
{
	/* "overrun" must not be taken from "commit overrun", nor "entries" from a longer key. */
	const char *text = "entries: 1\ncommit overrun: 9\nbytes: 4\ndropped events: 5\n"
			   "read events: 6\nentries_x: 7\n";
	struct kt_cpu_stats st;

	ck_assert_int_eq(loss_parse_stats(text, &st), -1);
}
END_TEST

START_TEST(test_bad_input)
{
	struct kt_cpu_stats st;

	ck_assert_int_eq(loss_parse_stats("", &st), -1);
	ck_assert_int_eq(loss_parse_stats(NULL, &st), -1);
	ck_assert_int_eq(loss_parse_stats("entries: lots\noverrun: 0\ncommit overrun: 0\n"
					  "bytes: 0\ndropped events: 0\nread events: 0\n", &st),
			 -1);
}
END_TEST

static Suite *loss_suite(void)
{
	Suite *s = suite_create("loss");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_real);
	tcase_add_test(tc, test_parse_idle);
	tcase_add_test(tc, test_parse_large_and_unterminated);
	tcase_add_loop_test(tc, test_missing_field, 0, 6);
	tcase_add_test(tc, test_keys_match_whole);
	tcase_add_test(tc, test_bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(loss_suite());
}
