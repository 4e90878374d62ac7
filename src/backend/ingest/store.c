// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The event store. Records live in 2 MiB chunks appended at the tail and dropped whole at
 * the head when the memory budget is exceeded, so eviction costs one unmap however many
 * records go. Each chunk keeps an offset per record, so a sequence number maps to its record
 * with one binary search over the chunks and one array index.
 *
 * Chunk data is 2 MiB aligned and marked for transparent huge pages: storing a record is a
 * memcpy into fresh memory, and with 4 KiB pages the page faults cost more than everything
 * else the reader does (measured: two thirds of its CPU time).
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "util/lockorder.h"

#define CHUNK_DATA (2u << 20)
#define REC_ALIGN 8u

struct rec_hdr {
	uint64_t ts;
	uint32_t cpu;
	uint32_t size;
	uint32_t flags;
	uint32_t stack; /* kt_rec.stack */
};

struct chunk {
	uint64_t first_seq;
	uint32_t n;	  /* records */
	uint32_t used;	  /* bytes of data */
	uint32_t off_cap; /* entries of offs */
	uint32_t *offs;
	unsigned char *data; /* CHUNK_DATA bytes, CHUNK_DATA aligned */
};

struct kt_store {
	pthread_mutex_t lock;
	struct chunk **chunks; /* oldest first */
	size_t nchunks, cap;
	uint64_t next_seq;
	size_t bytes, budget;
	uint64_t appended, evicted, lost_markers, stacks;
	int stack_type[2];   /* kernel_stack, user_stack ids; -1: none */
	uint64_t *cpu_last;  /* per CPU: the last record appended that is not a stack */
	uint32_t ncpu_last;
	struct chunk *spare; /* the last chunk evicted, reused: its pages are already faulted in */
	kt_store_pager pager; /* NULL: everything appended is all there is */
	void *pager_ctx;
	uint64_t span;	      /* paged: records [0, span) exist */
	uint64_t est;	      /* paged, being indexed: records [span, est) numbered provisionally */
	uint64_t shift_gen, shift_from;
	int64_t shift_by;
};

static size_t chunk_bytes(const struct chunk *c)
{
	return sizeof(*c) + CHUNK_DATA + (size_t)c->off_cap * sizeof(uint32_t);
}

/* CHUNK_DATA bytes aligned to CHUNK_DATA, so the kernel can back them with one huge page. */
static unsigned char *chunk_data_alloc(void)
{
	size_t span = 2 * (size_t)CHUNK_DATA;
	unsigned char *p, *aligned;
	uintptr_t head;

	p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	head = (CHUNK_DATA - ((uintptr_t)p & (CHUNK_DATA - 1))) & (CHUNK_DATA - 1);
	aligned = p + head;
	if (head)
		munmap(p, head);
	munmap(aligned + CHUNK_DATA, span - head - CHUNK_DATA);
	madvise(aligned, CHUNK_DATA, MADV_HUGEPAGE); /* a hint: fine if refused */
	return aligned;
}

static void chunk_free(struct chunk *c)
{
	munmap(c->data, CHUNK_DATA);
	free(c->offs);
	free(c);
}

struct kt_store *store_new(size_t budget)
{
	struct kt_store *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	pthread_mutex_init(&st->lock, NULL);
	st->budget = budget;
	st->stack_type[0] = st->stack_type[1] = -1;
	return st;
}

static void store_drop_all(struct kt_store *st)
{
	size_t i;

	for (i = 0; i < st->nchunks; i++)
		chunk_free(st->chunks[i]);
	st->nchunks = 0;
	st->bytes = 0;
	for (i = 0; i < st->ncpu_last; i++)
		st->cpu_last[i] = UINT64_MAX;
}

void store_free(struct kt_store *st)
{
	if (!st)
		return;
	store_drop_all(st);
	if (st->spare)
		chunk_free(st->spare);
	free(st->chunks);
	free(st->cpu_last);
	pthread_mutex_destroy(&st->lock);
	free(st);
}

void store_lock(struct kt_store *st)
{
	lockorder_take(KT_LOCK_STORE);
	pthread_mutex_lock(&st->lock);
}

void store_unlock(struct kt_store *st)
{
	pthread_mutex_unlock(&st->lock);
	lockorder_drop(KT_LOCK_STORE);
}

static void store_evict(struct kt_store *st)
{
	struct chunk *old;

	/* Keep two chunks so the newest records always survive. */
	while (st->bytes > st->budget && st->nchunks > 2) {
		old = st->chunks[0];
		st->evicted += old->n;
		st->bytes -= chunk_bytes(old);
		memmove(st->chunks, st->chunks + 1, (st->nchunks - 1) * sizeof(*st->chunks));
		st->nchunks--;
		if (st->spare)
			chunk_free(old);
		else
			st->spare = old;
	}
}

static struct chunk *store_new_chunk(struct kt_store *st)
{
	struct chunk *c, **grown;

	if (st->nchunks == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 16;

		grown = realloc(st->chunks, cap * sizeof(*grown));
		if (!grown)
			return NULL;
		st->chunks = grown;
		st->cap = cap;
	}
	if (st->spare) {
		c = st->spare;
		st->spare = NULL;
	} else {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->data = chunk_data_alloc();
		if (!c->data) {
			free(c);
			return NULL;
		}
		c->off_cap = 0;
		c->offs = NULL;
	}
	c->first_seq = st->next_seq;
	c->n = 0;
	c->used = 0;
	st->chunks[st->nchunks++] = c;
	st->bytes += chunk_bytes(c);
	store_evict(st);
	return c;
}

/* Room for one record of size bytes at the tail, or NULL when out of memory. */
static struct rec_hdr *store_reserve(struct kt_store *st, uint32_t size)
{
	struct chunk *c = st->nchunks ? st->chunks[st->nchunks - 1] : NULL;
	uint32_t need, *offs;

	if (size > CHUNK_DATA - sizeof(struct rec_hdr) - REC_ALIGN)
		return NULL; /* no record is that large: a corrupt size, refused before it wraps */
	need = (uint32_t)((sizeof(struct rec_hdr) + size + REC_ALIGN - 1) &
			  ~(size_t)(REC_ALIGN - 1));
	if (!c || c->used + need > CHUNK_DATA) {
		c = store_new_chunk(st);
		if (!c)
			return NULL;
	}
	if (c->n == c->off_cap) {
		uint32_t cap = c->off_cap ? c->off_cap * 2 : 1024;

		offs = realloc(c->offs, cap * sizeof(*offs));
		if (!offs)
			return NULL;
		st->bytes += (size_t)(cap - c->off_cap) * sizeof(*offs);
		c->offs = offs;
		c->off_cap = cap;
	}
	c->offs[c->n++] = c->used;
	c->used += need;
	st->next_seq++;
	st->appended++;
	return (struct rec_hdr *)(void *)(c->data + c->offs[c->n - 1]);
}

static uint64_t held_first(const struct kt_store *st)
{
	return st->nchunks ? st->chunks[0]->first_seq : st->next_seq;
}

/* The header of record seq, held by the store. */
static struct rec_hdr *hdr_at(const struct kt_store *st, uint64_t seq)
{
	size_t lo = 0, hi = st->nchunks, mid;
	const struct chunk *c;

	/* the last chunk whose first_seq <= seq */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (st->chunks[mid]->first_seq <= seq)
			lo = mid;
		else
			hi = mid;
	}
	c = st->chunks[lo];
	return (struct rec_hdr *)(void *)(c->data + c->offs[seq - c->first_seq]);
}

/* The slot of cpu in cpu_last, grown on first sight; NULL when out of memory. */
static uint64_t *cpu_slot(struct kt_store *st, uint32_t cpu)
{
	uint64_t *grown;
	uint32_t n, i;

	if (cpu >= st->ncpu_last) {
		n = cpu + 1 > 2 * st->ncpu_last ? cpu + 1 : 2 * st->ncpu_last;
		grown = realloc(st->cpu_last, n * sizeof(*grown));
		if (!grown)
			return NULL;
		for (i = st->ncpu_last; i < n; i++)
			grown[i] = UINT64_MAX;
		st->cpu_last = grown;
		st->ncpu_last = n;
	}
	return &st->cpu_last[cpu];
}

static bool is_stack_type(const struct kt_store *st, const void *data, uint32_t size)
{
	unsigned short type;

	if (st->stack_type[0] < 0 && st->stack_type[1] < 0)
		return false;
	if (size < sizeof(type))
		return false;
	memcpy(&type, data, sizeof(type));
	return type == st->stack_type[0] || type == st->stack_type[1];
}

/* Links stack record seq behind the stacks of owner (its CPU's last event). */
static void attach_stack(struct kt_store *st, uint64_t owner, uint64_t seq)
{
	struct rec_hdr *h;
	uint64_t at = owner;

	if (owner == UINT64_MAX || owner < held_first(st))
		return;
	h = hdr_at(st, at);
	while (h->stack) {
		at += h->stack;
		h = hdr_at(st, at);
	}
	if (seq - at <= UINT32_MAX)
		h->stack = (uint32_t)(seq - at);
}

uint64_t store_append(struct kt_store *st, uint64_t ts, uint32_t cpu, const void *data,
		      uint32_t size)
{
	bool stack = is_stack_type(st, data, size);
	struct rec_hdr *h = store_reserve(st, size);
	uint64_t seq = st->next_seq - 1, *last;

	if (!h)
		return UINT64_MAX;
	h->ts = ts;
	h->cpu = cpu;
	h->size = size;
	h->flags = stack ? KT_REC_STACK : 0;
	h->stack = 0;
	memcpy(h + 1, data, size);
	if (st->stack_type[0] < 0 && st->stack_type[1] < 0)
		return seq;
	last = cpu_slot(st, cpu);
	if (stack) {
		st->stacks++;
		if (last)
			attach_stack(st, *last, seq);
	} else if (last) {
		*last = seq;
	}
	return seq;
}

void store_set_stack_types(struct kt_store *st, int kernel_id, int user_id)
{
	st->stack_type[0] = kernel_id;
	st->stack_type[1] = user_id;
}

bool store_cpu_last(const struct kt_store *st, uint64_t seq, uint32_t cpu)
{
	return cpu < st->ncpu_last && st->cpu_last[cpu] == seq;
}

uint64_t store_append_lost(struct kt_store *st, uint64_t ts, uint32_t cpu, int64_t lost)
{
	struct rec_hdr *h = store_reserve(st, sizeof(lost));

	if (!h)
		return UINT64_MAX;
	h->ts = ts;
	h->cpu = cpu;
	h->size = sizeof(lost);
	h->flags = KT_REC_LOST;
	h->stack = 0;
	memcpy(h + 1, &lost, sizeof(lost));
	st->lost_markers++;
	/* a stack after the gap may be a lost event's */
	if (cpu < st->ncpu_last)
		st->cpu_last[cpu] = UINT64_MAX;
	return st->next_seq - 1;
}

uint64_t store_first(const struct kt_store *st)
{
	return st->pager ? 0 : held_first(st);
}

uint64_t store_end(const struct kt_store *st)
{
	return st->pager ? st->span : st->next_seq;
}

void store_held(const struct kt_store *st, uint64_t *first, uint64_t *end)
{
	*first = held_first(st);
	*end = st->next_seq;
}

void store_set_pager(struct kt_store *st, kt_store_pager pager, void *ctx)
{
	st->pager = pager;
	st->pager_ctx = ctx;
}

void store_set_span(struct kt_store *st, uint64_t end)
{
	st->span = end;
}

void store_set_estimate(struct kt_store *st, uint64_t est)
{
	st->est = est;
}

uint64_t store_browse_end(const struct kt_store *st)
{
	return store_estimated(st) ? st->est : store_end(st);
}

bool store_estimated(const struct kt_store *st)
{
	return st->pager && st->est > st->span;
}

void store_set_shift(struct kt_store *st, uint64_t from, int64_t by)
{
	st->shift_gen++;
	st->shift_from = from;
	st->shift_by = by;
}

uint64_t store_shift(const struct kt_store *st, uint64_t *from, int64_t *by)
{
	*from = st->shift_from;
	*by = st->shift_by;
	return st->shift_gen;
}

void store_restart(struct kt_store *st, uint64_t first)
{
	store_drop_all(st);
	st->next_seq = first;
}

bool store_get(const struct kt_store *st, uint64_t seq, struct kt_rec *out)
{
	const struct rec_hdr *h;

	/* Paged: the window moves, the records do not change (hence the const). */
	if (st->pager && seq < store_browse_end(st) && (seq < held_first(st) || seq >= st->next_seq))
		st->pager(st->pager_ctx, (struct kt_store *)(uintptr_t)st, seq);
	if (seq < held_first(st) || seq >= st->next_seq)
		return false;
	h = hdr_at(st, seq);
	out->seq = seq;
	out->ts = h->ts;
	out->cpu = h->cpu;
	out->flags = h->flags;
	out->size = h->size;
	out->stack = h->stack;
	out->data = h + 1;
	out->lost = 0;
	if (h->flags & KT_REC_LOST)
		memcpy(&out->lost, h + 1, sizeof(out->lost));
	return true;
}

void store_stats(const struct kt_store *st, struct kt_store_stats *out)
{
	out->appended = st->appended;
	out->evicted = st->evicted;
	out->lost_markers = st->lost_markers;
	out->stacks = st->stacks;
	out->bytes = st->bytes;
	out->budget = st->budget;
	out->chunks = st->nchunks;
}

void store_clear(struct kt_store *st)
{
	store_drop_all(st);
}

uint64_t store_seek_ts(const struct kt_store *st, uint64_t lo, uint64_t hi, uint64_t ts)
{
	struct kt_rec r;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (store_get(st, mid, &r) && r.ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
