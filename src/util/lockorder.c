// SPDX-License-Identifier: GPL-2.0-or-later
/* The locks each thread holds, checked against their order (lockorder.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lockorder.h"

#ifdef KTOP_TEST_HOOKS
static __thread unsigned lockorder_held; /* bit r: the lock of rank r is held */

static const char *lockorder_name(unsigned rank)
{
	return rank == KT_LOCK_STORE ? "the store's" : rank == KT_LOCK_REMOTE ?
	       "the remote source's" : "an unknown";
}

void lockorder_take(enum kt_lock_rank rank)
{
	unsigned later = lockorder_held & ~((1u << rank) - 1u);

	if (later) {
		fprintf(stderr, "ktop: lock order broken: %s lock taken while holding %s "
			"(lockorder.h: take them in their rank's order)\n",
			lockorder_name(rank), lockorder_name((unsigned)__builtin_ctz(later)));
		abort();
	}
	lockorder_held |= 1u << rank;
}

void lockorder_drop(enum kt_lock_rank rank)
{
	lockorder_held &= ~(1u << rank);
}
#endif
