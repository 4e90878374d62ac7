/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HISTROWS frame (proto.h, docs/remote.md): a histogram the explorer opened on an agent
 * (KT_REQ_HIST_LIVE), as its rows after each -d tick, so the viewer's pane draws what a
 * local one does. Each bucket set travels as its non-empty slots only. Pure codec.
 */
#ifndef KTOP_REMOTE_HISTROWS_H
#define KTOP_REMOTE_HISTROWS_H

#include <stdint.h>

#include "backend/bpf/histdata.h"
#include "proto.h"

struct kt_histrows {
	uint32_t id;		  /* the KT_REQ_HIST_LIVE request that opened it */
	char variant[16];	  /* how it is attached: "tp_btf"... */
	uint64_t missed;	  /* bpfhist_missed */
	struct kt_hist_row total; /* all keys together */
	struct kt_hist_row *rows; /* malloc'd (NULL when none): the caller frees it */
	uint32_t nrows;
};

void msg_histrows_encode(struct kt_wbuf *b, uint32_t id, const char *variant, uint64_t missed,
			 const struct kt_hist_row *total, const struct kt_hist_row *rows,
			 size_t nrows);
/* Returns 0 with h filled, or -1 when malformed (a slot out of range or given twice, a
 * count of rows the payload cannot hold, bytes left over; nothing to free then). */
int msg_histrows_decode(const uint8_t *p, size_t n, struct kt_histrows *h);

#endif
