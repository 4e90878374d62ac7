// SPDX-License-Identifier: GPL-2.0-or-later
/* The explorer's overview on the agent's machine (agentov.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentov.h"
#include "util/clock.h"
#include "backend/overview/overview.h"
#include "backend/overview/sysstrip.h"
#include "remote/ovrows.h"
#include "util/xalloc.h"

struct kt_agentov {
	struct kt_overview *ov;
	struct kt_ovrows rows; /* the tick being sent: its snapshot's rows reused */
	unsigned long long period_ns, next_ns;
};

struct kt_agentov *agentov_open(uint32_t id, const char *via, unsigned long long period_ns,
				char *reply, size_t len)
{
	struct kt_agentov *a;
	const char *only = *via ? via : NULL;

	if (only && strcmp(only, "tp_btf") && strcmp(only, "raw_tp") && strcmp(only, "proc")) {
		snprintf(reply, len, "--top=VIA takes tp_btf, raw_tp or proc, not '%.64s'", via);
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->ov = overview_open(only, true);
	/* a variant named is that variant or nothing, as local --top=VIA */
	if (only && strcmp(only, "proc") && strncmp(overview_source(a->ov), "bpf", 3)) {
		snprintf(reply, len, "--top=%s: %s", only, overview_source(a->ov));
		agentov_free(a);
		return NULL;
	}
	a->rows.id = id;
	a->period_ns = period_ns;
	a->next_ns = clock_mono_ns() + period_ns;
	sysstrip_sample(&a->rows.sys);
	snprintf(reply, len, "%s", overview_source(a->ov));
	return a;
}

uint32_t agentov_id(const struct kt_agentov *a)
{
	return a->rows.id;
}

int agentov_syscalls(struct kt_agentov *a, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "on") && strcmp(arg, "off")) {
		snprintf(err, errlen, "the overview's syscall hooks are \"on\" or \"off\", not "
			 "'%.64s'", arg);
		return -1;
	}
	if (overview_set_syscalls(a->ov, !strcmp(arg, "on"), err, errlen) < 0)
		return -1;
	snprintf(err, errlen, "syscall hooks %s", arg);
	return 0;
}

unsigned long long agentov_due(const struct kt_agentov *a)
{
	return a->next_ns;
}

void agentov_encode(struct kt_agentov *a, unsigned long long now, struct kt_wbuf *b)
{
	struct kt_ovrows *r = &a->rows;

	a->next_ns = now + a->period_ns;
	overview_read(a->ov, &r->snap);
	sysstrip_sample(&r->sys);
	overview_read_disks(a->ov, &r->snap); /* at diskstats' instant */
	overview_disk_latency(&r->snap, &r->sys);
	snprintf(r->source, sizeof(r->source), "%s", overview_source(a->ov));
	r->syscalls = overview_syscalls_on(a->ov);
	for (int c = 0; c < KT_OVC_N; c++)
		snprintf(r->missing[c], sizeof(r->missing[c]), "%s",
			 overview_missing(a->ov, (enum kt_ov_col)c));
	msg_ovrows_encode(b, r);
}

void agentov_free(struct kt_agentov *a)
{
	if (!a)
		return;
	overview_free(a->ov);
	overview_snap_free(&a->rows.snap);
	free(a);
}
