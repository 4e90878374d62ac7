// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cursor over the records of one ring-buffer sub-buffer in the host's own layout (the
 * reader's pages are this kernel's), inline: the reader's merge steps over every record, and
 * libtraceevent's kbuffer walk, a call and two calls through pointers per record for byte
 * orders and word sizes the host's buffer never has, was a third of the mapped reader's CPU
 * in issue 37's profile.
 *
 * The layout (the kernel's ring_buffer.c): a header of the sub-buffer's time (u64) and its
 * commit word (a long: the records' bytes below bit 27, bit 31 "events were lost before
 * it", bit 30 "and their count follows the records"); then records, each a u32 of type_len
 * (5 bits) and time delta (27 bits): type_len 1-28 is a payload of type_len * 4 bytes, 0 a
 * payload whose length (+ 4) is the next u32, 29 padding (its length next), 30 a time extend
 * (the delta's upper bits next), 31 an absolute time stamp (the same, the top 5 bits of the
 * time kept from before).
 */
#ifndef KTOP_RINGWALK_H
#define KTOP_RINGWALK_H

#include <stdint.h>
#include <string.h>

#define RINGWALK_HEADER ((unsigned)(sizeof(uint64_t) + sizeof(long)))
#define RINGWALK_SIZE_MASK ((1ul << 27) - 1)
#define RINGWALK_MISSED (1ul << 31)
#define RINGWALK_MISSED_STORED (1ul << 30)
#define RINGWALK_PADDING 29
#define RINGWALK_TIME_EXTEND 30
#define RINGWALK_TIME_STAMP 31
#define RINGWALK_TS_KEPT (0xf8ull << 56) /* what an absolute time stamp leaves out */

struct kt_ringwalk {
	void *page;		   /* the sub-buffer, header first */
	unsigned long long ts;	   /* the current record's time */
	int64_t lost;		   /* events lost before the sub-buffer; -1: some, count unknown */
	unsigned size;		   /* the records' bytes, past the header */
	unsigned curr;		   /* the current record, from the first (size: none left) */
	unsigned index;		   /* its payload */
	unsigned next;		   /* the record after it */
};

static inline uint32_t ringwalk_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Steps to the next record with a payload (an event). Returns 0, -1 at the end. */
static inline int ringwalk_step(struct kt_ringwalk *w)
{
	const unsigned char *d = (const unsigned char *)w->page + RINGWALK_HEADER;
	unsigned long long delta;
	uint32_t word, type_len, len;
	unsigned at;

	for (;;) {
		w->curr = w->next;
		if (w->next >= w->size)
			return -1;
		at = w->curr;
		word = ringwalk_u32(d + at);
		type_len = word & 31;
		delta = word >> 5;
		at += 4;
		if (type_len - 1 < 28) { /* the common case: a payload of type_len words */
			w->ts += delta;
			w->index = at;
			w->next = at + type_len * 4;
			return 0;
		}
		switch (type_len) {
		case 0:
			len = ringwalk_u32(d + at) - 4;
			at += 4;
			w->ts += delta;
			w->index = at;
			w->next = at + ((len + 3) & ~3u);
			return 0;
		case RINGWALK_PADDING:
			w->ts += delta;
			w->index = at;
			w->next = at + ringwalk_u32(d + at);
			break;
		case RINGWALK_TIME_EXTEND:
			w->ts += ((unsigned long long)ringwalk_u32(d + at) << 27) + delta;
			w->index = w->next = at + 4;
			break;
		default: /* RINGWALK_TIME_STAMP */
			w->ts = (((unsigned long long)ringwalk_u32(d + at) << 27) + delta) |
				(w->ts & RINGWALK_TS_KEPT);
			w->index = w->next = at + 4;
			break;
		}
	}
}

/* Loads a sub-buffer: the cursor on its first event (if any) and its loss in lost. */
static inline void ringwalk_load(struct kt_ringwalk *w, void *page)
{
	unsigned long commit;
	long stored;

	w->page = page;
	memcpy(&w->ts, page, sizeof(w->ts));
	memcpy(&commit, (char *)page + sizeof(uint64_t), sizeof(commit));
	w->size = (unsigned)(commit & RINGWALK_SIZE_MASK);
	w->lost = 0;
	if (commit & RINGWALK_MISSED) {
		w->lost = -1;
		if (commit & RINGWALK_MISSED_STORED) {
			memcpy(&stored, (char *)page + RINGWALK_HEADER + w->size, sizeof(stored));
			w->lost = stored;
		}
	}
	w->curr = w->index = w->next = 0;
	ringwalk_step(w);
}

/* The current event's payload and time, NULL when none is left. */
static inline void *ringwalk_event(const struct kt_ringwalk *w, unsigned long long *ts)
{
	if (w->curr >= w->size)
		return NULL;
	*ts = w->ts;
	return (char *)w->page + RINGWALK_HEADER + w->index;
}

/* The next event, NULL when none is left. */
static inline void *ringwalk_next(struct kt_ringwalk *w, unsigned long long *ts)
{
	return ringwalk_step(w) < 0 ? NULL : ringwalk_event(w, ts);
}

/* The current event's payload size. */
static inline uint32_t ringwalk_event_size(const struct kt_ringwalk *w)
{
	return w->next - w->index;
}

/* Where the current record starts, from the sub-buffer's start (its header included). */
static inline int ringwalk_offset(const struct kt_ringwalk *w)
{
	return (int)(RINGWALK_HEADER + w->curr);
}

/* The end of the records, from the sub-buffer's start. */
static inline int ringwalk_end(const struct kt_ringwalk *w)
{
	return (int)(RINGWALK_HEADER + w->size);
}

/* The sub-buffer loaded again (its commit read anew), the cursor on the first event at or
 * past offset (from the sub-buffer's start): NULL when there is none. */
static inline void *ringwalk_at(struct kt_ringwalk *w, int offset, unsigned long long *ts)
{
	unsigned from = offset > (int)RINGWALK_HEADER ? (unsigned)offset - RINGWALK_HEADER : 0;

	ringwalk_load(w, w->page);
	while (w->curr < from)
		if (ringwalk_step(w) < 0)
			return NULL;
	return ringwalk_event(w, ts);
}

#endif
