/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clock readings in nanoseconds. CLOCK_MONOTONIC is the clock of ktop's instance (trace_clock
 * "mono"), so a reading compares with event timestamps. */
#ifndef KTOP_CLOCK_H
#define KTOP_CLOCK_H

#include <time.h>

/* clock id now, in ns; 0 when the clock cannot be read. */
unsigned long long clock_ns(clockid_t id);
/* CLOCK_MONOTONIC now, in ns. */
unsigned long long clock_mono_ns(void);

#endif
