// SPDX-License-Identifier: GPL-2.0-or-later
/* The explorer's row text (evtext.h) against formats copied from a 6.18 kernel
 * (tests/unit/fixtures): function_graph rows laid out as the kernel's own function_graph
 * output (kernel/trace/trace_functions_graph.c: the overhead mark, the duration column of
 * 14 cells, "|  ", two spaces of indent per depth), whose tracer this build machine lacks;
 * sched_switch's state letters the same as the kernel's print format gives through
 * libtraceevent; a raw syscall without its syscalls: format named, its six arguments shown. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "backend/ingest/decode.h"
#include "backend/ingest/evtext.h"
#include "backend/ingest/store.h"
#include "check_main.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

static struct kt_decoder *open_dir(const char *dir)
{
	char err[256] = "";
	struct kt_decoder *d = decoder_new(dir, err, sizeof(err));

	ck_assert_msg(d != NULL, "decoder_new: %s", err);
	return d;
}

/* A funcgraph_exit (id 10) or funcgraph_entry (id 11) record as the formats lay them out. */
static void make_graph(unsigned char *raw, bool exit, unsigned depth, unsigned long long ns)
{
	unsigned short type = exit ? 10 : 11;
	unsigned long func = 0x10; /* named by whatever /proc/kallsyms says, or the address */
	unsigned long long call = 5000000, ret = call + ns;

	memset(raw, 0, 40);
	memcpy(raw, &type, 2);
	memcpy(raw + 8, &func, 8);
	memcpy(raw + 16, &depth, 4);
	if (exit) {
		memcpy(raw + 24, &call, 8);
		memcpy(raw + 32, &ret, 8);
	}
}

static void expect_graph(struct kt_decoder *d, struct kt_evtext *x, bool exit, unsigned depth,
			 unsigned long long ns, const char *want)
{
	unsigned char raw[40];
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };
	char buf[256];

	make_graph(raw, exit, depth, ns);
	evtext_info(x, d, &r, false, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, want, strlen(want)), "got '%s', want '%s...'", buf, want);
	ck_assert_msg(strlen(buf) > 4 && !strcmp(buf + strlen(buf) - (exit ? 3 : 4),
						 exit ? " */" : "() {"), "got '%s'", buf);
}

START_TEST(test_function_graph)
{
	struct kt_decoder *d = open_dir(FIXTURES "/graph");
	struct kt_evtext *x = evtext_new();

	ck_assert_int_eq(decoder_load(d, "ftrace", "funcgraph_entry"), 0);
	ck_assert_int_eq(decoder_load(d, "ftrace", "funcgraph_exit"), 0);
	expect_graph(d, x, true, 1, 205060, "! 205.060 us  |    } /* ");
	expect_graph(d, x, true, 0, 11065, "+ 11.065 us   |  } /* ");
	expect_graph(d, x, true, 2, 740, "  0.740 us    |      } /* ");
	expect_graph(d, x, true, 0, 2500000, "# 2500.000 us |  } /* ");
	expect_graph(d, x, true, 0, 1500000000ULL, "$ 1500000 us  |  } /* ");
	expect_graph(d, x, false, 2, 0, "              |      "); /* then the name: kallsyms */
	evtext_free(x);
	decoder_free(d);
}
END_TEST

/* A sched_switch record (the fixture's layout) with prev_state st. */
static void make_switch(unsigned char *raw, long st)
{
	unsigned short type = 372; /* the fixture's id */
	int pid = 7, prio = 120, next = 0;

	memset(raw, 0, 64);
	memcpy(raw, &type, 2);
	memcpy(raw + 8, "wl", 3);
	memcpy(raw + 24, &pid, 4);
	memcpy(raw + 28, &prio, 4);
	memcpy(raw + 32, &st, 8);
	memcpy(raw + 40, "swapper/0", 10);
	memcpy(raw + 56, &next, 4);
	memcpy(raw + 60, &prio, 4);
}

START_TEST(test_switch_states_as_the_kernel_prints)
{
	static const long states[] = { 0, 0x1, 0x2, 0x3, 0x80, 0x100, 0x101, 0x20 };
	struct kt_decoder *d = open_dir(FIXTURES "/tracing");
	struct kt_evtext *x = evtext_new();
	unsigned char raw[64];
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };
	char kern[512], ours[256], want[64], *p;
	size_t i;

	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		make_switch(raw, states[i]);
		decoder_format_info(d, &r, kern, sizeof(kern));
		p = strstr(kern, "prev_state=");
		ck_assert_ptr_nonnull(p);
		snprintf(want, sizeof(want), "wl:7 [120] %.*s ==> swapper/0:0 [120]",
			 (int)strcspn(p + 11, " "), p + 11);
		ck_assert_str_eq(evtext_info(x, d, &r, false, ours, sizeof(ours)), want);
		snprintf(want, sizeof(want), "%.*s ==> swapper/0:0 [120]",
			 (int)strcspn(p + 11, " "), p + 11);
		ck_assert_str_eq(evtext_info(x, d, &r, true, ours, sizeof(ours)), want);
	}
	evtext_free(x);
	decoder_free(d);
}
END_TEST

START_TEST(test_raw_syscall_untyped)
{
	struct kt_decoder *d = open_dir(FIXTURES "/tracing");
	struct kt_evtext *x = evtext_new();
	unsigned char raw[64];
	struct kt_rec r = { .data = raw, .size = sizeof(raw) };
	unsigned long args[6] = { 3, 0x7ffd5d9e1b20, 4096, (unsigned long)-100, 0, 0 };
	unsigned short type;
	long id = 0; /* read on x86-64 */
	char path[512], buf[256];
	FILE *f;

	snprintf(path, sizeof(path), FIXTURES "/tracing/events/raw_syscalls/sys_enter/id");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%hu", &type), 1);
	fclose(f);
	memset(raw, 0, sizeof(raw));
	memcpy(raw, &type, 2);
	memcpy(raw + 8, &id, 8);
	memcpy(raw + 16, args, sizeof(args));
	/* the fixture has no syscalls:sys_enter_read format: six untyped arguments */
	ck_assert_str_eq(evtext_info(x, d, &r, false, buf, sizeof(buf)),
			 "read(3, 0x7ffd5d9e1b20, 4096, -100, 0, 0)");
	evtext_free(x);
	decoder_free(d);
}
END_TEST

static Suite *evtext_suite(void)
{
	Suite *s = suite_create("evtext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_function_graph);
	tcase_add_test(tc, test_switch_states_as_the_kernel_prints);
	tcase_add_test(tc, test_raw_syscall_untyped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(evtext_suite());
}
