/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each host's clock offset into the merge of several hosts (hostmerge.h), for batch mode
 * and the explorer alike: the round trips before any event, then what every pong refines.
 * The offset must be in the merge before a watermark of the host's is: one shifted by a
 * stale offset would hold its later records back (hostmerge never moves a host's records
 * before its last shifted watermark).
 */
#ifndef KTOP_REMOTE_HOSTCLOCK_H
#define KTOP_REMOTE_HOSTCLOCK_H

#include <stddef.h>

struct kt_hostmerge;
struct kt_remote;

/* Round trips one after another (waiting for each pong) until the host's offset is known,
 * then into m. Returns 0, or -1 with one line in err (no pong in time). */
int hostclock_sync(struct kt_hostmerge *m, unsigned host, struct kt_remote *r, char *err,
		   size_t errlen);
/* The offset the pongs so far give, into m (nothing before the first pong). */
void hostclock_refresh(struct kt_hostmerge *m, unsigned host, const struct kt_remote *r);

#endif
