// SPDX-License-Identifier: GPL-2.0-or-later
/* libktop_usdt_twice.so, which usdt_target links: a probe in a shared library, without a
 * semaphore, at two sites: ktop_test:twice(1), then (2). */
#include "config.h"

#include <sys/sdt.h>

void ktop_usdt_twice(void);

void ktop_usdt_twice(void)
{
	STAP_PROBE1(ktop_test, twice, 1);
	STAP_PROBE1(ktop_test, twice, 2);
}
