/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the histogram pane draws: one histogram, opened by the source (source_hist_open):
 * counted by BPF on this machine (the live source, app_hist_open, read by app_tick) or on
 * an agent's (the remote source, its rows sent on every -d tick; with several agents every
 * host's rows, each with its host). The pane updates it on its tick, reads the rows, the
 * totals, the variant and missed= of that update, and closes it; it never knows which.
 */
#ifndef KTOP_HISTSRC_H
#define KTOP_HISTSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/bpf/histdata.h"

struct kt_histsrc;

struct kt_histsrc_ops {
	/* takes what came since the last update (the map's last read, the agent's last
	 * rows); what the calls below return stays until the next. false: nothing came */
	bool (*update)(struct kt_histsrc *h);
	/* the keys (in no order the pane relies on), and all of them together */
	size_t (*rows)(struct kt_histsrc *h, const struct kt_hist_row **rows);
	const struct kt_hist_row *(*total)(struct kt_histsrc *h);
	/* how it is attached ("tp_btf", ...), and the samples the kernel skipped */
	const char *(*variant)(struct kt_histsrc *h);
	uint64_t (*missed)(struct kt_histsrc *h);
	/* several hosts (the remote source): the label of a row's host; NULL op, or NULL:
	 * one machine's rows, shown without */
	const char *(*host_label)(struct kt_histsrc *h, unsigned int host);
	/* several hosts: how many (every row's host is below it); NULL op: one machine */
	unsigned int (*hosts)(struct kt_histsrc *h);
	/* stops it (its programs go, here or on the agent) and frees h */
	void (*close)(struct kt_histsrc *h);
	/* counts the events of [from, to] alone (trace timestamps, inclusive), on: false
	 * every one, from the next update; NULL op: counted without times (in the kernel), so
	 * no range can scope it */
	void (*range)(struct kt_histsrc *h, bool on, uint64_t from, uint64_t to);
	/* on: the rows counted now are kept as a baseline, shown beside the next range's as
	 * a second host ("base"); off: dropped. NULL op: nothing to compare with */
	void (*baseline)(struct kt_histsrc *h, bool on);
};

struct kt_histsrc {
	const struct kt_histsrc_ops *ops;
	struct kt_hist_spec spec; /* as parsed: buckets, unit, key */
};

/* Opened by source_hist_open (source.h); stops it and frees h. NULL is fine. */
static inline void histsrc_close(struct kt_histsrc *h)
{
	if (h)
		h->ops->close(h);
}

#endif
