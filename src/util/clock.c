// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include "clock.h"

unsigned long long clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) < 0)
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

unsigned long long clock_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}
