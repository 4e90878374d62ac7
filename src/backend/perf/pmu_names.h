/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event names as perf spells them, turned into an encoding (struct kt_pmu_attr): the generic
 * hardware and software events, hardware cache events, raw r<hex> codes, sysfs PMU terms and
 * aliases (pmu_sysfs.h) and tracepoints (their id from tracefs, read, never written). No
 * perf_event_open here. */
#ifndef KTOP_PMU_NAMES_H
#define KTOP_PMU_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu_sysfs.h"

/* What a default counter is for: the inputs of the derived ratios. */
enum kt_pmu_role {
	KT_PMU_ROLE_NONE,
	KT_PMU_ROLE_CYCLES,
	KT_PMU_ROLE_INSTRUCTIONS,
	KT_PMU_ROLE_CACHE_REFS,
	KT_PMU_ROLE_CACHE_MISSES,
	KT_PMU_ROLE_BRANCHES,
	KT_PMU_ROLE_BRANCH_MISSES,
	KT_PMU_ROLE_COUNT
};

/* Parses one spec as perf spells it:
 *   cycles, instructions, cache-misses, page-faults, cs, ... (generic hardware/software)
 *   L1-dcache-load-misses, LLC-loads, ...                      (hardware cache events)
 *   r1a8                                                        (raw, PERF_TYPE_RAW)
 *   cpu/event=0x3c,umask=0x1/  cpu/cache-misses/  msr/tsc/      (sysfs PMU terms)
 *   tsc, cache-misses-alias ...                                 (a sysfs alias of any PMU)
 *   sched:sched_switch                                          (tracepoint count)
 * with optional modifiers ":u", ":k", ":h" (or after the closing slash). Fills a and the
 * display name. Returns 0, or -1 with a one-line reason in err. */
int pmu_resolve(const char *sysfs_root, const char *tracing_dir, const char *spec,
		struct kt_pmu_attr *a, enum kt_pmu_role *role, char *err, size_t errlen);

/* Software events the kernel counts only in its own context (the scheduler's), so that
 * with exclude_kernel they would always read 0. */
bool pmu_attr_kernel_only(const struct kt_pmu_attr *a);

#endif
