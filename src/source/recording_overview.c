// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview of a recording (the recording source's overview_open): the file's sched_switch and
 * sched_wakeup events walked once into one tick as long as the recording. On-CPU time is
 * cpuslice.h's slices (the derivation the timeline and the Chrome trace share); a task
 * waits for a CPU from its wake-up, or from being switched out still runnable (preempted),
 * to its next switch-in; a switch-out asleep is a voluntary context switch, runnable an
 * involuntary one. What the file cannot say (faults, I/O, syscalls, migrations, off-CPU)
 * is marked as not in it. Threads are rows of their own: sched_switch names no process.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/callgraph/cpuslice.h"
#include "backend/ingest/decode.h"
#include "ovsrc.h"
#include "source/source.h"
#include "source/recording_overview.h"
#include "util/xalloc.h"

#define NOT_IN_FILE "not in the file: a recording holds sched_switch, not the per-task counters"

struct rec_task {
	struct kt_ov_row row;
	uint64_t wait_since; /* runnable since then; 0: not waiting */
};

struct rec_ov {
	struct kt_ovsrc base;
	struct kt_ov_snap snap;
	struct kt_sysstrip sys;
	struct rec_task *t;
	size_t n, cap;
	uint64_t busy[KT_SYS_MAX_CPUS]; /* each CPU's time on tasks other than idle */
	bool given;			 /* the one tick was taken */
	char source[160];
};

#define RO(o) ((struct rec_ov *)(o))

/* tid's entry, made when new (a linear table: a recording's tasks are few thousand). */
static struct rec_task *task(struct rec_ov *ro, int tid, const char *comm)
{
	size_t i;

	for (i = 0; i < ro->n; i++)
		if (ro->t[i].row.tid == tid)
			break;
	if (i == ro->n) {
		if (ro->n == ro->cap) {
			ro->cap = ro->cap ? 2 * ro->cap : 256;
			ro->t = xreallocarray(ro->t, ro->cap, sizeof(*ro->t));
		}
		memset(&ro->t[i], 0, sizeof(ro->t[i]));
		ro->t[i].row.tid = ro->t[i].row.pid = tid;
		ro->t[i].row.nthreads = 1;
		ro->n++;
	}
	if (comm && *comm)
		snprintf(ro->t[i].row.comm, sizeof(ro->t[i].row.comm), "%s", comm);
	return &ro->t[i];
}

static void on_slice(const struct kt_cpuslice *s, void *arg)
{
	struct rec_ov *ro = arg;

	if (!s->pid || s->end <= s->start)
		return;
	task(ro, s->pid, s->comm)->row.oncpu_ns += s->end - s->start;
	if (s->cpu >= 0 && s->cpu < KT_SYS_MAX_CPUS)
		ro->busy[s->cpu] += s->end - s->start;
}

static bool num(struct tep_event *ev, const struct kt_rec *r, const char *name,
		unsigned long long *v)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	return f && f->size <= 8 && f->offset + f->size <= r->size &&
	       !tep_read_number_field(f, r->data, v);
}

/* A comm field of r (at most 15 characters). */
static void comm_of(struct tep_event *ev, const struct kt_rec *r, const char *name, char *out)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	int n;

	out[0] = '\0';
	if (!f || f->offset + f->size > r->size)
		return;
	n = (int)strnlen((const char *)r->data + f->offset, f->size < 15 ? f->size : 15);
	snprintf(out, KT_SLICE_COMM, "%.*s", n, (const char *)r->data + f->offset);
}

/* A wait for a CPU that ends at ts. */
static void wait_ends(struct rec_task *t, uint64_t ts)
{
	uint64_t d;
	unsigned s = 0;

	if (!t->wait_since || ts < t->wait_since)
		return;
	d = ts - t->wait_since;
	t->row.runq_ns += d;
	while (s + 1 < KT_OV_ROW_SLOTS && (d >> (s + 1)))
		s++;
	t->row.runq_slots[s]++;
	t->wait_since = 0;
}

static void on_switch(struct rec_ov *ro, struct kt_cpuslicer *sl, struct tep_event *ev,
		      const struct kt_rec *r)
{
	unsigned long long ppid, npid, pprio = 0, nprio = 0, state;
	char pcomm[KT_SLICE_COMM], ncomm[KT_SLICE_COMM];
	struct kt_slice_task prev, next;
	struct rec_task *t;

	if (!num(ev, r, "prev_pid", &ppid) || !num(ev, r, "next_pid", &npid) ||
	    !num(ev, r, "prev_state", &state))
		return;
	num(ev, r, "prev_prio", &pprio);
	num(ev, r, "next_prio", &nprio);
	comm_of(ev, r, "prev_comm", pcomm);
	comm_of(ev, r, "next_comm", ncomm);
	prev = (struct kt_slice_task){ (int)ppid, (int)pprio, pcomm };
	next = (struct kt_slice_task){ (int)npid, (int)nprio, ncomm };
	cpuslicer_switch(sl, (int)r->cpu, r->ts, &prev, &next);
	if (ppid) {
		t = task(ro, (int)ppid, pcomm);
		/* 0 or the preemption mark alone: still runnable, it waits from now */
		if (!(state & 0xff)) {
			t->row.invol_ctxsw++;
			t->wait_since = r->ts;
		} else {
			t->row.vol_ctxsw++;
		}
	}
	if (npid)
		wait_ends(task(ro, (int)npid, ncomm), r->ts);
}

static void on_wakeup(struct rec_ov *ro, struct tep_event *ev, const struct kt_rec *r)
{
	unsigned long long pid;
	char comm[KT_SLICE_COMM];
	struct rec_task *t;

	if (!num(ev, r, "pid", &pid) || !pid)
		return;
	comm_of(ev, r, "comm", comm);
	t = task(ro, (int)pid, comm);
	if (!t->wait_since)
		t->wait_since = r->ts;
}

/* Every record of the file, once. false: no sched_switch among them. */
static bool walk(struct rec_ov *ro, struct kt_app *app)
{
	struct kt_store *st = app->store;
	struct kt_cpuslicer *sl = NULL;
	uint64_t seq, end, first_ts = 0, last_ts = 0;
	struct tep_event *ev;
	struct kt_rec r;
	bool switches = false;

	source_wait_complete(app->source);
	store_lock(st);
	end = store_end(st);
	for (seq = store_first(st); seq < end; seq++) {
		if (!store_get(st, seq, &r) || (r.flags & (KT_REC_STACK | KT_REC_LOST)))
			continue;
		if (!sl) {
			first_ts = r.ts;
			sl = cpuslicer_new(app->ncpus, r.ts, on_slice, ro);
		}
		last_ts = r.ts;
		ev = decoder_event(app->decoder, &r);
		if (!ev || strcmp(ev->system, "sched"))
			continue;
		if (!strcmp(ev->name, "sched_switch") && sl) {
			switches = true;
			on_switch(ro, sl, ev, &r);
		} else if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new")) {
			on_wakeup(ro, ev, &r);
		}
	}
	store_unlock(st);
	if (sl)
		cpuslicer_finish(sl, last_ts);
	ro->snap.interval_s = (double)(last_ts - first_ts) / 1e9;
	return switches;
}

/* The one tick: every task a row of its own, the CPUs' busy time into the strip. */
static void fill(struct rec_ov *ro, int ncpus)
{
	struct kt_sysstrip *s = &ro->sys;
	double iv = ro->snap.interval_s > 0 ? ro->snap.interval_s * 1e9 : 1;
	uint64_t all = 0;
	size_t i;

	ro->snap.procs = xcalloc(ro->n ? ro->n : 1, sizeof(*ro->snap.procs));
	ro->snap.threads = xcalloc(ro->n ? ro->n : 1, sizeof(*ro->snap.threads));
	for (i = 0; i < ro->n; i++) {
		ro->snap.procs[i] = ro->snap.threads[i] = ro->t[i].row;
		/* every task's waits, the strip's run-queue p99 */
		for (size_t k = 0; k < KT_OV_ROW_SLOTS; k++) {
			ro->snap.cpu_runq_slots[k] += ro->t[i].row.runq_slots[k];
			ro->snap.cpu_switches += ro->t[i].row.runq_slots[k];
		}
		ro->snap.cpu_runq_ns += ro->t[i].row.runq_ns;
	}
	ro->snap.nprocs = ro->snap.nthreads = ro->n;
	ro->snap.cap_procs = ro->snap.cap_threads = ro->n;
	s->interval_s = ro->snap.interval_s;
	s->ncpus = ncpus < KT_SYS_MAX_CPUS ? ncpus : KT_SYS_MAX_CPUS;
	for (int c = 0; c < s->ncpus; c++) {
		s->cpu_busy[c] = 100.0 * (double)ro->busy[c] / iv;
		all += ro->busy[c];
	}
	s->cpu_pct = s->ncpus ? 100.0 * (double)all / iv / s->ncpus : 0;
	s->psi_cpu_some = s->psi_mem_some = s->psi_mem_full = -1;
	s->psi_io_some = s->psi_io_full = -1;
}

static bool rec_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	struct rec_ov *ro = RO(o);

	if (ro->given)
		return false;
	ro->given = true;
	overview_snap_free(snap);
	*snap = ro->snap;
	memset(&ro->snap, 0, sizeof(ro->snap)); /* snap owns the rows now */
	*sys = ro->sys;
	return true;
}

static const char *rec_source(struct kt_ovsrc *o)
{
	return RO(o)->source;
}

static const char *rec_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	(void)o;
	return c == KT_OVC_CPU || c == KT_OVC_RUNQ || c == KT_OVC_CTXSW ? "" : NOT_IN_FILE;
}

static int rec_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	(void)o;
	snprintf(err, errlen, "%s", NOT_IN_FILE);
	return on ? -1 : 0;
}

static bool rec_syscalls_on(struct kt_ovsrc *o)
{
	(void)o;
	return false;
}

static void rec_close(struct kt_ovsrc *o)
{
	struct rec_ov *ro = RO(o);

	overview_snap_free(&ro->snap);
	free(ro->t);
	free(ro);
}

static const struct kt_ovsrc_ops rec_ops = {
	.update = rec_update,
	.source = rec_source,
	.missing = rec_missing,
	.set_syscalls = rec_set_syscalls,
	.syscalls_on = rec_syscalls_on,
	.close = rec_close,
};

struct kt_ovsrc *recording_overview_open(struct kt_app *app, char *err, size_t errlen)
{
	struct rec_ov *ro = xcalloc(1, sizeof(*ro));

	ro->base.ops = &rec_ops;
	ro->base.paced = true; /* its one tick is there at once: no baseline of this machine */
	if (!walk(ro, app)) {
		snprintf(err, errlen, "the recording holds no sched:sched_switch: record one with "
			 "-e sched:sched_switch (and sched:sched_wakeup) for its overview");
		rec_close(&ro->base);
		return NULL;
	}
	fill(ro, app->ncpus);
	snprintf(ro->source, sizeof(ro->source), "the recording's sched_switch (%.1f s; "
		 "memory, disks, network not in the file)", ro->snap.interval_s);
	return &ro->base;
}
