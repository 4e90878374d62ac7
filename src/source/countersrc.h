/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the counters pane draws: a counter set's figures (backend/perf/pmu_snap.h), opened by
 * the source: counted by perf on this machine (the live source, app_pmu_open, read by
 * app_tick) or by agents (the remote source's, their figures sent on every tick of the explorer's), one set
 * per host. The pane updates it on its tick, reads each host's figures of that update, and
 * closes it; it never knows which.
 */
#ifndef KTOP_COUNTERSRC_H
#define KTOP_COUNTERSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/perf/pmu_snap.h"

struct kt_countersrc;

/* One host's counters as of the last update. */
struct kt_countersrc_host {
	const char *label;  /* several hosts: its label; NULL with one */
	const char *refusal; /* its agent refused to open them (its one line), or NULL */
	const struct kt_pmu_snap *snap; /* NULL until its first figures came */
};

struct kt_countersrc_ops {
	/* takes what came since the last update (the set's last read, each agent's last
	 * figures); what host returns stays until the next. false: nothing came */
	bool (*update)(struct kt_countersrc *c);
	unsigned (*nhosts)(struct kt_countersrc *c);
	void (*host)(struct kt_countersrc *c, unsigned i, struct kt_countersrc_host *out);
	/* stops them (their fds go, here or on the agents) and frees c */
	void (*close)(struct kt_countersrc *c);
};

struct kt_countersrc {
	const struct kt_countersrc_ops *ops;
};

/* Opened by source_counters_open (source.h): the counters the options name (the default
 * set, --pmu-event, the scope); with several hosts NULL only when none took them (the
 * others' refusals are their hosts'). Stops them and frees c. NULL is fine. */
static inline void countersrc_close(struct kt_countersrc *c)
{
	if (c)
		c->ops->close(c);
}

#endif
