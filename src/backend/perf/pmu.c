// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A counter set: building it, and what the front ends read (see pmu.h).
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
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu_local.h"
#include "pmu_snap.h"
#include "util/fileio.h"
#include "util/xalloc.h"

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

/* ---- the figures as plain values (pmu_snap.h) -------------------------------------------- */

static uint8_t counter_fmt(const struct kt_pmu_counter *c)
{
	/* cpu-clock and task-clock count nanoseconds */
	if (c->attr.type == PERF_TYPE_SOFTWARE && (c->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
						   c->attr.config == PERF_COUNT_SW_TASK_CLOCK))
		return KT_PMU_FMT_NS;
	if (c->attr.scale != 1.0 || c->attr.unit[0])
		return KT_PMU_FMT_UNIT;
	return KT_PMU_FMT_COUNT;
}

void pmu_snap_take(const struct kt_pmu *p, struct kt_pmu_snap *s)
{
	struct kt_pmu_ratio r[KT_PMU_NRATIOS];
	size_t i, n = pmu_ncounters(p);
	uint32_t k;

	pmu_snap_free(s);
	pmu_target_text(p, s->target, sizeof(s->target));
	s->per_task = pmu_per_task(p);
	s->samples = pmu_samples(p);
	s->interval = pmu_interval(p);
	s->nslots = (uint32_t)pmu_nslots(p);
	s->slot_ids = xcalloc(s->nslots ? s->nslots : 1, sizeof(*s->slot_ids));
	for (k = 0; k < s->nslots; k++)
		s->slot_ids[k] = pmu_slot_id(p, (int)k);
	s->counters = xcalloc(n ? n : 1, sizeof(*s->counters));
	for (i = 0; i < n; i++) {
		const struct kt_pmu_counter *c = pmu_counter(p, i);
		struct kt_pmu_snap_counter *o = &s->counters[s->ncounters];

		if (!pmu_counter_shown(p, i))
			continue;
		s->ncounters++;
		snprintf(o->name, sizeof(o->name), "%s", c->name);
		o->fmt = counter_fmt(c);
		snprintf(o->unit, sizeof(o->unit), "%s", c->attr.unit);
		o->user = c->user;
		o->available = c->available;
		o->counted = c->counted;
		snprintf(o->reason, sizeof(o->reason), "%s", c->reason);
		o->raw = c->raw;
		o->value = c->value;
		o->rate = c->rate;
		o->share = c->share;
		o->share_total = c->share_total;
		o->slots = xcalloc(s->nslots ? s->nslots : 1, sizeof(*o->slots));
		for (k = 0; k < s->nslots; k++) {
			o->slots[k].open = c->slots[k].open;
			o->slots[k].rate = c->slots[k].rate;
		}
	}
	pmu_ratios(p, r);
	for (i = 0; i < KT_PMU_NRATIOS; i++) {
		snprintf(s->ratios[i].name, sizeof(s->ratios[i].name), "%s", r[i].name);
		snprintf(s->ratios[i].unit, sizeof(s->ratios[i].unit), "%s", r[i].unit);
		s->ratios[i].value = r[i].value;
		s->ratios[i].rate_value = r[i].rate_value;
		snprintf(s->ratios[i].why, sizeof(s->ratios[i].why), "%s", r[i].why);
	}
}
