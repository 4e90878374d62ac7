// SPDX-License-Identifier: GPL-2.0-or-later
/* The histogram spec parser and bucket arithmetic (no kernel). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "backend/bpf/histdata.h"
#include "backend/bpf/histspec.h"
#include "app/histhosts.h"
#include "check_main.h"

static struct kt_hist_spec parse_ok(const char *text)
{
	struct kt_hist_spec s;
	char err[512] = "";

	ck_assert_msg(histspec_parse(text, &s, err, sizeof(err)) == 0, "%s: %s", text, err);
	return s;
}

START_TEST(test_builtins)
{
	struct kt_hist_spec s = parse_ok("syscall-latency");

	ck_assert_int_eq(s.kind, KT_HIST_SYSCALL);
	ck_assert_int_eq(s.by, KT_BY_SYSCALL);
	ck_assert(s.is_time);
	s = parse_ok("syscall-latency,by=comm,pid=42");
	ck_assert_int_eq(s.by, KT_BY_COMM);
	ck_assert_uint_eq(s.pid, 42);
	s = parse_ok("runq-latency");
	ck_assert_int_eq(s.kind, KT_HIST_LATENCY);
	ck_assert_str_eq(s.ev.event, "sched_wakeup");
	ck_assert_str_eq(s.ev.field, "pid");
	ck_assert_str_eq(s.end.field, "next_pid");
	ck_assert_str_eq(s.text, "runq-latency");
	/* the user's options come after the expansion's and win */
	s = parse_ok("offcpu,by=cpu");
	ck_assert_int_eq(s.by, KT_BY_CPU);
	s = parse_ok("syscall-latency,by=cgroup");
	ck_assert_int_eq(s.by, KT_BY_CGROUP);
	ck_assert_str_eq(histspec_by_name(&s), "cgroup");
	ck_assert_uint_eq(s.cgroup_id, 0); /* --cgroup, not the spec, sets the filter */
	s = parse_ok("read-size,linear=512");
	ck_assert_int_eq(s.kind, KT_HIST_FIELD);
	ck_assert_str_eq(s.ev.field, "ret");
	ck_assert_int_eq(s.scale, KT_SCALE_LINEAR);
	ck_assert_uint_eq(s.step, 512);
	ck_assert(!s.is_time);
	s = parse_ok("func:vfs_read");
	ck_assert_int_eq(s.kind, KT_HIST_FUNC);
	ck_assert_str_eq(s.func, "vfs_read");
	s = parse_ok("func:vfs_read,via=kprobe");
	ck_assert_str_eq(s.via, "kprobe");
	s = parse_ok("syscall-latency,via=raw_tp");
	ck_assert_str_eq(s.via, "raw_tp");
	/* every built-in has typed variants; they remember their name */
	s = parse_ok("offcpu,via=tp_btf");
	ck_assert_str_eq(s.via, "tp_btf");
	ck_assert_str_eq(s.builtin, "offcpu");
	s = parse_ok("runq-latency,via=raw_tp");
	ck_assert_str_eq(s.builtin, "runq-latency");
	s = parse_ok("bio-size,via=tracepoint");
	ck_assert_str_eq(s.via, "tracepoint");
	s = parse_ok("bio-latency,by=dev,via=raw_tp");
	ck_assert_str_eq(s.via, "raw_tp");
	ck_assert_str_eq(s.builtin, "bio-latency");
	ck_assert_str_eq(s.by_field, "dev");
	s = parse_ok("read-size,via=tp_btf");
	ck_assert_str_eq(s.builtin, "read-size");
	s = parse_ok("write-size,by=pid,via=raw_tp");
	ck_assert_str_eq(s.builtin, "write-size");
	ck_assert_int_eq(s.by, KT_BY_PID);
	/* lock-contention: by comm unless told, a field of the wait, any of the three ways */
	s = parse_ok("lock-contention");
	ck_assert_str_eq(s.builtin, "lock-contention");
	ck_assert_int_eq(s.kind, KT_HIST_LATENCY);
	ck_assert_str_eq(s.ev.event, "contention_begin");
	ck_assert_str_eq(s.end.event, "contention_end");
	ck_assert_int_eq(s.by, KT_BY_COMM);
	ck_assert(s.is_time);
	s = parse_ok("lock-contention,by=flags,via=tracepoint");
	ck_assert_int_eq(s.by, KT_BY_FIELD);
	ck_assert_str_eq(s.by_field, "flags");
	ck_assert_str_eq(s.via, "tracepoint");
}
END_TEST

START_TEST(test_generic)
{
	struct kt_hist_spec s = parse_ok("field:sched:sched_switch.prev_prio,by=next_comm");

	ck_assert_str_eq(s.ev.system, "sched");
	ck_assert_str_eq(s.ev.event, "sched_switch");
	ck_assert_str_eq(s.ev.field, "prev_prio");
	ck_assert_int_eq(s.by, KT_BY_FIELD);
	ck_assert_str_eq(s.by_field, "next_comm");
	s = parse_ok("latency:syscalls:sys_enter_read->syscalls:sys_exit_read");
	ck_assert_str_eq(s.ev.event, "sys_enter_read");
	ck_assert_str_eq(s.end.event, "sys_exit_read");
	ck_assert_str_eq(s.ev.field, "");
	s = parse_ok("latency:block:block_rq_issue.sector->block:block_rq_complete.sector,by=cpu");
	ck_assert_str_eq(s.end.field, "sector");
	ck_assert_int_eq(s.by, KT_BY_CPU);
	/* a field named like a keyword */
	s = parse_ok("latency:sched:sched_switch.prev_pid->sched:sched_wakeup.pid,by=field:pid");
	ck_assert_int_eq(s.by, KT_BY_FIELD);
	ck_assert_str_eq(s.by_field, "pid");
}
END_TEST

static const char *const bad[] = {
	"", "nope", "field:sched", "field:sched:sched_switch", "field:sched:sched_switch.",
	"latency:sched:sched_wakeup.pid", "latency:a:b.pid->c:d", "syscall-latency,by=",
	"syscall-latency,by=prev_prio", "field:a:b.c,by=syscall", "syscall-latency,linear=0",
	"syscall-latency,linear=-3", "syscall-latency,pid=x", "syscall-latency,colour=red",
	"func:", "func:a b", "field:a:b.c,,", "func:f,via=raw_tp", "syscall-latency,via=kprobe",
	"field:a:b.c,via=tracepoint", "bio-size,via=fentry", "offcpu,via=kprobe", "read-size,via=kprobe",
	"latency:sched:sched_wakeup.pid->sched:sched_switch.next_pid,via=tp_btf",
};

START_TEST(test_bad)
{
	struct kt_hist_spec s;
	char err[512] = "";

	ck_assert_msg(histspec_parse(bad[_i], &s, err, sizeof(err)) < 0, "'%s' accepted", bad[_i]);
	ck_assert_msg(err[0] && !strchr(err, '\n'), "'%s': no one-line reason: '%s'", bad[_i],
		      err);
}
END_TEST

START_TEST(test_bounds)
{
	struct kt_hist_spec s = parse_ok("syscall-latency");
	unsigned long long lo, hi;

	hist_bounds(&s, 0, &lo, &hi);
	ck_assert(lo == 0 && hi == 2);
	hist_bounds(&s, 4, &lo, &hi);
	ck_assert(lo == 16 && hi == 32);
	hist_bounds(&s, KT_HIST_SLOTS - 1, &lo, &hi);
	ck_assert(lo == 1ull << 63 && hi == 0);
	s = parse_ok("syscall-latency,linear=100");
	hist_bounds(&s, 3, &lo, &hi);
	ck_assert(lo == 300 && hi == 400);
	hist_bounds(&s, KT_HIST_SLOTS - 1, &lo, &hi);
	ck_assert(lo == 6300 && hi == 0);
}
END_TEST

START_TEST(test_percentiles)
{
	struct kt_hist_spec s = parse_ok("syscall-latency,linear=10");
	struct kt_hist_val v = { 0 };
	unsigned long long p;
	int i;

	/* 100 values 0..99: ten per bucket */
	for (i = 0; i < 100; i++) {
		v.slots[i / 10]++;
		v.count++;
		v.sum += (unsigned long long)i;
	}
	v.max = 99;
	p = hist_percentile(&s, &v, 0.5);
	ck_assert_msg(p >= 45 && p <= 50, "p50 %llu", p);
	p = hist_percentile(&s, &v, 0.9);
	ck_assert_msg(p >= 85 && p <= 90, "p90 %llu", p);
	ck_assert_uint_eq(hist_percentile(&s, &v, 1.0), 99);
	memset(&v, 0, sizeof(v));
	ck_assert_uint_eq(hist_percentile(&s, &v, 0.5), 0);
}
END_TEST

/* A log2 bucket [64, 128) holding one value: every percentile is that value, not a point
 * interpolated below the smallest value seen (p50 was 87 for a constant 110). */
START_TEST(test_percentiles_clamped)
{
	struct kt_hist_spec s = parse_ok("syscall-latency");
	struct kt_hist_val v = { 0 }, one = { 0 }, sum = { 0 }, iv;

	one.slots[6] = 1;
	one.count = 1;
	one.sum = one.min = one.max = 110;
	for (int i = 0; i < 100; i++)
		hist_val_add(&v, &one);
	ck_assert_uint_eq(v.min, 110);
	ck_assert_uint_eq(hist_percentile(&s, &v, 0.5), 110);
	ck_assert_uint_eq(hist_percentile(&s, &v, 0.9), 110);
	ck_assert_uint_eq(hist_percentile(&s, &v, 0.99), 110);

	/* Between the smallest and the largest value seen, whatever the bucket's bounds. */
	one.sum = one.min = one.max = 100;
	hist_val_add(&sum, &one);
	one.sum = one.min = one.max = 120;
	hist_val_add(&sum, &one);
	ck_assert_uint_eq(sum.min, 100);
	ck_assert_uint_ge(hist_percentile(&s, &sum, 0.5), 100);
	ck_assert_uint_le(hist_percentile(&s, &sum, 0.5), 120);

	/* An empty per-CPU value adds nothing, its zero minimum included. */
	memset(&one, 0, sizeof(one));
	hist_val_add(&sum, &one);
	ck_assert_uint_eq(sum.min, 100);

	/* An interval keeps the cumulative minimum: still a bound of its values. */
	hist_val_diff(&iv, &v, &sum);
	ck_assert_uint_eq(iv.min, 110);
}
END_TEST

START_TEST(test_labels)
{
	struct kt_hist_spec s = parse_ok("syscall-latency");
	struct kt_hist_key k = { .id = 0 };
	char buf[64];

	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "read");
	k.id = 1000000;
	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "syscall 1000000");
	hist_format_value(&s, 1500000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1.5ms");
	s = parse_ok("read-size");
	hist_format_value(&s, 4096, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4.0K");
	strcpy(k.name, "bash");
	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bash");
	/* lock-contention's flags read as the kernel prints them, a lock's address in hex */
	s = parse_ok("lock-contention,by=flags");
	k.name[0] = '\0';
	k.id = 32 | 1;
	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "MUTEX|SPIN");
	k.id = 4;
	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "WRITE");
	s = parse_ok("lock-contention,by=lock_addr");
	k.id = 0xffff888627d2fcc0ull;
	hist_key_label(&s, &k, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0xffff888627d2fcc0");
}
END_TEST

/* Two hosts' rows of one histogram side by side: one group a key, each host's row of it
 * (-1 where a host lacks the key), each host's total, and a key summed over the hosts. */
START_TEST(test_hosts_side_by_side)
{
	struct kt_hist_row rows[4], totals[2], sum;
	struct kt_hist_group *g;
	size_t n;

	memset(rows, 0, sizeof(rows));
	strcpy(rows[0].key.name, "db");
	rows[0].cum.count = 5;
	rows[0].cum.slots[3] = 5;
	strcpy(rows[1].key.name, "web");
	rows[1].cum.count = 2;
	rows[1].cum.slots[4] = 2;
	strcpy(rows[2].key.name, "db");
	rows[2].host = 1;
	rows[2].cum.count = 7;
	rows[2].cum.slots[3] = 7;
	strcpy(rows[3].key.name, "gone");
	rows[3].host = 2; /* past the hosts given: left out */
	n = hist_groups(rows, 4, 2, &g);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(g[0].key.name, "db");
	ck_assert_int_eq(g[0].row[0], 0);
	ck_assert_int_eq(g[0].row[1], 2);
	ck_assert_str_eq(g[1].key.name, "web");
	ck_assert_int_eq(g[1].row[0], 1);
	ck_assert_int_eq(g[1].row[1], -1);
	hist_host_totals(rows, 4, 2, totals);
	ck_assert_uint_eq(totals[0].cum.count, 7);
	ck_assert_uint_eq(totals[1].cum.count, 7);
	ck_assert_uint_eq(totals[1].host, 1);
	hist_group_sum(&g[0], rows, 2, &sum);
	ck_assert_str_eq(sum.key.name, "db");
	ck_assert_uint_eq(sum.cum.count, 12);
	ck_assert_uint_eq(sum.cum.slots[3], 12);
	free(g);
	ck_assert_uint_eq(hist_groups(rows, 0, 2, &g), 0);
	ck_assert_ptr_null(g);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_builtins);
	tcase_add_test(tc, test_generic);
	tcase_add_loop_test(tc, test_bad, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_percentiles);
	tcase_add_test(tc, test_percentiles_clamped);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_hosts_side_by_side);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(hist_suite());
}
