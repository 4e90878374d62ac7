/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why a counter is missing: one line naming the cause (no PMU driver, perf_event_paranoid, a
 * capability, an encoding the PMU rejects, ...) and the way out. Reads sysfs and
 * /proc/sys/kernel/perf_event_paranoid, opens nothing. */
#ifndef KTOP_PMU_REASON_H
#define KTOP_PMU_REASON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "pmu_sysfs.h"

struct kt_pmu_counter;

/* The one-line reason a counter could not be opened with errno err. */
void pmu_reason(int err, const struct kt_pmu_attr *a, const char *sysfs_root, bool per_task,
		char *buf, size_t len);

/* The reason a task's counter was refused for want of privilege, when it is not
 * pmu_reason's: another user's process, a count only the kernel makes while user space
 * counts (others opened: navail), or nothing at all at kernel.perf_event_paranoid=3
 * (Debian's kernels forbid users perf_event_open then). tid is the first thread counted,
 * -1 system-wide (where none of these apply). Returns whether it filled c->reason. */
bool pmu_task_reason(struct kt_pmu_counter *c, pid_t tid, int navail);

#endif
