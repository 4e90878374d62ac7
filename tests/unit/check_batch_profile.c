// SPDX-License-Identifier: GPL-2.0-or-later
/* A profile's text as a recording keeps it: read back, it is written out the same, frame
 * kinds included, and a damaged one is refused with the line that is wrong. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "batch/batch_profile.h"
#include "app/options.h"
#include "check_main.h"

static const char text[] =
	"# profile: event=cpu-clock freq=99Hz unit=samples samples=6 lost=1 out_of_scope=2 "
	"dropped_memory=0 frames_unresolved=1 frames_resolved=9 stacks=3 bytes=0\n"
	"tuuk bash;main;readline;do_syscall_64 2\n"
	"tuuxj node;main;[libv8.so+0x10];0x7f00;LazyCompile:*fib /app.js:3 1\n"
	"tuk bash;main;nfs_lookup [nfs] 3\n";

START_TEST(test_roundtrip)
{
	struct kt_options o = { .mode = KT_MODE_BATCH };
	struct kt_batch_profile *bp;
	char err[256] = "", *again, *folded = NULL;
	size_t len = 0;
	FILE *f;

	bp = batch_profile_from_text(&o, text, err, sizeof(err));
	ck_assert_msg(bp, "%s", err);
	again = batch_profile_text(bp);
	ck_assert_ptr_nonnull(again);
	/* the same stacks, counts and kinds, sorted; the bytes are the new tree's own */
	ck_assert_ptr_nonnull(strstr(again, "samples=6 lost=1 out_of_scope=2 dropped_memory=0 "
					    "frames_unresolved=1 frames_resolved=9 stacks=3 bytes="));
	ck_assert_str_eq(strchr(again, '\n'),
			 "\ntuk bash;main;nfs_lookup [nfs] 3\n"
			 "tuuk bash;main;readline;do_syscall_64 2\n"
			 "tuuxj node;main;[libv8.so+0x10];0x7f00;LazyCompile:*fib /app.js:3 1\n");
	o.folded = true;
	f = open_memstream(&folded, &len);
	ck_assert_int_eq(batch_profile_print(bp, f), 0);
	fclose(f);
	ck_assert_str_eq(folded, "bash;main;nfs_lookup [nfs] 3\n"
				 "bash;main;readline;do_syscall_64 2\n"
				 "node;main;[libv8.so+0x10];0x7f00;LazyCompile:*fib /app.js:3 1\n");
	free(folded);
	free(again);
	batch_profile_free(bp);
}
END_TEST

START_TEST(test_damaged)
{
	struct kt_options o = { .mode = KT_MODE_BATCH };
	char err[256];

	ck_assert_ptr_null(batch_profile_from_text(&o, "", err, sizeof(err)));
	ck_assert_str_eq(err, "its profile is empty");
	ck_assert_ptr_null(batch_profile_from_text(&o, "tu a;b 1\n", err, sizeof(err)));
	ck_assert_str_eq(err, "its profile is corrupt at line 1: 'tu a;b 1'");
	/* three frames, two kinds */
	ck_assert_ptr_null(batch_profile_from_text(&o, "# profile: event=cycles\ntu a;b;c 1\n",
						   err, sizeof(err)));
	ck_assert_str_eq(err, "its profile is corrupt at line 2: 'tu'");
	ck_assert_ptr_null(batch_profile_from_text(&o, "# profile: event=cycles\ntq a;b 1\n",
						   err, sizeof(err)));
	ck_assert_ptr_null(batch_profile_from_text(&o, "# profile: event=cycles\ntu a;b x\n",
						   err, sizeof(err)));
}
END_TEST

static Suite *batch_profile_suite(void)
{
	Suite *s = suite_create("batch_profile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_damaged);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(batch_profile_suite());
}
