/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several remotes' streams merged into one, in time order (docs/remote.md "Several hosts").
 * Each host hands over its records in its own time order (pages.c releases them up to the
 * host's watermark) and its watermarks, all on the host's clock. Here a record's time is
 * shifted onto this machine's clock by the host's clock offset (host minus ours, from the
 * pings), never earlier than the host's last shifted watermark (an offset refined later may
 * not move a host's records before what was already promised), and a record is handed on
 * only once every host that has not ended has a shifted watermark past it: records come
 * out in one non-decreasing order of shifted time.
 *
 * Bounded: when the queued records pass the cap (a host stalled: its link or its agent
 * stopped sending watermarks), the oldest are handed on without waiting; each one counts
 * in the stats of the host that held it back (the live host with the lowest watermark),
 * and a record that then comes older than one already handed on is handed on at once, out
 * of order, and counted late in its own host's stats.
 *
 * Pure, single-threaded, no I/O: the unit tests drive it (tests/unit/check_hostmerge.c).
 */
#ifndef KTOP_REMOTE_HOSTMERGE_H
#define KTOP_REMOTE_HOSTMERGE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/ingest/store.h"

/* The queued bytes past which records are handed on before their watermark (batch). */
#define KT_HOSTMERGE_CAP (64u << 20)

struct kt_hostmerge;

/* r in merged order: r->ts is the shifted time (this machine's clock), host_ts the host's
 * own; r->data is valid during the call. */
typedef void (*kt_hostmerge_emit)(void *ctx, unsigned host, const struct kt_rec *r,
				  uint64_t host_ts);

struct kt_hostmerge_stats {
	uint64_t emitted;  /* records handed on, loss markers included */
	uint64_t stalled;  /* records handed on past this host's watermark (the cap) */
	uint64_t late;	   /* this host's records handed on after a later one (out of order) */
};

/* nhosts hosts, their offsets 0 until set; cap: queued bytes (KT_HOSTMERGE_CAP). */
struct kt_hostmerge *hostmerge_new(unsigned nhosts, size_t cap, kt_hostmerge_emit emit,
				   void *ctx);
void hostmerge_free(struct kt_hostmerge *m);
/* The host's clock minus ours, in ns; applies to the records and watermarks that follow. */
void hostmerge_offset(struct kt_hostmerge *m, unsigned host, int64_t offset);
/* One record of host's (r->ts on its clock), copied. */
void hostmerge_put(struct kt_hostmerge *m, unsigned host, const struct kt_rec *r);
/* Every record of host's before ts (its clock) has been put: hands on what that allows. */
void hostmerge_watermark(struct kt_hostmerge *m, unsigned host, uint64_t ts);
/* host ended (its END, or it died): it holds no one back any more; its queued records go
 * out in order with the others'. */
void hostmerge_end(struct kt_hostmerge *m, unsigned host);
/* Hands on everything queued, in order (the end of the run). */
void hostmerge_flush(struct kt_hostmerge *m);
void hostmerge_stats(const struct kt_hostmerge *m, unsigned host,
		     struct kt_hostmerge_stats *out);

#endif
