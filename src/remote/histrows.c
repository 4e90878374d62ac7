// SPDX-License-Identifier: GPL-2.0-or-later
/* The HISTROWS frame's codec (histrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "histrows.h"
#include "util/xalloc.h"

/* The fewest bytes a row takes: its key (u64, an empty string) and two empty values. */
#define ROW_MIN (8 + 4 + 2 * (4 * 8 + 1))

static void put_val(struct kt_wbuf *b, const struct kt_hist_val *v)
{
	uint8_t n = 0;

	wbuf_u64(b, v->count);
	wbuf_u64(b, v->sum);
	wbuf_u64(b, v->min);
	wbuf_u64(b, v->max);
	for (unsigned i = 0; i < KT_HIST_SLOTS; i++)
		n += v->slots[i] != 0;
	wbuf_u8(b, n);
	for (unsigned i = 0; i < KT_HIST_SLOTS; i++) {
		if (!v->slots[i])
			continue;
		wbuf_u8(b, (uint8_t)i);
		wbuf_u64(b, v->slots[i]);
	}
}

static void put_row(struct kt_wbuf *b, const struct kt_hist_row *r)
{
	char name[KT_HIST_COMM + 1];

	memcpy(name, r->key.name, KT_HIST_COMM);
	name[KT_HIST_COMM] = '\0';
	wbuf_u64(b, r->key.id);
	wbuf_str(b, name);
	put_val(b, &r->cum);
	put_val(b, &r->iv);
}

void msg_histrows_encode(struct kt_wbuf *b, uint32_t id, const char *variant, uint64_t missed,
			 const struct kt_hist_row *total, const struct kt_hist_row *rows,
			 size_t nrows)
{
	wbuf_u32(b, id);
	wbuf_str(b, variant);
	wbuf_u64(b, missed);
	put_row(b, total);
	wbuf_u32(b, (uint32_t)nrows);
	for (size_t i = 0; i < nrows; i++)
		put_row(b, &rows[i]);
}

static void get_val(struct kt_rbuf *r, struct kt_hist_val *v)
{
	unsigned n, slot;

	v->count = rbuf_u64(r);
	v->sum = rbuf_u64(r);
	v->min = rbuf_u64(r);
	v->max = rbuf_u64(r);
	n = rbuf_u8(r);
	if (n > KT_HIST_SLOTS)
		r->bad = true;
	for (unsigned i = 0; i < n && !r->bad; i++) {
		slot = rbuf_u8(r);
		if (slot >= KT_HIST_SLOTS || v->slots[slot]) {
			r->bad = true;
			break;
		}
		v->slots[slot] = rbuf_u64(r);
	}
}

static void get_row(struct kt_rbuf *r, struct kt_hist_row *row)
{
	char name[KT_HIST_COMM + 1] = ""; /* zeros past the string: keys compare whole */

	memset(row, 0, sizeof(*row));
	row->key.id = rbuf_u64(r);
	rbuf_str(r, name, sizeof(name));
	memcpy(row->key.name, name, KT_HIST_COMM);
	get_val(r, &row->cum);
	get_val(r, &row->iv);
}

int msg_histrows_decode(const uint8_t *p, size_t n, struct kt_histrows *h)
{
	struct kt_rbuf r;

	memset(h, 0, sizeof(*h));
	rbuf_init(&r, p, n);
	h->id = rbuf_u32(&r);
	rbuf_str(&r, h->variant, sizeof(h->variant));
	h->missed = rbuf_u64(&r);
	get_row(&r, &h->total);
	h->nrows = rbuf_u32(&r);
	if (r.bad || h->nrows > r.left / ROW_MIN)
		return -1;
	h->rows = h->nrows ? xcalloc(h->nrows, sizeof(*h->rows)) : NULL;
	for (uint32_t i = 0; i < h->nrows && !r.bad; i++)
		get_row(&r, &h->rows[i]);
	if (r.bad || r.left) {
		free(h->rows);
		h->rows = NULL;
		return -1;
	}
	return 0;
}
