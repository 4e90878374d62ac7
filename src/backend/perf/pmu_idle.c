// SPDX-License-Identifier: GPL-2.0-or-later
/* Each CPU's idle time from /proc/stat (pmu_idle.h). */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "pmu_idle.h"
#include "pmu_local.h"

void pmu_idle_read(struct pmu_slot *slots, int n)
{
	FILE *f = fopen("/proc/stat", "re");
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long idle, iowait;
	char line[512];
	int cpu, i;

	for (i = 0; i < n; i++)
		slots[i].idle_known = false;
	if (!f)
		return;
	if (hz <= 0)
		hz = 100;
	while (fgets(line, sizeof(line), f)) {
		/* cpuN user nice system idle iowait ... in USER_HZ ticks */
		if (sscanf(line, "cpu%d %*u %*u %*u %llu %llu", &cpu, &idle, &iowait) != 3)
			continue;
		for (i = 0; i < n; i++)
			if (slots[i].cpu == cpu) {
				slots[i].idle_ns = (idle + iowait) * (1000000000ULL / (uint64_t)hz);
				slots[i].idle_known = true;
			}
	}
	fclose(f);
}
