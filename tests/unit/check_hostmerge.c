// SPDX-License-Identifier: GPL-2.0-or-later
/* Several hosts merged into one stream (src/remote/hostmerge.c): shifted by each host's
 * clock offset, held until every live host's watermark has passed, released by a host's
 * end, and bounded by the cap with the stalled host and the late records counted; and fed
 * as batch mode feeds it, from two hosts' ring-buffer pages decoded and ordered across
 * CPUs by src/remote/pages.c (its queues are src/remote/recq.c). */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "check_main.h"
#include "util/fileio.h"
#include "remote/hostmerge.h"
#include "remote/pages.h"

#ifndef FIXTURES
#define FIXTURES "tests/unit/fixtures"
#endif

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

/* A host of the pages test: its formats, its pages, what the merge handed on. */
struct phost {
	struct tep_handle *tep;
	struct kt_rpages *pages;
	struct kt_hostmerge *m;
	unsigned idx;
};

/* What the merge handed on from pages: host, shifted time, the host's own, CPU, pid
 * (-1 for a loss marker, with its count in lost). */
struct pout {
	unsigned host[16];
	uint64_t ts[16], host_ts[16];
	uint32_t cpu[16];
	int pid[16];
	int64_t lost[16];
	size_t n;
};

static void pcollect(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts)
{
	struct pout *o = ctx;

	ck_assert_uint_lt(o->n, 16);
	o->host[o->n] = host;
	o->ts[o->n] = r->ts;
	o->host_ts[o->n] = host_ts;
	o->cpu[o->n] = r->cpu;
	o->pid[o->n] = -1;
	o->lost[o->n] = r->flags & KT_REC_LOST ? r->lost : 0;
	if (!(r->flags & KT_REC_LOST))
		memcpy(&o->pid[o->n], (const uint8_t *)r->data + 4, sizeof(int));
	o->n++;
}

static void pemit(void *ctx, const struct kt_rec *r)
{
	struct phost *h = ctx;

	hostmerge_put(h->m, h->idx, r);
}

static void phost_open(struct phost *h, struct kt_hostmerge *m, unsigned idx)
{
	struct kt_hello hello = { .ncpus = 2, .page_size = 4096, .long_size = 8 };
	char *text;
	size_t n;

	h->tep = tep_alloc();
	h->pages = rpages_new(h->tep, pemit, h);
	h->m = m;
	h->idx = idx;
	rpages_hello(h->pages, &hello);
	text = file_read_all(FIXTURES "/tracing/events/header_page", &n);
	ck_assert_ptr_nonnull(text);
	rpages_header_page(h->pages, (const uint8_t *)text, n);
	free(text);
	text = file_read_all(FIXTURES "/tracing/events/raw_syscalls/sys_enter/format", &n);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(rpages_format(h->pages, "raw_syscalls", (const uint8_t *)text, n), 0);
	free(text);
}

static void phost_close(struct phost *h)
{
	rpages_free(h->pages);
	tep_free(h->tep);
}

/* A 64-bit little-endian ring-buffer page from ts: n raw_syscalls:sys_enter records of
 * pid[i], each delta[i] ns after the one before, missed events said lost before them. */
static size_t make_page(uint8_t *page, uint64_t ts, size_t n, const uint32_t *delta,
			const int *pid, int64_t missed)
{
	size_t pos = 16;
	uint64_t commit;

	memset(page, 0, 4096);
	for (size_t i = 0; i < n; i++) {
		uint8_t rec[64] = { 0 };
		uint16_t type = 443; /* the fixture's id of raw_syscalls:sys_enter */
		uint32_t head = delta[i] << 5 | (uint32_t)(sizeof(rec) / 4);
		int64_t nr = 110;

		memcpy(rec, &type, sizeof(type));
		memcpy(rec + 4, &pid[i], sizeof(int));
		memcpy(rec + 8, &nr, sizeof(nr));
		memcpy(page + pos, &head, sizeof(head));
		memcpy(page + pos + 4, rec, sizeof(rec));
		pos += 4 + sizeof(rec);
	}
	commit = pos - 16;
	if (missed) {
		commit |= 1ull << 31 | 1ull << 30;
		memcpy(page + pos, &missed, sizeof(missed));
		pos += sizeof(missed);
	}
	memcpy(page, &ts, sizeof(ts));
	memcpy(page + 8, &commit, sizeof(commit));
	return pos;
}

/* One host's two pages as fake_peer.py sends them (CPU 1's later page first, 2 events
 * missed before it), its clock ahead by ahead ns, each event skew ns later than host 0's. */
static void phost_pages(struct phost *h, uint64_t ahead, uint64_t skew, int pid)
{
	static const uint32_t d1[] = { 7 }, d0[] = { 0, 1000 };
	const int p1[] = { pid }, p0[] = { pid, pid + 1 };
	uint8_t page[4096];
	size_t len;

	len = make_page(page, 1000500000 + ahead + skew, 1, d1, p1, 2);
	rpages_page(h->pages, 1, page, len);
	len = make_page(page, 1000000000 + ahead + skew, 2, d0, p0, 0);
	rpages_page(h->pages, 0, page, len);
}

/* Two hosts, the second's clock 3 s ahead and its events 100 ns after the first's: each
 * host's CPUs ordered by pages.c up to its watermark, the hosts interleaved by the merge
 * in shifted time, the loss markers where the pages say. */
START_TEST(test_pages_merged)
{
	struct pout o = { 0 };
	struct kt_hostmerge *m = hostmerge_new(2, KT_HOSTMERGE_CAP, pcollect, &o);
	struct phost h[2];
	static const struct {
		unsigned host;
		uint64_t ts;
		uint32_t cpu;
		int pid;
		int64_t lost;
	} want[] = {
		{ 0, 1000000000, 0, 100, 0 }, { 1, 1000000100, 0, 200, 0 },
		{ 0, 1000001000, 0, 101, 0 }, { 1, 1000001100, 0, 201, 0 },
		{ 0, 1000500007, 1, -1, 2 },  { 0, 1000500007, 1, 100, 0 },
		{ 1, 1000500107, 1, -1, 2 },  { 1, 1000500107, 1, 200, 0 },
	};
	const uint64_t ahead = 3000000000ull;

	phost_open(&h[0], m, 0);
	phost_open(&h[1], m, 1);
	hostmerge_offset(m, 1, (int64_t)ahead);
	phost_pages(&h[0], 0, 0, 100);
	phost_pages(&h[1], ahead, 100, 200);
	/* host 0's watermark after CPU 0's first event: only that one leaves pages.c */
	rpages_flush(h[0].pages, 1000000500);
	hostmerge_watermark(m, 0, 1000000500);
	ck_assert_uint_eq(o.n, 0); /* host 1 has promised nothing */
	rpages_flush(h[1].pages, ahead + 1000000500);
	hostmerge_watermark(m, 1, ahead + 1000000500);
	ck_assert_uint_eq(o.n, 2);
	/* their ends: the rest of each, in order */
	rpages_flush(h[0].pages, UINT64_MAX);
	hostmerge_end(m, 0);
	rpages_flush(h[1].pages, UINT64_MAX);
	hostmerge_end(m, 1);
	ck_assert_uint_eq(o.n, 8);
	for (size_t i = 0; i < 8; i++)
		ck_assert_msg(o.host[i] == want[i].host && o.ts[i] == want[i].ts &&
				      o.cpu[i] == want[i].cpu && o.pid[i] == want[i].pid &&
				      o.lost[i] == want[i].lost &&
				      o.host_ts[i] == want[i].ts + (want[i].host ? ahead : 0),
			      "record %zu: host %u ts %llu cpu %u pid %d lost %lld", i, o.host[i],
			      (unsigned long long)o.ts[i], o.cpu[i], o.pid[i], (long long)o.lost[i]);
	phost_close(&h[0]);
	phost_close(&h[1]);
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
	tc = tcase_create("pages");
	tcase_add_test(tc, test_pages_merged);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(hostmerge_suite());
}
