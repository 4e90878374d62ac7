// SPDX-License-Identifier: GPL-2.0-or-later
/* A counter set's figures as plain values (pmu_snap.h); pmu.c takes them from a set. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_snap.h"

void pmu_snap_free(struct kt_pmu_snap *s)
{
	for (uint32_t i = 0; s->counters && i < s->ncounters; i++)
		free(s->counters[i].slots);
	free(s->counters);
	free(s->slot_ids);
	memset(s, 0, sizeof(*s));
}

const char *pmu_snap_slot_label(const struct kt_pmu_snap *s, uint32_t slot, char *buf,
				size_t len)
{
	if (s->per_task)
		snprintf(buf, len, "tid %d", (int)s->slot_ids[slot]);
	else
		snprintf(buf, len, "cpu%d", (int)s->slot_ids[slot]);
	return buf;
}
