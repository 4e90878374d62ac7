// SPDX-License-Identifier: GPL-2.0-or-later
/* Why a counter is missing, in one line with the way out (see pmu_reason.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmu.h"
#include "util/fileio.h"

#define PARANOID_UNKNOWN INT_MIN

static bool core_pmu_name(const char *n)
{
	return !strcmp(n, "cpu") || !strcmp(n, "cpu_core") || !strcmp(n, "cpu_atom") ||
	       !strncmp(n, "armv", 4) || !strncmp(n, "arm_", 4);
}

static bool core_pmu_present(const char *root)
{
	struct dirent *de;
	bool found = false;
	DIR *dir = opendir(root);

	if (!dir)
		return false;
	while (!found && (de = readdir(dir)))
		found = core_pmu_name(de->d_name);
	closedir(dir);
	return found;
}

static int read_paranoid(void)
{
	char buf[16];

	if (file_read_small("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) <= 0)
		return PARANOID_UNKNOWN;
	return atoi(buf);
}

void pmu_reason(int err, const struct kt_pmu_attr *a, const char *sysfs_root, bool per_task,
		char *buf, size_t len)
{
	const char *root = sysfs_root ? sysfs_root : KT_PMU_SYSFS_ROOT;
	bool hw = a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
		  a->type == PERF_TYPE_RAW || (a->pmu[0] && core_pmu_name(a->pmu));
	int paranoid;

	switch (err) {
	case ENOENT:
		if (hw && !core_pmu_present(root))
			snprintf(buf, len, "no PMU driver in this kernel/VM (hardware counters "
				 "unavailable; software counters still work; a VM needs a "
				 "virtual PMU)");
		else if (hw)
			snprintf(buf, len, "this CPU's PMU has no such event (ENOENT; the PMU's "
				 "own events are under %s/cpu/events)", root);
		else if (a->type == PERF_TYPE_TRACEPOINT)
			snprintf(buf, len, "the kernel refused this tracepoint as a counter "
				 "(ENOENT; CONFIG_EVENT_TRACING?)");
		else if (a->pmu[0])
			snprintf(buf, len, "PMU %s has no such event (ENOENT; see %s/%s/events)",
				 a->pmu, root, a->pmu);
		else
			snprintf(buf, len, "no PMU of type %u in this kernel (ENOENT)", a->type);
		break;
	case ENODEV:
		snprintf(buf, len, "the PMU is not present on this CPU (ENODEV)");
		break;
	case EACCES:
	case EPERM:
		paranoid = read_paranoid();
		if (paranoid == PARANOID_UNKNOWN)
			snprintf(buf, len, "not permitted (%s; lockdown or a seccomp filter?)",
				 err == EPERM ? "EPERM" : "EACCES");
		else
			snprintf(buf, len, "not permitted (%s: kernel.perf_event_paranoid=%d and no "
				 "CAP_PERFMON%s; give ktop CAP_PERFMON (root has it unless dropped) "
				 "or sysctl kernel.perf_event_paranoid=-1)",
				 err == EPERM ? "EPERM" : "EACCES", paranoid,
				 per_task ? "" : ", which counting a whole CPU needs");
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "the PMU cannot count this event here (EOPNOTSUPP: "
			 "sampling-only, no per-task mode, or a :u/:k filter it lacks)");
		break;
	case EINVAL:
		if (a->exclude_user || a->exclude_kernel || a->exclude_hv)
			snprintf(buf, len, "rejected (EINVAL): %s%s cannot count user and "
				 "kernel apart (drop the :u/:k modifier)",
				 a->pmu[0] ? "PMU " : "this PMU", a->pmu);
		else if (per_task)
			snprintf(buf, len, "rejected (EINVAL): a per-CPU-only PMU cannot count one "
				 "process (drop -p), or the encoding is wrong for this PMU");
		else
			snprintf(buf, len, "rejected (EINVAL): the encoding is not valid for this "
				 "PMU (check the terms against %s/%s/format)", root,
				 a->pmu[0] ? a->pmu : "<pmu>");
		break;
	case EBUSY:
		snprintf(buf, len, "the counter is held exclusively by another user (EBUSY; e.g. "
			 "the NMI watchdog: sysctl kernel.nmi_watchdog=0)");
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "out of file descriptors (%s; raise ulimit -n)",
			 err == EMFILE ? "EMFILE" : "ENFILE");
		break;
	case ENOSYS:
		snprintf(buf, len, "perf_event_open is not available (kernel without "
			 "CONFIG_PERF_EVENTS, or blocked by seccomp)");
		break;
	case E2BIG:
		snprintf(buf, len, "this kernel's perf_event_attr is older than ktop's (E2BIG)");
		break;
	case ESRCH:
		snprintf(buf, len, "the process exited before its counters opened (ESRCH)");
		break;
	default:
		snprintf(buf, len, "perf_event_open failed: %s", strerror(err));
		break;
	}
}

bool pmu_task_reason(struct kt_pmu_counter *c, pid_t tid, int navail)
{
	char path[64];
	struct stat st;
	int paranoid;

	if (tid < 0 || (c->err != EACCES && c->err != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	if (geteuid() != 0 && stat(path, &st) == 0 && st.st_uid != geteuid()) {
		snprintf(c->reason, sizeof(c->reason), "not permitted: pid %d is not this user's "
			 "(perf counts another user's process only with CAP_PERFMON; run ktop as "
			 "its owner or as root)", (int)tid);
		return true;
	}
	paranoid = read_paranoid();
	if (paranoid >= 2 && navail && pmu_attr_kernel_only(&c->attr)) {
		snprintf(c->reason, sizeof(c->reason), "counted only in the kernel, which "
			 "kernel.perf_event_paranoid=%d hides from users without CAP_PERFMON "
			 "(sysctl kernel.perf_event_paranoid=1, or run ktop as root)", paranoid);
		return true;
	}
	if (paranoid >= 3 && !navail) {
		snprintf(c->reason, sizeof(c->reason), "not permitted: kernel.perf_event_paranoid"
			 "=%d forbids perf_event_open to users without CAP_PERFMON (sysctl "
			 "kernel.perf_event_paranoid=2 lets users count their own processes, or "
			 "run ktop as root)", paranoid);
		return true;
	}
	return false;
}
