// SPDX-License-Identifier: GPL-2.0-or-later
/* The stack tree profiles and flame graphs share: totals, folded output, lookups across
 * two trees (the diff view's baseline); and folded stacks read back into one
 * (src/backend/stacks/folded.c), every malformed line refused with its file:line and the reason. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/stacks/folded.h"
#include "backend/stacks/stacks.h"
#include "check_main.h"
#include "backend/stacks/stackwin.h"

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

/* The JSON form: the same stacks in the same order, names escaped. */
START_TEST(test_json)
{
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	struct kt_frame odd[] = { { "t", KT_FRAME_TASK }, { "say \"hi\"", KT_FRAME_USER } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(stacks_write_json(st, f), 0);
	fflush(f);
	ck_assert_str_eq(buf, "[]");
	add(st, "t;b", 2);
	ck_assert_int_eq(stacks_add(st, odd, 2, 1), 0);
	rewind(f);
	ck_assert_int_eq(stacks_write_json(st, f), 0);
	fclose(f);
	ck_assert_str_eq(buf, "[{\"frames\":[\"t\",\"b\"],\"count\":2},"
			      "{\"frames\":[\"t\",\"say \\\"hi\\\"\"],\"count\":1}]");
	free(buf);
	stacks_free(st);
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

/* What stacks_bytes_adding foresees is never exceeded by the add, across the tables'
 * growths (which double them at once), and children keep their order of first appearance. */
START_TEST(test_bytes_adding)
{
	struct kt_stacks *st = stacks_new(KT_STACK_SAMPLES);
	const struct kt_stack_node *c;
	char name[8][32];
	int i, k;

	for (i = 0; i < 3000; i++) {
		struct kt_frame f[9] = { { "t", KT_FRAME_TASK } };
		size_t before;

		for (k = 0; k < 8; k++) {
			snprintf(name[k], sizeof(name[k]), "fn%d_%d", k, k ? i * 7 + k : i);
			f[k + 1] = (struct kt_frame){ name[k], KT_FRAME_USER };
		}
		before = stacks_bytes_adding(st, f, 9);
		ck_assert_uint_ge(before, stacks_bytes(st));
		ck_assert_int_eq(stacks_add(st, f, 9, 1), 0);
		ck_assert_uint_le(stacks_bytes(st), before);
	}
	c = stacks_child(st, stacks_root(st), "t")->child;
	for (i = 0; i < 3000; i++, c = c->next) {
		snprintf(name[0], sizeof(name[0]), "fn0_%d", i);
		ck_assert_str_eq(c->name, name[0]);
	}
	ck_assert_ptr_null(c);
	stacks_free(st);
}
END_TEST

START_TEST(test_dup)
{
	struct kt_stacks *st = stacks_new(KT_STACK_NSEC), *copy;
	char *a, *b;

	add(st, "t;main;a", 3);
	add(st, "t;main", 2);
	add(st, "u;x;y;z", 5);
	copy = stacks_dup(st);
	ck_assert_ptr_nonnull(copy);
	ck_assert_int_eq(stacks_unit(copy), KT_STACK_NSEC);
	ck_assert_uint_eq(stacks_root(copy)->total, 10);
	ck_assert_uint_eq(stacks_nodes(copy), stacks_nodes(st));
	a = folded(st);
	b = folded(copy);
	ck_assert_str_eq(a, b);
	/* independent: adding to one leaves the other */
	add(st, "t;main;a", 1);
	ck_assert_uint_eq(stacks_root(copy)->total, 10);
	free(a);
	free(b);
	stacks_free(copy);
	stacks_free(st);
}
END_TEST

/* st's folded text is want. */
static void folded_is(const struct kt_stacks *st, const char *want)
{
	char *out = folded(st);

	ck_assert_str_eq(out ? out : "", want);
	free(out);
}

/* merge adds weights path by path; a bound leaves out the stacks that need new nodes past it
 * and counts their weight, while known paths still grow. */
START_TEST(test_merge)
{
	struct kt_stacks *to = stacks_new(KT_STACK_SAMPLES), *from = stacks_new(KT_STACK_SAMPLES);
	uint64_t dropped = 0;

	add(to, "t;main;a", 2);
	add(from, "t;main;a", 3);
	add(from, "u;x", 4);
	ck_assert_int_eq(stacks_merge(to, from, 0, &dropped), 0);
	folded_is(to, "t;main;a 5\nu;x 4\n");
	ck_assert_uint_eq(dropped, 0);
	stacks_clear(from);
	add(from, "t;main;a", 1);
	add(from, "v;brand;new;path", 6);
	ck_assert_int_eq(stacks_merge(to, from, stacks_bytes(to), &dropped), 0);
	folded_is(to, "t;main;a 6\nu;x 4\n");
	ck_assert_uint_eq(dropped, 6);
	/* subtracting takes weights out and leaves the nodes (pointers held stay good) */
	stacks_clear(from);
	add(from, "t;main;a", 5);
	add(from, "u;x", 1);
	stacks_subtract(to, from);
	folded_is(to, "t;main;a 1\nu;x 3\n");
	ck_assert_uint_eq(stacks_root(to)->total, 4);
	stacks_clear(from);
	add(from, "t;main;a", 1);
	stacks_subtract(to, from);
	ck_assert_uint_eq(stacks_leaves(to), 1);
	ck_assert_uint_eq(stacks_nodes(to), 5);
	ck_assert_uint_eq(stacks_child(to, stacks_root(to), "t")->total, 0);
	stacks_free(to);
	stacks_free(from);
}
END_TEST

/* The window's tree at sec, folded, is want. */
static void window_is(const struct kt_stackwin *w, uint64_t sec, const char *want)
{
	struct kt_stacks *win = stackwin_tree(w, sec);

	ck_assert_ptr_nonnull(win);
	folded_is(win, want);
	stacks_free(win);
}

/* The window holds the last N seconds: a second's stacks leave it N seconds later, and the
 * ring's slot is emptied when a later second comes to it. */
START_TEST(test_window)
{
	struct kt_stackwin *w = stackwin_new(KT_STACK_SAMPLES, 3);
	struct kt_stacks *tick = stacks_new(KT_STACK_SAMPLES), *shown, *win;
	char *out, *expect;

	ck_assert_ptr_null(stackwin_new(KT_STACK_SAMPLES, 0));
	ck_assert_ptr_null(stackwin_new(KT_STACK_SAMPLES, KT_STACKWIN_MAX_SECS + 1));
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(stackwin_secs(w), 3);
	add(tick, "app;old_phase", 10);
	ck_assert_int_eq(stackwin_add(w, tick, 100), 0);
	ck_assert_int_eq(stackwin_add(w, tick, 101), 0);
	stacks_clear(tick);
	add(tick, "app;new_phase", 5);
	ck_assert_int_eq(stackwin_add(w, tick, 102), 0);
	ck_assert_int_eq(stackwin_add(w, tick, 102), 0);
	window_is(w, 102, "app;new_phase 10\napp;old_phase 20\n");
	/* at 103 second 100 is out of the window, though its slot was not reused yet */
	window_is(w, 103, "app;new_phase 10\napp;old_phase 10\n");
	/* 104 reuses 101's slot: the old phase is gone for good */
	ck_assert_int_eq(stackwin_add(w, tick, 104), 0);
	window_is(w, 104, "app;new_phase 15\n");
	window_is(w, 200, "");
	/* a tree kept equal to the window: what comes added, what leaves taken out */
	stackwin_clear(w);
	shown = stacks_new(KT_STACK_SAMPLES);
	for (uint64_t sec = 300; sec < 306; sec++) {
		stacks_clear(tick);
		add(tick, sec < 302 ? "app;old_phase" : "app;new_phase", 10);
		stackwin_expire(w, sec, shown);
		ck_assert_int_eq(stackwin_add(w, tick, sec), 0);
		ck_assert_int_eq(stacks_merge(shown, tick, 0, NULL), 0);
		out = folded(shown);
		win = stackwin_tree(w, sec);
		expect = folded(win);
		ck_assert_str_eq(out, expect);
		free(out);
		free(expect);
		stacks_free(win);
	}
	/* 305: seconds 303 to 305 only, and the emptied old_phase node still there */
	ck_assert_uint_eq(stacks_root(shown)->total, 30);
	ck_assert_uint_eq(stackwin_nodes(w), 6);
	ck_assert_uint_eq(stacks_nodes(shown), 3);
	stacks_free(shown);
	stackwin_clear(w);
	window_is(w, 104, "");
	stacks_free(tick);
	stackwin_free(w);
}
END_TEST

static struct kt_stacks *parse(const char *text, char *err, size_t errlen)
{
	char *copy = strdup(text);
	FILE *f = fmemopen(copy, strlen(copy), "r");
	struct kt_stacks *st;

	ck_assert_ptr_nonnull(f);
	err[0] = '\0';
	st = folded_read(f, "x.folded", err, errlen);
	fclose(f);
	free(copy);
	return st;
}

START_TEST(test_read_back)
{
	char err[256], *out;
	struct kt_stacks *st = parse("# from perf script | stackcollapse-perf.pl\n"
				     "\n"
				     "java Thread-1;main;do work 30\r\n"
				     "bash;main;a;b_[k] 70\n"
				     "bash;main;a\t5\n"
				     "bash;idle 0\n",
				     err, sizeof(err));
	const struct kt_stack_node *root, *bash, *b;

	ck_assert_msg(st != NULL, "refused: %s", err);
	ck_assert_int_eq(stacks_unit(st), KT_STACK_SAMPLES);
	root = stacks_root(st);
	ck_assert_uint_eq(root->total, 105);
	bash = stacks_child(st, root, "bash");
	ck_assert_int_eq(bash->kind, KT_FRAME_TASK);
	ck_assert_uint_eq(bash->total, 75);
	b = stacks_child(st, stacks_child(st, stacks_child(st, bash, "main"), "a"), "b_[k]");
	ck_assert_int_eq(b->kind, KT_FRAME_KERNEL);
	ck_assert_int_eq(b->parent->kind, KT_FRAME_USER);
	ck_assert_uint_eq(b->parent->self, 5);
	/* a zero count adds no frame */
	ck_assert_ptr_null(stacks_child(st, bash, "idle"));
	out = folded(st);
	ck_assert_str_eq(out, "bash;main;a 5\nbash;main;a;b_[k] 70\njava Thread-1;main;do work 30\n");
	free(out);
	stacks_free(st);
}
END_TEST

START_TEST(test_unit_comment)
{
	char err[256];
	struct kt_stacks *st = parse("# unit: ns\nsleep;nanosleep 1000000000\n", err, sizeof(err));

	ck_assert_msg(st != NULL, "refused: %s", err);
	ck_assert_int_eq(stacks_unit(st), KT_STACK_NSEC);
	stacks_free(st);
}
END_TEST

static const struct {
	const char *text, *err;
} bad[] = {
	{ "a;b 1\nno_count_here\n", "x.folded:2: no count: a line is 'frame;frame;... COUNT'" },
	{ "a;b x1\n", "x.folded:1: 'x1' is no count: a line is 'frame;frame;... COUNT'" },
	{ "a;b 12abc\n", "x.folded:1: '12abc' is no count: a line is 'frame;frame;... COUNT'" },
	{ "a;b 1.5\n", "x.folded:1: count '1.5' is not a whole number" },
	{ "a;b -3\n", "x.folded:1: '-3' is no count: a line is 'frame;frame;... COUNT'" },
	{ "a;b 99999999999999999999999\n", "x.folded:1: count 99999999999999999999999 is too large" },
	{ "a;b 18446744073709551615\na 1\n", "x.folded:2: the counts add up past 2^64" },
	{ " 4\n", "x.folded:1: a count with no stack" },
	{ "a;;b 1\n", "x.folded:1: empty frame 2 (two ';' in a row, or one at an end)" },
	{ "a;b; 1\n", "x.folded:1: empty frame 3 (two ';' in a row, or one at an end)" },
	{ ";a 1\n", "x.folded:1: empty frame 1 (two ';' in a row, or one at an end)" },
	{ "# unit: bogons\na 1\n", "x.folded:1: unknown unit 'bogons' (samples, ns or events)" },
	{ "a 1\n# unit: ns\n", "x.folded:2: the unit comes before the first stack" },
	{ "", "x.folded: no stacks (folded stacks are 'frame;frame;... COUNT' lines)" },
	{ "# only a comment\na 0\n", "x.folded: no stacks (folded stacks are 'frame;frame;... COUNT' lines)" },
};

START_TEST(test_refusals)
{
	char err[256];
	struct kt_stacks *st = parse(bad[_i].text, err, sizeof(err));

	ck_assert_ptr_null(st);
	ck_assert_str_eq(err, bad[_i].err);
}
END_TEST

START_TEST(test_nul_and_depth)
{
	char nul[] = "a;b 1\nc\0d 2\n";
	struct kt_stacks *st;
	char err[256], *deep;
	FILE *f = fmemopen(nul, sizeof(nul) - 1, "r");
	size_t n = 0;

	ck_assert_ptr_null(folded_read(f, "x.folded", err, sizeof(err)));
	fclose(f);
	ck_assert_str_eq(err, "x.folded:2: a NUL byte: this is not folded text");

	deep = malloc(2 * (KT_FOLDED_MAX_DEPTH + 1) + 8);
	for (int i = 0; i <= KT_FOLDED_MAX_DEPTH; i++) {
		deep[n++] = 'f';
		deep[n++] = ';';
	}
	strcpy(deep + n - 1, " 1\n");
	ck_assert_ptr_null(parse(deep, err, sizeof(err)));
	ck_assert_str_eq(err, "x.folded:1: more than 4096 frames");
	deep[2 * KT_FOLDED_MAX_DEPTH - 1] = ' ';
	strcpy(deep + 2 * KT_FOLDED_MAX_DEPTH, "1\n");
	st = parse(deep, err, sizeof(err));
	ck_assert_msg(st != NULL, "4096 frames refused: %s", err);
	stacks_free(st);
	free(deep);
}
END_TEST

START_TEST(test_load_missing)
{
	char err[256];

	ck_assert_ptr_null(folded_load("/nonexistent/x.folded", err, sizeof(err)));
	ck_assert_str_eq(err, "/nonexistent/x.folded: No such file or directory");
}
END_TEST

static Suite *stacks_suite(void)
{
	Suite *s = suite_create("stacks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_totals_and_folded);
	tcase_add_test(tc, test_same_path_and_separators);
	tcase_add_test(tc, test_many_children);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_bytes_adding);
	tcase_add_test(tc, test_dup);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_window);
	suite_add_tcase(s, tc);
	tc = tcase_create("folded");
	tcase_add_test(tc, test_read_back);
	tcase_add_test(tc, test_unit_comment);
	tcase_add_loop_test(tc, test_refusals, 0, (int)(sizeof(bad) / sizeof(bad[0])));
	tcase_add_test(tc, test_nul_and_depth);
	tcase_add_test(tc, test_load_missing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(stacks_suite());
}
