// SPDX-License-Identifier: GPL-2.0-or-later
/* Each host's clock offset into the merge of several hosts (hostclock.h). */
#include "config.h"

#include <stdint.h>

#include "remote/client.h"
#include "remote/hostclock.h"
#include "remote/hostmerge.h"

/* Round trips before any event, so the first records are shifted right; the bound on
 * each pong's wait. */
#define HOSTCLOCK_SYNC_ROUNDS 5
#define HOSTCLOCK_SYNC_MS 10000

int hostclock_sync(struct kt_hostmerge *m, unsigned host, struct kt_remote *r, char *err,
		   size_t errlen)
{
	if (remote_clock_sync(r, HOSTCLOCK_SYNC_ROUNDS, HOSTCLOCK_SYNC_MS, err, errlen) < 0)
		return -1;
	hostclock_refresh(m, host, r);
	return 0;
}

void hostclock_refresh(struct kt_hostmerge *m, unsigned host, const struct kt_remote *r)
{
	int64_t off;
	uint64_t unc;

	if (remote_clock(r, &off, &unc))
		hostmerge_offset(m, host, off);
}
