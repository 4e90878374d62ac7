// SPDX-License-Identifier: GPL-2.0-or-later
/* The one JSON string writer: what it escapes, and that a bounded buffer never takes half
 * an escape. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "check_main.h"

static char *to_string(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	json_string(f, s);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

START_TEST(test_string)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "vfs_read", "\"vfs_read\"" },
		{ "", "\"\"" },
		{ "a\"b", "\"a\\\"b\"" },
		{ "C:\\x", "\"C:\\\\x\"" },
		{ "tab\there\nnl", "\"tab\\u0009here\\u000anl\"" },
		{ "\x01\x1f ", "\"\\u0001\\u001f \"" },
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"" }, /* UTF-8 passes as is */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = to_string(cases[i].in);

		ck_assert_str_eq(got, cases[i].out);
		free(got);
	}
}
END_TEST

START_TEST(test_escape_bounded)
{
	char buf[8];
	size_t pos;

	/* six bytes fit; the escape of '"' (2 bytes) would take the NUL's place: stop before */
	pos = json_escape(buf, 0, sizeof(buf), "abcdef\"x", 8);
	ck_assert_uint_eq(pos, 6);
	ck_assert_str_eq(buf, "abcdef");
	/* n bounds the input; a NUL ends it sooner */
	pos = json_escape(buf, 0, sizeof(buf), "a\"bc", 2);
	ck_assert_str_eq(buf, "a\\\"");
	ck_assert_uint_eq(pos, 3);
	pos = json_escape(buf, 0, sizeof(buf), "ab\0cd", 5);
	ck_assert_str_eq(buf, "ab");
	/* appending after what is there */
	memcpy(buf, "{\"", 3);
	pos = json_escape(buf, 2, sizeof(buf), "\x02", 1);
	ck_assert_uint_eq(pos, 2); /* \u0002 needs 6 bytes, 5 remain before the NUL */
	ck_assert_str_eq(buf, "{\"");
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, test_string);
	tcase_add_test(tc, test_escape_bounded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(json_suite());
}
