// SPDX-License-Identifier: GPL-2.0-or-later
/* Opening and reading a counter set (see pmu.h): perf_event_open groups in every slot, the
 * user-space fallback of a task's counter, one read() per group on the tick, scaling for
 * multiplexing and rates. */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu_idle.h"
#include "pmu_local.h"
#include "util/clock.h"

#define READ_FORMAT                                                                \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
#define GROUP_READ_WORDS (3 + KT_PMU_GROUP_MAX)

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
	    c->attr.exclude_kernel || pmu_attr_kernel_only(&c->attr))
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

/* System-wide, cpu-clock is shown busy: the CPUs' idle time from now on is taken away. */
static void open_idle(struct kt_pmu *p)
{
	int s;

	p->busy_clock = !p->per_task && p->cgroup_fd < 0;
	if (!p->busy_clock)
		return;
	pmu_idle_read(p->slots, p->nslots);
	for (s = 0; s < p->nslots; s++)
		p->slots[s].idle0_ns = p->slots[s].p_idle_ns = p->slots[s].idle_ns;
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

		if (c->resolved && !c->available && !pmu_task_reason(c, p->slots[0].tid, navail))
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
	open_idle(p);
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

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* cpu-clock and task-clock on a CPU count its idle task too: take the idle time away
 * (pmu_idle.h). */
static void busy_only(const struct kt_pmu *p, const struct kt_pmu_counter *c, int s,
		      struct kt_pmu_slot_value *sv, uint64_t *d_raw)
{
	const struct pmu_slot *sl = &p->slots[s];
	double idle;

	if (!p->busy_clock || !sl->idle_known || c->attr.type != PERF_TYPE_SOFTWARE ||
	    (c->attr.config != PERF_COUNT_SW_CPU_CLOCK &&
	     c->attr.config != PERF_COUNT_SW_TASK_CLOCK))
		return;
	idle = (double)minus(sl->idle_ns, sl->idle0_ns);
	sv->scaled = sv->scaled > idle ? sv->scaled - idle : 0;
	*d_raw = minus(*d_raw, minus(sl->idle_ns, sl->p_idle_ns));
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
				busy_only(p, c, s, sv, &d_raw);
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
		p->slots[s].p_idle_ns = p->slots[s].idle_ns;
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
	if (p->busy_clock)
		pmu_idle_read(p->slots, p->nslots);
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
