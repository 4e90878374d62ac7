/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The COUNTERROWS frame (proto.h, docs/remote.md): the counters the explorer opened on an
 * agent (KT_REQ_COUNTERS_LIVE), as their figures after each tick of the viewer's
 * (backend/perf/pmu_snap.h: the agent's own values, rates, shares and refusals, so the viewer's
 * pane draws what a local one does). Pure codec.
 */
#ifndef KTOP_REMOTE_COUNTERROWS_H
#define KTOP_REMOTE_COUNTERROWS_H

#include <stdint.h>

#include "backend/perf/pmu_snap.h"
#include "proto.h"

struct kt_counterrows {
	uint32_t id;		 /* the KT_REQ_COUNTERS_LIVE request that opened them */
	struct kt_pmu_snap snap; /* the caller frees it (pmu_snap_free) */
};

void msg_counterrows_encode(struct kt_wbuf *b, uint32_t id, const struct kt_pmu_snap *s);
/* Returns 0 with c filled, or -1 when malformed (a count the payload cannot hold, an
 * unknown figure format, an infinite figure, bytes left over; nothing to free then). */
int msg_counterrows_decode(const uint8_t *p, size_t n, struct kt_counterrows *c);

#endif
