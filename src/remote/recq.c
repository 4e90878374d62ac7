// SPDX-License-Identifier: GPL-2.0-or-later
/* Records queued with their payloads (recq.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recq.h"
#include "util/xalloc.h"

/* A record in the buffer; its data follows, padded to 8. */
struct rq_rec {
	uint64_t key, ts;
	int64_t lost;
	uint32_t size, flags, cpu, pad;
};

static size_t rq_bytes(uint32_t size)
{
	return sizeof(struct rq_rec) + ((size + 7u) & ~7u);
}

static const struct rq_rec *rq_first(const struct kt_recq *q)
{
	return q->head < q->len ? (const struct rq_rec *)(const void *)(q->buf + q->head) : NULL;
}

size_t recq_put(struct kt_recq *q, const struct kt_rec *r, uint64_t key)
{
	struct rq_rec h = { .key = key, .ts = r->ts, .lost = r->lost, .size = r->size,
			    .flags = r->flags, .cpu = r->cpu };
	size_t need = rq_bytes(r->size);

	if (q->head == q->len)
		q->head = q->len = 0;
	if (q->cap - q->len < need && q->head) {
		memmove(q->buf, q->buf + q->head, q->len - q->head);
		q->len -= q->head;
		q->head = 0;
	}
	if (q->cap - q->len < need) {
		q->cap = q->cap ? q->cap : 65536;
		while (q->cap - q->len < need)
			q->cap *= 2;
		q->buf = xrealloc(q->buf, q->cap);
	}
	memcpy(q->buf + q->len, &h, sizeof(h));
	if (r->size)
		memcpy(q->buf + q->len + sizeof(h), r->data, r->size);
	q->len += need;
	return need;
}

bool recq_peek(const struct kt_recq *q, struct kt_rec *r, uint64_t *key)
{
	const struct rq_rec *h = rq_first(q);

	if (!h)
		return false;
	*r = (struct kt_rec){ .ts = h->ts, .cpu = h->cpu, .flags = h->flags, .size = h->size,
			      .lost = h->lost, .data = (const uint8_t *)h + sizeof(*h) };
	*key = h->key;
	return true;
}

bool recq_key(const struct kt_recq *q, uint64_t *key)
{
	const struct rq_rec *h = rq_first(q);

	if (h)
		*key = h->key;
	return h != NULL;
}

size_t recq_pop(struct kt_recq *q)
{
	const struct rq_rec *h = rq_first(q);
	size_t n;

	if (!h)
		return 0;
	n = rq_bytes(h->size);
	q->head += n;
	return n;
}

void recq_free(struct kt_recq *q)
{
	free(q->buf);
	*q = (struct kt_recq){ 0 };
}
