// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview (overview.h): the BPF records (overview_bpf.c) or /proc (overview_proc.c)
 * read once per tick into each thread's counts since it was first seen, and the difference
 * from the previous read handed to overview_fold.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "overview_local.h"
#include "sysstrip.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xalloc.h"

struct kt_ov_row *ov_rows_add(struct ov_rows *r)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	memset(&r->v[r->n], 0, sizeof(r->v[0]));
	return &r->v[r->n++];
}

static int tid_cmp(const void *a, const void *b)
{
	const struct kt_ov_row *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

void ov_rows_sort_tid(struct ov_rows *r)
{
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), tid_cmp);
}

struct kt_overview *overview_open(const char *via, bool syscalls)
{
	struct kt_overview *ov = xcalloc(1, sizeof(*ov));
	char why[500], err[200];
	struct ov_rows tmp;

	if (via && !strcmp(via, "proc")) {
		snprintf(why, sizeof(why), "as asked");
	} else if (ov_bpf_open(ov, via, why, sizeof(why)) == 0) {
		snprintf(ov->source, sizeof(ov->source), "bpf %s", ov->via);
		log_debug("%s: attached via %s", __func__, ov->via);
		if (syscalls && overview_set_syscalls(ov, true, err, sizeof(err)) < 0)
			snprintf(ov->missing[KT_OVC_SYSCALLS], sizeof(ov->missing[0]), "%s", err);
		return ov;
	}
	snprintf(ov->source, sizeof(ov->source), "/proc (%s)", why);
	log_debug("%s: %s", __func__, ov->source);
	overview_proc_missing(ov);
	/* the first read's baseline: /proc counts since each thread began */
	overview_proc_read(ov);
	ov_rows_sort_tid(&ov->cur);
	tmp = ov->prev;
	ov->prev = ov->cur;
	ov->cur = tmp;
	ov->last_ns = clock_mono_ns();
	return ov;
}

void overview_free(struct kt_overview *ov)
{
	if (!ov)
		return;
	ov_bpf_close(ov);
	free(ov->cur.v);
	free(ov->prev.v);
	free(ov->names);
	free(ov);
}

const char *overview_source(const struct kt_overview *ov)
{
	return ov->source;
}

const char *overview_missing(const struct kt_overview *ov, enum kt_ov_col c)
{
	if ((c == KT_OVC_SYSCALLS || c == KT_OVC_SYSLAT) && ov->obj && !ov->syscalls &&
	    !ov->missing[KT_OVC_SYSCALLS][0])
		return "the syscall hooks are off (the key that shows syscall columns turns them on)";
	if (c == KT_OVC_SYSLAT && ov->missing[KT_OVC_SYSCALLS][0])
		return ov->missing[KT_OVC_SYSCALLS];
	return ov->missing[c];
}

bool overview_syscalls_on(const struct kt_overview *ov)
{
	return ov->syscalls;
}

int overview_set_syscalls(struct kt_overview *ov, bool on, char *err, size_t errlen)
{
	if (!ov->obj) {
		snprintf(err, errlen, "%s", ov->missing[KT_OVC_SYSCALLS]);
		return on ? -1 : 0;
	}
	if (on == ov->syscalls)
		return 0;
	if (ov_bpf_syscalls(ov, on, err, errlen) < 0)
		return -1;
	ov->syscalls = on;
	ov->missing[KT_OVC_SYSCALLS][0] = '\0';
	return 0;
}

void overview_row_add(struct kt_ov_row *w, const struct kt_ov_row *t)
{
	size_t i;

	w->oncpu_ns += t->oncpu_ns;
	w->runq_ns += t->runq_ns;
	w->sleep_ns += t->sleep_ns;
	w->disk_ns += t->disk_ns;
	w->vol_ctxsw += t->vol_ctxsw;
	w->invol_ctxsw += t->invol_ctxsw;
	w->migrations += t->migrations;
	w->minflt += t->minflt;
	w->majflt += t->majflt;
	w->syscalls += t->syscalls;
	w->syscall_errors += t->syscall_errors;
	w->read_bytes += t->read_bytes;
	w->write_bytes += t->write_bytes;
	for (i = 0; i < KT_OV_ROW_SLOTS; i++) {
		w->runq_slots[i] += t->runq_slots[i];
		w->sys_slots[i] += t->sys_slots[i];
	}
	/* the errno of the row with the most failures stands for the sum */
	if (t->top_errno && (!w->top_errno || 2 * t->syscall_errors > w->syscall_errors))
		w->top_errno = t->top_errno;
}

/* The "other" record, every CPU's summed, as tid -1. */
static void subtract(struct kt_ov_row *d, const struct kt_ov_row *a, const struct kt_ov_row *b)
{
	size_t i;

	*d = *a;
	if (!b || b->pid != a->pid || b->born != a->born)
		return;
#define SUB(f) d->f = a->f >= b->f ? a->f - b->f : 0
	SUB(oncpu_ns); SUB(runq_ns); SUB(sleep_ns); SUB(disk_ns);
	SUB(vol_ctxsw); SUB(invol_ctxsw); SUB(migrations); SUB(minflt); SUB(majflt);
	SUB(syscalls); SUB(syscall_errors); SUB(read_bytes); SUB(write_bytes);
	for (i = 0; i < KT_OV_ROW_SLOTS; i++) {
		SUB(runq_slots[i]);
		SUB(sys_slots[i]);
	}
#undef SUB
	if (d->syscall_errors == 0)
		d->top_errno = 0;
}

/* This read's threads minus the last read's, into s->threads. */
static void diff_threads(struct kt_overview *ov, struct kt_ov_snap *s)
{
	const struct kt_ov_row *p;
	size_t i, j = 0;

	if (s->cap_threads < ov->cur.n) {
		s->cap_threads = ov->cur.n;
		s->threads = xreallocarray(s->threads, s->cap_threads, sizeof(*s->threads));
	}
	s->nthreads = 0;
	for (i = 0; i < ov->cur.n; i++) {
		while (j < ov->prev.n && ov->prev.v[j].tid < ov->cur.v[i].tid)
			j++;
		p = j < ov->prev.n && ov->prev.v[j].tid == ov->cur.v[i].tid ? &ov->prev.v[j] : NULL;
		subtract(&s->threads[s->nthreads++], &ov->cur.v[i], p);
	}
}

void overview_read(struct kt_overview *ov, struct kt_ov_snap *s)
{
	unsigned long long now = clock_mono_ns();
	struct ov_rows tmp;

	s->interval_s = (double)(now - ov->last_ns) / 1e9;
	ov->last_ns = now;
	if (ov->obj) {
		ov_bpf_read(ov, s, now);
	} else {
		overview_proc_read(ov);
	}
	ov_rows_sort_tid(&ov->cur);
	diff_threads(ov, s);
	overview_fold(ov, s);
	tmp = ov->prev;
	ov->prev = ov->cur;
	ov->cur = tmp;
	ov->reads++;
}

void overview_read_disks(struct kt_overview *ov, struct kt_ov_snap *s)
{
	s->ndisks = 0;
	if (ov->obj)
		ov_bpf_read_disks(ov, s);
}

void overview_snap_free(struct kt_ov_snap *s)
{
	free(s->procs);
	free(s->threads);
	memset(s, 0, sizeof(*s));
}

void overview_hooks_text(const struct kt_ov_snap *s, char *buf, size_t len)
{
	if (!s->ncpus)
		snprintf(buf, len, "%s", "");
	else if (!s->hooks_known)
		snprintf(buf, len, "hooks: bpf_stats off");
	else
		snprintf(buf, len, "hooks %.2f%% CPU",
			 s->interval_s > 0 ? (double)s->hooks_ns / (s->interval_s * 1e7) : 0);
}

/* The top of the highest bucket holding a count, 0 when empty. */
static uint64_t slots_max(const uint32_t *slots)
{
	for (size_t i = KT_OV_ROW_SLOTS; i-- > 0;)
		if (slots[i])
			return 2ull << i;
	return 0;
}

static const struct kt_ov_disklat *disklat(const struct kt_ov_snap *s, unsigned int dev)
{
	for (int i = 0; i < s->ndisks; i++)
		if (s->disks[i].dev == dev)
			return &s->disks[i];
	return NULL;
}

void overview_disk_latency(const struct kt_ov_snap *s, struct kt_sysstrip *sys)
{
	const struct kt_ov_disklat *l;
	struct kt_sys_disk *d;

	for (int i = 0; i < sys->ndisks; i++) {
		d = &sys->disks[i];
		/* counted when the BPF object runs (ncpus set), even in a tick without requests */
		d->lat_counted = s->ncpus > 0;
		l = disklat(s, d->dev);
		d->lat_count = l ? l->count : 0;
		d->lat_mean_ms = l && l->count ? (double)l->sum_ns / (double)l->count / 1e6 : 0;
		d->p99_ms = l ? (double)overview_quantile(l->slots, 0.99) / 1e6 : 0;
		d->lat_max_ms = l ? (double)slots_max(l->slots) / 1e6 : 0;
	}
}

uint64_t overview_quantile(const uint32_t *slots, double q)
{
	uint64_t total = 0, seen = 0, want;
	size_t i;

	for (i = 0; i < KT_OV_ROW_SLOTS; i++)
		total += slots[i];
	if (!total)
		return 0;
	want = (uint64_t)((double)total * q + 0.999999);
	for (i = 0; i < KT_OV_ROW_SLOTS; i++) {
		seen += slots[i];
		if (seen >= want)
			break;
	}
	return i >= 63 ? UINT64_MAX : (2ull << i);
}
