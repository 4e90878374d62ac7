// SPDX-License-Identifier: GPL-2.0-or-later
/* Event names as perf spells them, resolved to an encoding (see pmu_names.h). */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu_names.h"
#include "util/fileio.h"

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

/* Software events the kernel counts only in its own context (the scheduler's), so that
 * with exclude_kernel they would always read 0. */
bool pmu_attr_kernel_only(const struct kt_pmu_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}
