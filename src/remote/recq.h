/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A first-in first-out queue of records with their payloads, in one buffer that grows and is
 * reused: the viewer's queues waiting for a watermark (per CPU in pages.c, per host in
 * hostmerge.c). Each record keeps a key, the time it is merged by (its own timestamp, or a
 * host's shifted by its clock offset).
 */
#ifndef KTOP_REMOTE_RECQ_H
#define KTOP_REMOTE_RECQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/ingest/store.h"

struct kt_recq {
	uint8_t *buf;
	size_t head, len, cap;
};

/* Copies r and its r->size bytes of data in behind the others. Returns the bytes it holds. */
size_t recq_put(struct kt_recq *q, const struct kt_rec *r, uint64_t key);
/* The first record into r (r->data points into q until the next put or pop) and its key;
 * false when q is empty. */
bool recq_peek(const struct kt_recq *q, struct kt_rec *r, uint64_t *key);
/* The first record's key; false when q is empty. */
bool recq_key(const struct kt_recq *q, uint64_t *key);
/* Drops the first record. Returns the bytes it held. */
size_t recq_pop(struct kt_recq *q);
void recq_free(struct kt_recq *q);

#endif
