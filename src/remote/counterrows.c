// SPDX-License-Identifier: GPL-2.0-or-later
/* The COUNTERROWS frame's codec (counterrows.h). Doubles travel as their IEEE 754 bits, so
 * NAN (a rate not known, a ratio missing) comes back as NAN. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "counterrows.h"
#include "util/xalloc.h"

/* The fewest bytes a counter takes: three empty strings, fmt and flags, raw and four
 * figures, then per slot its open flag and rate. */
#define COUNTER_MIN (3 * 4 + 2 + 8 + 4 * 8)
#define SLOT_BYTES (1 + 8)

enum { FLAG_AVAILABLE = 1, FLAG_COUNTED = 2, FLAG_USER = 4 };

static void put_counter(struct kt_wbuf *b, const struct kt_pmu_snap_counter *c,
			uint32_t nslots)
{
	wbuf_str(b, c->name);
	wbuf_u8(b, c->fmt);
	wbuf_str(b, c->unit);
	wbuf_u8(b, (uint8_t)((c->available ? FLAG_AVAILABLE : 0) |
			     (c->counted ? FLAG_COUNTED : 0) | (c->user ? FLAG_USER : 0)));
	wbuf_str(b, c->reason);
	wbuf_u64(b, c->raw);
	wbuf_f64(b, c->value);
	wbuf_f64(b, c->rate);
	wbuf_f64(b, c->share);
	wbuf_f64(b, c->share_total);
	for (uint32_t i = 0; i < nslots; i++) {
		wbuf_u8(b, c->slots[i].open);
		wbuf_f64(b, c->slots[i].rate);
	}
}

void msg_counterrows_encode(struct kt_wbuf *b, uint32_t id, const struct kt_pmu_snap *s)
{
	wbuf_u32(b, id);
	wbuf_str(b, s->target);
	wbuf_u8(b, s->per_task);
	wbuf_u32(b, s->samples);
	wbuf_f64(b, s->interval);
	wbuf_u32(b, s->nslots);
	for (uint32_t i = 0; i < s->nslots; i++)
		wbuf_u32(b, (uint32_t)s->slot_ids[i]);
	wbuf_u32(b, s->ncounters);
	for (uint32_t i = 0; i < s->ncounters; i++)
		put_counter(b, &s->counters[i], s->nslots);
	wbuf_u8(b, KT_PMU_NRATIOS);
	for (unsigned i = 0; i < KT_PMU_NRATIOS; i++) {
		wbuf_str(b, s->ratios[i].name);
		wbuf_str(b, s->ratios[i].unit);
		wbuf_f64(b, s->ratios[i].value);
		wbuf_f64(b, s->ratios[i].rate_value);
		wbuf_str(b, s->ratios[i].why);
	}
}

static void get_counter(struct kt_rbuf *r, struct kt_pmu_snap_counter *c, uint32_t nslots)
{
	uint8_t flags;

	rbuf_str(r, c->name, sizeof(c->name));
	c->fmt = rbuf_u8(r);
	if (c->fmt >= KT_PMU_FMT_MAX)
		r->bad = true;
	rbuf_str(r, c->unit, sizeof(c->unit));
	flags = rbuf_u8(r);
	c->available = flags & FLAG_AVAILABLE;
	c->counted = flags & FLAG_COUNTED;
	c->user = flags & FLAG_USER;
	rbuf_str(r, c->reason, sizeof(c->reason));
	c->raw = rbuf_u64(r);
	c->value = rbuf_f64(r);
	c->rate = rbuf_f64(r);
	c->share = rbuf_f64(r);
	c->share_total = rbuf_f64(r);
	c->slots = xcalloc(nslots ? nslots : 1, sizeof(*c->slots));
	for (uint32_t i = 0; i < nslots && !r->bad; i++) {
		c->slots[i].open = rbuf_u8(r) != 0;
		c->slots[i].rate = rbuf_f64(r);
	}
}

int msg_counterrows_decode(const uint8_t *p, size_t n, struct kt_counterrows *c)
{
	struct kt_pmu_snap *s = &c->snap;
	struct kt_rbuf r;
	uint8_t nratios;

	memset(c, 0, sizeof(*c));
	rbuf_init(&r, p, n);
	c->id = rbuf_u32(&r);
	rbuf_str(&r, s->target, sizeof(s->target));
	s->per_task = rbuf_u8(&r) != 0;
	s->samples = rbuf_u32(&r);
	s->interval = rbuf_f64(&r);
	s->nslots = rbuf_u32(&r);
	if (r.bad || s->nslots > r.left / 4)
		return -1;
	s->slot_ids = xcalloc(s->nslots ? s->nslots : 1, sizeof(*s->slot_ids));
	for (uint32_t i = 0; i < s->nslots; i++)
		s->slot_ids[i] = (int32_t)rbuf_u32(&r);
	s->ncounters = rbuf_u32(&r);
	if (r.bad || s->ncounters > r.left / (COUNTER_MIN + (size_t)s->nslots * SLOT_BYTES))
		goto bad;
	s->counters = xcalloc(s->ncounters ? s->ncounters : 1, sizeof(*s->counters));
	for (uint32_t i = 0; i < s->ncounters && !r.bad; i++)
		get_counter(&r, &s->counters[i], s->nslots);
	nratios = rbuf_u8(&r);
	if (nratios != KT_PMU_NRATIOS)
		r.bad = true;
	for (unsigned i = 0; i < KT_PMU_NRATIOS && !r.bad; i++) {
		rbuf_str(&r, s->ratios[i].name, sizeof(s->ratios[i].name));
		rbuf_str(&r, s->ratios[i].unit, sizeof(s->ratios[i].unit));
		s->ratios[i].value = rbuf_f64(&r);
		s->ratios[i].rate_value = rbuf_f64(&r);
		rbuf_str(&r, s->ratios[i].why, sizeof(s->ratios[i].why));
	}
	if (!r.bad && !r.left)
		return 0;
bad:
	pmu_snap_free(s);
	return -1;
}
