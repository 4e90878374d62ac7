// SPDX-License-Identifier: GPL-2.0-or-later
/* The stream's row filter: what the on-call engineer types, what it shows, what it refuses
 * (one line naming the word), and its canonical text for the title. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ui/panes/rowfilter.h"
#include "check_main.h"

START_TEST(parse_and_match)
{
	struct kt_rowfilter f;
	char err[256], text[128];

	ck_assert_int_eq(rowfilter_parse(&f, "", err, sizeof(err)), 0);
	ck_assert(!rowfilter_active(&f));
	ck_assert(rowfilter_match(&f, 1, NULL, 0));

	ck_assert_int_eq(rowfilter_parse(&f, " pid=10,11  comm=ba* cpu=0-2,5 ", err,
					 sizeof(err)), 0);
	ck_assert(rowfilter_active(&f) && rowfilter_needs_comm(&f));
	ck_assert(rowfilter_match(&f, 10, "bash", 1));
	ck_assert(rowfilter_match(&f, 11, "bar", 5));
	ck_assert(!rowfilter_match(&f, 12, "bash", 1));   /* pid */
	ck_assert(!rowfilter_match(&f, 10, "sshd", 1));   /* comm */
	ck_assert(!rowfilter_match(&f, 10, NULL, 1));	   /* comm unknown */
	ck_assert(!rowfilter_match(&f, 10, "bash", 3));   /* cpu */
	ck_assert(rowfilter_match_cpu(&f, 2) && !rowfilter_match_cpu(&f, 4));
	rowfilter_text(&f, text, sizeof(text));
	ck_assert_str_eq(text, "pid=10,11 comm=ba* cpu=0-2,5");

	ck_assert_int_eq(rowfilter_parse(&f, "cpu=1", err, sizeof(err)), 0);
	ck_assert(!rowfilter_needs_comm(&f));
	ck_assert(rowfilter_match(&f, 99, NULL, 1) && !rowfilter_match(&f, 99, NULL, 0));
}
END_TEST

static void bad(const char *text, const char *want)
{
	struct kt_rowfilter f;
	char err[256] = "";

	memset(&f, 0, sizeof(f));
	f.npids = 1;
	f.pids[0] = 7;
	ck_assert_msg(rowfilter_parse(&f, text, err, sizeof(err)) < 0, "'%s' passed", text);
	ck_assert_msg(strstr(err, want) != NULL, "'%s': '%s' lacks '%s'", text, err, want);
	ck_assert(!strchr(err, '\n'));
	ck_assert_int_eq(f.npids, 1); /* untouched */
	ck_assert_int_eq(f.pids[0], 7);
}

START_TEST(refused)
{
	bad("pid=abc", "pid 'abc' is not a number");
	bad("pid", "'pid' is not key=value");
	bad("pid=", "'pid=' is not key=value");
	bad("tid=3", "unknown key 'tid'");
	bad("cpu=3-1", "cpu '3-1' is not a CPU number or range");
	bad("pid=1,", "ends with a comma");
	bad("comm=abcdefghijklmnopq", "at most 15 characters");
}
END_TEST

/* The text cut to a buffer (the pane's title, the prompt it is edited in) is never read as
 * another filter: it ends at a value with " ...", which the parser refuses. */
START_TEST(cut_text)
{
	static const char *const longs[] = {
		"cpu=0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,"
		"54,56,58,60,62,64,66,68,70,72,74,76,78,80,82,84,86,88,90,92,94,96,98,100",
		"comm=abcdefghijklmn0,abcdefghijklmn1,abcdefghijklmn2,abcdefghijklmn3,"
		"abcdefghijklmn4,abcdefghijklmn5,abcdefghijklmn6,abcdefghijklmn7",
	};
	struct kt_rowfilter f, g;
	char err[256], text[64];
	size_t i;

	for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		ck_assert_int_eq(rowfilter_parse(&f, longs[i], err, sizeof(err)), 0);
		rowfilter_text(&f, text, sizeof(text));
		ck_assert_msg(strlen(text) < sizeof(text) && strstr(text, " ...") &&
			      !strcmp(strstr(text, " ..."), " ..."), "'%s'", text);
		ck_assert_msg(rowfilter_parse(&g, text, err, sizeof(err)) < 0,
			      "'%s' cut to '%s' reads as a filter", longs[i], text);
	}
	rowfilter_text(&f, text, 5);
	ck_assert_msg(rowfilter_parse(&g, text, err, sizeof(err)) < 0, "'%s'", text);
}
END_TEST

static Suite *rowfilter_suite(void)
{
	Suite *s = suite_create("rowfilter");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_and_match);
	tcase_add_test(tc, refused);
	tcase_add_test(tc, cut_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(rowfilter_suite());
}
