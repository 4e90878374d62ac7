// SPDX-License-Identifier: GPL-2.0-or-later
/* The stack tree profiles and flame graphs share: totals, folded output, lookups across
 * two trees (the diff view's baseline). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/stacks.h"

static void add(struct kt_stacks *st, const char *folded, uint64_t weight)
{
	struct kt_frame f[16];
	char *copy = strdup(folded), *save = NULL;
	size_t n = 0;

	for (char *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
		f[n++] = (struct kt_frame){ tok, n ? KT_FRAME_USER : KT_FRAME_TASK };
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

START_TEST(test_totals_and_folded)
{
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	const struct kt_stack_node *root, *w, *main_, *a;
	char *out;

	add(st, "work;main;a", 7);
	add(st, "work;main;b", 3);
	add(st, "work;main", 1);
	add(st, "bash;main;read", 2);
	add(st, "work;main;a", 1);
	root = stacks_root(st);
	ck_assert_uint_eq(root->total, 14);
	w = stacks_child(st, root, "work");
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(w->total, 12);
	main_ = stacks_child(st, w, "main");
	ck_assert_uint_eq(main_->self, 1);
	a = stacks_child(st, main_, "a");
	ck_assert_uint_eq(a->total, 8);
	ck_assert_uint_eq(a->depth, 3);
	ck_assert_ptr_null(stacks_child(st, main_, "nosuch"));
	/* "main" under bash and under work is one interned string, two nodes. */
	ck_assert_ptr_eq(stacks_child(st, stacks_child(st, root, "bash"), "main")->name,
			 main_->name);
	ck_assert_uint_eq(stacks_leaves(st), 4);
	ck_assert_uint_eq(stacks_nodes(st), 7);
	out = folded(st);
	ck_assert_str_eq(out, "bash;main;read 2\n"
			      "work;main 1\n"
			      "work;main;a 8\n"
			      "work;main;b 3\n");
	free(out);
	stacks_clear(st);
	ck_assert_uint_eq(stacks_root(st)->total, 0);
	out = folded(st);
	ck_assert_str_eq(out, "");
	free(out);
	stacks_free(st);
}
END_TEST

START_TEST(test_same_path_and_separators)
{
	struct kt_stacks *now = stacks_new(KT_STACK_NSEC), *base = stacks_new(KT_STACK_NSEC);
	const struct kt_stack_node *n;
	struct kt_frame odd[] = { { "t", KT_FRAME_TASK }, { "ns::f(a;b)", KT_FRAME_USER } };
	char *out;

	add(now, "t;x;y", 5);
	add(base, "t;x", 2);
	n = stacks_child(now, stacks_child(now, stacks_root(now), "t"), "x");
	ck_assert_uint_eq(stacks_same_path(base, n)->total, 2);
	ck_assert_ptr_null(stacks_same_path(base, stacks_child(now, n, "y")));
	ck_assert_ptr_eq(stacks_same_path(base, stacks_root(now)), stacks_root(base));
	ck_assert_int_eq(stacks_add(now, odd, 2, 1), 0);
	out = folded(now);
	ck_assert_str_eq(out, "t;ns::f(a_b) 1\nt;x;y 5\n");
	free(out);
	ck_assert_str_eq(stacks_unit_name(stacks_unit(now)), "ns");
	stacks_free(now);
	stacks_free(base);
}
END_TEST

START_TEST(test_many_children)
{
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	char name[32];

	for (int i = 0; i < 20000; i++) {
		struct kt_frame f[] = { { "t", KT_FRAME_TASK }, { name, KT_FRAME_USER } };

		snprintf(name, sizeof(name), "fn%d", i % 5000);
		ck_assert_int_eq(stacks_add(st, f, 2, 1), 0);
	}
	ck_assert_uint_eq(stacks_leaves(st), 5000);
	ck_assert_uint_eq(stacks_child(st, stacks_child(st, stacks_root(st), "t"), "fn4999")->self,
			  4);
	ck_assert_uint_gt(stacks_bytes(st), 5000 * sizeof(struct kt_stack_node));
	stacks_free(st);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stacks");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_totals_and_folded);
	tcase_add_test(tc, test_same_path_and_separators);
	tcase_add_test(tc, test_many_children);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
