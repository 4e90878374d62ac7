// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "packlog.h"

/* Room grows by a quarter, not double: the logs of a 1 GiB recording are tens of MB, and
 * what is reserved is counted against the index's budget. */
static bool grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;
	void *g;

	if (need <= c)
		return true;
	c = c + c / 4 + 4096 / size;
	if (c < need)
		c = need;
	g = realloc(*v, c * size);
	if (!g)
		return false;
	*v = g;
	*cap = c;
	return true;
}

static size_t put_varint(unsigned char *b, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (unsigned char)v;
	return n;
}

static uint64_t get_varint(const unsigned char *b, size_t *off)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		c = b[(*off)++];
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while ((c & 0x80) && shift < 64);
	return v;
}

/* Room for one more entry of up to 30 bytes; a new chunk when the last is full. */
static bool pack_begin(struct kt_pack *p, uint64_t first, bool *new_chunk)
{
	*new_chunk = p->n % KT_PACK_CHUNK == 0;
	if (!grow((void **)&p->bytes, &p->capbytes, p->nbytes + 30, 1))
		return false;
	if (*new_chunk) {
		if (!grow((void **)&p->chunk, &p->capchunks, p->nchunks + 1, sizeof(*p->chunk)))
			return false;
		p->chunk[p->nchunks].first = first;
		p->chunk[p->nchunks].off = p->nbytes;
		p->nchunks++;
	}
	return true;
}

/* The last chunk whose first time is < ts (strict) or <= ts; 0 when none is. */
static size_t chunk_before(const struct kt_pack *p, uint64_t ts, bool or_equal)
{
	size_t lo = 0, hi = p->nchunks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->chunk[mid].first < ts || (or_equal && p->chunk[mid].first == ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Drops the first k chunks. */
static void pack_drop(struct kt_pack *p, size_t k)
{
	size_t off, i;

	if (!k || k >= p->nchunks)
		return;
	off = p->chunk[k].off;
	memmove(p->bytes, p->bytes + off, p->nbytes - off);
	p->nbytes -= off;
	memmove(p->chunk, p->chunk + k, (p->nchunks - k) * sizeof(*p->chunk));
	p->nchunks -= k;
	for (i = 0; i < p->nchunks; i++)
		p->chunk[i].off -= off;
	p->n -= k * KT_PACK_CHUNK;
}

static void pack_shrink(struct kt_pack *p)
{
	void *g;

	if (p->nbytes && (g = realloc(p->bytes, p->nbytes))) {
		p->bytes = g;
		p->capbytes = p->nbytes;
	}
	if (p->nchunks && (g = realloc(p->chunk, p->nchunks * sizeof(*p->chunk)))) {
		p->chunk = g;
		p->capchunks = p->nchunks;
	}
}

static size_t pack_bytes(const struct kt_pack *p)
{
	return p->capbytes + p->capchunks * sizeof(*p->chunk);
}

static void pack_free(struct kt_pack *p)
{
	free(p->bytes);
	free(p->chunk);
	memset(p, 0, sizeof(*p));
}

/* --- event times --- */

bool tslog_push(struct kt_tslog *t, uint64_t ts)
{
	struct kt_pack *p = &t->p;
	bool fresh;

	if (p->n && ts < p->last)
		ts = p->last; /* out of order: kept as the last, so the log stays sorted */
	if (!pack_begin(p, ts, &fresh))
		return false;
	if (!fresh)
		p->nbytes += put_varint(p->bytes + p->nbytes, ts - p->last);
	p->last = ts;
	p->n++;
	return true;
}

size_t tslog_len(const struct kt_tslog *t)
{
	return t->p.n;
}

size_t tslog_lower(const struct kt_tslog *t, uint64_t ts)
{
	const struct kt_pack *p = &t->p;
	size_t c, k, end, off;
	uint64_t v;

	if (!p->n || p->chunk[0].first >= ts)
		return 0;
	c = chunk_before(p, ts, false);
	k = c * KT_PACK_CHUNK;
	end = k + KT_PACK_CHUNK < p->n ? k + KT_PACK_CHUNK : p->n;
	v = p->chunk[c].first;
	off = p->chunk[c].off;
	for (k++; k < end; k++) {
		v += get_varint(p->bytes, &off);
		if (v >= ts)
			return k;
	}
	return k;
}

uint64_t tslog_at(const struct kt_tslog *t, size_t k)
{
	const struct kt_pack *p = &t->p;
	size_t c = k / KT_PACK_CHUNK, off = p->chunk[c].off, i;
	uint64_t v = p->chunk[c].first;

	for (i = c * KT_PACK_CHUNK; i < k; i++)
		v += get_varint(p->bytes, &off);
	return v;
}

void tslog_trim(struct kt_tslog *t, uint64_t ts)
{
	struct kt_pack *p = &t->p;
	size_t k;

	if (p->nchunks < 2)
		return;
	k = chunk_before(p, ts, false); /* chunks before k hold only times < chunk k's first */
	if (k * KT_PACK_CHUNK * 2 >= p->n)
		pack_drop(p, k);
}

size_t tslog_bytes(const struct kt_tslog *t)
{
	return pack_bytes(&t->p);
}

void tslog_shrink(struct kt_tslog *t)
{
	pack_shrink(&t->p);
}

void tslog_free(struct kt_tslog *t)
{
	pack_free(&t->p);
}

/* --- slices: varint(task * 2 + gap?), [varint(gap)], varint(length) --- */

bool slicelog_push(struct kt_slicelog *l, const struct kt_pslice *s)
{
	struct kt_pack *p = &l->p;
	bool fresh;
	size_t n;

	if (s->end <= s->start || (p->n && s->start < p->last))
		return false;
	if (!pack_begin(p, s->start, &fresh))
		return false;
	n = p->nbytes;
	if (fresh || s->start == p->last) {
		n += put_varint(p->bytes + n, (uint64_t)s->task * 2);
	} else {
		n += put_varint(p->bytes + n, (uint64_t)s->task * 2 + 1);
		n += put_varint(p->bytes + n, s->start - p->last);
	}
	n += put_varint(p->bytes + n, s->end - s->start);
	p->nbytes = n;
	p->last = s->end;
	p->n++;
	return true;
}

size_t slicelog_len(const struct kt_slicelog *l)
{
	return l->p.n;
}

/* Decodes slice c->k + 1 from c->off, the one before ending at c->s.end. */
static void decode(struct kt_slicecur *c, bool chunk_start)
{
	const struct kt_pack *p = &c->l->p;
	uint64_t t;

	if (chunk_start) {
		c->off = p->chunk[c->k / KT_PACK_CHUNK].off;
		c->s.start = p->chunk[c->k / KT_PACK_CHUNK].first;
	} else {
		c->s.start = c->s.end;
	}
	t = get_varint(p->bytes, &c->off);
	if ((t & 1) && !chunk_start)
		c->s.start += get_varint(p->bytes, &c->off);
	c->s.task = (uint32_t)(t >> 1);
	c->s.end = c->s.start + get_varint(p->bytes, &c->off);
}

bool slicelog_next(struct kt_slicecur *c)
{
	if (c->k + 1 >= c->l->p.n)
		return false;
	c->k++;
	decode(c, c->k % KT_PACK_CHUNK == 0);
	return true;
}

bool slicelog_seek_k(const struct kt_slicelog *l, size_t k, struct kt_slicecur *c)
{
	size_t i;

	if (k >= l->p.n)
		return false;
	c->l = l;
	c->k = k - k % KT_PACK_CHUNK;
	decode(c, true);
	for (i = c->k; i < k; i++)
		slicelog_next(c);
	return true;
}

bool slicelog_seek_end(const struct kt_slicelog *l, uint64_t ts, struct kt_slicecur *c)
{
	if (!l->p.n || !slicelog_seek_k(l, chunk_before(&l->p, ts, true) * KT_PACK_CHUNK, c))
		return false;
	while (c->s.end <= ts)
		if (!slicelog_next(c))
			return false;
	return true;
}

bool slicelog_seek_start(const struct kt_slicelog *l, uint64_t ts, struct kt_slicecur *c)
{
	if (!l->p.n || !slicelog_seek_k(l, chunk_before(&l->p, ts, false) * KT_PACK_CHUNK, c))
		return false;
	while (c->s.start < ts)
		if (!slicelog_next(c))
			return false;
	return true;
}

size_t slicelog_end_lower(const struct kt_slicelog *l, uint64_t ts)
{
	struct kt_slicecur c;

	return slicelog_seek_end(l, ts, &c) ? c.k : l->p.n;
}

void slicelog_trim(struct kt_slicelog *l, uint64_t ts)
{
	struct kt_pack *p = &l->p;
	size_t k;

	if (p->nchunks < 2)
		return;
	/* chunks before k end by chunk k's first start, at or before ts */
	k = chunk_before(p, ts, true);
	if (k * KT_PACK_CHUNK * 2 >= p->n)
		pack_drop(p, k);
}

size_t slicelog_bytes(const struct kt_slicelog *l)
{
	return pack_bytes(&l->p);
}

void slicelog_shrink(struct kt_slicelog *l)
{
	pack_shrink(&l->p);
}

void slicelog_free(struct kt_slicelog *l)
{
	pack_free(&l->p);
}
