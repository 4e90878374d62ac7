// SPDX-License-Identifier: GPL-2.0-or-later
/* Filter expressions checked against the real sched_switch format of a 6.18 kernel: what
 * the kernel would accept passes, and every mistake gets its reason and the offset of the
 * offending token. The unfinished expressions a prompt holds while typing are among them:
 * libtraceevent alone crashes on those. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "backend/ingest/decode.h"
#include "backend/tracefs/filtercheck.h"
#include "check_main.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

static struct kt_decoder *dec;
static struct tep_event *ev;

static void setup(void)
{
	char err[256] = "";

	dec = decoder_new(FIXTURES "/tracing", err, sizeof(err));
	ck_assert_msg(dec != NULL, "decoder_new: %s", err);
	ck_assert_int_eq(decoder_load(dec, "sched", "sched_switch"), 0);
	ev = tep_find_event_by_name(decoder_tep(dec), "sched", "sched_switch");
	ck_assert_ptr_nonnull(ev);
}

static void teardown(void)
{
	decoder_free(dec);
}

static void ok(const char *expr)
{
	char err[256];
	int pos = 99;

	ck_assert_msg(filter_check(ev, expr, err, sizeof(err), &pos) == 0, "'%s': %s", expr,
		      err);
	ck_assert_int_eq(pos, -1);
}

static void bad(const char *expr, int want_pos, const char *want)
{
	char err[256] = "";
	int pos = -7;

	ck_assert_msg(filter_check(ev, expr, err, sizeof(err), &pos) < 0, "'%s' passed", expr);
	ck_assert_msg(strstr(err, want) != NULL, "'%s': '%s' lacks '%s'", expr, err, want);
	ck_assert_msg(pos == want_pos, "'%s': caret at %d, expected %d (%s)", expr, pos,
		      want_pos, err);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(accepted)
{
	ok("");
	ok("   ");
	ok("prev_pid > 0");
	ok("prev_pid >= 0 && next_pid != 0x10");
	ok("(prev_pid == 1 || next_pid == 2) && !(prev_prio < 120)");
	ok("prev_comm == \"bash\"");
	ok("prev_comm ~ \"ba*\"");
	ok("common_pid == 42 && prev_state & 2");
	ok("COMM == \"sshd\" && CPU == 1");
	ok("prev_pid == -1");
}
END_TEST

START_TEST(rejected)
{
	/* unfinished, as while typing */
	bad("prev_pid", 8, "needs a comparison");
	bad("prev_pid >", 9, "'>' needs a value");
	bad("prev_pid >  ", 9, "'>' needs a value");
	bad("prev_pid > 0 &&", 15, "expected a field name");
	bad("prev_pid > 0 && !", 17, "expected a field name");
	bad("prev_pid > 0 ||", 15, "expected a field name");
	bad("(prev_pid > 0", 0, "'(' is not closed");
	bad("prev_comm ~ \"a", 12, "unterminated string");
	/* wrong */
	bad("prev_pd > 0", 0, "'prev_pd' is not a field of sched_switch");
	bad("prev_pid > 0 && nxt_pid < 3", 16, "'nxt_pid' is not a field");
	bad("prev_pid = 3", 9, "'=' is not an operator");
	bad("prev_pid == abc", 12, "'abc' is not a number");
	bad("prev_comm > \"a\"", 10, "string field 'prev_comm' takes");
	bad("prev_pid ~ 3", 9, "numeric field 'prev_pid' takes");
	bad("prev_pid > 0 prev_pid", 13, "join conditions with && or ||");
	bad("prev_pid > 0)", 12, "')' closes nothing");
	bad("next_comm != swapper", 13, "string values need quotes: \"swapper\"");
	bad("3 > prev_pid", 0, "'3' is not a field");
	bad("&& prev_pid > 0", 0, "expected a field name, not '&&'");
}
END_TEST

START_TEST(field_names)
{
	const char **names = filter_field_names(ev);
	bool prev_comm = false, common_pid = false, comm = false;
	int i;

	ck_assert_ptr_nonnull(names);
	for (i = 0; names[i]; i++) {
		prev_comm |= !strcmp(names[i], "prev_comm");
		common_pid |= !strcmp(names[i], "common_pid");
		comm |= !strcmp(names[i], "COMM");
	}
	free(names);
	ck_assert(prev_comm && common_pid && comm);
}
END_TEST

static Suite *filtercheck_suite(void)
{
	Suite *s = suite_create("filtercheck");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, accepted);
	tcase_add_test(tc, rejected);
	tcase_add_test(tc, field_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(filtercheck_suite());
}
