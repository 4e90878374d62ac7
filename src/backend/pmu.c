// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Performance counters (see pmu.h).
 *
 * -p PID: perf stat -p opens one event per existing thread (from /proc/PID/task) with
 * cpu -1, and so does ktop, with inherit=1 on each: threads and children the counted
 * threads create later are counted into their creator's counters, and the kernel folds
 * those children's counts into every read of the group (perf_read_group sums the child
 * list), so PERF_FORMAT_GROUP keeps working with inherit for counting (what the kernel
 * refuses is inherit with PERF_SAMPLE_READ, a sampling feature ktop does not use). A thread
 * that exits keeps its last values readable, so nothing it counted is lost. Threads that
 * appear later in an uncounted thread (one that started after ktop) are not seen; neither
 * does perf see them.
 *
 * System-wide: one group per CPU in the online mask, pid -1, no inherit.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "backend/pmu.h"
#include "fileio.h"
#include "json.h"
#include "clock.h"

#define READ_FORMAT                                                                \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define GROUP_READ_WORDS (3 + KT_PMU_GROUP_MAX)
#define PARANOID_UNKNOWN INT_MIN

struct pmu_group {
	int counters[KT_PMU_GROUP_MAX]; /* planned members, in opening order */
	int n;
};

/* One group in one slot. */
struct pmu_sg {
	int fds[KT_PMU_GROUP_MAX];     /* fds[0] leads */
	int members[KT_PMU_GROUP_MAX]; /* counter of each member, in the order of the read */
	int n;
	bool fed;
	uint64_t enabled, running, raw[KT_PMU_GROUP_MAX];	/* last fed */
	uint64_t p_enabled, p_running, p_raw[KT_PMU_GROUP_MAX]; /* at the previous update */
};

struct pmu_slot {
	int cpu;   /* -1 per task */
	pid_t tid; /* -1 system-wide */
	bool gone; /* the thread had exited before its counters opened */
};

/* Per-counter sums while updating. */
struct pmu_acc {
	uint64_t en, run, d_en, d_run;
	double rate;
	bool any_rate;
};

struct kt_pmu {
	char *sysfs_root;
	char *tracing_dir;
	bool per_task;
	pid_t *pids;
	size_t npids;
	int cgroup_fd;	  /* --cgroup: its directory, the "pid" of every counter; -1: none */
	char *cgroup_dir;
	struct kt_pmu_counter *counters;
	size_t ncounters;
	struct pmu_group *groups;
	int ngroups;
	struct pmu_slot *slots;
	int nslots;
	struct pmu_sg *sg; /* nslots * ngroups */
	struct pmu_acc *acc;
	unsigned long long start_ns, prev_ns, now_ns;
	double interval;
	unsigned samples;
	bool stopped;
};

/* ---- names as perf spells them --------------------------------------------------------- */

struct generic {
	const char *name;
	uint32_t type;
	uint64_t config;
	enum kt_pmu_role role;
};

static const struct generic generics[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, KT_PMU_ROLE_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, KT_PMU_ROLE_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
	  KT_PMU_ROLE_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  KT_PMU_ROLE_CACHE_REFS },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  KT_PMU_ROLE_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  KT_PMU_ROLE_BRANCHES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  KT_PMU_ROLE_BRANCHES },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES,
	  KT_PMU_ROLE_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, KT_PMU_ROLE_NONE },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  KT_PMU_ROLE_NONE },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  KT_PMU_ROLE_NONE },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  KT_PMU_ROLE_NONE },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  KT_PMU_ROLE_NONE },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, KT_PMU_ROLE_NONE },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, KT_PMU_ROLE_NONE },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, KT_PMU_ROLE_NONE },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, KT_PMU_ROLE_NONE },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, KT_PMU_ROLE_NONE },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
	  KT_PMU_ROLE_NONE },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, KT_PMU_ROLE_NONE },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, KT_PMU_ROLE_NONE },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, KT_PMU_ROLE_NONE },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, KT_PMU_ROLE_NONE },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, KT_PMU_ROLE_NONE },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS,
	  KT_PMU_ROLE_NONE },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  KT_PMU_ROLE_NONE },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, KT_PMU_ROLE_NONE },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES */,
	  KT_PMU_ROLE_NONE },
};

#define NGENERICS (sizeof(generics) / sizeof(generics[0]))

/* The default set, in display order; members of one group are adjacent. */
static const struct {
	const char *spec;
	int group;
	bool optional;
} defaults[] = {
	{ "cpu-clock", 0, false },
	{ "task-clock", 0, false },
	{ "context-switches", 0, false },
	{ "cpu-migrations", 0, false },
	{ "minor-faults", 0, false },
	{ "major-faults", 0, false },
	{ "cycles", 1, false },
	{ "instructions", 1, false },
	{ "cache-references", 2, false },
	{ "cache-misses", 2, false },
	{ "branches", 3, false },
	{ "branch-misses", 3, false },
	{ "stalled-cycles-frontend", 4, true },
	{ "stalled-cycles-backend", 4, true },
};

#define NDEFAULTS (sizeof(defaults) / sizeof(defaults[0]))
#define NDEFAULT_GROUPS 5

static const char *const hw_caches[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					 "iTLB",      "branch",	   "node" };
static const struct {
	const char *suffix;
	unsigned op, result;
} hw_cache_ops[] = {
	{ "loads", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "load-misses", PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "stores", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "store-misses", PERF_COUNT_HW_CACHE_OP_WRITE, PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "prefetch-misses", PERF_COUNT_HW_CACHE_OP_PREFETCH, PERF_COUNT_HW_CACHE_RESULT_MISS },
};

static bool resolve_generic(const char *name, struct kt_pmu_attr *a, enum kt_pmu_role *role)
{
	size_t i, j, cl;

	for (i = 0; i < NGENERICS; i++) {
		if (strcasecmp(name, generics[i].name))
			continue;
		a->type = generics[i].type;
		a->config = generics[i].config;
		*role = generics[i].role;
		return true;
	}
	for (i = 0; i < sizeof(hw_caches) / sizeof(hw_caches[0]); i++) {
		cl = strlen(hw_caches[i]);
		if (strncasecmp(name, hw_caches[i], cl) || name[cl] != '-')
			continue;
		for (j = 0; j < sizeof(hw_cache_ops) / sizeof(hw_cache_ops[0]); j++) {
			if (strcasecmp(name + cl + 1, hw_cache_ops[j].suffix))
				continue;
			a->type = PERF_TYPE_HW_CACHE;
			a->config = i | (hw_cache_ops[j].op << 8) |
				    ((uint64_t)hw_cache_ops[j].result << 16);
			return true;
		}
	}
	return false;
}

static bool resolve_raw(const char *name, struct kt_pmu_attr *a)
{
	const char *p;

	if (name[0] != 'r' || !name[1] || strlen(name) > 17)
		return false;
	for (p = name + 1; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
		      (*p >= 'A' && *p <= 'F')))
			return false;
	a->type = PERF_TYPE_RAW;
	a->config = strtoull(name + 1, NULL, 16);
	return true;
}

/* ":u", ":k", ":h" and combinations: count only the levels named (perf's rule). */
static bool is_modifier(const char *m)
{
	if (!*m)
		return false;
	for (; *m; m++)
		if (*m != 'u' && *m != 'k' && *m != 'h')
			return false;
	return true;
}

static void apply_modifier(const char *m, struct kt_pmu_attr *a)
{
	if (!m || !*m)
		return;
	a->exclude_user = !strchr(m, 'u');
	a->exclude_kernel = !strchr(m, 'k');
	a->exclude_hv = !strchr(m, 'h');
}

static bool safe_component(const char *s)
{
	return *s && *s != '.' && !strchr(s, '/');
}

static int resolve_tracepoint(const char *tracing_dir, const char *sys, const char *ev,
			      struct kt_pmu_attr *a, char *err, size_t errlen)
{
	char path[4096], buf[32], *end;
	unsigned long long id;
	int n;

	if (!safe_component(sys) || !safe_component(ev)) {
		snprintf(err, errlen, "bad tracepoint name '%s:%s'", sys, ev);
		return -1;
	}
	if (!tracing_dir) {
		snprintf(err, errlen, "tracepoint counts need tracefs, which is not mounted");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracing_dir, sys, ev);
	n = file_read_small(path, buf, sizeof(buf));
	if (n < 0) {
		snprintf(err, errlen, "no tracepoint %s:%s in this kernel (%s; ktop --doctor, or "
			 "the picker, lists them)", sys, ev, strerror(errno));
		return -1;
	}
	errno = 0;
	id = strtoull(buf, &end, 10);
	if (n <= 0 || errno || end == buf || (*end && *end != '\n')) {
		snprintf(err, errlen, "cannot read the id of tracepoint %s:%s from %s", sys, ev,
			 path);
		return -1;
	}
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = id;
	snprintf(a->pmu, sizeof(a->pmu), "tracepoint");
	return 0;
}

/* A name without a PMU prefix or a tracepoint colon. */
static int resolve_name(const char *root, const char *name, struct kt_pmu_attr *a,
			enum kt_pmu_role *role, char *err, size_t errlen)
{
	char pmu[KT_PMU_NAME_MAX];

	if (resolve_generic(name, a, role))
		return 0;
	if (resolve_raw(name, a))
		return 0;
	if (pmu_sysfs_find_alias(root, name, pmu, sizeof(pmu)) == 0)
		return pmu_sysfs_encode(root, pmu, name, a, err, errlen);
	snprintf(err, errlen, "unknown event '%s' (not a generic event, a PMU alias under %s, "
		 "r<hex>, pmu/terms/ or system:tracepoint)", name, root);
	return -1;
}

int pmu_resolve(const char *sysfs_root, const char *tracing_dir, const char *spec,
		struct kt_pmu_attr *a, enum kt_pmu_role *role, char *err, size_t errlen)
{
	const char *root = sysfs_root ? sysfs_root : KT_PMU_SYSFS_ROOT;
	char buf[512], *s, *slash, *last, *colon, *mod = NULL;
	size_t len;
	int ret;

	pmu_attr_init(a);
	*role = KT_PMU_ROLE_NONE;
	while (*spec == ' ' || *spec == '\t')
		spec++;
	len = strlen(spec);
	while (len && (spec[len - 1] == ' ' || spec[len - 1] == '\t' || spec[len - 1] == '\n'))
		len--;
	if (!len) {
		snprintf(err, errlen, "empty event name");
		return -1;
	}
	if (len >= sizeof(buf)) {
		snprintf(err, errlen, "event spec too long");
		return -1;
	}
	memcpy(buf, spec, len);
	buf[len] = '\0';
	s = buf;

	/* pmu/terms/[modifiers] */
	slash = strchr(s, '/');
	if (slash) {
		last = strrchr(s, '/');
		if (last == slash || slash == s) {
			snprintf(err, errlen, "'%s': expected pmu/terms/ such as "
				 "cpu/event=0x3c,umask=0x1/", s);
			return -1;
		}
		*slash = '\0';
		*last = '\0';
		mod = last + 1;
		if (*mod == ':')
			mod++;
		if (*mod && !is_modifier(mod)) {
			snprintf(err, errlen, "'%s': unknown modifier '%s' (u, k, h)", spec, mod);
			return -1;
		}
		if (pmu_sysfs_encode(root, s, slash + 1, a, err, errlen) < 0)
			return -1;
		apply_modifier(mod, a);
		return 0;
	}

	/* name:modifiers, else system:event */
	colon = strrchr(s, ':');
	if (colon && is_modifier(colon + 1)) {
		*colon = '\0';
		ret = resolve_name(root, s, a, role, err, errlen);
		if (ret == 0) {
			apply_modifier(colon + 1, a);
			return 0;
		}
		*colon = ':';
	}
	colon = strchr(s, ':');
	if (colon) {
		*colon = '\0';
		if (!colon[1] || strchr(colon + 1, ':')) {
			snprintf(err, errlen, "'%s': a tracepoint is system:event", spec);
			return -1;
		}
		return resolve_tracepoint(tracing_dir, s, colon + 1, a, err, errlen);
	}
	return resolve_name(root, s, a, role, err, errlen);
}

/* ---- reasons ----------------------------------------------------------------------------- */

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

/* ---- building the set ------------------------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* Parses a CPU list ("0-3,8,10-11") into a malloc'd array. Returns the count, -1 on error. */
static int parse_cpu_list(const char *s, int **out)
{
	int *cpus = NULL, *nc, n = 0, cap = 0;
	long a, b, c;
	char *end;

	while (*s && *s != '\n') {
		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			goto fail;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				goto fail;
		}
		for (c = a; c <= b; c++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				nc = realloc(cpus, (size_t)cap * sizeof(*cpus));
				if (!nc)
					goto fail;
				cpus = nc;
			}
			cpus[n++] = (int)c;
		}
		s = end;
		if (*s == ',')
			s++;
	}
	*out = cpus;
	return n;
fail:
	free(cpus);
	return -1;
}

int pmu_online_cpus(int **out)
{
	char buf[4096];
	long i, cnt;
	int *cpus;

	*out = NULL;
	if (file_read_small("/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0) {
		cnt = parse_cpu_list(buf, out);
		if (cnt > 0)
			return (int)cnt;
		free(*out);
		*out = NULL;
	}
	cnt = sysconf(_SC_NPROCESSORS_ONLN);
	if (cnt < 1)
		cnt = 1;
	cpus = calloc((size_t)cnt, sizeof(*cpus));
	if (!cpus)
		return -1;
	for (i = 0; i < cnt; i++)
		cpus[i] = (int)i;
	*out = cpus;
	return (int)cnt;
}

/* Appends the threads of pid from /proc/PID/task. Returns how many, -1 if pid is gone. */
static int list_threads(pid_t pid, pid_t **tids, size_t *n, size_t *cap)
{
	char path[64];
	struct dirent *de;
	int count = 0;
	pid_t *nt;
	DIR *dir;
	long t;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		t = strtol(de->d_name, NULL, 10);
		if (t <= 0)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			nt = realloc(*tids, *cap * sizeof(**tids));
			if (!nt) {
				closedir(dir);
				return -1;
			}
			*tids = nt;
		}
		(*tids)[(*n)++] = (pid_t)t;
		count++;
	}
	closedir(dir);
	return count;
}

static struct pmu_sg *SG(const struct kt_pmu *p, int slot, int group)
{
	return &p->sg[(size_t)slot * (size_t)p->ngroups + (size_t)group];
}

/* Adds a counter for spec to group (a new group when group < 0). */
static int add_counter(struct kt_pmu *p, const char *spec, int group, bool optional,
		       bool user)
{
	struct kt_pmu_counter *c = &p->counters[p->ncounters];
	struct pmu_group *g;
	char err[sizeof(c->reason)];

	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", spec);
	c->optional = optional;
	c->user = user;
	c->rate = c->share = c->share_total = NAN;
	if (group < 0)
		group = p->ngroups++;
	c->group = group;
	if (pmu_resolve(p->sysfs_root, p->tracing_dir, spec, &c->attr, &c->role, err,
			sizeof(err)) < 0) {
		c->err = EINVAL;
		snprintf(c->reason, sizeof(c->reason), "%s", err);
	} else {
		c->resolved = true;
		g = &p->groups[group];
		if (g->n >= KT_PMU_GROUP_MAX)
			return -1;
		g->counters[g->n++] = (int)p->ncounters;
	}
	p->ncounters++;
	return 0;
}

struct kt_pmu *pmu_new(const struct kt_pmu_config *cfg, char *err, size_t errlen)
{
	struct kt_pmu *p = calloc(1, sizeof(*p));
	size_t i, n_tids = 0, cap_tids = 0, max_counters;
	pid_t *tids = NULL;
	int *cpus = NULL, ncpus = 0, s, g, k;

	if (!p)
		goto oom;
	p->cgroup_fd = -1;
	p->sysfs_root = strdup(cfg->sysfs_root ? cfg->sysfs_root : KT_PMU_SYSFS_ROOT);
	p->tracing_dir = cfg->tracing_dir ? strdup(cfg->tracing_dir) : NULL;
	if (!p->sysfs_root || (cfg->tracing_dir && !p->tracing_dir))
		goto oom;
	p->per_task = cfg->npids > 0 || cfg->ntids > 0;
	if (cfg->cgroup_dir) {
		p->cgroup_dir = strdup(cfg->cgroup_dir);
		if (!p->cgroup_dir)
			goto oom;
		p->cgroup_fd = open(cfg->cgroup_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (p->cgroup_fd < 0) {
			snprintf(err, errlen, "--cgroup %s: %s", cfg->cgroup_dir, strerror(errno));
			goto fail;
		}
	}

	/* Slots. */
	if (cfg->ntids) {
		tids = calloc(cfg->ntids, sizeof(*tids));
		if (!tids)
			goto oom;
		memcpy(tids, cfg->tids, cfg->ntids * sizeof(*tids));
		n_tids = cfg->ntids;
	} else if (cfg->npids) {
		for (i = 0; i < cfg->npids; i++) {
			if (list_threads(cfg->pids[i], &tids, &n_tids, &cap_tids) < 0) {
				snprintf(err, errlen, "-p %d: no such process", (int)cfg->pids[i]);
				goto fail;
			}
		}
	}
	/* -p 42,42 or a pid and one of its threads: count each thread once */
	if (n_tids > 1) {
		size_t w = 1;

		qsort(tids, n_tids, sizeof(*tids), cmp_pid);
		for (i = 1; i < n_tids; i++)
			if (tids[i] != tids[w - 1])
				tids[w++] = tids[i];
		n_tids = w;
	}
	if (cfg->npids) {
		p->pids = calloc(cfg->npids, sizeof(*p->pids));
		if (!p->pids)
			goto oom;
		memcpy(p->pids, cfg->pids, cfg->npids * sizeof(*p->pids));
		p->npids = cfg->npids;
	}
	if (!p->per_task) {
		if (cfg->cpus && cfg->ncpus > 0) {
			cpus = calloc((size_t)cfg->ncpus, sizeof(*cpus));
			if (!cpus)
				goto oom;
			memcpy(cpus, cfg->cpus, (size_t)cfg->ncpus * sizeof(*cpus));
			ncpus = cfg->ncpus;
		} else {
			ncpus = pmu_online_cpus(&cpus);
			if (ncpus < 0)
				goto oom;
		}
		qsort(cpus, (size_t)ncpus, sizeof(*cpus), cmp_int);
		p->nslots = ncpus;
	} else {
		p->nslots = (int)n_tids;
	}
	if (p->nslots <= 0) {
		snprintf(err, errlen, "no CPU or thread to count on");
		goto fail;
	}
	p->slots = calloc((size_t)p->nslots, sizeof(*p->slots));
	if (!p->slots)
		goto oom;
	for (s = 0; s < p->nslots; s++) {
		p->slots[s].cpu = p->per_task ? -1 : cpus[s];
		p->slots[s].tid = p->per_task ? tids[s] : -1;
	}

	/* Counters and groups. */
	max_counters = (cfg->no_defaults ? 0 : NDEFAULTS) + cfg->nevents;
	p->counters = calloc(max_counters ? max_counters : 1, sizeof(*p->counters));
	p->groups = calloc(max_counters + NDEFAULT_GROUPS, sizeof(*p->groups));
	if (!p->counters || !p->groups)
		goto oom;
	if (!cfg->no_defaults) {
		p->ngroups = NDEFAULT_GROUPS;
		for (i = 0; i < NDEFAULTS; i++)
			add_counter(p, defaults[i].spec, defaults[i].group, defaults[i].optional,
				    false);
	}
	for (i = 0; i < cfg->nevents; i++)
		add_counter(p, cfg->events[i], -1, false, true);

	p->sg = calloc((size_t)p->nslots * (size_t)(p->ngroups ? p->ngroups : 1),
		       sizeof(*p->sg));
	p->acc = calloc(p->ncounters ? p->ncounters : 1, sizeof(*p->acc));
	if (!p->sg || !p->acc)
		goto oom;
	for (i = 0; i < p->ncounters; i++) {
		p->counters[i].slots = calloc((size_t)p->nslots, sizeof(struct kt_pmu_slot_value));
		if (!p->counters[i].slots)
			goto oom;
	}
	/* Until pmu_open() says otherwise, every resolved member is planned in every slot. */
	for (s = 0; s < p->nslots; s++)
		for (g = 0; g < p->ngroups; g++) {
			struct pmu_sg *sg = SG(p, s, g);

			for (k = 0; k < KT_PMU_GROUP_MAX; k++)
				sg->fds[k] = -1;
			sg->n = p->groups[g].n;
			memcpy(sg->members, p->groups[g].counters, sizeof(sg->members));
		}
	free(cpus);
	free(tids);
	return p;
oom:
	snprintf(err, errlen, "out of memory for the counters");
fail:
	free(cpus);
	free(tids);
	pmu_free(p);
	return NULL;
}

/* ---- opening and reading ---------------------------------------------------------------- */

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			   unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    PERF_FLAG_FD_CLOEXEC | flags);
}

static void fill_attr(const struct kt_pmu *p, const struct kt_pmu_counter *c, bool leader,
		      struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = c->attr.type;
	attr->config = c->attr.config;
	attr->config1 = c->attr.config1;
	attr->config2 = c->attr.config2;
	attr->read_format = READ_FORMAT;
	/* The leader starts disabled, so the group starts as a whole at PERF_EVENT_IOC_ENABLE. */
	attr->disabled = leader;
	attr->inherit = p->per_task;
	attr->exclude_user = c->attr.exclude_user;
	attr->exclude_kernel = c->attr.exclude_kernel;
	attr->exclude_hv = c->attr.exclude_hv;
}

/* Room for one fd per counter and slot, if the hard limit allows. */
static void raise_fd_limit(size_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	want += 256;
	if (rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static void close_slot(struct kt_pmu *p, int slot)
{
	int g, k;

	for (g = 0; g < p->ngroups; g++) {
		struct pmu_sg *sg = SG(p, slot, g);

		for (k = 0; k < KT_PMU_GROUP_MAX; k++) {
			if (sg->fds[k] >= 0)
				close(sg->fds[k]);
			sg->fds[k] = -1;
		}
		sg->n = 0;
	}
}

/* Software events the kernel counts only in its own context (the scheduler's), so that
 * with exclude_kernel they would always read 0. */
static bool kernel_only(const struct kt_pmu_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* Opens c in slot sl. A task's counter that may not count the kernel (EACCES or EPERM:
 * kernel.perf_event_paranoid >= 2 without CAP_PERFMON) counts user space only from then
 * on and is named NAME:u, as perf stat falls back; a counter that only the kernel's
 * context moves is left refused rather than shown as a 0. Returns the fd, or -1 with
 * errno. */
static int open_counter(const struct kt_pmu *p, struct kt_pmu_counter *c,
			const struct pmu_slot *sl, int group_fd, struct perf_event_attr *attr)
{
	size_t n;
	int fd;

	fill_attr(p, c, group_fd < 0, attr);
	if (p->cgroup_fd >= 0)
		return perf_event_open(attr, p->cgroup_fd, sl->cpu, group_fd,
				       PERF_FLAG_PID_CGROUP);
	fd = perf_event_open(attr, p->per_task ? sl->tid : -1, sl->cpu, group_fd, 0);
	if (fd >= 0 || (errno != EACCES && errno != EPERM) || !p->per_task ||
	    c->attr.exclude_kernel || kernel_only(&c->attr))
		return fd;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = perf_event_open(attr, sl->tid, sl->cpu, group_fd, 0);
	if (fd < 0)
		return -1;
	c->attr.exclude_kernel = c->attr.exclude_hv = true;
	n = strlen(c->name);
	if (n + 2 < sizeof(c->name))
		memcpy(c->name + n, ":u", 3);
	return fd;
}

/* The reason a task's counter was refused for want of privilege, when it is not
 * pmu_reason's: another user's process, a count only the kernel makes while user space
 * counts (others opened: navail), or nothing at all at kernel.perf_event_paranoid=3
 * (Debian's kernels forbid users perf_event_open then). Returns whether it filled
 * c->reason. */
static bool task_refusal(const struct kt_pmu *p, struct kt_pmu_counter *c, int navail)
{
	char path[64];
	struct stat st;
	int paranoid;

	if (!p->per_task || (c->err != EACCES && c->err != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%d", (int)p->slots[0].tid);
	if (geteuid() != 0 && stat(path, &st) == 0 && st.st_uid != geteuid()) {
		snprintf(c->reason, sizeof(c->reason), "not permitted: pid %d is not this user's "
			 "(perf counts another user's process only with CAP_PERFMON; run ktop as "
			 "its owner or as root)", (int)p->slots[0].tid);
		return true;
	}
	paranoid = read_paranoid();
	if (paranoid >= 2 && navail && kernel_only(&c->attr)) {
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

/* perf_cgroup_connect's answer when the hierarchy lacks the perf_event controller (ENOENT)
 * or the fd is no cgroup (EBADF), given by every counter. */
static bool cgroup_refused(const int *first_err, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (first_err[i] && first_err[i] != ENOENT && first_err[i] != EBADF)
			return false;
	return n > 0;
}

int pmu_open(struct kt_pmu *p, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	int *first_err, s, g, k, fd, alive = 0, navail = 0;
	size_t i, want = 0;

	first_err = calloc(p->ncounters ? p->ncounters : 1, sizeof(*first_err));
	if (!first_err) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (g = 0; g < p->ngroups; g++)
		want += (size_t)p->groups[g].n;
	raise_fd_limit(want * (size_t)p->nslots);

	for (s = 0; s < p->nslots; s++) {
		struct pmu_slot *sl = &p->slots[s];

		close_slot(p, s);
		for (g = 0; g < p->ngroups && !sl->gone; g++) {
			struct pmu_group *gr = &p->groups[g];
			struct pmu_sg *sg = SG(p, s, g);

			for (k = 0; k < gr->n; k++) {
				struct kt_pmu_counter *c = &p->counters[gr->counters[k]];

				fd = open_counter(p, c, sl, sg->n ? sg->fds[0] : -1, &attr);
				if (fd < 0 && errno == ESRCH && p->per_task) {
					sl->gone = true; /* the thread ended meanwhile */
					break;
				}
				if (fd < 0) {
					if (!first_err[gr->counters[k]])
						first_err[gr->counters[k]] = errno;
					continue;
				}
				sg->fds[sg->n] = fd;
				sg->members[sg->n++] = gr->counters[k];
			}
		}
		if (sl->gone) {
			close_slot(p, s);
			continue;
		}
		alive++;
		for (g = 0; g < p->ngroups; g++) {
			struct pmu_sg *sg = SG(p, s, g);

			sg->fed = false;
			sg->p_enabled = sg->p_running = 0;
			memset(sg->p_raw, 0, sizeof(sg->p_raw));
			if (sg->n)
				ioctl(sg->fds[0], PERF_EVENT_IOC_ENABLE, 0);
		}
	}
	pmu_set_start(p, clock_mono_ns());

	for (i = 0; i < p->ncounters; i++) {
		struct kt_pmu_counter *c = &p->counters[i];

		if (!c->resolved)
			continue; /* the reason of its resolution stands */
		c->available = false;
		for (s = 0; s < p->nslots && !c->available; s++)
			for (g = 0; g < p->ngroups && !c->available; g++)
				for (k = 0; k < SG(p, s, g)->n; k++)
					if (SG(p, s, g)->members[k] == (int)i)
						c->available = true;
		if (c->available) {
			c->err = 0;
			c->reason[0] = '\0';
			navail++;
		} else {
			c->err = first_err[i] ? first_err[i] : ESRCH;
		}
	}
	for (i = 0; i < p->ncounters; i++) {
		struct kt_pmu_counter *c = &p->counters[i];

		if (c->resolved && !c->available && !task_refusal(p, c, navail))
			pmu_reason(c->err, &c->attr, p->sysfs_root, p->per_task, c->reason,
				   sizeof(c->reason));
	}
	if (p->cgroup_fd >= 0 && !navail && cgroup_refused(first_err, p->ncounters)) {
		free(first_err);
		snprintf(err, errlen, "--pmu --cgroup %s: the kernel has no perf_event controller "
			 "on that cgroup's hierarchy (give the cgroup's path below the cgroup v2 "
			 "mount or a v1 perf_event hierarchy, or count its processes with -p)",
			 p->cgroup_dir);
		return -1;
	}
	free(first_err);
	if (p->per_task && !alive) {
		snprintf(err, errlen, "-p: every thread exited before its counters opened");
		return -1;
	}
	return navail;
}

void pmu_set_start(struct kt_pmu *p, unsigned long long now_ns)
{
	p->start_ns = p->prev_ns = p->now_ns = now_ns;
	p->interval = 0;
	p->samples = 0;
}

int pmu_feed(struct kt_pmu *p, int slot, int group, const void *buf, size_t len)
{
	uint64_t w[GROUP_READ_WORDS];
	struct pmu_sg *sg;
	int k;

	if (slot < 0 || slot >= p->nslots || group < 0 || group >= p->ngroups)
		return -1;
	sg = SG(p, slot, group);
	if (len < 3 * sizeof(uint64_t) || len > sizeof(w))
		return -1;
	memcpy(w, buf, len);
	if (w[0] != (uint64_t)sg->n || len < (3 + w[0]) * sizeof(uint64_t))
		return -1;
	sg->enabled = w[1];
	sg->running = w[2];
	for (k = 0; k < sg->n; k++) {
		sg->raw[k] = w[3 + k];
		/* It delivers values, so it counts (pmu_open() says the same of what opened). */
		p->counters[sg->members[k]].available = true;
	}
	sg->fed = true;
	return 0;
}

double pmu_scale(uint64_t value, uint64_t enabled, uint64_t running, double *share)
{
	if (enabled == 0) {
		if (share)
			*share = 1.0;
		return (double)value;
	}
	if (running == 0) {
		if (share)
			*share = 0.0;
		return 0.0;
	}
	if (share)
		*share = running >= enabled ? 1.0 : (double)running / (double)enabled;
	if (running >= enabled)
		return (double)value;
	return (double)value * ((double)enabled / (double)running);
}

void pmu_update(struct kt_pmu *p, unsigned long long now_ns)
{
	double dt, scale, share;
	uint64_t d_raw, d_en, d_run;
	size_t i;
	int s, g, k;

	if (now_ns < p->prev_ns)
		now_ns = p->prev_ns;
	dt = (double)(now_ns - p->prev_ns) / 1e9;
	memset(p->acc, 0, p->ncounters * sizeof(*p->acc));
	for (i = 0; i < p->ncounters; i++) {
		struct kt_pmu_counter *c = &p->counters[i];

		c->raw = 0;
		c->value = 0;
		c->counted = false;
		for (s = 0; s < p->nslots; s++) {
			c->slots[s].open = false;
			c->slots[s].rate = NAN;
		}
	}
	for (s = 0; s < p->nslots; s++) {
		for (g = 0; g < p->ngroups; g++) {
			struct pmu_sg *sg = SG(p, s, g);

			if (!sg->fed)
				continue;
			d_en = sg->enabled >= sg->p_enabled ? sg->enabled - sg->p_enabled : 0;
			d_run = sg->running >= sg->p_running ? sg->running - sg->p_running : 0;
			for (k = 0; k < sg->n; k++) {
				struct kt_pmu_counter *c = &p->counters[sg->members[k]];
				struct kt_pmu_slot_value *sv = &c->slots[s];
				struct pmu_acc *a = &p->acc[sg->members[k]];

				scale = c->attr.scale > 0 ? c->attr.scale : 1.0;
				sv->open = true;
				sv->raw = sg->raw[k];
				sv->enabled = sg->enabled;
				sv->running = sg->running;
				sv->scaled = pmu_scale(sg->raw[k], sg->enabled, sg->running,
						       &share) * scale;
				d_raw = sg->raw[k] >= sg->p_raw[k] ? sg->raw[k] - sg->p_raw[k] : 0;
				if (dt <= 0)
					sv->rate = NAN;
				else if (d_run > 0)
					sv->rate = pmu_scale(d_raw, d_en, d_run, NULL) * scale / dt;
				else if (d_en == 0)
					sv->rate = 0; /* the thread did not run: nothing to count */
				else
					sv->rate = NAN; /* multiplexed out the whole interval */
				c->raw += sv->raw;
				c->value += sv->scaled;
				if (sg->running > 0 || sg->enabled == 0)
					c->counted = true;
				a->en += sg->enabled;
				a->run += sg->running;
				a->d_en += d_en;
				a->d_run += d_run;
				if (!isnan(sv->rate)) {
					a->rate += sv->rate;
					a->any_rate = true;
				}
			}
			sg->p_enabled = sg->enabled;
			sg->p_running = sg->running;
			memcpy(sg->p_raw, sg->raw, sizeof(sg->p_raw));
		}
	}
	for (i = 0; i < p->ncounters; i++) {
		struct kt_pmu_counter *c = &p->counters[i];
		struct pmu_acc *a = &p->acc[i];

		c->rate = a->any_rate ? a->rate : NAN;
		c->share = a->d_en ? (a->d_run >= a->d_en ? 1.0 : (double)a->d_run / (double)a->d_en)
				   : NAN;
		c->share_total = a->en ? (a->run >= a->en ? 1.0 : (double)a->run / (double)a->en)
				       : NAN;
	}
	p->interval = dt;
	p->samples++;
	p->prev_ns = now_ns;
	p->now_ns = now_ns;
}

void pmu_read(struct kt_pmu *p)
{
	uint64_t buf[GROUP_READ_WORDS];
	ssize_t n;
	int s, g;

	if (p->stopped)
		return;
	for (s = 0; s < p->nslots; s++)
		for (g = 0; g < p->ngroups; g++) {
			struct pmu_sg *sg = SG(p, s, g);

			if (!sg->n || sg->fds[0] < 0)
				continue;
			n = read(sg->fds[0], buf, sizeof(buf));
			if (n > 0)
				pmu_feed(p, s, g, buf, (size_t)n);
		}
	pmu_update(p, clock_mono_ns());
}

void pmu_stop(struct kt_pmu *p)
{
	int s, g;

	pmu_read(p);
	for (s = 0; s < p->nslots; s++)
		for (g = 0; g < p->ngroups; g++)
			if (SG(p, s, g)->n)
				ioctl(SG(p, s, g)->fds[0], PERF_EVENT_IOC_DISABLE, 0);
	p->stopped = true;
}

void pmu_free(struct kt_pmu *p)
{
	size_t i;
	int s;

	if (!p)
		return;
	if (p->sg)
		for (s = 0; s < p->nslots; s++)
			close_slot(p, s);
	if (p->counters)
		for (i = 0; i < p->ncounters; i++)
			free(p->counters[i].slots);
	free(p->counters);
	free(p->groups);
	free(p->slots);
	free(p->sg);
	free(p->acc);
	free(p->pids);
	if (p->cgroup_fd >= 0)
		close(p->cgroup_fd);
	free(p->cgroup_dir);
	free(p->sysfs_root);
	free(p->tracing_dir);
	free(p);
}

/* ---- what the front ends read ------------------------------------------------------------ */

bool pmu_refused(const struct kt_pmu *p, char *why, size_t len)
{
	const struct kt_pmu_counter *refused = NULL;
	size_t i;

	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		if (c->available)
			return false;
		if (!refused && (c->err == EACCES || c->err == EPERM))
			refused = c;
	}
	if (!refused)
		return false;
	snprintf(why, len, "--pmu: %s", refused->reason);
	return true;
}

size_t pmu_ncounters(const struct kt_pmu *p)
{
	return p->ncounters;
}

const struct kt_pmu_counter *pmu_counter(const struct kt_pmu *p, size_t i)
{
	return i < p->ncounters ? &p->counters[i] : NULL;
}

int pmu_nslots(const struct kt_pmu *p)
{
	return p->nslots;
}

int pmu_slot_id(const struct kt_pmu *p, int slot)
{
	return p->per_task ? (int)p->slots[slot].tid : p->slots[slot].cpu;
}

bool pmu_per_task(const struct kt_pmu *p)
{
	return p->per_task;
}

const char *pmu_slot_label(const struct kt_pmu *p, int slot, char *buf, size_t len)
{
	if (p->per_task)
		snprintf(buf, len, "tid %d", (int)p->slots[slot].tid);
	else
		snprintf(buf, len, "cpu%d", p->slots[slot].cpu);
	return buf;
}

const char *pmu_target_text(const struct kt_pmu *p, char *buf, size_t len)
{
	size_t i;
	int n;

	if (p->cgroup_fd >= 0) {
		snprintf(buf, len, "cgroup %s, %d CPU%s", p->cgroup_dir, p->nslots,
			 p->nslots == 1 ? "" : "s");
		return buf;
	}
	if (!p->per_task) {
		snprintf(buf, len, "system-wide, %d CPU%s", p->nslots, p->nslots == 1 ? "" : "s");
		return buf;
	}
	n = snprintf(buf, len, "pid");
	for (i = 0; i < p->npids && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s%d", i ? "," : " ", (int)p->pids[i]);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%d thread%s)", p->nslots,
			 p->nslots == 1 ? "" : "s");
	return buf;
}

double pmu_elapsed(const struct kt_pmu *p)
{
	return (double)(p->now_ns - p->start_ns) / 1e9;
}

unsigned pmu_samples(const struct kt_pmu *p)
{
	return p->samples;
}

double pmu_interval(const struct kt_pmu *p)
{
	return p->interval;
}

bool pmu_counter_shown(const struct kt_pmu *p, size_t i)
{
	const struct kt_pmu_counter *c = &p->counters[i];

	return c->available || !c->optional;
}

static const struct {
	const char *name, *unit;
	enum kt_pmu_role num, den;
	double mult;
} ratio_defs[KT_PMU_NRATIOS] = {
	{ "IPC", "", KT_PMU_ROLE_INSTRUCTIONS, KT_PMU_ROLE_CYCLES, 1.0 },
	{ "cache-miss-rate", "%", KT_PMU_ROLE_CACHE_MISSES, KT_PMU_ROLE_CACHE_REFS, 100.0 },
	{ "branch-miss-rate", "%", KT_PMU_ROLE_BRANCH_MISSES, KT_PMU_ROLE_BRANCHES, 100.0 },
};

static const char *role_name(enum kt_pmu_role r)
{
	switch (r) {
	case KT_PMU_ROLE_CYCLES:
		return "cycles";
	case KT_PMU_ROLE_INSTRUCTIONS:
		return "instructions";
	case KT_PMU_ROLE_CACHE_REFS:
		return "cache-references";
	case KT_PMU_ROLE_CACHE_MISSES:
		return "cache-misses";
	case KT_PMU_ROLE_BRANCHES:
		return "branches";
	case KT_PMU_ROLE_BRANCH_MISSES:
		return "branch-misses";
	default:
		return "?";
	}
}

/* The counter with a role: an available one in the same group as the partner if any. */
static const struct kt_pmu_counter *find_role(const struct kt_pmu *p, enum kt_pmu_role r,
					      int group)
{
	const struct kt_pmu_counter *any = NULL;
	size_t i;

	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		if (c->role != r || !c->available)
			continue;
		if (group < 0 || c->group == group)
			return c;
		if (!any)
			any = c;
	}
	return any;
}

void pmu_ratios(const struct kt_pmu *p, struct kt_pmu_ratio out[KT_PMU_NRATIOS])
{
	const struct kt_pmu_counter *num, *den;
	int i;

	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		struct kt_pmu_ratio *r = &out[i];

		r->name = ratio_defs[i].name;
		r->unit = ratio_defs[i].unit;
		r->value = r->rate_value = NAN;
		r->why[0] = '\0';
		den = find_role(p, ratio_defs[i].den, -1);
		num = find_role(p, ratio_defs[i].num, den ? den->group : -1);
		if (!num || !den) {
			snprintf(r->why, sizeof(r->why), "needs %s and %s: %s unavailable",
				 role_name(ratio_defs[i].num), role_name(ratio_defs[i].den),
				 !num && !den ? "both" : !num ? role_name(ratio_defs[i].num)
							      : role_name(ratio_defs[i].den));
			continue;
		}
		if (!num->counted || !den->counted || den->value <= 0) {
			snprintf(r->why, sizeof(r->why), "no %s counted yet",
				 role_name(ratio_defs[i].den));
			continue;
		}
		r->value = num->value / den->value * ratio_defs[i].mult;
		if (!isnan(num->rate) && !isnan(den->rate) && den->rate > 0)
			r->rate_value = num->rate / den->rate * ratio_defs[i].mult;
	}
}

/* ---- batch output ------------------------------------------------------------------------ */

static void json_number(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else if (v == floor(v) && fabs(v) < 9e15)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.6g", v);
}

static void text_number(FILE *out, double v, int width)
{
	if (v == floor(v) && fabs(v) < 9e15)
		fprintf(out, "%*.0f", width, v);
	else
		fprintf(out, "%*.6g", width, v);
}

void pmu_write_text(const struct kt_pmu *p, FILE *out)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	char target[128], label[32];
	size_t i;
	int s;

	fprintf(out, "# pmu: %s, %.3f s\n", pmu_target_text(p, target, sizeof(target)),
		pmu_elapsed(p));
	fprintf(out, "# pmu %-26s %18s %16s %8s ", "counter", "value", "rate/s", "running");
	for (s = 0; s < p->nslots; s++)
		fprintf(out, " %s", pmu_slot_label(p, s, label, sizeof(label)));
	fputc('\n', out);
	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		if (!pmu_counter_shown(p, i))
			continue;
		fprintf(out, "%-32s ", c->name);
		if (!c->available) {
			fprintf(out, "%18s  %s\n", "n/a", c->reason);
			continue;
		}
		if (!c->counted) {
			fprintf(out, "%18s  never scheduled: the PMU multiplexed it out (fewer "
				"counters at once would help)\n", "<not-counted>");
			continue;
		}
		text_number(out, c->value, 18);
		fputc(' ', out);
		if (isnan(c->rate))
			fprintf(out, "%16s", "-");
		else
			fprintf(out, "%16.1f", c->rate);
		fprintf(out, " %7.1f%% ", isnan(c->share_total) ? 0.0 : c->share_total * 100);
		for (s = 0; s < p->nslots; s++) {
			fputc(' ', out);
			if (!c->slots[s].open)
				fputs("-", out);
			else
				text_number(out, c->slots[s].scaled, 0);
		}
		if (c->attr.unit[0])
			fprintf(out, " %s", c->attr.unit);
		fputc('\n', out);
	}
	pmu_ratios(p, r);
	fputs("# pmu derived:", out);
	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		if (isnan(r[i].value))
			fprintf(out, "%s %s=n/a (%s)", i ? ";" : "", r[i].name, r[i].why);
		else
			fprintf(out, "%s %s=%.3f%s", i ? ";" : "", r[i].name, r[i].value,
				r[i].unit);
	}
	fputc('\n', out);
}

void pmu_write_json(const struct kt_pmu *p, FILE *out)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	size_t i;
	int s;

	fprintf(out, "{\"pmu\":{\"target\":\"%s\",",
		p->per_task ? "pid" : p->cgroup_fd >= 0 ? "cgroup" : "system");
	if (p->cgroup_fd >= 0) {
		fputs("\"cgroup\":", out);
		json_string(out, p->cgroup_dir);
		fputc(',', out);
	}
	if (p->per_task) {
		fputs("\"pids\":[", out);
		for (i = 0; i < p->npids; i++)
			fprintf(out, "%s%d", i ? "," : "", (int)p->pids[i]);
		fputs("],\"threads\":[", out);
	} else {
		fputs("\"cpus\":[", out);
	}
	for (s = 0; s < p->nslots; s++)
		fprintf(out, "%s%d", s ? "," : "", pmu_slot_id(p, s));
	fprintf(out, "],\"duration\":%.3f,\"counters\":[", pmu_elapsed(p));
	for (i = 0; i < p->ncounters; i++) {
		const struct kt_pmu_counter *c = &p->counters[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, c->name);
		fprintf(out, ",\"available\":%s", c->available ? "true" : "false");
		if (!c->available) {
			fputs(",\"reason\":", out);
			json_string(out, c->reason);
			fputs("}", out);
			continue;
		}
		fprintf(out, ",\"counted\":%s,\"value\":", c->counted ? "true" : "false");
		json_number(out, c->counted ? c->value : NAN);
		fprintf(out, ",\"raw\":%llu,\"rate\":", (unsigned long long)c->raw);
		json_number(out, c->rate);
		fputs(",\"running\":", out);
		json_number(out, c->share_total);
		if (c->attr.unit[0]) {
			fputs(",\"unit\":", out);
			json_string(out, c->attr.unit);
		}
		fprintf(out, ",\"%s\":[", p->per_task ? "per_thread" : "per_cpu");
		for (s = 0; s < p->nslots; s++) {
			if (s)
				fputc(',', out);
			json_number(out, c->slots[s].open ? c->slots[s].scaled : NAN);
		}
		fputs("]}", out);
	}
	fputs("],\"derived\":[", out);
	pmu_ratios(p, r);
	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		json_string(out, r[i].name);
		fputs(",\"value\":", out);
		json_number(out, r[i].value);
		if (r[i].unit[0]) {
			fputs(",\"unit\":", out);
			json_string(out, r[i].unit);
		}
		if (r[i].why[0]) {
			fputs(",\"why\":", out);
			json_string(out, r[i].why);
		}
		fputc('}', out);
	}
	fputs("]}}\n", out);
}
