// SPDX-License-Identifier: GPL-2.0-or-later
#include "cpuslice.h"

#include <stdlib.h>
#include <string.h>

struct cpu_state {
	bool seen;
	uint64_t since;
	struct kt_cpuslice running;	/* its start and task; end filled when it ends */
};

struct kt_cpuslicer {
	int ncpus;
	uint64_t start;
	kt_cpuslice_fn emit;
	void *arg;
	struct cpu_state cpu[];
};

struct kt_cpuslicer *cpuslicer_new(int ncpus, uint64_t start, kt_cpuslice_fn emit, void *arg)
{
	struct kt_cpuslicer *s;

	if (ncpus < 0)
		ncpus = 0;
	s = calloc(1, sizeof(*s) + (size_t)ncpus * sizeof(s->cpu[0]));
	if (!s)
		return NULL;
	s->ncpus = ncpus;
	s->start = start;
	s->emit = emit;
	s->arg = arg;
	return s;
}

static void set_task(struct kt_cpuslice *sl, int cpu, const struct kt_slice_task *t)
{
	sl->cpu = cpu;
	sl->pid = t->pid;
	sl->prio = t->prio;
	strncpy(sl->comm, t->comm ? t->comm : "", sizeof(sl->comm) - 1);
	sl->comm[sizeof(sl->comm) - 1] = '\0';
}

static void end_slice(struct kt_cpuslicer *s, struct kt_cpuslice *sl, uint64_t end,
		      bool clipped)
{
	if (end <= sl->start)
		return;
	sl->end = end;
	sl->clipped_end = clipped;
	s->emit(sl, s->arg);
}

void cpuslicer_switch(struct kt_cpuslicer *s, int cpu, uint64_t ts,
		      const struct kt_slice_task *prev, const struct kt_slice_task *next)
{
	struct cpu_state *c;
	struct kt_cpuslice *sl;

	if (cpu < 0 || cpu >= s->ncpus)
		return;
	c = &s->cpu[cpu];
	sl = &c->running;
	if (c->seen && ts < c->since)
		return;
	/* The kernel's prev_* names the task that ran, even when a lost switch left ours
	 * stale, so the slice ending here takes it. */
	if (!c->seen) {
		memset(sl, 0, sizeof(*sl));
		sl->start = s->start < ts ? s->start : ts;
		sl->clipped_start = true;
	}
	set_task(sl, cpu, prev);
	end_slice(s, sl, ts, false);
	memset(sl, 0, sizeof(*sl));
	sl->start = ts;
	set_task(sl, cpu, next);
	c->seen = true;
	c->since = ts;
}

void cpuslicer_finish(struct kt_cpuslicer *s, uint64_t end)
{
	if (!s)
		return;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->cpu[cpu].seen)
			end_slice(s, &s->cpu[cpu].running, end, true);
	free(s);
}
