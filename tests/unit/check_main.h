/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every unit test's main() does: run its Check suite and turn the result into the exit
 * status automake's test driver reads. A test file builds its suite in NAME_suite() and
 * ends with
 *	int main(void) { return check_run(NAME_suite()); }
 */
#ifndef KTOP_CHECK_MAIN_H
#define KTOP_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

/* Runs s (the runner frees it) with Check's defaults: CK_NORMAL output, each test in a
 * child process unless CK_FORK=no. Returns EXIT_FAILURE when a test failed, else
 * EXIT_SUCCESS. */
static inline int check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
