// SPDX-License-Identifier: GPL-2.0-or-later
/* Decoding against real event formats copied from a 6.18 kernel (tests/unit/fixtures). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/perf/comms.h"
#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "check_main.h"

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

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A task_rename record as the kernel lays it out. */
static void make_rename(unsigned char *raw, const struct kt_rename_layout *l, int pid,
			const char *from, const char *to)
{
	memset(raw, 0, 64);
	memcpy(raw + l->pid, &pid, sizeof(pid));
	strncpy((char *)raw + l->oldcomm, from, KT_COMM_LEN - 1);
	strncpy((char *)raw + l->newcomm, to, KT_COMM_LEN - 1);
}

START_TEST(test_rename_history)
{
	struct kt_comms *c = comms_new();
	struct kt_decoder *d = open_fixture();
	struct kt_rename_layout l;
	unsigned char raw[64];
	char name[KT_COMM_LEN];

	ck_assert_int_eq(comms_parse_format(slurp(FIXTURES "/tracing/events/task/task_rename/format"),
					    &l), 0);
	ck_assert_int_eq(l.pid, 8);
	ck_assert_int_eq(l.oldcomm, 12);
	ck_assert_int_eq(l.newcomm, 28);
	ck_assert_int_eq(comms_parse_format("name: x\nformat:\n", &l), -1);
	ck_assert_int_eq(comms_parse_format(slurp(FIXTURES "/tracing/events/task/task_rename/format"),
					    &l), 0);

	ck_assert(!comms_at(c, 4242, 100, name));
	make_rename(raw, &l, 4242, "bash", "workload");	   /* exec at 100 */
	comms_note(c, &l, 100, raw, sizeof(raw));
	make_rename(raw, &l, 4242, "workload", "renamed-wl"); /* prctl at 200 */
	comms_note(c, &l, 200, raw, sizeof(raw));
	ck_assert(comms_at(c, 4242, 50, name));
	ck_assert_str_eq(name, "bash");
	ck_assert(comms_at(c, 4242, 100, name));
	ck_assert_str_eq(name, "workload");
	ck_assert(comms_at(c, 4242, 199, name));
	ck_assert_str_eq(name, "workload");
	ck_assert(comms_at(c, 4242, 250, name));
	ck_assert_str_eq(name, "renamed-wl");
	ck_assert(!comms_at(c, 4243, 250, name));
	comms_note(c, &l, 300, raw, 10); /* short record: ignored */
	ck_assert(comms_at(c, 4242, 350, name));
	ck_assert_str_eq(name, "renamed-wl");

	/* the decoder names rows by the history at their own time */
	decoder_set_comms(d, c);
	ck_assert_str_eq(decoder_comm(d, 4242, 50), "bash");
	ck_assert_str_eq(decoder_comm(d, 4242, 150), "workload");
	ck_assert_str_eq(decoder_comm(d, 4242, 250), "renamed-wl");
	decoder_free(d);
	comms_free(c);
}
END_TEST

/* The side band's records arrive CPU by CPU, not in time order: the name at a time is the
 * one set last before it, whatever order the records came in; before the first, unknown. */
START_TEST(test_side_band_names_out_of_order)
{
	struct kt_comms *c = comms_new();
	char name[KT_COMM_LEN];

	comms_set(c, 5151, 300, "gamma");     /* prctl on CPU 1, drained first */
	comms_set(c, 5151, 200, "workload");  /* exec on CPU 1 */
	comms_set(c, 5151, 100, "bash");      /* fork on CPU 0, drained after */
	ck_assert(!comms_at(c, 5151, 50, name)); /* before the fork: no name known */
	ck_assert(comms_at(c, 5151, 150, name));
	ck_assert_str_eq(name, "bash");
	ck_assert(comms_at(c, 5151, 250, name));
	ck_assert_str_eq(name, "workload");
	ck_assert(comms_at(c, 5151, 300, name));
	ck_assert_str_eq(name, "gamma");
	comms_set(c, 5151, 300, "gamma-too"); /* the same time: the later record wins */
	ck_assert(comms_at(c, 5151, 400, name));
	ck_assert_str_eq(name, "gamma-too");
	comms_free(c);
}
END_TEST

/* More renames than a pid keeps, arriving out of time order (a task's renames drained from
 * one CPU before its fork and exec from the other): the oldest in time go, not the first to
 * arrive. And pids that hash alike (this table's sets are pid mod 16384) keep their own
 * names: the slot a new pid takes from a full set is the one renamed longest ago. */
START_TEST(test_side_band_names_kept)
{
	static const char *const names[] = { "alpha", "beta", "gamma", "delta", "epsilon" };
	struct kt_comms *c = comms_new();
	char name[KT_COMM_LEN];
	int i, pid = 5151;

	for (i = 0; i < 5; i++)
		comms_set(c, pid, 300 + 100 * (uint64_t)i, names[i]);
	comms_set(c, pid, 100, "bash");	    /* the fork, drained after */
	comms_set(c, pid, 200, "workload"); /* the exec */
	for (i = 0; i < 5; i++) {
		ck_assert(comms_at(c, pid, 350 + 100 * (uint64_t)i, name));
		ck_assert_str_eq(name, names[i]);
	}
	ck_assert(comms_at(c, pid, 250, name));
	ck_assert_str_eq(name, "workload");

	/* three more pids of its set: all four keep their names */
	for (i = 1; i <= 3; i++)
		comms_set(c, pid + 16384 * i, 1000 + (uint64_t)i, names[i - 1]);
	ck_assert(comms_at(c, pid, 450, name));
	ck_assert_str_eq(name, "beta");
	for (i = 1; i <= 3; i++) {
		ck_assert(comms_at(c, pid + 16384 * i, 2000, name));
		ck_assert_str_eq(name, names[i - 1]);
	}
	/* a fifth takes the way of the one renamed longest ago */
	comms_set(c, pid + 4 * 16384, 1004, "delta");
	ck_assert(!comms_at(c, pid, 450, name));
	ck_assert(comms_at(c, pid + 16384, 2000, name));
	ck_assert_str_eq(name, "alpha");
	ck_assert(comms_at(c, pid + 4 * 16384, 2000, name));
	ck_assert_str_eq(name, "delta");
	comms_free(c);
}
END_TEST

/* Names of exited tasks come from a table of saved_cmdlines, read again for a pid it lacks only
 * after a pause, not once per unknown pid (a build's thousands of short-lived tasks stalled
 * ktop for seconds). */
START_TEST(test_saved_cmdlines_snapshot)
{
	char dir[] = "/tmp/check_decode.XXXXXX", path[64], err[256] = "";
	struct kt_decoder *d;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	/* pids above the kernel's pid_max limit (2^22): never in /proc */
	fputs("4194401 first-task\n4194403 third-task\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/events", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(slurp(FIXTURES "/tracing/events/header_page"), f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	d = decoder_new(dir, err, sizeof(err));
	ck_assert_msg(d != NULL, "decoder_new: %s", err);
	ck_assert_str_eq(decoder_comm(d, 4194403, 1), "third-task");
	ck_assert_str_eq(decoder_comm(d, 4194401, 1), "first-task");

	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("4194402 second-task\n4194404 fourth-task\n", f);
	fclose(f);
	/* right after a read, a pid the table lacks does not read the file again */
	ck_assert_str_eq(decoder_comm(d, 4194402, 1), "<...>");
	/* later, one that exited since the last read is found by a new read */
	usleep(250 * 1000);
	ck_assert_str_eq(decoder_comm(d, 4194404, 1), "fourth-task");
	decoder_free(d);
	unlink(path);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/events", dir);
	rmdir(path);
	rmdir(dir);
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
	tcase_add_test(tc, test_rename_history);
	tcase_add_test(tc, test_side_band_names_out_of_order);
	tcase_add_test(tc, test_side_band_names_kept);
	tcase_add_test(tc, test_saved_cmdlines_snapshot);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(decode_suite());
}
