// SPDX-License-Identifier: GPL-2.0-or-later
/* A wakeup chain's steps (src/backend/stacks/wakers.c) from an off-CPU profile with wakers, stacks
 * as offcpu.c folds them: the blocked task and frames, "--", the waker's frames innermost
 * first, the waker's name. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/stacks/stacks.h"
#include "backend/stacks/wakers.h"
#include "check_main.h"

/* folded's frames: the first, "--" and the last after it are tasks */
static void add(struct kt_stacks *st, const char *folded, uint64_t weight)
{
	struct kt_frame f[32];
	char *copy = strdup(folded), *save = NULL;
	size_t n = 0, sep = 0;

	for (char *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		if (!strcmp(tok, "--"))
			sep = n;
		f[n++] = (struct kt_frame){ tok, !n || !strcmp(tok, "--") ? KT_FRAME_TASK :
					    KT_FRAME_KERNEL };
	}
	if (sep && f[n - 1].name[0] != '[')
		f[n - 1].kind = KT_FRAME_TASK;
	ck_assert_int_eq(stacks_add(st, f, n, weight), 0);
	free(copy);
}

static char *folded(const struct kt_stacks *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(stacks_write_folded(st, f), 0);
	fclose(f);
	return buf;
}

/* waiter <- waker (twice: from two places) <- kicker; a preempted stretch has no waker */
static struct kt_stacks *chain(void)
{
	struct kt_stacks *st = stacks_new(KT_STACK_NSEC);

	add(st, "waiter;main;pipe_read;__schedule;--;try_to_wake_up;pipe_write;waker_work;waker", 500);
	add(st, "waiter;main;pipe_read;__schedule;--;try_to_wake_up;pipe_write;flush;waker", 100);
	add(st, "waiter;main;futex_wait;__schedule;--;try_to_wake_up;futex_wake;kicker", 7);
	add(st, "waiter;main;spin;__schedule;--;[no waker]", 3);
	add(st, "waker;start;pipe_read;__schedule;--;try_to_wake_up;pipe_write;kicker_work;kicker", 400);
	return st;
}

START_TEST(test_wakers_of_node)
{
	struct kt_stacks *st = chain(), *w = stacks_new(KT_STACK_NSEC);
	const struct kt_stack_node *waiter = stacks_child(st, stacks_root(st), "waiter");
	const struct kt_stack_node *main_ = stacks_child(st, waiter, "main");
	const struct kt_stack_node *read = stacks_child(st, main_, "pipe_read");
	char *out, list[256];

	ck_assert_ptr_nonnull(read);
	ck_assert(!wakers_in_waker(read));
	ck_assert_int_eq(wakers_of_node(st, read, w), 0);
	out = folded(w);
	/* turned the right way up: the waker's name, then outermost first */
	ck_assert_str_eq(out, "waker;flush;pipe_write;try_to_wake_up 100\n"
			      "waker;waker_work;pipe_write;try_to_wake_up 500\n");
	free(out);
	wakers_list(w, list, sizeof(list));
	ck_assert_str_eq(list, "waker 0.600 us");
	stacks_free(w);

	/* the task's frame: every wait of it, by time */
	w = stacks_new(KT_STACK_NSEC);
	ck_assert_int_eq(wakers_of_node(st, waiter, w), 0);
	ck_assert_uint_eq(stacks_root(w)->total, 610);
	wakers_list(w, list, sizeof(list));
	ck_assert_str_eq(list, "waker 0.600 us, kicker 0.007 us, [no waker] 0.003 us");
	stacks_free(w);
	stacks_free(st);
}
END_TEST

START_TEST(test_wakers_of_task)
{
	struct kt_stacks *st = chain(), *w = stacks_new(KT_STACK_NSEC);
	const struct kt_stack_node *n = stacks_root(st);
	const char *path[] = { "waiter", "main", "pipe_read", "__schedule", "--",
			       "try_to_wake_up", "pipe_write", "waker_work" };
	char *out;

	for (size_t i = 0; i < sizeof(path) / sizeof(path[0]); i++)
		n = stacks_child(st, n, path[i]);
	ck_assert_ptr_nonnull(n);
	ck_assert(wakers_in_waker(n));
	/* a waker's frame in the profile names the task at the end of its stacks */
	ck_assert_str_eq(wakers_task(n, true), "waker");
	ck_assert_int_eq(wakers_of_task(st, wakers_task(n, true), w), 0);
	out = folded(w);
	ck_assert_str_eq(out, "kicker;kicker_work;pipe_write;try_to_wake_up 400\n");
	free(out);
	/* in a chain's tree, a frame's task is its first */
	n = stacks_child(w, stacks_child(w, stacks_root(w), "kicker"), "kicker_work");
	ck_assert_str_eq(wakers_task(n, false), "kicker");
	stacks_free(w);
	/* nobody woke the kicker: an empty step */
	w = stacks_new(KT_STACK_NSEC);
	ck_assert_int_eq(wakers_of_task(st, "kicker", w), 0);
	ck_assert_uint_eq(stacks_root(w)->total, 0);
	stacks_free(w);
	stacks_free(st);
}
END_TEST

static Suite *wakers_suite(void)
{
	Suite *s = suite_create("wakers");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_wakers_of_node);
	tcase_add_test(tc, test_wakers_of_task);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(wakers_suite());
}
