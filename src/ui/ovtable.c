// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview pane's table (ovtable.h): columns, rows shown, order, totals. No curses. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ui/ovtable.h"
#include "util/xalloc.h"

static const struct kt_ovt_colinfo cols[OVT_NCOLS] = {
	[OVT_HOST] = { "HOST", 10, KT_OVC_N },
	[OVT_PID] = { "PID", 7, KT_OVC_N },
	[OVT_USER] = { "USER", 6, KT_OVC_N },
	[OVT_CPU] = { "CPU%", 5, KT_OVC_CPU },
	[OVT_RUNQ] = { "RUNQ", 5, KT_OVC_RUNQ },
	[OVT_RUNQ_P99] = { "RQ99", 5, KT_OVC_RUNQ },
	[OVT_OFF] = { "OFF", 5, KT_OVC_OFFCPU },
	[OVT_OFF_D] = { "D", 4, KT_OVC_OFFCPU },
	[OVT_SYSC] = { "SYS/s", 6, KT_OVC_SYSCALLS },
	[OVT_ERR] = { "ERR", 4, KT_OVC_SYSCALLS },
	[OVT_P99] = { "P99", 5, KT_OVC_SYSLAT },
	[OVT_MINFLT] = { "FLT", 5, KT_OVC_FAULTS },
	[OVT_MAJFLT] = { "MAJ", 4, KT_OVC_FAULTS },
	[OVT_IO] = { "IO/s", 5, KT_OVC_IO },
	[OVT_VCSW] = { "VCSW", 5, KT_OVC_CTXSW },
	[OVT_ICSW] = { "ICSW", 5, KT_OVC_CTXSW },
	[OVT_MIGR] = { "MIGR", 4, KT_OVC_MIGR },
	[OVT_CGROUP] = { "CGROUP", 14, KT_OVC_N },
	[OVT_COMM] = { "COMMAND", 8, KT_OVC_N },
};

/* Dropped first when the width is short, to last (the rest always stay). */
static const enum kt_ovt_col drop_order[] = {
	OVT_CGROUP, OVT_MIGR, OVT_ICSW, OVT_VCSW,   OVT_MAJFLT, OVT_RUNQ_P99,
	OVT_OFF_D,  OVT_ERR,  OVT_P99,	OVT_MINFLT, OVT_SYSC,
};

const struct kt_ovt_colinfo *ovtable_col(enum kt_ovt_col c)
{
	return &cols[c];
}

void ovtable_fit(int width, const bool *off, bool *on)
{
	int used = 0, i;
	size_t d;

	for (i = 0; i < OVT_NCOLS; i++) {
		/* HOST: the pane's to show, with several hosts, in the width it keeps */
		on[i] = i != OVT_HOST && (!off[i] || i == OVT_COMM || i == OVT_PID);
		if (on[i])
			used += cols[i].width + 1;
	}
	for (d = 0; used > width && d < sizeof(drop_order) / sizeof(drop_order[0]); d++)
		if (on[drop_order[d]]) {
			on[drop_order[d]] = false;
			used -= cols[drop_order[d]].width + 1;
		}
}

/* The figure column c sorts by; per tick, so the same order as per second. */
static double value(enum kt_ovt_col c, const struct kt_ov_row *r)
{
	switch (c) {
	case OVT_PID: return r->tid;
	case OVT_CPU: return (double)r->oncpu_ns;
	case OVT_RUNQ: return (double)r->runq_ns;
	case OVT_RUNQ_P99: return (double)overview_quantile(r->runq_slots, 0.99);
	case OVT_OFF: return (double)(r->sleep_ns + r->disk_ns);
	case OVT_OFF_D: return (double)r->disk_ns;
	case OVT_SYSC: return (double)r->syscalls;
	case OVT_ERR: return (double)r->syscall_errors;
	case OVT_P99: return (double)overview_quantile(r->sys_slots, 0.99);
	case OVT_MINFLT: return (double)r->minflt;
	case OVT_MAJFLT: return (double)r->majflt;
	case OVT_IO: return (double)(r->read_bytes + r->write_bytes);
	case OVT_VCSW: return (double)r->vol_ctxsw;
	case OVT_ICSW: return (double)r->invol_ctxsw;
	case OVT_MIGR: return (double)r->migrations;
	default: return 0;
	}
}

static const char *text(enum kt_ovt_col c, const struct kt_ov_row *r)
{
	return c == OVT_USER ? r->user : c == OVT_CGROUP ? r->cgroup : r->comm;
}

const char *ovtable_host(const struct kt_ovtable *t, const struct kt_ov_row *r)
{
	return t->nhosts > 1 && r->host < t->nhosts && t->hosts[r->host] ? t->hosts[r->host] : "";
}

/* qsort has no argument: the table being sorted */
static const struct kt_ovtable *sorting;

static int row_cmp(const void *a, const void *b)
{
	const struct kt_ov_row *x = *(const struct kt_ov_row *const *)a;
	const struct kt_ov_row *y = *(const struct kt_ov_row *const *)b;
	enum kt_ovt_col c = sorting->sort;
	int r;

	if (c == OVT_USER || c == OVT_CGROUP || c == OVT_COMM) {
		r = strcmp(text(c, x), text(c, y));
	} else if (c == OVT_HOST) { /* -H's order */
		r = (x->host > y->host) - (x->host < y->host);
	} else {
		double vx = value(c, x), vy = value(c, y);

		r = (vx > vy) - (vx < vy);
	}
	if (!sorting->ascending)
		r = -r;
	if (!r)
		r = (x->tid > y->tid) - (x->tid < y->tid);
	return r ? r : (x->host > y->host) - (x->host < y->host);
}

static bool matches(const struct kt_ovtable *t, const struct kt_ov_row *r)
{
	return !t->filter[0] || strstr(r->comm, t->filter) || strstr(r->user, t->filter) ||
	       strstr(r->cgroup, t->filter) ||
	       (t->nhosts > 1 && strstr(ovtable_host(t, r), t->filter));
}

static void push(struct kt_ovtable *t, const struct kt_ov_row *r)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->rows = xreallocarray(t->rows, t->cap, sizeof(*t->rows));
	}
	t->rows[t->nrows++] = r;
}

/* Row a before b in the threads' order: by host, then pid. */
static bool before(const struct kt_ov_row *a, const struct kt_ov_row *b)
{
	return a->host != b->host ? a->host < b->host : a->pid < b->pid;
}

/* The threads of process p (s->threads is by host, then pid, then tid), in the table's
 * order. */
static void push_threads(struct kt_ovtable *t, const struct kt_ov_snap *s,
			 const struct kt_ov_row *p)
{
	size_t lo = 0, hi = s->nthreads, mid, first;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (before(&s->threads[mid], p))
			lo = mid + 1;
		else
			hi = mid;
	}
	first = t->nrows;
	for (; lo < s->nthreads && s->threads[lo].pid == p->pid &&
	       s->threads[lo].host == p->host; lo++)
		push(t, &s->threads[lo]);
	if (t->nrows - first > 1)
		qsort(t->rows + first, t->nrows - first, sizeof(*t->rows), row_cmp);
}

bool ovtable_pinned(const struct kt_ovtable *t, unsigned int host, int pid)
{
	for (size_t i = 0; i < t->npins; i++)
		if (t->pins[i] == pid && t->pin_hosts[i] == host)
			return true;
	return false;
}

bool ovtable_pin(struct kt_ovtable *t, unsigned int host, int pid)
{
	for (size_t i = 0; i < t->npins; i++)
		if (t->pins[i] == pid && t->pin_hosts[i] == host) {
			t->npins--;
			t->pins[i] = t->pins[t->npins];
			t->pin_hosts[i] = t->pin_hosts[t->npins];
			return true;
		}
	if (t->npins == KT_OVT_PINS)
		return false;
	t->pin_hosts[t->npins] = host;
	t->pins[t->npins++] = pid;
	return true;
}

int ovtable_hide_parse(const char *text, bool *off, char *err, size_t errlen)
{
	char word[32];
	int n, c;

	memset(off, 0, OVT_NCOLS * sizeof(*off));
	while (sscanf(text, " %31s%n", word, &n) == 1) {
		text += n;
		for (c = 0; c < OVT_NCOLS && strcasecmp(word, cols[c].head); c++)
			;
		if (c == OVT_NCOLS || c == OVT_PID || c == OVT_COMM || c == OVT_HOST) {
			snprintf(err, errlen, "overview-hide takes column names other than PID, "
				 "HOST and COMMAND (RUNQ, CGROUP...), not '%s'", word);
			return -1;
		}
		off[c] = true;
	}
	return 0;
}

void ovtable_hide_text(const bool *off, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < OVT_NCOLS && n < len; c++)
		if (off[c])
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", cols[c].head);
}

/* The pinned processes first, each part in its order. */
static void pinned_first(struct kt_ovtable *t)
{
	const struct kt_ov_row **rest;
	size_t i, k = 0, r = 0;

	if (!t->npins || !t->nrows)
		return;
	rest = xmalloc(t->nrows * sizeof(*rest));
	for (i = 0; i < t->nrows; i++) {
		if (ovtable_pinned(t, t->rows[i]->host, t->rows[i]->pid))
			t->rows[k++] = t->rows[i];
		else
			rest[r++] = t->rows[i];
	}
	memcpy(t->rows + k, rest, r * sizeof(*rest));
	free(rest);
}

void ovtable_build(struct kt_ovtable *t, const struct kt_ov_snap *s)
{
	size_t i, n;

	t->nrows = 0;
	memset(&t->total, 0, sizeof(t->total));
	snprintf(t->total.comm, sizeof(t->total.comm), "total");
	for (i = 0; i < s->nprocs; i++)
		if (matches(t, &s->procs[i])) {
			push(t, &s->procs[i]);
			overview_row_add(&t->total, &s->procs[i]);
		}
	sorting = t;
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), row_cmp);
	pinned_first(t);
	t->total.nthreads = (unsigned int)t->nrows;
	if (!t->threads)
		return;
	/* each process followed by its threads: rebuild from the sorted processes */
	n = t->nrows;
	{
		const struct kt_ov_row **procs = xmalloc((n + 1) * sizeof(*procs));

		memcpy(procs, t->rows, n * sizeof(*procs));
		t->nrows = 0;
		for (i = 0; i < n; i++) {
			push(t, procs[i]);
			if (procs[i]->nthreads > 1)
				push_threads(t, s, procs[i]);
		}
		free(procs);
	}
}

void ovtable_free(struct kt_ovtable *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
}

/* v in at most 5 cells: 999, 1.2k, 12k, 1.2M... */
static void compact(double v, char *buf, size_t len)
{
	static const char units[] = " kMGTP";
	int u = 0;

	while (v >= 999.5 && u < 5) {
		v /= 1000;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, v < 9.95 ? "%.1f%c" : "%.0f%c", v, units[u]);
}

/* ns as 850n, 12u, 3.4m, 1.2s */
static void duration(uint64_t ns, char *buf, size_t len)
{
	double v = (double)ns;
	const char *u = "n";

	if (v >= 1e9) {
		v /= 1e9;
		u = "s";
	} else if (v >= 1e6) {
		v /= 1e6;
		u = "m";
	} else if (v >= 1e3) {
		v /= 1e3;
		u = "u";
	}
	snprintf(buf, len, v < 9.95 && *u != 'n' ? "%.1f%s" : "%.0f%s", v, u);
}

void ovtable_cell(enum kt_ovt_col c, const struct kt_ov_row *r, double interval_s, bool missing,
		  char *buf, size_t len)
{
	double per_s = interval_s > 0 ? 1 / interval_s : 0;

	if (missing && c != OVT_RUNQ) {
		snprintf(buf, len, "-");
		return;
	}
	switch (c) {
	case OVT_PID: /* the total and "other" rows are no task */
		if (r->tid > 0)
			snprintf(buf, len, "%d", r->tid);
		else
			buf[0] = '\0';
		break;
	case OVT_USER: case OVT_CGROUP: case OVT_COMM:
		snprintf(buf, len, "%s", text(c, r));
		break;
	case OVT_HOST: /* its label is the table's: ovtable_host */
		buf[0] = '\0';
		break;
	case OVT_CPU: snprintf(buf, len, "%.1f", value(c, r) * per_s / 1e7); break;
	case OVT_RUNQ: case OVT_OFF: case OVT_OFF_D:
		/* ms per second */
		compact(value(c, r) * per_s / 1e6, buf, len);
		break;
	case OVT_RUNQ_P99: case OVT_P99:
		if (value(c, r) == 0)
			snprintf(buf, len, "-");
		else
			duration((uint64_t)value(c, r), buf, len);
		break;
	case OVT_IO: compact(value(c, r) * per_s, buf, len); break;
	default: compact(value(c, r) * per_s, buf, len); break;
	}
}
