// SPDX-License-Identifier: GPL-2.0-or-later
/* A field or latency histogram from the stored events (storehist.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "source/histsrc.h"
#include "storehist.h"
#include "storelat.h"
#include "util/xalloc.h"

#define SH_SCAN 400000 /* records per update, so the screen stays responsive */

struct store_hist {
	struct kt_histsrc base;
	struct kt_store *store;
	struct kt_decoder *d;
	int type; /* the event's common_type; latency: the start event's */
	struct tep_format_field *value, *key; /* key: by=FIELD, else NULL */
	/* latency: the end event, the fields the two are matched on (NULL: the thread), the
	 * starts not yet ended; syscall-latency: sys_enter's syscall number in value */
	int end_type;
	struct tep_format_field *start_match, *end_match;
	int also_type; /* runq-latency: sched_wakeup_new starts one too, -1: none */
	struct tep_format_field *also_match;
	struct kt_starts starts;
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
static void key_of(struct store_hist *sh, const struct kt_rec *r, long syscall,
		   struct kt_hist_key *k)
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
	case KT_BY_SYSCALL:
		k->id = (unsigned long long)syscall;
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

/* One value v of record r (syscall: the syscall a latency timed) into its row and the
 * total. */
static void add_value(struct store_hist *sh, const struct kt_rec *r, long syscall,
		      unsigned long long v)
{
	struct kt_hist_key k;
	struct kt_hist_row *row;

	key_of(sh, r, syscall, &k);
	row = row_of(sh, &k);
	if (row)
		val_add(&row->cum, &sh->base.spec, v);
	val_add(&sh->total.cum, &sh->base.spec, v);
}

static void count_rec(struct store_hist *sh, const struct kt_rec *r)
{
	unsigned long long raw;
	long long v;

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
	add_value(sh, r, 0, (unsigned long long)v);
}

/* What a latency's start and end are matched on: the field's value, else the thread. */
static uint64_t match_of(const struct kt_rec *r, struct tep_format_field *f)
{
	unsigned long long v = 0;

	if (!f)
		return (uint64_t)(unsigned int)decoder_rec_pid(r);
	tep_read_number_field(f, r->data, &v);
	return v;
}

/* A latency's end takes its start (the same thread, or the same field value) and counts the
 * time between, keyed as the end event is; a start waits for its end. One event may be both
 * (sched_switch's prev_pid and next_pid): the end first. */
static void count_latency(struct store_hist *sh, const struct kt_rec *r)
{
	int type = decoder_rec_type(r);
	unsigned long long id = 0;
	uint64_t start;
	long syscall;

	if (r->flags & (KT_REC_LOST | KT_REC_STACK))
		return;
	if (type == sh->end_type &&
	    starts_take(&sh->starts, match_of(r, sh->end_match), &start, &syscall) &&
	    r->ts >= start)
		add_value(sh, r, syscall, r->ts - start);
	if (type == sh->also_type)
		starts_put(&sh->starts, match_of(r, sh->also_match), r->ts, 0);
	if (type != sh->type)
		return;
	if (sh->value)
		tep_read_number_field(sh->value, r->data, &id);
	starts_put(&sh->starts, match_of(r, sh->start_match), r->ts, (long)id);
}

/* Where counting starts, or starts again: the range's first record, or the store's. */
static void start(struct store_hist *sh, uint64_t first, uint64_t end)
{
	sh->nrows = 0;
	memset(&sh->total, 0, sizeof(sh->total));
	starts_clear(&sh->starts);
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
		if (sh->base.spec.kind == KT_HIST_FIELD)
			count_rec(sh, &r);
		else
			count_latency(sh, &r);
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
	starts_free(&SH(h)->starts);
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

/* An event of the recording's formats, NULL with err. */
static struct tep_event *find_event(struct store_hist *sh, const struct kt_hist_point *p,
				    char *err, size_t errlen)
{
	struct tep_event *ev = NULL;

	if (decoder_load(sh->d, p->system, p->event) < 0 ||
	    !(ev = tep_find_event_by_name(decoder_tep(sh->d), p->system, p->event)))
		snprintf(err, errlen, "%s: no %s:%s in this recording (e lists its events)",
			 sh->base.spec.text, p->system, p->event);
	return ev;
}

/* A field a latency's side is matched on: a number. NULL with err. */
static struct tep_format_field *match_field(struct store_hist *sh, struct tep_event *ev,
					    const char *name, char *err, size_t errlen)
{
	struct tep_format_field *f = tep_find_any_field(ev, name);

	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)))
		snprintf(err, errlen, "%s: %s:%s has no numeric field '%s' to match on",
			 sh->base.spec.text, ev->system, ev->name, name);
	return f && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC |
				  TEP_FIELD_IS_STRING)) ? f : NULL;
}

/* runq-latency: a new task's first wakeup (sched_wakeup_new) starts a wait too, as the BPF
 * program's; optional, since a recording may not hold it. Returns 0, or -1 with err. */
static int also_start(struct store_hist *sh, char *err, size_t errlen)
{
	struct kt_hist_point p = { "sched", "sched_wakeup_new", "pid" };
	struct tep_event *ev;

	sh->also_type = -1;
	if (strcmp(sh->base.spec.builtin, "runq-latency") || decoder_load(sh->d, p.system,
									   p.event) < 0 ||
	    !(ev = tep_find_event_by_name(decoder_tep(sh->d), p.system, p.event)))
		return 0;
	if (!(sh->also_match = match_field(sh, ev, p.field, err, errlen)))
		return -1;
	sh->also_type = ev->id;
	return 0;
}

/* A latency's two events (syscall-latency: raw_syscalls' sys_enter and sys_exit, the
 * syscall's number from sys_enter's id) and the fields they match on. Returns 0, or -1. */
static int find_latency(struct store_hist *sh, struct tep_event **end, char *err,
			size_t errlen)
{
	struct kt_hist_spec *s = &sh->base.spec;
	struct tep_event *start;

	if (s->kind == KT_HIST_SYSCALL) {
		snprintf(s->ev.system, sizeof(s->ev.system), "raw_syscalls");
		snprintf(s->ev.event, sizeof(s->ev.event), "sys_enter");
		snprintf(s->end.system, sizeof(s->end.system), "raw_syscalls");
		snprintf(s->end.event, sizeof(s->end.event), "sys_exit");
	}
	if (!(start = find_event(sh, &s->ev, err, errlen)) ||
	    !(*end = find_event(sh, &s->end, err, errlen)))
		return -1;
	sh->type = start->id;
	sh->end_type = (*end)->id;
	if (s->kind == KT_HIST_SYSCALL)
		sh->value = tep_find_any_field(start, "id");
	if (s->ev.field[0] &&
	    (!(sh->start_match = match_field(sh, start, s->ev.field, err, errlen)) ||
	     !(sh->end_match = match_field(sh, *end, s->end.field, err, errlen))))
		return -1;
	return also_start(sh, err, errlen);
}

/* The spec's event and fields in the decoder's formats. Returns 0, or -1 with err. */
static int find_fields(struct store_hist *sh, char *err, size_t errlen)
{
	const struct kt_hist_spec *s = &sh->base.spec;
	struct tep_event *ev;

	if (s->kind != KT_HIST_FIELD) {
		if (find_latency(sh, &ev, err, errlen) < 0)
			return -1;
		goto key; /* keyed as the end event is */
	}
	if (!(ev = find_event(sh, &s->ev, err, errlen)))
		return -1;
	sh->type = ev->id;
	sh->value = tep_find_any_field(ev, s->ev.field);
	if (!sh->value || (sh->value->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))) {
		snprintf(err, errlen, "%s: %s:%s has no numeric field '%s'", s->text,
			 s->ev.system, s->ev.event, s->ev.field);
		return -1;
	}
key:
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

/* What stored events cannot answer, in one line naming why. */
static bool refused(const struct kt_hist_spec *s, char *err, size_t errlen)
{
	static const char *const own[] = { "offcpu", "lock-contention", "tcp-connect-latency" };
	size_t i;

	if (s->kind == KT_HIST_FUNC || s->kind == KT_HIST_USDT) {
		snprintf(err, errlen, "%s: %s is timed by a BPF probe in a live kernel, not in a "
			 "recording's events (field:, latency: and syscall-latency are)", s->text,
			 s->kind == KT_HIST_FUNC ? "a function" : "a USDT probe");
		return true;
	}
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(s->builtin, own[i])) {
			snprintf(err, errlen, "%s: paired by a BPF program of its own, not from "
				 "stored events: try latency:SYS:EV->SYS:EV", s->text);
			return true;
		}
	return false;
}

struct kt_histsrc *storehist_open(struct kt_store *store, struct kt_decoder *d,
				  const char *text, char *err, size_t errlen)
{
	struct store_hist *sh = xcalloc(1, sizeof(*sh));

	if (histspec_parse(text, &sh->base.spec, err, errlen) < 0)
		goto fail;
	if (refused(&sh->base.spec, err, errlen))
		goto fail;
	if (sh->base.spec.by == KT_BY_PID || sh->base.spec.by == KT_BY_CGROUP) {
		snprintf(err, errlen, "%s: a recorded event names its thread, not its process or "
			 "cgroup: by=tid, comm, cpu%s or a field", text,
			 sh->base.spec.kind == KT_HIST_SYSCALL ? ", syscall" : "");
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
