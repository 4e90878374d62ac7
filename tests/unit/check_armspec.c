// SPDX-License-Identifier: GPL-2.0-or-later
/* --arm's conditions (src/app/armspec.h): the kernel's rows they become, and one-line refusals. */
#include "config.h"

#include <check.h>
#include <string.h>
#include <sys/syscall.h>

#include "app/armspec.h"
#include "check_main.h"

START_TEST(test_kinds)
{
	struct kt_armspec a;
	char err[512];

	ck_assert_int_eq(armspec_parse("syscall>100ms,comm=postgres,name=fsync,pid=42", &a, err,
				       sizeof(err)), 0);
	ck_assert_uint_eq(a.kind, KT_ARM_SYSCALL);
	ck_assert_uint_eq(a.cond.min_ns, 100000000ull);
	ck_assert_str_eq(a.cond.comm, "postgres");
	ck_assert_int_eq(a.cond.nr, SYS_fsync);
	ck_assert_int_eq(a.cond.pid, 42);
	ck_assert_int_eq(armspec_parse("errno=ENOENT", &a, err, sizeof(err)), 0);
	ck_assert(a.kind == KT_ARM_ERRNO && a.cond.err == 2 && a.cond.nr == -1);
	ck_assert_int_eq(armspec_parse("runq>500us", &a, err, sizeof(err)), 0);
	ck_assert(a.kind == KT_ARM_RUNQ && a.cond.min_ns == 500000);
	ck_assert_int_eq(armspec_parse("offcpu>2s,comm=x", &a, err, sizeof(err)), 0);
	ck_assert(a.kind == KT_ARM_OFFCPU && a.cond.min_ns == 2000000000ull);
	ck_assert_int_eq(armspec_parse("event:sched:sched_switch if prev_pid == 1", &a, err,
				       sizeof(err)), 0);
	ck_assert_uint_eq(a.kind, KT_ARM_NONE);
	ck_assert_str_eq(a.trig.system, "sched");
	ck_assert_str_eq(a.trig.cmd, "stacktrace");
	ck_assert_int_eq(a.trig.count, 1);
	ck_assert_str_eq(a.trig.filter, "prev_pid == 1");
}
END_TEST

/* Each refusal names its cause. */
START_TEST(test_refusals)
{
	static const char *const bad[][2] = {
		{ "func:vfs_read>1ms", "needs fexit or a kretprobe" },
		{ "syscall>0ms", "want a time above 0" },
		{ "syscall<1ms", "want syscall>DUR" },
		{ "syscall>1ms,name=nosuch", "name=nosuch: no such syscall" },
		{ "runq>1ms,name=read", "only syscall> and errno= take it" },
		{ "runq>1ms,cgroup=/", "cgroup= is not taken by runq>" },
		{ "errno=EWHAT", "not an errno name" },
		{ "syscall>1ms,comm=abcdefghijklmnopq", "1 to 15 bytes" },
		{ "syscall>1ms,pid=-3", "pid=-3" },
		{ "syscall>1ms,color=red", "unknown qualifier 'color'" },
		{ "event:sched", "needs SYS:EV" },
	};
	struct kt_armspec a;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(armspec_parse(bad[i][0], &a, err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
		ck_assert(!strchr(err, '\n'));
	}
}
END_TEST

static Suite *armspec_suite(void)
{
	Suite *s = suite_create("armspec");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kinds);
	tcase_add_test(tc, test_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(armspec_suite());
}
