// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview's arithmetic that needs no kernel: readable cgroup names (cgname.h), the
 * quantile of log2 buckets (overview.h), and the pane's table (ovtable.h: the columns that
 * fit a width, sort, fold, filter, total). */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/tracefs/cgname.h"
#include "backend/overview/overview.h"
#include "backend/overview/sysstrip.h"
#include "check_main.h"
#include "ui/ovtable.h"

static const char *name(const char *path)
{
	static char out[64];

	cgname_readable(path, out, sizeof(out));
	return out;
}

START_TEST(test_cgroup_names)
{
	ck_assert_str_eq(name("/"), "/");
	ck_assert_str_eq(name(""), "/");
	ck_assert_str_eq(name("/system.slice/nginx.service"), "nginx.service");
	ck_assert_str_eq(name("/user.slice/user-1000.slice/session-3.scope"), "session-3.scope");
	ck_assert_str_eq(name("/system.slice/docker-3f2a1b4c5d6e7f8091a2b3c4d5e6f708.scope"),
			 "docker:3f2a1b4c5d6e");
	ck_assert_str_eq(name("/docker/3f2a1b4c5d6e7f8091a2b3c4d5e6f708"), "docker:3f2a1b4c5d6e");
	ck_assert_str_eq(name("/machine.slice/libpod-0123456789abcdef0123.scope"),
			 "podman:0123456789ab");
	ck_assert_str_eq(name("/kubepods.slice/kubepods-burstable.slice/"
			      "kubepods-burstable-pod1234abcd_5678.slice/"
			      "cri-containerd-89abcdef0123456789.scope"),
			 "k8s:1234abcd/89abcdef0123");
	ck_assert_str_eq(name("/kubepods/burstable/pod1234abcd-5678/89abcdef01234567"),
			 "k8s:1234abcd/89abcdef0123");
	ck_assert_str_eq(name("/process_api/db30e175de72/"), "db30e175de72");
}
END_TEST

START_TEST(test_quantile)
{
	uint32_t slots[KT_OV_ROW_SLOTS] = { 0 };

	ck_assert_uint_eq(overview_quantile(slots, 0.99), 0);
	slots[10] = 99; /* [1024, 2048) */
	slots[20] = 1;	/* [1 Mi, 2 Mi) */
	ck_assert_uint_eq(overview_quantile(slots, 0.99), 2048);
	ck_assert_uint_eq(overview_quantile(slots, 1.0), 2u << 20);
	slots[20] = 2;
	ck_assert_uint_eq(overview_quantile(slots, 0.99), 2u << 20);
}
END_TEST

/* The strip's disks get the kernel's latency by dev_t: a disk with requests its p99, mean and
 * top bucket; one the kernel saw nothing of, counted with none; without BPF (ncpus 0) only
 * diskstats' mean, marked not counted. */
START_TEST(test_disk_latency)
{
	static struct kt_ov_snap s;
	static struct kt_sysstrip sys;

	s.ncpus = 2;
	s.ndisks = 1;
	s.disks[0].dev = 254u << 20 | 16;
	s.disks[0].count = 100;
	s.disks[0].sum_ns = 100 * 300000ull;
	s.disks[0].slots[18] = 98; /* [262 us, 524 us) */
	s.disks[0].slots[22] = 2;  /* [4.2 ms, 8.4 ms) */
	sys.ndisks = 2;
	sys.disks[0].dev = 254u << 20;
	sys.disks[0].avg_ms = 7;
	sys.disks[1].dev = 254u << 20 | 16;
	overview_disk_latency(&s, &sys);
	ck_assert(sys.disks[0].lat_counted && sys.disks[0].lat_count == 0);
	ck_assert(sys.disks[0].p99_ms == 0 && sys.disks[0].avg_ms == 7);
	ck_assert(sys.disks[1].lat_counted && sys.disks[1].lat_count == 100);
	ck_assert_double_eq_tol(sys.disks[1].lat_mean_ms, 0.3, 1e-9);
	ck_assert_double_eq_tol(sys.disks[1].p99_ms, (double)(2ull << 22) / 1e6, 1e-9);
	ck_assert_double_eq_tol(sys.disks[1].lat_max_ms, (double)(2ull << 22) / 1e6, 1e-9);
	s.ncpus = 0;
	s.ndisks = 0;
	overview_disk_latency(&s, &sys);
	ck_assert(!sys.disks[1].lat_counted && sys.disks[1].p99_ms == 0);
}
END_TEST

START_TEST(test_fit)
{
	bool off[OVT_NCOLS] = { false }, on[OVT_NCOLS];

	/* 80 columns: no cgroup, no context switches; the syscall columns stay */
	ovtable_fit(80, off, on);
	ck_assert(on[OVT_PID] && on[OVT_CPU] && on[OVT_SYSC] && on[OVT_P99] && on[OVT_COMM]);
	ck_assert(!on[OVT_CGROUP] && !on[OVT_VCSW] && !on[OVT_MIGR]);
	/* wide: everything */
	ovtable_fit(200, off, on);
	ck_assert(on[OVT_CGROUP] && on[OVT_MIGR] && on[OVT_ICSW]);
	/* narrow: the syscall columns (and their hooks) go */
	ovtable_fit(50, off, on);
	ck_assert(!on[OVT_SYSC] && !on[OVT_ERR] && !on[OVT_P99] && on[OVT_CPU]);
	/* hidden by the user, whatever the width; PID and COMMAND always shown */
	off[OVT_RUNQ] = off[OVT_PID] = true;
	ovtable_fit(200, off, on);
	ck_assert(!on[OVT_RUNQ] && on[OVT_PID]);
}
END_TEST

static struct kt_ov_row row(int pid, int tid, const char *comm, uint64_t oncpu)
{
	struct kt_ov_row r = { .pid = pid, .tid = tid, .oncpu_ns = oncpu, .nthreads = 1 };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	snprintf(r.user, sizeof(r.user), "root");
	return r;
}

START_TEST(test_table)
{
	struct kt_ov_row procs[3], threads[4];
	struct kt_ov_snap s = { .interval_s = 1, .procs = procs, .nprocs = 3,
				.threads = threads, .nthreads = 4 };
	struct kt_ovtable t = { .sort = OVT_CPU };
	char cell[32];

	/* threads by pid then tid, as overview_read gives them */
	threads[0] = row(10, 10, "db", 100);
	threads[1] = row(10, 11, "db-io", 300);
	threads[2] = row(20, 20, "web", 900);
	threads[3] = row(30, 30, "cron", 50);
	procs[0] = row(10, 10, "db", 400);
	procs[0].nthreads = 2;
	procs[1] = threads[2];
	procs[2] = threads[3];
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 3);
	ck_assert_int_eq(t.rows[0]->pid, 20);
	ck_assert_int_eq(t.rows[1]->pid, 10);
	ck_assert_uint_eq(t.total.oncpu_ns, 1350);
	t.ascending = true;
	ovtable_build(&t, &s);
	ck_assert_int_eq(t.rows[0]->pid, 30);
	/* unfolded: each process, then its threads busiest first */
	t.ascending = false;
	t.threads = true;
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 5);
	ck_assert_int_eq(t.rows[1]->pid, 10);
	ck_assert_int_eq(t.rows[2]->tid, 11);
	ck_assert_int_eq(t.rows[3]->tid, 10);
	/* the filter on the name; the total is the rows shown */
	t.threads = false;
	snprintf(t.filter, sizeof(t.filter), "db");
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 1);
	ck_assert_uint_eq(t.total.oncpu_ns, 400);
	/* per second: 400 ns of a 1 s tick is 0.0 %; a missing column is "-" */
	ovtable_cell(OVT_CPU, t.rows[0], 1, false, cell, sizeof(cell));
	ck_assert_str_eq(cell, "0.0");
	ovtable_cell(OVT_SYSC, t.rows[0], 1, true, cell, sizeof(cell));
	ck_assert_str_eq(cell, "-");
	ovtable_cell(OVT_PID, &t.total, 1, false, cell, sizeof(cell));
	ck_assert_str_eq(cell, "");
	/* a pinned process first whatever the order, its threads under it; unpinned again */
	t.filter[0] = '\0';
	ck_assert(ovtable_pin(&t, 0, 30));
	ck_assert(ovtable_pinned(&t, 0, 30));
	ovtable_build(&t, &s);
	ck_assert_int_eq(t.rows[0]->pid, 30);
	ck_assert_int_eq(t.rows[1]->pid, 20);
	t.ascending = true;
	t.threads = true;
	ovtable_build(&t, &s);
	ck_assert_int_eq(t.rows[0]->pid, 30);
	ck_assert_int_eq(t.rows[1]->pid, 10);
	ck_assert(ovtable_pin(&t, 0, 30));
	ck_assert(!ovtable_pinned(&t, 0, 30));
	for (int i = 0; i < KT_OVT_PINS; i++)
		ck_assert(ovtable_pin(&t, 0, 100 + i));
	ck_assert(!ovtable_pin(&t, 0, 99));
	ovtable_free(&t);
}
END_TEST

/* Several hosts' rows in one table (remote_overview.c's merge: by host, then pid): the
 * same pid on two hosts is two rows, each host's threads under its own row, a pin holds
 * one host's row only, the filter takes a host's label, HOST sorts in the hosts' order. */
START_TEST(test_table_hosts)
{
	struct kt_ov_row procs[3], threads[4];
	struct kt_ov_snap s = { .interval_s = 1, .procs = procs, .nprocs = 3,
				.threads = threads, .nthreads = 4 };
	struct kt_ovtable t = { .sort = OVT_CPU, .hosts = { "db-1", "db-2" }, .nhosts = 2 };

	threads[0] = row(10, 10, "db", 100);
	threads[1] = row(10, 11, "db-io", 300);
	threads[2] = row(10, 10, "db", 700);
	threads[3] = row(10, 12, "db-io", 50);
	threads[2].host = threads[3].host = 1;
	procs[0] = row(10, 10, "db", 400);
	procs[0].nthreads = 2;
	procs[1] = row(10, 10, "db", 750);
	procs[1].nthreads = 2;
	procs[1].host = 1;
	procs[2] = row(20, 20, "web", 900);
	procs[2].host = 1;
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 3);
	ck_assert_str_eq(ovtable_host(&t, t.rows[1]), "db-2");
	ck_assert_uint_eq(t.rows[1]->oncpu_ns, 750);
	ck_assert_uint_eq(t.total.oncpu_ns, 2050);
	/* unfolded: db-2's pid 10, then its own threads (12 is db-2's alone) */
	t.threads = true;
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 7);
	ck_assert_uint_eq(t.rows[1]->host, 1);
	ck_assert_uint_eq(t.rows[2]->host, 1);
	ck_assert_uint_eq(t.rows[3]->host, 1);
	ck_assert_int_eq(t.rows[3]->tid, 12);
	ck_assert_uint_eq(t.rows[4]->host, 0);
	ck_assert_int_eq(t.rows[5]->tid, 11);
	t.threads = false;
	/* pinned: db-1's pid 10 first; db-2's pid 10 keeps its place */
	ck_assert(ovtable_pin(&t, 0, 10));
	ck_assert(!ovtable_pinned(&t, 1, 10));
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.rows[0]->host, 0);
	ck_assert_int_eq(t.rows[1]->pid, 20);
	ck_assert(ovtable_pin(&t, 0, 10));
	/* a host's label filters its rows */
	snprintf(t.filter, sizeof(t.filter), "db-1");
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.nrows, 1);
	ck_assert_uint_eq(t.rows[0]->host, 0);
	t.filter[0] = '\0';
	t.sort = OVT_HOST;
	t.ascending = true;
	ovtable_build(&t, &s);
	ck_assert_uint_eq(t.rows[0]->host, 0);
	ck_assert_uint_eq(t.rows[2]->host, 1);
	ovtable_free(&t);
}
END_TEST

/* ktoprc's overview-hide: column names, any case, back as the heads; PID, COMMAND and
 * names no column has refused in one line. */
START_TEST(test_hide)
{
	bool off[OVT_NCOLS];
	char text[128], err[256];

	ck_assert_int_eq(ovtable_hide_parse(" rq99  CGROUP ", off, err, sizeof(err)), 0);
	ck_assert(off[OVT_RUNQ_P99] && off[OVT_CGROUP] && !off[OVT_RUNQ]);
	ovtable_hide_text(off, text, sizeof(text));
	ck_assert_str_eq(text, "RQ99 CGROUP");
	ck_assert_int_eq(ovtable_hide_parse("", off, err, sizeof(err)), 0);
	ovtable_hide_text(off, text, sizeof(text));
	ck_assert_str_eq(text, "");
	ck_assert_int_eq(ovtable_hide_parse("RUNQ COMMAND", off, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "overview-hide takes column names other than PID, HOST and "
			      "COMMAND (RUNQ, CGROUP...), not 'COMMAND'");
	ck_assert_int_eq(ovtable_hide_parse("RUNQ,CPU%", off, err, sizeof(err)), -1);
}
END_TEST

static Suite *overview_suite(void)
{
	Suite *s = suite_create("overview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cgroup_names);
	tcase_add_test(tc, test_quantile);
	tcase_add_test(tc, test_disk_latency);
	tcase_add_test(tc, test_fit);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_table_hosts);
	tcase_add_test(tc, test_hide);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(overview_suite());
}
