/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktop's own threads, so that what it shows leaves them out as perf trace leaves its own
 * out: the stream hides their rows unless asked. */
#ifndef KTOP_BACKEND_SELFTASK_H
#define KTOP_BACKEND_SELFTASK_H

#include <stdbool.h>

/* Whether tid is a thread of this process. Threads come and go: /proc/self/task is listed
 * again when asked about a tid not in the last list, at most once a second. */
bool selftask_is_own(int tid);

#endif
