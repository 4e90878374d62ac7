// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding against real event formats copied from a 6.18 kernel (tests/unit/fixtures). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/decode.h"
#include "backend/store.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

static struct kt_decoder *open_fixture(void)
{
	char err[256] = "";
	struct kt_decoder *d = decoder_new(FIXTURES "/tracing", err, sizeof(err));

	ck_assert_msg(d != NULL, "decoder_new: %s", err);
	return d;
}

static int fixture_id(const char *event)
{
	char path[512], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), FIXTURES "/tracing/events/%s/id", event);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	return atoi(buf);
}

/* A sched_switch record laid out as the format file says. */
static void make_switch(unsigned char *raw, int pid)
{
	unsigned short type = (unsigned short)fixture_id("sched/sched_switch");
	int prev_pid = 1234, prev_prio = 120, next_pid = 0, next_prio = 120;
	long prev_state = 1; /* S */

	memset(raw, 0, 64);
	memcpy(raw + 0, &type, 2);
	memcpy(raw + 4, &pid, 4);
	memcpy(raw + 8, "fix\"ture", 9);
	memcpy(raw + 24, &prev_pid, 4);
	memcpy(raw + 28, &prev_prio, 4);
	memcpy(raw + 32, &prev_state, 8);
	memcpy(raw + 40, "swapper/0", 10);
	memcpy(raw + 56, &next_pid, 4);
	memcpy(raw + 60, &next_prio, 4);
}

START_TEST(test_raw_common_fields)
{
	unsigned char raw[64];
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };

	make_switch(raw, 4321);
	ck_assert_int_eq(decoder_rec_type(&r), fixture_id("sched/sched_switch"));
	ck_assert_int_eq(decoder_rec_pid(&r), 4321);
	r.size = 1;
	ck_assert_int_eq(decoder_rec_type(&r), -1);
	ck_assert_int_eq(decoder_rec_pid(&r), -1);
}
END_TEST

START_TEST(test_format_info_and_name)
{
	struct kt_decoder *d = open_fixture();
	unsigned char raw[64];
	struct kt_rec r = { .ts = 1500000000ull, .cpu = 1, .data = raw, .size = sizeof(raw) };
	char buf[512];

	make_switch(raw, 1234);
	/* not loaded explicitly: found through events/<sys>/<event>/id */
	ck_assert_str_eq(decoder_format_name(d, &r, buf, sizeof(buf)), "sched:sched_switch");
	decoder_format_info(d, &r, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "prev_comm=fix\"ture prev_pid=1234 prev_prio=120 prev_state=S") &&
			      strstr(buf, "==> next_comm=swapper/0 next_pid=0 next_prio=120"),
		      "got: %s", buf);
	decoder_free(d);
}
END_TEST

START_TEST(test_unknown_event)
{
	struct kt_decoder *d = open_fixture();
	unsigned char raw[16] = { 0xff, 0x7f };
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };
	char buf[128];

	ck_assert_str_eq(decoder_format_name(d, &r, buf, sizeof(buf)), "id:32767");
	ck_assert_str_eq(decoder_format_info(d, &r, buf, sizeof(buf)),
			 "[unknown event id 32767]");
	ck_assert_int_eq(decoder_load(d, "nosuch", "event"), -1);
	decoder_free(d);
}
END_TEST

START_TEST(test_lost_marker_text)
{
	struct kt_decoder *d = open_fixture();
	int64_t lost = 42;
	struct kt_rec r = { .cpu = 3, .flags = KT_REC_LOST, .lost = 42, .data = &lost,
			    .size = sizeof(lost) };
	char buf[128];

	ck_assert_str_eq(decoder_format_info(d, &r, buf, sizeof(buf)),
			 "*** CPU 3: lost 42 events ***");
	r.lost = -1;
	ck_assert_str_eq(decoder_format_info(d, &r, buf, sizeof(buf)),
			 "*** CPU 3: lost events (count unknown) ***");
	ck_assert_str_eq(decoder_format_name(d, &r, buf, sizeof(buf)), "lost");
	decoder_free(d);
}
END_TEST

START_TEST(test_json)
{
	struct kt_decoder *d = open_fixture();
	unsigned char raw[64];
	struct kt_rec r = { .ts = 7, .cpu = 0, .data = raw, .size = sizeof(raw) };
	char buf[1024];

	make_switch(raw, 1234);
	decoder_format_json(d, &r, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "{\"ts\":7,\"cpu\":0,\"pid\":1234,") == buf, "got %s", buf);
	ck_assert_msg(strstr(buf, "\"event\":\"sched:sched_switch\""), "got %s", buf);
	ck_assert_msg(strstr(buf, "\"prev_comm\":\"fix\\\"ture\""), "escaping: %s", buf);
	ck_assert_msg(strstr(buf, "\"prev_pid\":1234"), "got %s", buf);
	ck_assert_msg(strstr(buf, "\"prev_state\":1"), "got %s", buf);
	ck_assert_msg(strstr(buf, "\"next_comm\":\"swapper/0\""), "got %s", buf);
	ck_assert_msg(buf[strlen(buf) - 1] == '}' && buf[strlen(buf) - 2] == '}', "got %s", buf);
	/* truncation never overruns */
	decoder_format_json(d, &r, buf, 20);
	ck_assert_uint_lt(strlen(buf), 20);
	decoder_free(d);
}
END_TEST

START_TEST(test_ts)
{
	char buf[32];

	ck_assert_str_eq(decoder_format_ts(1234567891234ull, 0, buf, sizeof(buf)),
			 "1234.567891");
	ck_assert_str_eq(decoder_format_ts(2000001000ull, 1000000000ull, buf, sizeof(buf)),
			 "1.000001");
	ck_assert_str_eq(decoder_format_ts(5, 10, buf, sizeof(buf)), "0.000000");
}
END_TEST

START_TEST(test_bad_tracing_dir)
{
	char err[256] = "";

	ck_assert_ptr_null(decoder_new("/nonexistent", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/events/header_page"));
}
END_TEST

static Suite *decode_suite(void)
{
	Suite *s = suite_create("decode");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_raw_common_fields);
	tcase_add_test(tc, test_format_info_and_name);
	tcase_add_test(tc, test_unknown_event);
	tcase_add_test(tc, test_lost_marker_text);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_ts);
	tcase_add_test(tc, test_bad_tracing_dir);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(decode_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
