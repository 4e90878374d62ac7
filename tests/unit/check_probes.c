// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure parts of issue #4: probe definitions, function-list entries, name lists, ELF
 * symbols (of the test target and of libc, both on this machine), comm filters. */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/symbols/elfsyms.h"
#include "backend/symbols/ksyms.h"
#include "backend/tracefs/probes.h"
#include "backend/tracefs/scope.h"
#include "backend/symbols/symlist.h"
#include "backend/tracefs/tracers.h"
#include "check_main.h"

static char err[512];
static int pos;

static int parse(enum kt_probe_kind k, const char *text, struct kt_probe_def *def)
{
	err[0] = '\0';
	pos = -1;
	return probe_parse(k, text, def, err, sizeof(err), &pos);
}

START_TEST(test_parse_kprobe)
{
	struct kt_probe_def d;

	ck_assert_int_eq(parse(KT_PROBE_KPROBE, "do_sys_openat2 path=+0($arg2):string", &d), 0);
	ck_assert_ptr_null(d.name);
	ck_assert_str_eq(d.func, "do_sys_openat2");
	ck_assert_str_eq(d.args, "path=+0($arg2):string");
	probe_def_free(&d);

	ck_assert_int_eq(parse(KT_PROBE_KPROBE, "  opens=ext4:ext4_file_open+4  a=%di  "
				"b=+8(+0(%si)):x64 c=$comm d=@jiffies:u64 e=\\42 f=$stack3 "
				"g=+0($arg1):u8[4] h=$arg3:b4@2/32", &d), 0);
	ck_assert_str_eq(d.name, "opens");
	ck_assert_str_eq(d.module, "ext4");
	ck_assert_str_eq(d.func, "ext4_file_open");
	ck_assert_uint_eq(d.offset, 4);
	ck_assert_str_eq(d.args, "a=%di b=+8(+0(%si)):x64 c=$comm d=@jiffies:u64 e=\\42 "
			 "f=$stack3 g=+0($arg1):u8[4] h=$arg3:b4@2/32");
	probe_def_free(&d);

	ck_assert_int_eq(parse(KT_PROBE_KRETPROBE, "do_sys_openat2 ret=$retval:s32", &d), 0);
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_KPROBE, "vfs_read $arg1 $arg2:u64", NULL), 0);
	/* offsets are decimal or 0x hex, whatever their leading zeros */
	ck_assert_int_eq(parse(KT_PROBE_KPROBE, "vfs_read+08", &d), 0);
	ck_assert_uint_eq(d.offset, 8);
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_KPROBE, "vfs_read+010", &d), 0);
	ck_assert_uint_eq(d.offset, 10);
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_UPROBE, "/bin/x:f+0x10", &d), 0);
	ck_assert_uint_eq(d.offset, 16);
	probe_def_free(&d);
}
END_TEST

START_TEST(test_parse_uprobe)
{
	struct kt_probe_def d;

	ck_assert_int_eq(parse(KT_PROBE_UPROBE, "/usr/bin/bash:readline", &d), 0);
	ck_assert_str_eq(d.path, "/usr/bin/bash");
	ck_assert_str_eq(d.func, "readline");
	ck_assert_str_eq(d.args, "");
	ck_assert_int_eq(d.pid, 0);
	probe_def_free(&d);

	ck_assert_int_eq(parse(KT_PROBE_UPROBE, "rl=/path/bin:func n=%di:u32 pid=42", &d), 0);
	ck_assert_str_eq(d.name, "rl");
	ck_assert_str_eq(d.args, "n=%di:u32");
	ck_assert_int_eq(d.pid, 42);
	probe_def_free(&d);

	ck_assert_int_eq(parse(KT_PROBE_URETPROBE, "libc.so.6:0x3d4a0 r=$retval:s32", &d), 0);
	ck_assert_ptr_null(d.func);
	ck_assert_uint_eq(d.offset, 0x3d4a0);
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_UPROBE, "/bin/x:f s=+0(%si):ustring f=@+0x100:u8", NULL), 0);
}
END_TEST

/* maxactive=N is the kretprobe's, not an argument: the kernel gets it as "rN:". */
START_TEST(test_parse_maxactive)
{
	struct kt_probe_def d;

	ck_assert_int_eq(parse(KT_PROBE_KRETPROBE, "do_nanosleep maxactive=64 r=$retval:s32", &d),
			 0);
	ck_assert_uint_eq(d.maxactive, 64);
	ck_assert_str_eq(d.args, "r=$retval:s32");
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_KRETPROBE, "do_nanosleep maxactive=0x1000", &d), 0);
	ck_assert_uint_eq(d.maxactive, 4096);
	probe_def_free(&d);
	ck_assert_int_eq(parse(KT_PROBE_KRETPROBE, "do_nanosleep", &d), 0);
	ck_assert_uint_eq(d.maxactive, 0);
	probe_def_free(&d);
}
END_TEST

/* Each bad definition: the message names the cause, the caret points at it. */
static const struct {
	enum kt_probe_kind kind;
	const char *text;
	const char *msg;
	int pos;
} bad[] = {
	{ KT_PROBE_KPROBE, "", "empty definition", 0 },
	{ KT_PROBE_KPROBE, "do_sys_openat2 x=$retval", "'$retval' exists only in return probes "
	  "(use a kretprobe)", 17 },
	{ KT_PROBE_KPROBE, "f path=$arg2:string", "type 'string' needs a dereference, as in "
	  "+0($arg2):string", 13 },
	{ KT_PROBE_KPROBE, "f x=$arg1:u33", "unknown type 'u33'", 10 },
	{ KT_PROBE_KPROBE, "f x=$arg0", "'$arg' takes a number from 1", 4 },
	{ KT_PROBE_KPROBE, "f x=$bogus", "unknown variable '$bogus'", 4 },
	{ KT_PROBE_KPROBE, "f x=foo", "unknown fetcharg 'foo'", 4 },
	{ KT_PROBE_KPROBE, "f x=+0($arg1", "missing ')'", 11 },
	{ KT_PROBE_KPROBE, "f x=+($arg1)", "dereference needs an offset", 5 },
	{ KT_PROBE_KPROBE, "f x=%di y=%si x=%dx", "argument name 'x' is used twice", 14 },
	{ KT_PROBE_KPROBE, "f common_pid=%di", "'common_pid' is a field every event has", 2 },
	{ KT_PROBE_KPROBE, "f pid=42", "pid= scopes uprobes", 2 },
	{ KT_PROBE_KPROBE, "1f", "'1f' is not a function name", 0 },
	{ KT_PROBE_KRETPROBE, "f+4", "return probes take no offset", 1 },
	{ KT_PROBE_KPROBE, "f x=%", "register is %NAME", 4 },
	{ KT_PROBE_UPROBE, "/usr/bin/bash", "uprobe target is PATH:FUNCTION", 13 },
	{ KT_PROBE_UPROBE, ":readline", "missing binary before ':'", 0 },
	{ KT_PROBE_UPROBE, "/bin/x:", "missing function after ':'", 7 },
	{ KT_PROBE_UPROBE, "/bin/x:f n=$arg1", "uprobes cannot use $argN", 11 },
	{ KT_PROBE_UPROBE, "/bin/x:f n=@sym", "uprobes take @ADDR or @+FILEOFFSET", 11 },
	{ KT_PROBE_KPROBE, "f x=@+0x10", "'@+OFFSET' (a file offset) is for uprobes", 4 },
	{ KT_PROBE_KPROBE, "f x=$arg1:u32[", "array type needs a size", 13 },
	{ KT_PROBE_KPROBE, "f x=$arg1:b4@2", "bitfield type is b<width>@<offset>/<size>", 10 },
	{ KT_PROBE_UPROBE, "/bin/x:f pid=4294967297", "pid must be from 1 to 4194304", 13 },
	{ KT_PROBE_UPROBE, "/bin/x:f pid=0", "pid must be from 1 to 4194304", 13 },
	{ KT_PROBE_KPROBE, "f+18446744073709551616", "offset after '+' is too large", 1 },
	{ KT_PROBE_KRETPROBE, "f maxactive=0", "maxactive must be a number from 1 to 4096", 12 },
	{ KT_PROBE_KRETPROBE, "f maxactive=4097", "maxactive must be a number from 1 to 4096", 12 },
	{ KT_PROBE_KRETPROBE, "f maxactive=lots", "maxactive must be a number from 1 to 4096", 12 },
	{ KT_PROBE_KRETPROBE, "f maxactive=", "maxactive must be a number from 1 to 4096", 12 },
	{ KT_PROBE_KPROBE, "f maxactive=8", "maxactive= is for kretprobes", 2 },
	{ KT_PROBE_URETPROBE, "/bin/x:f maxactive=8", "maxactive= is for kretprobes", 9 },
};

START_TEST(test_parse_errors)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(bad[i].kind, bad[i].text, NULL) == -1, "'%s' accepted",
			      bad[i].text);
		ck_assert_msg(strstr(err, bad[i].msg), "'%s': got '%s', want '%s'", bad[i].text,
			      err, bad[i].msg);
		ck_assert_msg(pos == bad[i].pos, "'%s': caret at %d, want %d (%s)", bad[i].text,
			      pos, bad[i].pos, err);
		ck_assert_msg(!strchr(err, '\n'), "'%s': message on more than one line", bad[i].text);
	}
}
END_TEST

START_TEST(test_kind_names)
{
	enum kt_probe_kind k;

	ck_assert_int_eq(probe_kind_parse("kretprobe", &k), 0);
	ck_assert_int_eq(k, KT_PROBE_KRETPROBE);
	ck_assert_int_eq(probe_kind_parse("ur", &k), 0);
	ck_assert_int_eq(k, KT_PROBE_URETPROBE);
	ck_assert_int_eq(probe_kind_parse("zprobe", &k), -1);
	ck_assert_str_eq(probe_kind_name(KT_PROBE_UPROBE), "uprobe");
}
END_TEST

START_TEST(test_filter_entries)
{
	static const char *const good[] = { "vfs_read", "vfs_*", "*read*", "ext4_*:mod:ext4",
					    ":mod:ext4", "schedule:traceoff", "schedule:traceon:5",
					    "do_exit:stacktrace", NULL };
	size_t i;

	for (i = 0; good[i]; i++)
		ck_assert_msg(tracers_filter_check(KT_FTRACE_FILTER, good[i], err, sizeof(err),
						   &pos) == 0, "'%s': %s", good[i], err);
	ck_assert_int_eq(tracers_filter_check(KT_GRAPH_FUNCTION, "schedule:traceoff", err,
					      sizeof(err), &pos), -1);
	ck_assert_ptr_nonnull(strstr(err, "set_ftrace_filter only"));
	ck_assert_int_eq(pos, 9);
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_FILTER, "vfs read", err, sizeof(err),
					      &pos), -1);
	ck_assert_int_eq(pos, 3);
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_FILTER, "f:bogus", err, sizeof(err),
					      &pos), -1);
	ck_assert_ptr_nonnull(strstr(err, "unknown command 'bogus'"));
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_FILTER, "f:traceon:x", err, sizeof(err),
					      &pos), -1);
	ck_assert_int_eq(pos, 10);
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_NOTRACE, ":mod:", err, sizeof(err),
					      &pos), -1);
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_FILTER, "!f", err, sizeof(err), &pos),
			 -1);
	ck_assert_int_eq(tracers_filter_check(KT_FTRACE_FILTER, "", err, sizeof(err), &pos), -1);
	ck_assert_str_eq(tracers_list_file(KT_GRAPH_NOTRACE), "set_graph_notrace");
}
END_TEST

START_TEST(test_symlist)
{
	struct kt_symlist *l = symlist_new();
	size_t idx[4], n;

	symlist_add(l, "vfs_read");
	symlist_add(l, "do_sys_openat2");
	symlist_add(l, "vfs_readv");
	symlist_add(l, "vfs_read");
	symlist_add(l, "ksys_read");
	symlist_finish(l);
	ck_assert_uint_eq(l->count, 4);
	ck_assert_int_ge(symlist_find(l, "vfs_read"), 0);
	ck_assert_int_eq(symlist_find(l, "vfs_write"), -1);
	n = symlist_best(l, "vfs_read", idx, 4);
	ck_assert_uint_eq(n, 2); /* ksys_read has no 'v' */
	ck_assert_str_eq(l->names[idx[0]], "vfs_read");
	ck_assert_str_eq(l->names[idx[1]], "vfs_readv");
	n = symlist_best(l, "openat", idx, 4);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(l->names[idx[0]], "do_sys_openat2");
	ck_assert_uint_eq(symlist_best(l, "", idx, 2), 2);
	n = symlist_best(l, "READ", idx, 4); /* prefix-less substrings: at a word start first */
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(l->names[idx[0]], "vfs_read");
	n = symlist_best(l, "dso2", idx, 4); /* scattered */
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(symlist_best(l, "zzz", idx, 4), 0);
	symlist_free(l);
}
END_TEST

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* 100,000 names, as many as a kernel has functions: one key's matching stays interactive. */
START_TEST(test_symlist_fast)
{
	struct kt_symlist *l = symlist_new();
	char name[64];
	size_t idx[50], n;
	double t0, ms;
	int i;

	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "%s_%s_%d", i % 3 ? "vfs" : "ext4",
			 i % 7 ? "file_read_iter" : "write_begin", i);
		symlist_add(l, name);
	}
	symlist_finish(l);
	t0 = now_ms();
	n = symlist_best(l, "wrbeg", idx, 50);
	ms = now_ms() - t0;
	ck_assert_uint_eq(n, 50);
	ck_assert_ptr_nonnull(strstr(l->names[idx[0]], "write_begin"));
	/* generous for sanitizer builds on a loaded 2-core machine */
	ck_assert_msg(ms < 100, "fuzzy match over 100,000 names took %.1f ms", ms);
	symlist_free(l);
}
END_TEST

START_TEST(test_elf_target)
{
	struct kt_symlist *l;
	uint64_t off, off4;

	l = elfsyms_functions(PROBE_TARGET, err, sizeof(err));
	ck_assert_msg(l != NULL, "%s", err);
	ck_assert_int_ge(symlist_find(l, "ktop_probe_target"), 0);
	ck_assert_int_ge(symlist_find(l, "main"), 0);
	symlist_free(l);
	ck_assert_int_eq(elfsyms_lookup(PROBE_TARGET, "ktop_probe_target", 0, &off, err,
					sizeof(err)), 0);
	ck_assert_int_eq(elfsyms_lookup(PROBE_TARGET, "ktop_probe_target", 4, &off4, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(off4, off + 4);
	ck_assert_uint_gt(off, 0);
	ck_assert_int_eq(elfsyms_lookup(PROBE_TARGET, "no_such_fn", 0, &off, err, sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "no function 'no_such_fn' in"));
}
END_TEST

START_TEST(test_elf_library)
{
	char path[4096];
	struct kt_symlist *l;
	uint64_t off;

	/* a shared library by its name, its .dynsym (libc ships stripped of .symtab) */
	ck_assert_msg(elfsyms_resolve_path("libc.so.6", path, sizeof(path), err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_ptr_nonnull(strstr(path, "libc.so.6"));
	l = elfsyms_functions(path, err, sizeof(err));
	ck_assert_ptr_nonnull(l);
	ck_assert_int_ge(symlist_find(l, "atoi"), 0);
	ck_assert_int_ge(symlist_find(l, "malloc"), 0);
	ck_assert_uint_gt(l->count, 1000);
	symlist_free(l);
	ck_assert_int_eq(elfsyms_lookup(path, "atoi", 0, &off, err, sizeof(err)), 0);
	/* a name in $PATH */
	ck_assert_int_eq(elfsyms_resolve_path("sh", path, sizeof(path), err, sizeof(err)), 0);
	ck_assert_int_eq(path[0], '/');
	ck_assert_int_eq(elfsyms_resolve_path("/nonexistent/bin", path, sizeof(path), err,
					      sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "no such file: /nonexistent/bin"));
	ck_assert_ptr_null(elfsyms_functions("/etc/hostname", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "is not an ELF file"));
}
END_TEST

/* This machine's kernel functions: available_filter_functions where readable, else
 * /proc/kallsyms (with a note saying so); loading and one key's matching both quick. */
START_TEST(test_ksyms)
{
	struct kt_symlist *l;
	char note[256];
	size_t idx[20], n;
	double t0, load_ms, match_ms;

	t0 = now_ms();
	l = ksyms_load(KT_KSYMS_FILTER_FUNCTIONS, note, sizeof(note), err, sizeof(err));
	load_ms = now_ms() - t0;
	ck_assert_msg(l != NULL, "%s", err);
	ck_assert_uint_gt(l->count, 1000);
	ck_assert_int_ge(symlist_find(l, "schedule"), 0);
	t0 = now_ms();
	n = symlist_best(l, "sched", idx, 20);
	match_ms = now_ms() - t0;
	ck_assert_uint_eq(n, 20);
	/* prefixes first, the shortest first: "schedule" leads */
	ck_assert_str_eq(l->names[idx[0]], "schedule");
	fprintf(stderr, "ksyms: %zu names in %.1f ms, best 20 of 'sched' in %.2f ms%s%s\n",
		l->count, load_ms, match_ms, note[0] ? "; " : "", note);
	ck_assert_msg(match_ms < 100, "matching took %.1f ms", match_ms);
	ck_assert_int_eq(ksyms_has_function("schedule"), 1);
	ck_assert_int_eq(ksyms_has_function("no_such_kernel_function_xyz"), 0);
	symlist_free(l);
}
END_TEST

START_TEST(test_comm_filter)
{
	char *f;

	f = scope_comm_filter("bash", NULL, err, sizeof(err));
	ck_assert_str_eq(f, "COMM == \"bash\"");
	free(f);
	f = scope_comm_filter("bash", "prev_pid > 0", err, sizeof(err));
	ck_assert_str_eq(f, "(prev_pid > 0) && COMM == \"bash\"");
	free(f);
	ck_assert_ptr_null(scope_comm_filter("a\"b", NULL, err, sizeof(err)));
	ck_assert_ptr_null(scope_comm_filter("a-name-longer-than-15", NULL, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "longer than the kernel's 15"));
}
END_TEST

static Suite *probes_suite(void)
{
	Suite *s = suite_create("probes");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_parse_kprobe);
	tcase_add_test(tc, test_parse_uprobe);
	tcase_add_test(tc, test_parse_maxactive);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_kind_names);
	tcase_add_test(tc, test_filter_entries);
	tcase_add_test(tc, test_symlist);
	tcase_add_test(tc, test_symlist_fast);
	tcase_add_test(tc, test_elf_target);
	tcase_add_test(tc, test_elf_library);
	tcase_add_test(tc, test_ksyms);
	tcase_add_test(tc, test_comm_filter);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(probes_suite());
}
