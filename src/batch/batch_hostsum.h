/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The summary of a batch run over agents, per host (issue 38's "per-host summary figures"):
 * what each agent sent and lost, read from its connection, its pages and the merge, and
 * the lines that say it (one remote's line, a line per host of several, a JSON object per
 * host). Apart from the agents' plumbing, so that any batch front end reading agents prints
 * them alike. */
#ifndef KTOP_BATCH_HOSTSUM_H
#define KTOP_BATCH_HOSTSUM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/ingest/reader.h"
#include "remote/client.h"
#include "remote/hostmerge.h"
#include "remote/pages.h"
#include "remote/proto.h"

/* One host's figures, and what names it. */
struct batch_hostsum {
	const char *label;	       /* -H's HOST, "via1" ... */
	const char *name;	       /* its agent's (remote_name) */
	const struct kt_hello *hello;  /* its kernel and CPUs */
	bool failed;		       /* it ended early */
	struct kt_remote_stats st;     /* bytes, frames, pages on the wire */
	struct kt_reader_stats rs;     /* events and losses its pages gave */
	struct kt_hostmerge_stats ms;  /* several hosts: its stalls and late records */
	struct kt_rbacklog bl;	       /* what it held unsent, most and at the end */
	uint64_t lost;		       /* events its kernel lost */
	int64_t off;		       /* its clock offset, when clock */
	uint64_t unc;
	bool clock;
};

/* Reads host idx's figures (m: the merge of several, NULL with one); label, name, hello
 * and failed are the caller's. */
void batch_hostsum_read(struct batch_hostsum *s, const struct kt_remote *r,
			const struct kt_rpages *p, const struct kt_hostmerge *m, unsigned idx);
/* One remote's line, before the totals. */
void batch_hostsum_one(FILE *out, const struct batch_hostsum *s);
/* Several remotes: host s's line, before the totals. */
void batch_hostsum_line(FILE *out, const struct batch_hostsum *s);
/* --json: host s's object in the summary's "hosts" list. */
void batch_hostsum_json(FILE *out, const struct batch_hostsum *s);

#endif
