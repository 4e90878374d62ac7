// SPDX-License-Identifier: GPL-2.0-or-later
/* The function picker's narrowing: the same best names as symlist_best (the backend's
 * reference ranking) for every prefix of a typed word and after Backspace, over a synthetic
 * list of 120,000 kernel-like names; the per-key time is printed, never asserted. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/symbols/symlist.h"
#include "ui/panes/namefilter.h"
#include "check_main.h"

#define NAMES 120000
#define BEST 256

static const char *const parts[] = { "vfs", "read", "tcp", "send", "msg", "sched", "do",
				     "sys", "open", "at2", "ext4", "file", "mm", "page",
				     "alloc", "irq", "x86", "Get", "BUG", "_" };

static struct kt_symlist *make_list(void)
{
	struct kt_symlist *l = symlist_new();
	unsigned s = 12345;
	char name[96];
	int i, k, np;

	ck_assert_ptr_nonnull(l);
	for (i = 0; i < NAMES; i++) {
		name[0] = '\0';
		np = 2 + (int)((s = s * 1103515245u + 12345u) >> 16) % 4;
		for (k = 0; k < np; k++) {
			s = s * 1103515245u + 12345u;
			strcat(name, parts[(s >> 16) % (sizeof(parts) / sizeof(parts[0]))]);
			if (k + 1 < np)
				strcat(name, "_");
		}
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "_%d", i % 97);
		ck_assert_int_eq(symlist_add(l, name), 0);
	}
	symlist_add(l, "vfs_read");
	symlist_finish(l);
	return l;
}

static double ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

START_TEST(same_as_reference)
{
	static const char *const typed[] = { "v", "vf", "vfs", "vfs_", "vfs_r", "vfs_re",
					     "vfs_rea", "vfs_read", "vfs_rea", "vfs_r", "x",
					     "X86", "gEt_p", "zzz", "", "tcpsend", NULL };
	struct kt_symlist *l = make_list();
	struct kt_namefilter nf;
	size_t a[BEST], b[BEST], na, nb;
	double t0, worst = 0;
	int i;

	ck_assert_int_eq(namefilter_init(&nf, l), 0);
	for (i = 0; typed[i]; i++) {
		t0 = ms_now();
		na = namefilter_best(&nf, typed[i], a, BEST);
		if (ms_now() - t0 > worst)
			worst = ms_now() - t0;
		nb = symlist_best(l, typed[i], b, BEST);
		ck_assert_msg(na == nb, "'%s': %zu names, the reference %zu", typed[i], na, nb);
		ck_assert_msg(!memcmp(a, b, na * sizeof(*a)), "'%s': another order", typed[i]);
	}
	na = namefilter_best(&nf, "vfs_read", a, BEST);
	ck_assert_uint_ge(na, 1);
	ck_assert_str_eq(l->names[a[0]], "vfs_read");
	printf("namefilter: %zu names, slowest key %.2f ms\n", l->count, worst);
	namefilter_done(&nf);
	symlist_free(l);
}
END_TEST

static Suite *namefilter_suite(void)
{
	Suite *s = suite_create("namefilter");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, same_as_reference);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(namefilter_suite());
}
