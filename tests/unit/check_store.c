// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ingest/store.h"
#include "check_main.h"

static uint64_t fill(struct kt_store *st, unsigned n, uint32_t size)
{
	unsigned char buf[512];
	uint64_t last = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		memset(buf, (int)(i & 0xff), sizeof(buf));
		memcpy(buf, &i, sizeof(i));
		last = store_append(st, 1000 + i, i % 4, buf, size);
	}
	return last;
}

START_TEST(test_append_get)
{
	struct kt_store *st = store_new(64 << 20);
	struct kt_rec r;
	unsigned v;

	ck_assert_ptr_nonnull(st);
	store_lock(st);
	ck_assert_uint_eq(store_first(st), 0);
	ck_assert_uint_eq(store_end(st), 0);
	ck_assert(!store_get(st, 0, &r));
	fill(st, 100000, 40);
	ck_assert_uint_eq(store_end(st), 100000);
	ck_assert(store_get(st, 77777, &r));
	memcpy(&v, r.data, sizeof(v));
	ck_assert_uint_eq(v, 77777);
	ck_assert_uint_eq(r.ts, 1000 + 77777);
	ck_assert_uint_eq(r.cpu, 77777 % 4);
	ck_assert_uint_eq(r.size, 40);
	ck_assert_uint_eq(r.flags, 0);
	ck_assert(!store_get(st, 100000, &r));
	store_unlock(st);
	store_free(st);
}
END_TEST

START_TEST(test_budget_evicts_oldest_whole_chunks)
{
	struct kt_store *st = store_new(16 << 20);
	struct kt_store_stats s;
	struct kt_rec r;
	unsigned v;

	store_lock(st);
	fill(st, 200000, 200); /* ~45 MB of records into a 16 MB budget */
	store_stats(st, &s);
	ck_assert_uint_le(s.bytes, 16 << 20);
	ck_assert_uint_gt(s.evicted, 0);
	ck_assert_uint_eq(s.appended, 200000);
	/* evicted + held = appended, and what is held is the newest, contiguous */
	ck_assert_uint_eq(s.evicted + (store_end(st) - store_first(st)), 200000);
	ck_assert_uint_eq(store_first(st), s.evicted);
	ck_assert(!store_get(st, store_first(st) - 1, &r));
	ck_assert(store_get(st, store_first(st), &r));
	memcpy(&v, r.data, sizeof(v));
	ck_assert_uint_eq(v, store_first(st));
	ck_assert(store_get(st, 199999, &r));
	memcpy(&v, r.data, sizeof(v));
	ck_assert_uint_eq(v, 199999);
	store_unlock(st);
	store_free(st);
}
END_TEST

START_TEST(test_lost_marker)
{
	struct kt_store *st = store_new(8 << 20);
	struct kt_store_stats s;
	struct kt_rec r;
	uint64_t a, b;

	store_lock(st);
	a = store_append_lost(st, 5, 1, 123);
	b = store_append_lost(st, 6, 0, -1);
	ck_assert(store_get(st, a, &r));
	ck_assert_uint_eq(r.flags, KT_REC_LOST);
	ck_assert_int_eq(r.lost, 123);
	ck_assert_uint_eq(r.cpu, 1);
	ck_assert(store_get(st, b, &r));
	ck_assert_int_eq(r.lost, -1);
	store_stats(st, &s);
	ck_assert_uint_eq(s.lost_markers, 2);
	store_unlock(st);
	store_free(st);
}
END_TEST

START_TEST(test_clear_keeps_sequence)
{
	struct kt_store *st = store_new(8 << 20);
	struct kt_rec r;
	uint64_t seq;

	store_lock(st);
	fill(st, 1000, 16);
	store_clear(st);
	ck_assert_uint_eq(store_first(st), 1000);
	ck_assert_uint_eq(store_end(st), 1000);
	ck_assert(!store_get(st, 999, &r));
	seq = fill(st, 1, 16);
	ck_assert_uint_eq(seq, 1000); /* numbers are never reused */
	ck_assert(store_get(st, 1000, &r));
	store_unlock(st);
	store_free(st);
}
END_TEST

/* A record of type t (the first two bytes, as the kernel lays out common_type). */
static uint64_t typed(struct kt_store *st, unsigned short t, uint32_t cpu)
{
	unsigned char buf[16] = { 0 };

	memcpy(buf, &t, sizeof(t));
	return store_append(st, 1000, cpu, buf, sizeof(buf));
}

/* Stacks are attached to the last event of their CPU, kernel then user, whatever other
 * CPUs stored between; after a loss they belong to nothing. */
START_TEST(test_stacks_attach_to_their_cpus_event)
{
	struct kt_store *st = store_new(16 << 20);
	struct kt_store_stats s;
	struct kt_rec r;

	store_lock(st);
	store_set_stack_types(st, 5, 6);
	ck_assert_uint_eq(typed(st, 1, 0), 0);	/* event, CPU 0 */
	ck_assert_uint_eq(typed(st, 1, 1), 1);	/* event, CPU 1 */
	ck_assert(store_cpu_last(st, 0, 0));
	ck_assert_uint_eq(typed(st, 5, 0), 2);	/* kernel stack of 0 */
	ck_assert_uint_eq(typed(st, 6, 0), 3);	/* user stack of 0 */
	ck_assert_uint_eq(typed(st, 5, 1), 4);	/* kernel stack of 1 */
	ck_assert(store_cpu_last(st, 0, 0));	/* stacks do not end an event's turn */
	ck_assert(store_get(st, 0, &r));
	ck_assert_uint_eq(r.flags, 0);
	ck_assert_uint_eq(r.stack, 2);
	ck_assert(store_get(st, 2, &r));
	ck_assert_uint_eq(r.flags, KT_REC_STACK);
	ck_assert_uint_eq(r.stack, 1);
	ck_assert(store_get(st, 3, &r));
	ck_assert_uint_eq(r.stack, 0);
	ck_assert(store_get(st, 1, &r));
	ck_assert_uint_eq(r.stack, 3);
	store_append_lost(st, 1000, 0, 7);	/* 5 */
	ck_assert_uint_eq(typed(st, 5, 0), 6);	/* a lost event's stack */
	ck_assert(store_get(st, 6, &r));
	ck_assert_uint_eq(r.flags, KT_REC_STACK);
	ck_assert(store_get(st, 0, &r));
	ck_assert_uint_eq(r.stack, 2);
	ck_assert(store_get(st, 3, &r));
	ck_assert_uint_eq(r.stack, 0);
	store_stats(st, &s);
	ck_assert_uint_eq(s.stacks, 4);
	store_unlock(st);
	store_free(st);
}
END_TEST

START_TEST(test_oversized_record_refused)
{
	struct kt_store *st = store_new(8 << 20);
	static unsigned char big[(2 << 20) + 1];

	store_lock(st);
	ck_assert_uint_eq(store_append(st, 1, 0, big, sizeof(big)), UINT64_MAX);
	ck_assert_uint_eq(store_end(st), 0);
	store_unlock(st);
	store_free(st);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_append_get);
	tcase_add_test(tc, test_budget_evicts_oldest_whole_chunks);
	tcase_add_test(tc, test_lost_marker);
	tcase_add_test(tc, test_clear_keeps_sequence);
	tcase_add_test(tc, test_oversized_record_refused);
	tcase_add_test(tc, test_stacks_attach_to_their_cpus_event);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(store_suite());
}
