/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The test suite's hooks: environment variables that steer ktop (KTOP_NO_GUARD,
 * KTOP_TEST_BPF_OBJECT, KTOP_TEST_INDEX_GATE, KTOP_TEST_INDEX_START_GATE,
 * KTOP_TEST_REDRAW_MIN_MS, KTOP_TEST_TIMELINE_DUMP). Read only in a build configured with
 * --enable-test-hooks (./dev check, CI); in any other the names are not even in the binary,
 * so a root ktop started with sudo -E cannot be steered by its caller's environment (a BPF
 * object of the caller's choosing loaded as root). */
#ifndef KTOP_TESTHOOKS_H
#define KTOP_TESTHOOKS_H

#include <stdlib.h>

#ifdef KTOP_TEST_HOOKS
#define test_hook_env(name) getenv(name)
#else
#define test_hook_env(name) ((char *)NULL)
#endif

#endif
