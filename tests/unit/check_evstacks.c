// SPDX-License-Identifier: GPL-2.0-or-later
/* Stacks on events against the kernel_stack and user_stack formats of a 6.18 kernel
 * (tests/unit/fixtures): the store attaches them to their event, evstack_read gives the
 * frames innermost first (kernel, then user, whatever order they came in), evstacks folds
 * them root to leaf under the task's name. */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "backend/callgraph/evstacks.h"
#include "backend/stacks/stacks.h"
#include "backend/ingest/store.h"
#include "check_main.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

static int format_id(const char *event)
{
	char path[512], line[256];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), FIXTURES "/tracing/events/%s/format", event);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ID: %d", &id) == 1)
			break;
	fclose(f);
	ck_assert_int_gt(id, 0);
	return id;
}

/* The common header every record starts with. */
static void header(unsigned char *raw, int type, int pid)
{
	unsigned short t = (unsigned short)type;

	memcpy(raw, &t, 2);
	memcpy(raw + 4, &pid, 4);
}

static uint64_t put_event(struct kt_store *st, uint32_t cpu, int pid)
{
	unsigned char raw[64] = { 0 };

	/* any event: sched_switch's id, its fields left zero */
	header(raw, format_id("sched/sched_switch"), pid);
	return store_append(st, 1000, cpu, raw, sizeof(raw));
}

/* A stack record: kernel_stack ("int size" at 8, as many callers from 16 as size says) or
 * user_stack ("unsigned int tgid" at 8, 8 callers from 16, 0 after the last). */
static void put_stack(struct kt_store *st, uint32_t cpu, int pid, bool user,
		      const uint64_t *addr, int n)
{
	unsigned char raw[16 + 8 * 8] = { 0 };

	header(raw, format_id(user ? "ftrace/user_stack" : "ftrace/kernel_stack"), pid);
	memcpy(raw + 8, user ? &pid : &n, 4);
	memcpy(raw + 16, addr, (size_t)n * 8);
	store_append(st, 1001, cpu, raw, user ? sizeof(raw) : (uint32_t)(16 + n * 8));
}

static int count(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static const uint64_t kernel[] = { 0xffffffff81000300ull, 0xffffffff81000200ull,
				   0xffffffff81000100ull };
static const uint64_t user[] = { 0x401234, 0x401100 };

static struct kt_decoder *decoder(void)
{
	char err[256] = "";
	struct kt_decoder *d = decoder_new(FIXTURES "/tracing", err, sizeof(err));

	ck_assert_msg(d != NULL, "decoder_new: %s", err);
	return d;
}

START_TEST(test_frames_innermost_first)
{
	struct kt_decoder *d = decoder();
	struct kt_store *st = store_new(16 << 20);
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	int pid = (int)getpid();
	struct kt_rec r;
	uint64_t ev, other;
	size_t n, i;

	evstack_setup(st, d);
	store_lock(st);
	ev = put_event(st, 0, pid);
	other = put_event(st, 1, pid); /* another CPU's event between: not ev's stack */
	put_stack(st, 0, pid, true, user, 2); /* user first: the order does not matter */
	put_stack(st, 0, pid, false, kernel, 3);
	ck_assert(store_get(st, other, &r));
	ck_assert_uint_eq(evstack_read(d, st, &r, f, KT_EVSTACK_MAX), 0);
	ck_assert(store_get(st, ev, &r));
	n = evstack_read(d, st, &r, f, KT_EVSTACK_MAX);
	store_unlock(st);
	ck_assert_uint_eq(n, 5);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(f[i].addr, kernel[i]);
		ck_assert(!f[i].user);
	}
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(f[3 + i].addr, user[i]);
		ck_assert(f[3 + i].user);
		ck_assert_int_eq(f[3 + i].pid, pid);
	}
	store_free(st);
	decoder_free(d);
}
END_TEST

/* Folded: "comm;user outer;user inner;kernel outer;...;kernel inner 1", user frames as
 * addresses without a symbolizer; a row without a stack adds nothing. */
START_TEST(test_folded_root_to_leaf)
{
	struct kt_decoder *d = decoder();
	struct kt_store *st = store_new(16 << 20);
	struct kt_stacks *tree = stacks_new(KT_STACK_EVENTS);
	int pid = (int)getpid();
	char *text = NULL, comm[64], want[128];
	size_t len = 0;
	FILE *out;

	evstack_setup(st, d);
	store_lock(st);
	put_event(st, 0, pid);
	put_stack(st, 0, pid, false, kernel, 3);
	put_stack(st, 0, pid, true, user, 2);
	put_event(st, 0, pid); /* no stack */
	put_event(st, 1, pid);
	put_stack(st, 1, pid, false, kernel, 3);
	put_stack(st, 1, pid, true, user, 2);
	store_unlock(st);
	ck_assert_int_eq(evstacks_collect(tree, d, NULL, st, 0, 7, NULL), 2);
	ck_assert_uint_eq(stacks_leaves(tree), 1);
	ck_assert_uint_eq(stacks_root(tree)->total, 2);
	out = open_memstream(&text, &len);
	ck_assert_int_eq(stacks_write_folded(tree, out), 0);
	fclose(out);
	snprintf(comm, sizeof(comm), "%s", decoder_comm(d, pid, 1000));
	snprintf(want, sizeof(want), "%s;0x401100;0x401234;", comm);
	ck_assert_msg(!strncmp(text, want, strlen(want)), "folded: %s", text);
	ck_assert_int_eq(count(text, ';'), 5);
	ck_assert_msg(strlen(text) > 3 && !strcmp(text + strlen(text) - 3, " 2\n"), "folded: %s",
		      text);
	free(text);
	stacks_free(tree);
	store_free(st);
	decoder_free(d);
}
END_TEST

static Suite *evstacks_suite(void)
{
	Suite *s = suite_create("evstacks");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60); /* kallsyms, under the sanitizers */
	tcase_add_test(tc, test_frames_innermost_first);
	tcase_add_test(tc, test_folded_root_to_leaf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(evstacks_suite());
}
