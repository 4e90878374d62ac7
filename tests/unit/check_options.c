// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "check_main.h"

static int parse(struct kt_options *o, char *err, size_t errlen, ...)
{
	static char prog[] = "ktop";
	char *argv[32];
	int argc = 0;
	va_list ap;
	char *a;

	argv[argc++] = prog;
	va_start(ap, errlen);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(argc, argv, o, err, errlen);
}

START_TEST(test_defaults)
{
	struct kt_options o;
	char err[256];

	unsetenv("NO_COLOR");
	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert_int_eq(o.mode, KT_MODE_INTERACTIVE);
	ck_assert_uint_eq(o.delay_ms, 1000);
	ck_assert_uint_eq(o.memory_bytes, 256u << 20);
	ck_assert_uint_eq(o.buffer_kb, 0);
	ck_assert(!o.no_color);
	ck_assert_uint_eq(o.n_events, 0);
	options_free(&o);
}
END_TEST

START_TEST(test_batch_full)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-e", "sched:sched_switch", "-e",
			       "syscalls:sys_enter_open*", "--duration", "2.5", "--filter",
			       "common_pid == 1", "--json", "--buffer-kb", "1024", "--memory",
			       "1G", "-d", "5", "--max-events", "10", NULL),
			 0);
	ck_assert_int_eq(o.mode, KT_MODE_BATCH);
	ck_assert_uint_eq(o.n_events, 2);
	ck_assert_str_eq(o.events[0], "sched:sched_switch");
	ck_assert_str_eq(o.events[1], "syscalls:sys_enter_open*");
	ck_assert_ptr_null(o.events[2]);
	ck_assert(o.duration > 2.49 && o.duration < 2.51);
	ck_assert_str_eq(o.filter, "common_pid == 1");
	ck_assert(o.json);
	ck_assert_uint_eq(o.buffer_kb, 1024);
	ck_assert_uint_eq(o.memory_bytes, 1ull << 30);
	ck_assert_uint_eq(o.delay_ms, 500);
	ck_assert_uint_eq(o.max_events, 10);
	options_free(&o);
}
END_TEST

START_TEST(test_no_color_env)
{
	struct kt_options o;
	char err[256];

	setenv("NO_COLOR", "1", 1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert(o.no_color);
	options_free(&o);
	setenv("NO_COLOR", "", 1); /* empty means unset, per no-color.org */
	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert(!o.no_color);
	options_free(&o);
	unsetenv("NO_COLOR");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-C", NULL), 0);
	ck_assert(o.no_color);
	options_free(&o);
}
END_TEST

START_TEST(test_errors_name_the_cause)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--duration", "abc", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--duration"));
	ck_assert_ptr_nonnull(strstr(err, "abc"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--memory", "1k", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--memory"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--bogus", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--bogus"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-e", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-e"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--filter", "x", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-e"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--duration", "3", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "batch"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-d", "0", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--buffer-kb", "-5", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--read-mode", "splice", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "mmap or read, not 'splice'"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--read-mode=read", NULL), 0);
	ck_assert(o.read_copy);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "stray", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "stray"));
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/* --stack, --user-stacks and --folded: what they take and what they go with. */
START_TEST(test_stack_options)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--stack", "sched:sched_switch",
			       "--stack", "syscalls:sys_enter_*", "--filter", "pid > 1",
			       "--user-stacks", "--folded", NULL), 0);
	ck_assert_uint_eq(o.n_stacks, 2);
	ck_assert_str_eq(o.stacks[1], "syscalls:sys_enter_*");
	ck_assert_ptr_null(o.stacks[2]);
	ck_assert(o.user_stacks && o.folded);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--stack", "sched_switch", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "needs SYS:EV"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--folded", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "batch mode"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--folded", "--json", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--json"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-i", "x.dat", "--stack", "a:b", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--stack"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--doctor", "--user-stacks", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--user-stacks"));
}
END_TEST

START_TEST(test_list)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--list", NULL), 0);
	ck_assert_int_eq(o.mode, KT_MODE_LIST);
	ck_assert_ptr_null(o.list_spec);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-l", "sched:*", NULL), 0);
	ck_assert_str_eq(o.list_spec, "sched:*");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--list=irq:*", NULL), 0);
	ck_assert_str_eq(o.list_spec, "irq:*");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-l", "--json", NULL), -1);
}
END_TEST

START_TEST(test_pmu_options)
{
	struct kt_options o;
	char err[256];

	unsetenv("NO_COLOR");
	ck_assert_int_eq(parse(&o, err, sizeof(err), NULL), 0);
	ck_assert(!o.pmu);
	ck_assert_uint_eq(o.n_pmu_events, 0);
	ck_assert_uint_eq(o.n_pids, 0);
	options_free(&o);

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--pmu", "--duration", "2", "--json",
			       NULL), 0);
	ck_assert(o.pmu);
	ck_assert(o.json);
	options_free(&o);

	/* -p and --pmu-event imply --pmu; both repeat; -p takes a list */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--pmu-event", "cache-misses",
			       "--pmu-event", "cpu/event=0x3c,umask=0x1/", "-p", "42,43", "--pid",
			       "7", NULL), 0);
	ck_assert(o.pmu);
	ck_assert_int_eq(o.mode, KT_MODE_INTERACTIVE);
	ck_assert_uint_eq(o.n_pmu_events, 2);
	ck_assert_str_eq(o.pmu_events[0], "cache-misses");
	ck_assert_str_eq(o.pmu_events[1], "cpu/event=0x3c,umask=0x1/");
	ck_assert_ptr_null(o.pmu_events[2]);
	ck_assert_uint_eq(o.n_pids, 3);
	ck_assert_int_eq(o.pids[0], 42);
	ck_assert_int_eq(o.pids[1], 43);
	ck_assert_int_eq(o.pids[2], 7);
	options_free(&o);
	ck_assert_ptr_null(o.pids);
	ck_assert_ptr_null(o.pmu_events);

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-p", "1", NULL), 0);
	ck_assert(o.pmu);
	options_free(&o);

	/* errors */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", "abc", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-p"));
	ck_assert_ptr_nonnull(strstr(err, "abc"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", "0", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", "-5", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", "1,", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", ",1", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", "99999999999", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-p", NULL), -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--pmu-event", "", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--pmu-event"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--doctor", "--pmu", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--doctor"));
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/* --profile, -F, --folded; -p scopes the profile rather than turning the counters on. */
START_TEST(test_profile_options)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--profile", "--folded", "-F", "999",
			       "-p", "42", "--duration", "1", NULL), 0);
	ck_assert(o.cpu_profile);
	ck_assert(o.folded);
	ck_assert_uint_eq(o.freq, 999);
	ck_assert_uint_eq(o.n_pids, 1);
	ck_assert(!o.pmu);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--profile", "--json", NULL), 0);
	ck_assert_uint_eq(o.freq, 0); /* the profile's default */
	options_free(&o);
	/* the layout profiles moved to --preset (and stay -P) */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--preset", "sched", NULL), 0);
	ck_assert_str_eq(o.profile, "sched");
	options_free(&o);

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--profile", "-F", "0", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-F takes samples per second"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-F", "99", NULL), -1);
	ck_assert_str_eq(err, "-F applies to --profile, which was not given");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--profile", "--folded", "--json",
			       NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--folded"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--profile", "sched", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-P NAME, or --preset NAME"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-i", "x.dat", "-b", "--profile", "--folded",
			       NULL), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-i", "x.dat", "--profile", "-F", "99",
			       NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-i --profile shows the recorded profile"));
	ck_assert_ptr_null(strchr(err, '\n'));
}
END_TEST

/* --off-cpu: its variant, --folded, and the runs it cannot share, each refused by name. */
START_TEST(test_off_cpu)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu", "--folded", "-p", "42",
			       NULL),
			 0);
	ck_assert(o.off_cpu && o.folded);
	ck_assert_ptr_null(o.off_cpu_via);
	ck_assert_int_eq((int)o.pids[0], 42);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu=tracepoint", "--json", NULL),
			 0);
	ck_assert_str_eq(o.off_cpu_via, "tracepoint");
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu=fentry", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "tp_btf, raw_tp or tracepoint"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--off-cpu", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-b"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--folded", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--off-cpu"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu", "--folded", "--json", NULL),
			 -1);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu", "-e", "sched:*", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "runs alone"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--off-cpu", "-p", "1,2", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "single PID"));
}
END_TEST

START_TEST(test_remote_options)
{
	struct kt_options o;
	char err[256];
	static char prog[] = "ktop", b[] = "-b", via[] = "--via", cat[] = "cat";
	char *many[2 * KT_REMOTES_MAX + 5];
	int n = 0;

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "-e", "sched:*", NULL), 0);
	ck_assert_uint_eq(o.n_remotes, 1);
	ck_assert_str_eq(o.remotes[0].host, "db1");
	ck_assert_str_eq(o.remotes[0].label, "db1");
	options_free(&o);
	/* several, mixed, in the order given; --via labelled by its place among the --via */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--via", "cat", "-H", "db1", "--via",
			       "ktop --agent", "-H", "db2", NULL), 0);
	ck_assert_uint_eq(o.n_remotes, 4);
	ck_assert_str_eq(o.remotes[0].via, "cat");
	ck_assert_str_eq(o.remotes[0].label, "via1");
	ck_assert_ptr_null(o.remotes[0].host);
	ck_assert_str_eq(o.remotes[1].label, "db1");
	ck_assert_ptr_null(o.remotes[1].via);
	ck_assert_str_eq(o.remotes[2].via, "ktop --agent");
	ck_assert_str_eq(o.remotes[2].label, "via2");
	ck_assert_str_eq(o.remotes[3].label, "db2");
	options_free(&o);
	/* a host twice, or a host named as a --via's label, would make two streams one */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "-H", "db1", NULL), -1);
	ck_assert_str_eq(err, "two remotes labelled db1 (-H HOST is labelled HOST, --via CMD "
			      "via1, via2... in order): give each host once");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "via1", "--via", "cat", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "two remotes labelled via1"));
	/* the explorer shows several, labelled as in batch mode; -o writes a file a host, in
	 * batch mode only */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--via", "cat", NULL), 0);
	ck_assert_uint_eq(o.n_remotes, 2);
	ck_assert_str_eq(o.remotes[1].label, "via1");
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-o", "x.dat", "-H", "db1", "-H", "db2",
			       NULL), 0);
	ck_assert_uint_eq(o.n_remotes, 2);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-o", "x.dat", "-H", "db1", "-H", "db2",
			       NULL), -1);
	/* the scope, --stack, --usdt and --max-events go to agents in batch mode */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "-p", "42", "--stack",
			       "sched:sched_switch", "--max-events", "10", NULL), 0);
	options_free(&o);
	/* the explorer over one takes the scope, -t and probes too; --duration stays batch's */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--cgroup", "/a", NULL), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "-t", "function", "--usdt",
			       "/bin/x:p:q", "--uprobe", "/bin/true:main", NULL), 0);
	options_free(&o);
	/* --tree, the function lists and --user-stacks go to agents, batch mode or not, one
	 * or several */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "-t", "function_graph",
			       "--ftrace-filter", "vfs_read", "--tree", NULL), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "-H", "db2",
			       "--user-stacks", "--stack", "sched:sched_switch", NULL), 0);
	ck_assert(o.user_stacks);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--user-stacks", NULL), 0);
	options_free(&o);
	/* -i stays local */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "-i", "x.dat", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "work locally only"));
	/* triggers: the explorer over agents, one or several; not batch mode's */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--stop-when",
			       "sched:sched_switch", NULL), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "--trigger",
			       "sched:sched_switch:traceoff", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "act in the explorer"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "a", "-H", "b", "--stop-when",
			       "sched:sched_switch", NULL), 0);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--duration", "3", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "belong to batch mode (-b)"));
	/* --off-cpu goes to agents in batch mode (--folded with it); -F is the explorer's
	 * flame pane's rate over one */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "-H", "db1", "--off-cpu", "--folded",
			       NULL), 0);
	ck_assert(o.off_cpu && o.folded);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-H", "db1", "--profile", "-F", "999", NULL),
			 0);
	ck_assert_uint_eq(o.freq, 999);
	options_free(&o);
	/* a fixed maximum, refused in one line above it */
	many[n++] = prog;
	many[n++] = b;
	for (int i = 0; i <= KT_REMOTES_MAX; i++) {
		many[n++] = via;
		many[n++] = cat;
	}
	many[n] = NULL;
	ck_assert_int_eq(options_parse(n, many, &o, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "at most 16 remotes (-H and --via) in one run: run another ktop for "
			      "the rest");
	ck_assert_int_eq(options_parse(n - 2, many, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(o.n_remotes, KT_REMOTES_MAX);
	ck_assert_str_eq(o.remotes[KT_REMOTES_MAX - 1].label, "via16");
	options_free(&o);
}
END_TEST

START_TEST(test_parse_size)
{
	ck_assert_int_eq(options_parse_size("1048576"), 1048576);
	ck_assert_int_eq(options_parse_size("512k"), 512 << 10);
	ck_assert_int_eq(options_parse_size("256M"), 256 << 20);
	ck_assert_int_eq(options_parse_size("2G"), 2ll << 30);
	ck_assert_int_eq(options_parse_size("2GiB"), 2ll << 30);
	ck_assert_int_eq(options_parse_size("64MB"), 64 << 20);
	ck_assert_int_eq(options_parse_size(""), -1);
	ck_assert_int_eq(options_parse_size("-1M"), -1);
	ck_assert_int_eq(options_parse_size("12X"), -1);
	ck_assert_int_eq(options_parse_size("99999999999999999999G"), -1);
}
END_TEST

START_TEST(test_flame)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "--flame", "a.folded", "--diff-base",
			       "b.folded", NULL), 0);
	ck_assert_str_eq(o.flame_path, "a.folded");
	ck_assert_str_eq(o.diff_base, "b.folded");
	ck_assert_int_eq(o.mode, KT_MODE_INTERACTIVE);
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--diff-base", "b.folded", NULL), -1);
	ck_assert_str_eq(err, "--diff-base is the baseline of --flame FILE, and no --flame was "
			      "given");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--flame", "", NULL), -1);
	ck_assert_str_eq(err, "--flame needs a folded-stacks file to show");
	/* a file shown: nothing live, no batch mode */
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--flame", "a", "-b", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--flame shows a file"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--flame", "a", "-e", "sched:*", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--flame shows a file"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--flame", "a", "-i", "t.dat", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--flame shows a file"));
}
END_TEST

/* --from, --to, --chrome-trace (issue 33): what they apply to, and bad times in one line */
START_TEST(test_time_range)
{
	struct kt_options o;
	char err[256];

	ck_assert_int_eq(parse(&o, err, sizeof(err), "-i", "t.dat", "--from", "+40.1", "--to",
			       "205.060123", "-o", "p.dat", NULL), 0);
	ck_assert(o.range.has_from && o.range.from.relative && o.range.from.ns == 40100000000ull);
	ck_assert(o.range.has_to && !o.range.to.relative && o.range.to.ns == 205060123000ull);
	ck_assert_str_eq(o.record_path, "p.dat");
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--to", "+1", "--chrome-trace", "t.json",
			       NULL), 0);
	ck_assert_str_eq(o.chrome_path, "t.json");
	options_free(&o);
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--from", "soon", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--from 'soon': "));
	ck_assert_ptr_nonnull(strstr(err, "+40.1"));
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--from", "+2", "--to", "+1", NULL), -1);
	ck_assert_str_eq(err, "--from is after --to: give the earlier time to --from");
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--from", "+2", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "scope a recording (-i FILE) or batch output (-b)"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "--chrome-trace", "t.json", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "--chrome-trace writes"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-b", "--to", "+1", "--via", "cat", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "not over -H or --via"));
	ck_assert_int_eq(parse(&o, err, sizeof(err), "-o", "p.dat", NULL), -1);
	ck_assert_ptr_nonnull(strstr(err, "-o records in batch mode"));
}
END_TEST

static Suite *options_suite(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_batch_full);
	tcase_add_test(tc, test_no_color_env);
	tcase_add_test(tc, test_errors_name_the_cause);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_parse_size);
	tcase_add_test(tc, test_pmu_options);
	tcase_add_test(tc, test_profile_options);
	tcase_add_test(tc, test_flame);
	tcase_add_test(tc, test_remote_options);
	tcase_add_test(tc, test_off_cpu);
	tcase_add_test(tc, test_stack_options);
	tcase_add_test(tc, test_time_range);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(options_suite());
}
