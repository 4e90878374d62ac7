// SPDX-License-Identifier: GPL-2.0-or-later
/* The ring buffer's own loss counters, from per_cpu/cpuN/stats. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "loss.h"

/* The file, on 6.x kernels:
 *   entries: 0
 *   overrun: 0
 *   commit overrun: 0
 *   bytes: 0
 *   oldest event ts:     0.000000
 *   now ts:   302.441769
 *   dropped events: 0
 *   read events: 0
 */
static const char *const loss_keys[] = {
	"entries", "overrun", "commit overrun", "bytes", "dropped events", "read events",
};

#define N_FIELDS (sizeof(loss_keys) / sizeof(loss_keys[0]))

static uint64_t *loss_field(struct kt_cpu_stats *st, size_t i)
{
	uint64_t *const fields[N_FIELDS] = {
		&st->entries, &st->overrun, &st->commit_overrun,
		&st->bytes, &st->dropped_events, &st->read_events,
	};

	return fields[i];
}

/* "  1320.037306" (seconds.microseconds) into microseconds; 0 when it is not that. */
static uint64_t stats_us(const char *p)
{
	unsigned long long sec, usec;
	int n = 0;

	if (sscanf(p, "%llu.%6llu%n", &sec, &usec, &n) != 2 || n == 0)
		return 0;
	return sec * 1000000ULL + usec;
}

int loss_parse_stats(const char *text, struct kt_cpu_stats *out)
{
	const char *line, *colon, *nl;
	unsigned int seen = 0;
	unsigned long long v;
	size_t i, klen;
	char *end;

	if (!text || !out)
		return -1;
	memset(out, 0, sizeof(*out));
	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		colon = strchr(line, ':');
		if (!colon || (nl && colon > nl))
			continue;
		klen = (size_t)(colon - line);
		if (klen == 15 && !strncmp(line, "oldest event ts", klen))
			out->oldest_us = stats_us(colon + 1);
		else if (klen == 6 && !strncmp(line, "now ts", klen))
			out->now_us = stats_us(colon + 1);
		for (i = 0; i < N_FIELDS; i++) {
			if (strlen(loss_keys[i]) != klen || strncmp(line, loss_keys[i], klen))
				continue;
			errno = 0;
			v = strtoull(colon + 1, &end, 10);
			if (errno || end == colon + 1)
				return -1;
			*loss_field(out, i) = v;
			seen |= 1u << i;
		}
	}
	return seen == (1u << N_FIELDS) - 1 ? 0 : -1;
}

int loss_read_cpu(struct tracefs_instance *inst, int cpu, struct kt_cpu_stats *out)
{
	char file[64], *text;
	int ret;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(inst, file, NULL);
	if (!text)
		return -1;
	ret = loss_parse_stats(text, out);
	free(text);
	return ret;
}

uint64_t loss_total(const struct kt_cpu_stats *st)
{
	return st->overrun + st->commit_overrun + st->dropped_events;
}
