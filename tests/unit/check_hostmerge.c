// SPDX-License-Identifier: GPL-2.0-or-later
/* Several hosts merged into one stream (src/remote/hostmerge.c): shifted by each host's
 * clock offset, held until every live host's watermark has passed, released by a host's
 * end, and bounded by the cap with the stalled host and the late records counted. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "remote/hostmerge.h"

/* What the merge handed on, in order. */
struct out {
	unsigned host[64];
	uint64_t ts[64], host_ts[64], payload[64];
	size_t n;
};

static void collect(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts)
{
	struct out *o = ctx;

	ck_assert_uint_lt(o->n, 64);
	ck_assert_uint_eq(r->size, sizeof(uint64_t));
	o->host[o->n] = host;
	o->ts[o->n] = r->ts;
	o->host_ts[o->n] = host_ts;
	memcpy(&o->payload[o->n], r->data, sizeof(uint64_t));
	o->n++;
}

/* A record of host's at ts (its clock), its payload the same ts: the test's stack copy is
 * gone by the time the merge hands it on. */
static void put(struct kt_hostmerge *m, unsigned host, uint64_t ts)
{
	uint64_t payload = ts;
	struct kt_rec r = { .ts = ts, .cpu = host, .size = sizeof(payload), .data = &payload };

	hostmerge_put(m, host, &r);
	payload = 0;
}

/* The bytes one such record takes in a queue: the cap's unit. */
#define REC_BYTES 48

static void expect(const struct out *o, size_t i, unsigned host, uint64_t ts, uint64_t host_ts)
{
	ck_assert_uint_gt(o->n, i);
	ck_assert_msg(o->host[i] == host && o->ts[i] == ts && o->host_ts[i] == host_ts &&
			      o->payload[i] == host_ts,
		      "record %zu: host %u ts %llu (its own %llu, payload %llu), expected host %u "
		      "ts %llu (%llu)", i, o->host[i], (unsigned long long)o->ts[i],
		      (unsigned long long)o->host_ts[i], (unsigned long long)o->payload[i], host,
		      (unsigned long long)ts, (unsigned long long)host_ts);
}

/* Host 0's clock is 1000 ns ahead of ours, host 1's 50 behind: the merge is by shifted
 * time, which is what each record carries, with its own time beside it. */
START_TEST(test_offsets_order)
{
	struct out o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(2, KT_HOSTMERGE_CAP, collect, &o);

	hostmerge_offset(m, 0, 1000);
	hostmerge_offset(m, 1, -50);
	put(m, 0, 1100);
	put(m, 0, 1300);
	put(m, 0, 1600);
	put(m, 1, 150);
	put(m, 1, 350);
	put(m, 1, 450);
	hostmerge_watermark(m, 0, 2000);
	ck_assert_uint_eq(o.n, 0); /* host 1 has promised nothing yet */
	hostmerge_watermark(m, 1, 1000);
	ck_assert_uint_eq(o.n, 6);
	expect(&o, 0, 0, 100, 1100);
	expect(&o, 1, 1, 200, 150);
	expect(&o, 2, 0, 300, 1300);
	expect(&o, 3, 1, 400, 350);
	expect(&o, 4, 1, 500, 450);
	expect(&o, 5, 0, 600, 1600);
	hostmerge_free(m);
}
END_TEST

/* A record goes out only once every host's shifted watermark is past it; the rest wait. */
START_TEST(test_watermark_holds)
{
	struct out o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(2, KT_HOSTMERGE_CAP, collect, &o);
	struct kt_hostmerge_stats st;

	hostmerge_offset(m, 1, 100);
	put(m, 0, 10);
	put(m, 0, 20);
	put(m, 0, 30);
	hostmerge_watermark(m, 0, 40);
	put(m, 1, 115); /* 15 on our clock */
	hostmerge_watermark(m, 1, 125); /* 25: 10, 15 and 20 may go, 30 waits */
	ck_assert_uint_eq(o.n, 3);
	expect(&o, 0, 0, 10, 10);
	expect(&o, 1, 1, 15, 115);
	expect(&o, 2, 0, 20, 20);
	hostmerge_watermark(m, 0, 50); /* host 1 still holds 30 back */
	ck_assert_uint_eq(o.n, 3);
	hostmerge_watermark(m, 1, 200);
	ck_assert_uint_eq(o.n, 4);
	expect(&o, 3, 0, 30, 30);
	hostmerge_stats(m, 0, &st);
	ck_assert_uint_eq(st.emitted, 3);
	ck_assert_uint_eq(st.stalled + st.late, 0);
	hostmerge_free(m);
}
END_TEST

/* A host that ended (or died) holds no one back; its own records go out in order. */
START_TEST(test_end_releases)
{
	struct out o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(3, KT_HOSTMERGE_CAP, collect, &o);

	put(m, 0, 10);
	put(m, 0, 30);
	hostmerge_watermark(m, 0, 40);
	put(m, 1, 20);
	put(m, 1, 50);
	hostmerge_watermark(m, 1, 60);
	ck_assert_uint_eq(o.n, 0); /* host 2 never said a word */
	hostmerge_end(m, 2);
	ck_assert_uint_eq(o.n, 3); /* up to host 0's 40 */
	expect(&o, 0, 0, 10, 10);
	expect(&o, 1, 1, 20, 20);
	expect(&o, 2, 0, 30, 30);
	hostmerge_end(m, 0);
	ck_assert_uint_eq(o.n, 4); /* host 1's 50, before its 60 */
	expect(&o, 3, 1, 50, 50);
	put(m, 1, 70);
	hostmerge_end(m, 1); /* the last: everything */
	ck_assert_uint_eq(o.n, 5);
	expect(&o, 4, 1, 70, 70);
	hostmerge_free(m);
}
END_TEST

/* Past the cap the oldest go out without host 1's watermark, counted against host 1; a
 * record of host 1's older than those then goes out at once, counted late. */
START_TEST(test_stall_cap)
{
	struct out o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(2, 3 * REC_BYTES, collect, &o);
	struct kt_hostmerge_stats s0, s1;

	put(m, 0, 10);
	put(m, 0, 20);
	put(m, 0, 30);
	hostmerge_watermark(m, 0, 35);
	put(m, 0, 40);
	put(m, 0, 50);
	ck_assert_uint_eq(o.n, 2); /* 5 queued, 3 fit */
	expect(&o, 0, 0, 10, 10);
	expect(&o, 1, 0, 20, 20);
	put(m, 1, 15); /* older than 20, already out */
	ck_assert_uint_eq(o.n, 3);
	expect(&o, 2, 1, 15, 15);
	hostmerge_watermark(m, 1, 100);
	hostmerge_watermark(m, 0, 100);
	ck_assert_uint_eq(o.n, 6);
	expect(&o, 3, 0, 30, 30);
	expect(&o, 4, 0, 40, 40);
	expect(&o, 5, 0, 50, 50);
	hostmerge_stats(m, 0, &s0);
	hostmerge_stats(m, 1, &s1);
	ck_assert_uint_eq(s0.emitted, 5);
	ck_assert_uint_eq(s0.stalled + s0.late, 0);
	ck_assert_uint_eq(s1.emitted, 1);
	ck_assert_uint_eq(s1.stalled, 2);
	ck_assert_uint_eq(s1.late, 1);
	hostmerge_free(m);
}
END_TEST

/* An offset refined upward after a watermark would move the host's next records before
 * what the merge already let out: they stay at the host's shifted watermark instead, and
 * the output never goes back in time. */
START_TEST(test_offset_refined)
{
	struct out o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(2, KT_HOSTMERGE_CAP, collect, &o);
	struct kt_hostmerge_stats st;

	hostmerge_offset(m, 0, 1000);
	put(m, 0, 1010);
	hostmerge_watermark(m, 0, 1100); /* 100 on our clock */
	put(m, 1, 90);
	hostmerge_watermark(m, 1, 200);
	ck_assert_uint_eq(o.n, 2);
	hostmerge_offset(m, 0, 1040); /* a shorter round trip */
	put(m, 0, 1120); /* 80 by the new offset, but 100 was promised */
	put(m, 0, 1200); /* 160 */
	hostmerge_flush(m);
	ck_assert_uint_eq(o.n, 4);
	expect(&o, 0, 0, 10, 1010);
	expect(&o, 1, 1, 90, 90);
	expect(&o, 2, 0, 100, 1120);
	expect(&o, 3, 0, 160, 1200);
	hostmerge_stats(m, 0, &st);
	ck_assert_uint_eq(st.late, 0);
	hostmerge_free(m);
}
END_TEST

static Suite *hostmerge_suite(void)
{
	Suite *s = suite_create("hostmerge");
	TCase *tc = tcase_create("merge");

	tcase_add_test(tc, test_offsets_order);
	tcase_add_test(tc, test_watermark_holds);
	tcase_add_test(tc, test_end_releases);
	tcase_add_test(tc, test_stall_cap);
	tcase_add_test(tc, test_offset_refined);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(hostmerge_suite());
}
