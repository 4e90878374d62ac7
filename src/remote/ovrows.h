/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OVROWS frame (proto.h, docs/remote.md): the overview the explorer opened on an agent
 * (KT_REQ_OVERVIEW_LIVE), as one tick of it: where its figures come from, why a column is
 * empty, the agent's machine's system strip (sysstrip.h) and every process and thread
 * (overview.h), so the viewer's pane and -b --top show what they show locally. Bucket sets
 * travel as their non-empty slots only; doubles as their IEEE 754 bits. Pure codec.
 */
#ifndef KTOP_REMOTE_OVROWS_H
#define KTOP_REMOTE_OVROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/overview/overview.h"
#include "backend/overview/sysstrip.h"
#include "proto.h"

struct kt_ovrows {
	uint32_t id;		/* the KT_REQ_OVERVIEW_LIVE request that opened it */
	char source[256];	/* overview_source's */
	bool syscalls;		/* the syscall hooks are attached */
	char missing[KT_OVC_N][200]; /* overview_missing's, "" where the column has figures */
	struct kt_sysstrip sys;	/* its public figures */
	struct kt_ov_snap snap;	/* the caller frees it (overview_snap_free) */
};

/* One tick: the overview's state (source, syscalls, missing) and its snapshot. */
void msg_ovrows_encode(struct kt_wbuf *b, const struct kt_ovrows *o);
/* Returns 0 with o filled, or -1 when malformed (a slot out of range or given twice, a
 * count of rows the payload cannot hold, bytes left over; nothing to free then). */
int msg_ovrows_decode(const uint8_t *p, size_t n, struct kt_ovrows *o);
/* Frees a decoded tick's rows (as overview_snap_free, without the overview's code). */
void msg_ovrows_free(struct kt_ovrows *o);

#endif
