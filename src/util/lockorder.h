/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The order ktop's nested locks are taken in, outermost first. A thread holding a lock may
 * take only a lock of a higher rank: then no two threads can each hold what the other waits
 * for. In builds configured with --enable-test-hooks (./dev check, CI) every take is
 * checked against the locks the thread holds, and a take out of order (or of a lock it
 * already holds) aborts at once naming both, however the threads happened to interleave:
 * the test suite sees an inversion on every run, not the one run in ten that deadlocks. In
 * any other build these are empty.
 */
#ifndef KTOP_LOCKORDER_H
#define KTOP_LOCKORDER_H

enum kt_lock_rank {
	KT_LOCK_STORE = 1, /* the event store's (store.h): rows are drawn under it */
	KT_LOCK_REMOTE,	   /* a remote source's pipes (source/remote_local.h) */
};

#ifdef KTOP_TEST_HOOKS
/* Before taking the lock of rank; aborts when the thread holds it or one ranked after. */
void lockorder_take(enum kt_lock_rank rank);
/* After letting it go. */
void lockorder_drop(enum kt_lock_rank rank);
#else
static inline void lockorder_take(enum kt_lock_rank rank)
{
	(void)rank;
}

static inline void lockorder_drop(enum kt_lock_rank rank)
{
	(void)rank;
}
#endif

#endif
