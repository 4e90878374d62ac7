// SPDX-License-Identifier: GPL-2.0-or-later
/* Several hosts' records merged by shifted time (hostmerge.h). */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "hostmerge.h"
#include "recq.h"
#include "util/xalloc.h"

struct hm_host {
	struct kt_recq q;
	int64_t offset;	 /* the host's clock minus ours */
	uint64_t floor;	 /* its last watermark, shifted: its records to come are not older */
	bool ended;
	struct kt_hostmerge_stats st;
};

struct kt_hostmerge {
	struct hm_host *hosts;
	unsigned n;
	size_t queued, cap;
	uint64_t last; /* the latest shifted time handed on */
	kt_hostmerge_emit emit;
	void *ctx;
};

struct kt_hostmerge *hostmerge_new(unsigned nhosts, size_t cap, kt_hostmerge_emit emit,
				   void *ctx)
{
	struct kt_hostmerge *m = xcalloc(1, sizeof(*m));

	m->hosts = xcalloc(nhosts ? nhosts : 1, sizeof(*m->hosts));
	m->n = nhosts;
	m->cap = cap;
	m->emit = emit;
	m->ctx = ctx;
	return m;
}

void hostmerge_free(struct kt_hostmerge *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->n; i++)
		recq_free(&m->hosts[i].q);
	free(m->hosts);
	free(m);
}

void hostmerge_offset(struct kt_hostmerge *m, unsigned host, int64_t offset)
{
	m->hosts[host].offset = offset;
}

/* ts on host's clock shifted onto ours (0 at the least), not before its floor. */
static uint64_t hm_shift(const struct hm_host *h, uint64_t ts)
{
	uint64_t t, add;

	if (h->offset >= 0) {
		t = ts > (uint64_t)h->offset ? ts - (uint64_t)h->offset : 0;
	} else {
		add = 0 - (uint64_t)h->offset;
		t = ts + add < ts ? UINT64_MAX : ts + add;
	}
	return t > h->floor ? t : h->floor;
}

static void hm_emit(struct kt_hostmerge *m, unsigned host, struct kt_rec *r, uint64_t key)
{
	uint64_t host_ts = r->ts;

	if (key < m->last)
		m->hosts[host].st.late++;
	else
		m->last = key;
	m->hosts[host].st.emitted++;
	r->ts = key;
	m->emit(m->ctx, host, r, host_ts);
}

/* The host whose first record is the oldest; false when all queues are empty. */
static bool hm_oldest(const struct kt_hostmerge *m, unsigned *at, uint64_t *key)
{
	bool found = false;
	uint64_t k;

	for (unsigned i = 0; i < m->n; i++) {
		if (recq_key(&m->hosts[i].q, &k) && (!found || k < *key)) {
			found = true;
			*key = k;
			*at = i;
		}
	}
	return found;
}

/* The live host with the lowest floor (the one that holds the others back); false when
 * all have ended. */
static bool hm_holder(const struct kt_hostmerge *m, unsigned *at)
{
	bool found = false;

	for (unsigned i = 0; i < m->n; i++) {
		if (!m->hosts[i].ended && (!found || m->hosts[i].floor < m->hosts[*at].floor)) {
			found = true;
			*at = i;
		}
	}
	return found;
}

static void hm_pop(struct kt_hostmerge *m, unsigned host, uint64_t key)
{
	struct kt_rec r;
	uint64_t k;

	recq_peek(&m->hosts[host].q, &r, &k);
	hm_emit(m, host, &r, key);
	m->queued -= recq_pop(&m->hosts[host].q);
}

/* Hands on what every live host's floor has passed (all of it when all have ended or all
 * is true), in order. */
static void hm_release(struct kt_hostmerge *m, bool all)
{
	unsigned at = 0, holder = 0;
	uint64_t key, limit;

	all = all || !hm_holder(m, &holder);
	limit = all ? UINT64_MAX : m->hosts[holder].floor;
	while (hm_oldest(m, &at, &key) && (key < limit || all))
		hm_pop(m, at, key);
}

void hostmerge_put(struct kt_hostmerge *m, unsigned host, const struct kt_rec *r)
{
	struct hm_host *h = &m->hosts[host];
	uint64_t key = hm_shift(h, r->ts);
	struct kt_rec late;
	unsigned at = 0, holder = 0;

	if (key < m->last) { /* older than what the cap already let out: no use holding it */
		late = *r;
		hm_emit(m, host, &late, key);
		return;
	}
	m->queued += recq_put(&h->q, r, key);
	while (m->queued > m->cap && hm_oldest(m, &at, &key)) {
		if (hm_holder(m, &holder))
			m->hosts[holder].st.stalled++;
		hm_pop(m, at, key);
	}
}

void hostmerge_watermark(struct kt_hostmerge *m, unsigned host, uint64_t ts)
{
	struct hm_host *h = &m->hosts[host];

	h->floor = hm_shift(h, ts);
	hm_release(m, false);
}

void hostmerge_end(struct kt_hostmerge *m, unsigned host)
{
	m->hosts[host].ended = true;
	hm_release(m, false);
}

void hostmerge_flush(struct kt_hostmerge *m)
{
	hm_release(m, true);
}

void hostmerge_stats(const struct kt_hostmerge *m, unsigned host,
		     struct kt_hostmerge_stats *out)
{
	*out = m->hosts[host].st;
}
