// SPDX-License-Identifier: GPL-2.0-or-later
/* The time index's packed logs (packlog.h): every answer equals a brute-force walk of the
 * same made-up times and slices, kept plainly beside them: lengths of a few ns to hours
 * (varints of 1 to 6 bytes), gaps, equal times, chunk edges, trimming. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "backend/callgraph/packlog.h"
#include "check_main.h"

#define N 5000

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

/* A step: mostly small, sometimes none, sometimes huge. */
static uint64_t step(void)
{
	switch (rnd(8)) {
	case 0:
		return 0;
	case 1:
		return rnd(10000000000000ull);
	case 2:
		return 1 + rnd(3);
	default:
		return 1 + rnd(20000);
	}
}

static size_t brute_lower(const uint64_t *v, size_t n, uint64_t ts)
{
	size_t k = 0;

	while (k < n && v[k] < ts)
		k++;
	return k;
}

/* Probes: every stored time, one off either side, and random ones. */
static uint64_t probe(const uint64_t *v, size_t n, size_t i)
{
	switch (i % 4) {
	case 0:
		return v[rnd(n)];
	case 1:
		return v[rnd(n)] + 1;
	case 2:
		return v[rnd(n)] ? v[rnd(n)] - 1 : 0;
	default:
		return rnd(v[n - 1] + 10);
	}
}

START_TEST(test_tslog)
{
	static uint64_t v[N];
	struct kt_tslog t = { 0 };
	uint64_t ts = 1000;
	size_t i, n = N, k;

	for (i = 0; i < n; i++) {
		ts += step();
		v[i] = ts;
		ck_assert(tslog_push(&t, ts));
	}
	ck_assert_uint_eq(tslog_len(&t), n);
	tslog_shrink(&t);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(tslog_at(&t, i), v[i]);
	ck_assert_uint_eq(tslog_lower(&t, 0), 0);
	ck_assert_uint_eq(tslog_lower(&t, UINT64_MAX), n);
	for (i = 0; i < 20000; i++) {
		uint64_t q = probe(v, n, i);

		ck_assert_uint_eq(tslog_lower(&t, q), brute_lower(v, n, q));
	}
	/* trimmed: what is left is a tail of the times, all those >= the trim point kept */
	tslog_trim(&t, v[n * 3 / 4]);
	k = n - tslog_len(&t);
	ck_assert_uint_gt(k, n / 2);
	ck_assert_uint_le(k, brute_lower(v, n, v[n * 3 / 4]));
	for (i = 0; i < tslog_len(&t); i++)
		ck_assert_uint_eq(tslog_at(&t, i), v[k + i]);
	for (i = 0; i < 5000; i++) {
		uint64_t q = probe(v + k, n - k, i);

		ck_assert_uint_eq(tslog_lower(&t, q), brute_lower(v + k, n - k, q));
	}
	tslog_free(&t);
}
END_TEST

START_TEST(test_tslog_out_of_order)
{
	struct kt_tslog t = { 0 };

	ck_assert(tslog_push(&t, 50));
	ck_assert(tslog_push(&t, 40)); /* kept as 50 */
	ck_assert(tslog_push(&t, 60));
	ck_assert_uint_eq(tslog_at(&t, 1), 50);
	ck_assert_uint_eq(tslog_lower(&t, 51), 2);
	tslog_free(&t);
}
END_TEST

static struct kt_pslice S[N];

static size_t make_slices(struct kt_slicelog *l)
{
	uint64_t ts = 5;
	size_t i;

	for (i = 0; i < N; i++) {
		ts += rnd(4) ? 0 : step(); /* a gap now and then */
		S[i].start = ts;
		ts += 1 + step();
		S[i].end = ts;
		S[i].task = (uint32_t)(rnd(5) ? rnd(40) : rnd(1u << 30));
		ck_assert(slicelog_push(l, &S[i]));
	}
	return N;
}

static size_t brute_end(size_t from, size_t n, uint64_t ts)
{
	size_t k = from;

	while (k < n && S[k].end <= ts)
		k++;
	return k;
}

static size_t brute_start(size_t from, size_t n, uint64_t ts)
{
	size_t k = from;

	while (k < n && S[k].start < ts)
		k++;
	return k;
}

static void same(const struct kt_slicecur *c, size_t k)
{
	ck_assert_uint_eq(c->s.start, S[k].start);
	ck_assert_uint_eq(c->s.end, S[k].end);
	ck_assert_uint_eq(c->s.task, S[k].task);
}

static uint64_t slice_probe(size_t from, size_t n, size_t i)
{
	size_t k = from + rnd(n - from);

	switch (i % 5) {
	case 0:
		return S[k].start;
	case 1:
		return S[k].end;
	case 2:
		return S[k].end - 1;
	case 3:
		return S[k].start + 1;
	default:
		return rnd(S[n - 1].end + 10);
	}
}

/* Every lookup from slice `from` on (after a trim, from is what was dropped). */
static void check_lookups(const struct kt_slicelog *l, size_t from, size_t n)
{
	struct kt_slicecur c;
	size_t i, k;

	ck_assert_uint_eq(slicelog_len(l), n - from);
	ck_assert(slicelog_seek_k(l, 0, &c));
	for (k = from; k < n; k++) {
		ck_assert_uint_eq(c.k, k - from);
		same(&c, k);
		ck_assert(slicelog_next(&c) == (k + 1 < n));
	}
	for (i = 0; i < 20000; i++) {
		uint64_t q = slice_probe(from, n, i);

		k = brute_end(from, n, q);
		ck_assert_uint_eq(slicelog_end_lower(l, q), k - from);
		ck_assert(slicelog_seek_end(l, q, &c) == (k < n));
		if (k < n)
			same(&c, k);
		k = brute_start(from, n, q);
		ck_assert(slicelog_seek_start(l, q, &c) == (k < n));
		if (k < n)
			same(&c, k);
	}
}

START_TEST(test_slicelog)
{
	struct kt_slicelog l = { 0 };
	struct kt_pslice bad;
	size_t n = make_slices(&l), k;

	slicelog_shrink(&l);
	check_lookups(&l, 0, n);
	/* out of order or empty: refused, nothing kept */
	bad = (struct kt_pslice){ S[n - 1].end - 1, S[n - 1].end + 5, 1 };
	ck_assert(!slicelog_push(&l, &bad));
	bad = (struct kt_pslice){ S[n - 1].end, S[n - 1].end, 1 };
	ck_assert(!slicelog_push(&l, &bad));
	ck_assert_uint_eq(slicelog_len(&l), n);
	/* trimmed: whole chunks of slices that ended by then */
	slicelog_trim(&l, S[n * 3 / 4].start);
	k = n - slicelog_len(&l);
	ck_assert_uint_gt(k, n / 2);
	ck_assert_uint_le(k, brute_end(0, n, S[n * 3 / 4].start));
	check_lookups(&l, k, n);
	slicelog_free(&l);
}
END_TEST

static Suite *packlog_suite(void)
{
	Suite *s = suite_create("packlog");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_tslog);
	tcase_add_test(tc, test_tslog_out_of_order);
	tcase_add_test(tc, test_slicelog);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(packlog_suite());
}
