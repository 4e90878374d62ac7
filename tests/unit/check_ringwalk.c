// SPDX-License-Identifier: GPL-2.0-or-later
/* The reader's inline sub-buffer walk (ringwalk.h) against libtraceevent's kbuffer, the walk
 * it replaced, on sub-buffers laid out as the kernel writes them: every record kind (a
 * payload of type_len words, a long payload with its length word, padding, a time extend,
 * an absolute time stamp), the loss count after the records, and the positions the mapped
 * reader goes on from. */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "backend/ingest/ringwalk.h"
#include "check_main.h"

#define PAGE 4096

struct page {
	unsigned char b[PAGE];
	unsigned len; /* bytes of records so far */
};

static void put32(struct page *p, uint32_t v)
{
	memcpy(p->b + RINGWALK_HEADER + p->len, &v, sizeof(v));
	p->len += 4;
}

static void rec_data(struct page *p, unsigned delta, unsigned words)
{
	put32(p, delta << 5 | words);
	for (unsigned i = 0; i < words; i++)
		put32(p, 0xa0000000u + p->len);
}

static void rec_long(struct page *p, unsigned delta, unsigned bytes)
{
	put32(p, delta << 5);
	put32(p, bytes + 4);
	for (unsigned i = 0; i < (bytes + 3) / 4; i++)
		put32(p, 0xb0000000u + p->len);
}

static void rec_time(struct page *p, unsigned type_len, unsigned low, uint32_t high)
{
	put32(p, low << 5 | type_len);
	put32(p, high);
}

static void rec_padding(struct page *p, uint32_t len)
{
	put32(p, RINGWALK_PADDING);
	put32(p, len);
	for (unsigned i = 4; i < len; i += 4)
		put32(p, 0xdeadbeef);
}

static void finish(struct page *p, unsigned long long ts, long lost)
{
	unsigned long commit = p->len;

	memcpy(p->b, &ts, sizeof(ts));
	if (lost) {
		commit |= RINGWALK_MISSED;
		if (lost > 0) {
			commit |= RINGWALK_MISSED_STORED;
			memcpy(p->b + RINGWALK_HEADER + p->len, &lost, sizeof(lost));
		}
	}
	memcpy(p->b + sizeof(uint64_t), &commit, sizeof(commit));
}

/* Every record kind, after a first data record (kbuffer reports loss only there). */
static void every_kind(struct page *p, long lost)
{
	memset(p, 0, sizeof(*p));
	rec_data(p, 3, 2);
	rec_time(p, RINGWALK_TIME_EXTEND, 5, 2);
	rec_data(p, 10, 3);
	rec_long(p, 7, 150);
	rec_padding(p, 8);
	rec_data(p, 1, 28);
	rec_time(p, RINGWALK_TIME_STAMP, 3, 1);
	rec_data(p, 1, 1);
	rec_long(p, 2, 200);
	finish(p, 0xf800000000001000ull, lost);
}

static struct kbuffer *kbuf_new(void)
{
	struct kbuffer *k = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					  KBUFFER_ENDIAN_LITTLE);

	ck_assert_ptr_nonnull(k);
	return k;
}

START_TEST(test_walk_as_kbuffer)
{
	struct kbuffer *k = kbuf_new();
	struct kt_ringwalk w;
	unsigned long long kts = 0, wts = 0;
	struct page p;
	void *kd, *wd;
	int n = 0;

	every_kind(&p, 0);
	kbuffer_load_subbuffer(k, p.b);
	ringwalk_load(&w, p.b);
	ck_assert_int_eq(ringwalk_end(&w), (int)RINGWALK_HEADER + kbuffer_subbuffer_size(k));
	kd = kbuffer_read_event(k, &kts);
	wd = ringwalk_event(&w, &wts);
	while (kd) {
		ck_assert_ptr_eq(wd, kd);
		ck_assert_uint_eq(wts, kts);
		ck_assert_uint_eq(ringwalk_event_size(&w), (unsigned)kbuffer_event_size(k));
		ck_assert_int_eq(ringwalk_offset(&w), kbuffer_curr_offset(k));
		n++;
		kd = kbuffer_next_event(k, &kts);
		wd = ringwalk_next(&w, &wts);
	}
	ck_assert_ptr_null(wd);
	ck_assert_int_eq(n, 6);
	kbuffer_free(k);
}
END_TEST

/* The mapped reader goes on from an offset: at a record, inside one, past the end. */
START_TEST(test_at_offset_as_kbuffer)
{
	struct kbuffer *k = kbuf_new();
	unsigned long long kts = 0, wts = 0;
	struct kt_ringwalk w;
	struct page p;

	every_kind(&p, 0);
	kbuffer_load_subbuffer(k, p.b);
	ringwalk_load(&w, p.b);
	for (int off = 0; off <= (int)(RINGWALK_HEADER + p.len) + 4; off += 2) {
		void *kd = kbuffer_read_at_offset(k, off, &kts);
		void *wd = ringwalk_at(&w, off, &wts);

		ck_assert_msg(wd == kd, "offset %d: %p, kbuffer %p", off, wd, kd);
		if (kd) {
			ck_assert_uint_eq(wts, kts);
			ck_assert_int_eq(ringwalk_offset(&w), kbuffer_curr_offset(k));
		}
	}
	kbuffer_free(k);
}
END_TEST

START_TEST(test_loss)
{
	struct kbuffer *k = kbuf_new();
	struct kt_ringwalk w;
	struct page p;

	every_kind(&p, 1234);
	kbuffer_load_subbuffer(k, p.b);
	ringwalk_load(&w, p.b);
	ck_assert_int_eq(w.lost, 1234);
	ck_assert_int_eq(w.lost, kbuffer_missed_events(k));
	every_kind(&p, -1); /* lost, the count not stored */
	ringwalk_load(&w, p.b);
	ck_assert_int_eq(w.lost, -1);
	every_kind(&p, 0);
	ringwalk_load(&w, p.b);
	ck_assert_int_eq(w.lost, 0);
	kbuffer_free(k);
}
END_TEST

/* A sub-buffer that opens with a time extend (the first event after a long quiet spell) still
 * says what was lost before it: kbuffer reports loss only while its cursor is at offset 0,
 * which the extend moved. */
START_TEST(test_loss_before_a_time_extend)
{
	struct kt_ringwalk w;
	unsigned long long ts;
	struct page p;

	memset(&p, 0, sizeof(p));
	rec_time(&p, RINGWALK_TIME_EXTEND, 1, 1);
	rec_data(&p, 2, 2);
	finish(&p, 100, 77);
	ringwalk_load(&w, p.b);
	ck_assert_int_eq(w.lost, 77);
	ck_assert_ptr_nonnull(ringwalk_event(&w, &ts));
	ck_assert_uint_eq(ts, 100 + (1ull << 27) + 1 + 2);
}
END_TEST

START_TEST(test_empty)
{
	struct kt_ringwalk w;
	unsigned long long ts = 0;
	struct page p;

	memset(&p, 0, sizeof(p));
	finish(&p, 5, 0);
	ringwalk_load(&w, p.b);
	ck_assert_ptr_null(ringwalk_event(&w, &ts));
	ck_assert_ptr_null(ringwalk_next(&w, &ts));
	ck_assert_ptr_null(ringwalk_at(&w, 0, &ts));
}
END_TEST

static Suite *ringwalk_suite(void)
{
	Suite *s = suite_create("ringwalk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_walk_as_kbuffer);
	tcase_add_test(tc, test_at_offset_as_kbuffer);
	tcase_add_test(tc, test_loss);
	tcase_add_test(tc, test_loss_before_a_time_extend);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(ringwalk_suite());
}
