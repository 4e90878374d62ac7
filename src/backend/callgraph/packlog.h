/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time index's packed logs (timeindex.h): a big recording holds tens of millions of
 * task slices and event times, so each is kept as a varint of its distance from the one
 * before, in chunks of KT_PACK_CHUNK whose first time is kept whole. A lookup is a binary
 * search over the chunks and a walk of at most one chunk; about 3 bytes a slice and 2 an
 * event time where plain structs took 24 and 8.
 *
 * A tslog is one event type's times, in the order they came (a time older than the last is
 * kept as the last: the index reads a time-ordered store). A slicelog is one CPU's slices in
 * time order, each with a task number (timeindex.c's table); a slice may start after the
 * one before ended (a gap) but never before. Neither takes a lock: the index's is held.
 */
#ifndef KTOP_PACKLOG_H
#define KTOP_PACKLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_PACK_CHUNK 64

struct kt_pack_chunk {
	uint64_t first; /* the chunk's first time (a slice's start) */
	size_t off;	/* its bytes' offset */
};

struct kt_pack {
	struct kt_pack_chunk *chunk;
	size_t nchunks, capchunks;
	unsigned char *bytes;
	size_t nbytes, capbytes;
	size_t n;	/* entries */
	uint64_t last;	/* the last entry's time (a slice's end) */
};

/* Event times. */
struct kt_tslog {
	struct kt_pack p;
};

bool tslog_push(struct kt_tslog *t, uint64_t ts);
/* How many times are < ts. */
size_t tslog_lower(const struct kt_tslog *t, uint64_t ts);
/* The k-th time (k < tslog_len). */
uint64_t tslog_at(const struct kt_tslog *t, size_t k);
size_t tslog_len(const struct kt_tslog *t);
/* Drops the chunks wholly older than ts once they are half the log. */
void tslog_trim(struct kt_tslog *t, uint64_t ts);
size_t tslog_bytes(const struct kt_tslog *t);
/* Gives back the room reserved for more (no more will come: a recording read to its end). */
void tslog_shrink(struct kt_tslog *t);
void tslog_free(struct kt_tslog *t);

/* One CPU's slices. */
struct kt_pslice {
	uint64_t start, end;
	uint32_t task;
};

struct kt_slicelog {
	struct kt_pack p;
};

/* Appends s (s->start >= the last slice's end, s->end > s->start). false out of memory or
 * out of order (nothing kept). */
bool slicelog_push(struct kt_slicelog *l, const struct kt_pslice *s);
size_t slicelog_len(const struct kt_slicelog *l);

/* A walk along a slicelog: k is the slice's number (0: the first kept). */
struct kt_slicecur {
	const struct kt_slicelog *l;
	size_t k, off;
	struct kt_pslice s;
};

/* The first slice that ends after ts; false: none. */
bool slicelog_seek_end(const struct kt_slicelog *l, uint64_t ts, struct kt_slicecur *c);
/* The first slice that starts at or after ts; false: none. */
bool slicelog_seek_start(const struct kt_slicelog *l, uint64_t ts, struct kt_slicecur *c);
/* The k-th slice. */
bool slicelog_seek_k(const struct kt_slicelog *l, size_t k, struct kt_slicecur *c);
/* The slice after c's; false at the end. */
bool slicelog_next(struct kt_slicecur *c);
/* How many slices end at or before ts (slicelog_seek_end's number). */
size_t slicelog_end_lower(const struct kt_slicelog *l, uint64_t ts);
/* Drops the chunks of slices wholly before ts once they are half the log. */
void slicelog_trim(struct kt_slicelog *l, uint64_t ts);
size_t slicelog_bytes(const struct kt_slicelog *l);
void slicelog_shrink(struct kt_slicelog *l);
void slicelog_free(struct kt_slicelog *l);

#endif
