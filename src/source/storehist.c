// SPDX-License-Identifier: GPL-2.0-or-later
/* A field histogram from the stored events (storehist.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "source/histsrc.h"
#include "storehist.h"
#include "util/xalloc.h"

#define SH_SCAN 400000 /* records per update, so the screen stays responsive */

struct store_hist {
	struct kt_histsrc base;
	struct kt_store *store;
	struct kt_decoder *d;
	int type; /* the event's common_type */
	struct tep_format_field *value, *key; /* key: by=FIELD, else NULL */
	bool on;			      /* a range */
	uint64_t from, to;
	uint64_t next; /* the next record to count; UINT64_MAX: start again (a new range) */
	struct kt_hist_row *rows, total;
	size_t nrows, cap;
	/* b: the rows of the range counted before, shown beside as host 1; out: both */
	struct kt_hist_row *baserows, *out;
	size_t nbase;
	bool has_base;
};

#define SH(h) ((struct store_hist *)(h))

static unsigned int slot(const struct kt_hist_spec *s, unsigned long long v)
{
	unsigned int n = 0;

	if (s->scale == KT_SCALE_LINEAR) {
		v = s->step ? v / s->step : v;
		return v >= KT_HIST_SLOTS - 1 ? KT_HIST_SLOTS - 1 : (unsigned int)v;
	}
	while (v >>= 1)
		n++;
	return n;
}

/* One value into a row's totals (hist_row_add's arithmetic, hist_common.bpf.h). */
static void val_add(struct kt_hist_val *h, const struct kt_hist_spec *s, unsigned long long v)
{
	h->slots[slot(s, v)]++;
	if (!h->count || v < h->min)
		h->min = v;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

static struct kt_hist_row *row_of(struct store_hist *sh, const struct kt_hist_key *k)
{
	for (size_t i = 0; i < sh->nrows; i++)
		if (sh->rows[i].key.id == k->id && !strcmp(sh->rows[i].key.name, k->name))
			return &sh->rows[i];
	if (sh->nrows == KT_HIST_MAX_KEYS)
		return NULL; /* as the kernel's full map: counted in the total alone */
	if (sh->nrows == sh->cap) {
		sh->cap = sh->cap ? 2 * sh->cap : 64;
		sh->rows = xreallocarray(sh->rows, sh->cap, sizeof(*sh->rows));
	}
	memset(&sh->rows[sh->nrows], 0, sizeof(*sh->rows));
	sh->rows[sh->nrows].key = *k;
	return &sh->rows[sh->nrows++];
}

/* r's key as the spec keys it. */
static void key_of(struct store_hist *sh, const struct kt_rec *r, struct kt_hist_key *k)
{
	unsigned long long v = 0;
	int pid = decoder_rec_pid(r);

	memset(k, 0, sizeof(*k));
	switch (sh->base.spec.by) {
	case KT_BY_TID:
		k->id = (unsigned int)pid;
		break;
	case KT_BY_COMM:
		snprintf(k->name, sizeof(k->name), "%s", decoder_comm(sh->d, pid, r->ts));
		break;
	case KT_BY_CPU:
		k->id = r->cpu;
		break;
	case KT_BY_FIELD:
		if (sh->key->flags & TEP_FIELD_IS_STRING)
			snprintf(k->name, sizeof(k->name), "%.*s", sh->key->size,
				 (const char *)r->data + sh->key->offset);
		else if (!tep_read_number_field(sh->key, r->data, &v))
			k->id = v;
		break;
	default:
		break;
	}
}

static void count_rec(struct store_hist *sh, const struct kt_rec *r)
{
	unsigned long long raw;
	long long v;
	struct kt_hist_key k;
	struct kt_hist_row *row;

	if ((r->flags & (KT_REC_LOST | KT_REC_STACK)) || decoder_rec_type(r) != sh->type ||
	    tep_read_number_field(sh->value, r->data, &raw))
		return;
	/* sign-extended as the format says, as tphist.bpf.c's read_num */
	v = (long long)raw;
	if ((sh->value->flags & TEP_FIELD_IS_SIGNED) && sh->value->size < 8 &&
	    (raw >> (8 * sh->value->size - 1) & 1))
		v = (long long)(raw | ~0ull << (8 * sh->value->size));
	if (v < 0) /* an error return: not a size */
		return;
	key_of(sh, r, &k);
	row = row_of(sh, &k);
	if (row)
		val_add(&row->cum, &sh->base.spec, (unsigned long long)v);
	val_add(&sh->total.cum, &sh->base.spec, (unsigned long long)v);
}

/* Where counting starts, or starts again: the range's first record, or the store's. */
static void start(struct store_hist *sh, uint64_t first, uint64_t end)
{
	sh->nrows = 0;
	memset(&sh->total, 0, sizeof(sh->total));
	sh->next = sh->on ? store_seek_ts(sh->store, first, end, sh->from) : first;
}

static bool sh_update(struct kt_histsrc *h)
{
	struct store_hist *sh = SH(h);
	uint64_t first, end, n = 0;
	struct kt_rec r;

	store_lock(sh->store);
	first = store_first(sh->store);
	end = store_end(sh->store);
	if (sh->next == UINT64_MAX || sh->next < first)
		start(sh, first, end);
	for (; sh->next < end && n < SH_SCAN; sh->next++, n++) {
		if (!store_get(sh->store, sh->next, &r))
			continue;
		if (sh->on && r.ts > sh->to) {
			sh->next = end;
			break;
		}
		count_rec(sh, &r);
	}
	store_unlock(sh->store);
	/* a stored event's rows only grow: since the start is all there is, each tick */
	for (size_t i = 0; i < sh->nrows; i++)
		sh->rows[i].iv = sh->rows[i].cum;
	sh->total.iv = sh->total.cum;
	return true;
}

static size_t sh_rows(struct kt_histsrc *h, const struct kt_hist_row **rows)
{
	struct store_hist *sh = SH(h);
	size_t n = sh->nrows + sh->nbase;

	if (!sh->has_base) {
		*rows = sh->rows;
		return sh->nrows;
	}
	free(sh->out);
	sh->out = xcalloc(n ? n : 1, sizeof(*sh->out));
	if (sh->nrows)
		memcpy(sh->out, sh->rows, sh->nrows * sizeof(*sh->out));
	if (sh->nbase)
		memcpy(sh->out + sh->nrows, sh->baserows, sh->nbase * sizeof(*sh->out));
	*rows = sh->out;
	return n;
}

static void sh_baseline(struct kt_histsrc *h, bool on)
{
	struct store_hist *sh = SH(h);

	free(sh->baserows);
	sh->baserows = NULL;
	sh->nbase = 0;
	sh->has_base = on;
	if (!on || !sh->nrows)
		return;
	sh->baserows = xcalloc(sh->nrows, sizeof(*sh->baserows));
	memcpy(sh->baserows, sh->rows, sh->nrows * sizeof(*sh->baserows));
	sh->nbase = sh->nrows;
	for (size_t i = 0; i < sh->nbase; i++)
		sh->baserows[i].host = 1;
}

static unsigned int sh_hosts(struct kt_histsrc *h)
{
	return SH(h)->has_base ? 2 : 1;
}

static const char *sh_host_label(struct kt_histsrc *h, unsigned int host)
{
	(void)h;
	return host ? "base" : "range";
}

static const struct kt_hist_row *sh_total(struct kt_histsrc *h)
{
	return &SH(h)->total;
}

static const char *sh_variant(struct kt_histsrc *h)
{
	(void)h;
	return "stored events";
}

static uint64_t sh_missed(struct kt_histsrc *h)
{
	(void)h;
	return 0;
}

static void sh_close(struct kt_histsrc *h)
{
	free(SH(h)->rows);
	free(SH(h)->baserows);
	free(SH(h)->out);
	free(h);
}

static void sh_range(struct kt_histsrc *h, bool on, uint64_t from, uint64_t to)
{
	struct store_hist *sh = SH(h);

	sh->on = on;
	sh->from = from;
	sh->to = to;
	sh->next = UINT64_MAX;
}

static const struct kt_histsrc_ops store_ops = {
	.update = sh_update,
	.rows = sh_rows,
	.total = sh_total,
	.variant = sh_variant,
	.missed = sh_missed,
	.close = sh_close,
	.range = sh_range,
	.baseline = sh_baseline,
	.hosts = sh_hosts,
	.host_label = sh_host_label,
};

/* The spec's event and fields in the decoder's formats. Returns 0, or -1 with err. */
static int find_fields(struct store_hist *sh, char *err, size_t errlen)
{
	const struct kt_hist_spec *s = &sh->base.spec;
	struct tep_event *ev;

	if (decoder_load(sh->d, s->ev.system, s->ev.event) < 0 ||
	    !(ev = tep_find_event_by_name(decoder_tep(sh->d), s->ev.system, s->ev.event))) {
		snprintf(err, errlen, "%s: no %s:%s in this recording (e lists its events)",
			 s->text, s->ev.system, s->ev.event);
		return -1;
	}
	sh->type = ev->id;
	sh->value = tep_find_any_field(ev, s->ev.field);
	if (!sh->value || (sh->value->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))) {
		snprintf(err, errlen, "%s: %s:%s has no numeric field '%s'", s->text,
			 s->ev.system, s->ev.event, s->ev.field);
		return -1;
	}
	if (s->by != KT_BY_FIELD)
		return 0;
	sh->key = tep_find_any_field(ev, s->by_field);
	if (!sh->key || (sh->key->flags & TEP_FIELD_IS_DYNAMIC)) {
		snprintf(err, errlen, "%s: %s:%s has no fixed field '%s' to key by", s->text,
			 s->ev.system, s->ev.event, s->by_field);
		return -1;
	}
	return 0;
}

struct kt_histsrc *storehist_open(struct kt_store *store, struct kt_decoder *d,
				  const char *text, char *err, size_t errlen)
{
	struct store_hist *sh = xcalloc(1, sizeof(*sh));

	if (histspec_parse(text, &sh->base.spec, err, errlen) < 0)
		goto fail;
	if (sh->base.spec.kind != KT_HIST_FIELD) {
		snprintf(err, errlen, "%s: a recording's histograms are field:SYSTEM:EVENT.FIELD "
			 "of its events; the others count in a live kernel", text);
		goto fail;
	}
	if (sh->base.spec.by == KT_BY_PID || sh->base.spec.by == KT_BY_CGROUP) {
		snprintf(err, errlen, "%s: a recorded event names its thread, not its process or "
			 "cgroup: by=tid, comm, cpu or a field", text);
		goto fail;
	}
	sh->base.ops = &store_ops;
	sh->store = store;
	sh->d = d;
	sh->next = UINT64_MAX;
	if (find_fields(sh, err, errlen) < 0)
		goto fail;
	return &sh->base;
fail:
	free(sh);
	return NULL;
}
