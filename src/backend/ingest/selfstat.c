// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop's own cost: CPU time over wall time between samples, and resident memory. */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "selfstat.h"
#include "util/clock.h"

/* VmRSS and VmHWM from /proc/self/status, in kB. */
static void read_status(unsigned long *rss, unsigned long *hwm)
{
	char line[256];
	unsigned long v;
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmRSS: %lu kB", &v) == 1)
			*rss = v;
		else if (sscanf(line, "VmHWM: %lu kB", &v) == 1)
			*hwm = v;
	}
	fclose(f);
}

void selfstat_sample(struct kt_selfstat *s)
{
	unsigned long long cpu = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	unsigned long long wall = clock_ns(CLOCK_MONOTONIC);
	unsigned long hwm = 0;

	if (s->last_wall_ns && wall > s->last_wall_ns && cpu >= s->last_cpu_ns)
		s->cpu_pct = 100.0 * (double)(cpu - s->last_cpu_ns) /
			     (double)(wall - s->last_wall_ns);
	else
		s->cpu_pct = 0.0;
	s->last_cpu_ns = cpu;
	s->last_wall_ns = wall;
	read_status(&s->rss_kb, &hwm);
	/* VmHWM lags VmRSS a little (per-thread counters are folded in lazily): keep the
	 * peak monotonic. */
	if (s->peak_rss_kb < hwm)
		s->peak_rss_kb = hwm;
	if (s->peak_rss_kb < s->rss_kb)
		s->peak_rss_kb = s->rss_kb;
}
