// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "packlog.h"
#include "timeindex.h"

#define BATCH 4096		/* records read per hold of the store lock */
#define KT_COPY_MAX 128		/* bytes of a record kept: sched_switch's fields are within */
#define IDLE_NS 20000000ull	/* caught up: look again after 20 ms */
#define NTYPES 65536		/* common_type is 16 bits */

/* A CPU's slices; only its first can start clipped and its last end clipped. */
struct cpulog {
	struct kt_slicelog log;
	bool head_clipped, tail_clipped;
};

/* A task as slices name it: its number is what a slice keeps. */
struct task {
	int32_t pid, prio;
	uint32_t comm; /* among the names */
};

#define NAME_SLOTS 4096 /* the names' hash table; past it names are looked up one by one */

struct kind {
	int type;
	uint64_t seq; /* a record of it */
	struct kt_tslog ts;
};

/* The task a CPU switched to last: its slice runs on until the next switch. */
struct running {
	bool seen;
	struct kt_cpuslice s;
};

struct kt_timeindex {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop, final, done;

	struct kt_store *st;
	int ncpus;
	struct kt_switch_fields sw;
	struct kt_cpuslicer *slicer;
	struct cpulog *cpu;
	struct running *run;
	struct kind *kinds;
	int nkinds, capkinds;
	int *kind_of; /* common_type -> kinds index + 1 */
	struct kt_tslog lost;
	uint64_t next, records, first_ts, last_ts, trimmed_at;
	uint64_t total; /* store_browse_end when last read */
	bool have_first;
	struct copied *batch; /* the thread's: records copied out of the store */
	char (*names)[KT_SLICE_COMM]; /* task names of the slices, each once */
	uint32_t nnames, capnames;
	uint32_t *name_slot; /* hash of a name -> its index + 1 */
	struct task *tasks;
	uint32_t ntasks, captasks;
	uint32_t *task_slot; /* open addressing, a power of two: task -> its index + 1 */
	uint32_t ntask_slots;
};

static uint32_t name_hash(const char *c)
{
	uint32_t h = 2166136261u;

	for (; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	return h;
}

/* The index of comm among the names, added when new (0 when out of memory). */
static uint32_t name_id(struct kt_timeindex *ti, const char *comm)
{
	uint32_t h = name_hash(comm), i, k;
	char (*g)[KT_SLICE_COMM];

	for (k = 0; k < NAME_SLOTS; k++) {
		i = (h + k) % NAME_SLOTS;
		if (!ti->name_slot[i])
			break;
		if (!strcmp(ti->names[ti->name_slot[i] - 1], comm))
			return ti->name_slot[i] - 1;
	}
	if (k == NAME_SLOTS) /* the table is full: look the long way */
		for (i = 0; i < ti->nnames; i++)
			if (!strcmp(ti->names[i], comm))
				return i;
	if (ti->nnames == ti->capnames) {
		uint32_t cap = ti->capnames ? ti->capnames * 2 : 64;

		if (cap >= (1u << 24) || !(g = realloc(ti->names, cap * sizeof(*g))))
			return 0;
		ti->names = g;
		ti->capnames = cap;
	}
	snprintf(ti->names[ti->nnames], KT_SLICE_COMM, "%s", comm);
	if (k < NAME_SLOTS)
		ti->name_slot[(h + k) % NAME_SLOTS] = ti->nnames + 1;
	return ti->nnames++;
}

static uint32_t task_hash(int pid, int prio, uint32_t comm)
{
	return ((uint32_t)pid * 2654435761u) ^ ((uint32_t)prio * 40503u) ^ (comm * 97u);
}

static bool task_is(const struct task *k, int pid, int prio, uint32_t comm)
{
	return k->pid == pid && k->prio == prio && k->comm == comm;
}

/* Twice the tasks' room, so that a probe stays short. */
static bool task_rehash(struct kt_timeindex *ti)
{
	uint32_t n = ti->ntask_slots ? ti->ntask_slots * 2 : 256, i, j;
	uint32_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return false;
	for (i = 0; i < ti->ntasks; i++) {
		const struct task *k = &ti->tasks[i];

		for (j = task_hash(k->pid, k->prio, k->comm) & (n - 1); slot[j]; j = (j + 1) & (n - 1))
			;
		slot[j] = i + 1;
	}
	free(ti->task_slot);
	ti->task_slot = slot;
	ti->ntask_slots = n;
	return true;
}

/* The number of the slice's task, added when new (0 when out of memory). */
static uint32_t task_id(struct kt_timeindex *ti, const struct kt_cpuslice *sl)
{
	uint32_t comm = name_id(ti, sl->comm), j;
	struct task *g;

	if (ti->ntasks * 2 >= ti->ntask_slots && !task_rehash(ti))
		return 0;
	for (j = task_hash(sl->pid, sl->prio, comm) & (ti->ntask_slots - 1); ti->task_slot[j];
	     j = (j + 1) & (ti->ntask_slots - 1))
		if (task_is(&ti->tasks[ti->task_slot[j] - 1], sl->pid, sl->prio, comm))
			return ti->task_slot[j] - 1;
	if (ti->ntasks == ti->captasks) {
		uint32_t cap = ti->captasks ? ti->captasks * 2 : 64;

		if (!(g = realloc(ti->tasks, cap * sizeof(*g))))
			return 0;
		ti->tasks = g;
		ti->captasks = cap;
	}
	ti->tasks[ti->ntasks] = (struct task){ sl->pid, sl->prio, comm };
	ti->task_slot[j] = ti->ntasks + 1;
	return ti->ntasks++;
}

/* The slice a walk stands on, as queries hand it out. */
static void expand(const struct kt_timeindex *ti, int cpu, const struct kt_slicecur *c,
		   struct kt_cpuslice *out)
{
	const struct cpulog *l = &ti->cpu[cpu];

	memset(out, 0, sizeof(*out));
	out->start = c->s.start;
	out->end = c->s.end;
	out->cpu = cpu;
	out->clipped_start = c->k == 0 && l->head_clipped;
	out->clipped_end = c->k + 1 == slicelog_len(&l->log) && l->tail_clipped;
	if (c->s.task < ti->ntasks) {
		const struct task *k = &ti->tasks[c->s.task];

		out->pid = k->pid;
		out->prio = k->prio;
		if (k->comm < ti->nnames)
			memcpy(out->comm, ti->names[k->comm], KT_SLICE_COMM);
	}
}

static void keep_slice(const struct kt_cpuslice *sl, void *arg)
{
	struct kt_timeindex *ti = arg;
	struct kt_pslice p;
	struct cpulog *l;

	if (sl->cpu < 0 || sl->cpu >= ti->ncpus)
		return;
	l = &ti->cpu[sl->cpu];
	p.start = sl->start;
	p.end = sl->end;
	p.task = task_id(ti, sl);
	if (!slicelog_push(&l->log, &p))
		return;
	if (slicelog_len(&l->log) == 1)
		l->head_clipped = sl->clipped_start;
	l->tail_clipped = sl->clipped_end;
}

static struct kind *kind_for(struct kt_timeindex *ti, int type, uint64_t seq)
{
	struct kind *g;

	if (type < 0 || type >= NTYPES)
		return NULL;
	if (ti->kind_of[type])
		return &ti->kinds[ti->kind_of[type] - 1];
	if (ti->nkinds == ti->capkinds) {
		int cap = ti->capkinds ? ti->capkinds * 2 : 16;

		g = realloc(ti->kinds, (size_t)cap * sizeof(*g));
		if (!g)
			return NULL;
		ti->kinds = g;
		ti->capkinds = cap;
	}
	g = &ti->kinds[ti->nkinds];
	memset(g, 0, sizeof(*g));
	g->type = type;
	g->seq = seq;
	ti->kind_of[type] = ++ti->nkinds;
	return g;
}

static int read_int(const struct kt_rec *r, int off)
{
	int32_t v = 0;

	if (off >= 0 && (uint32_t)off + sizeof(v) <= r->size)
		memcpy(&v, (const char *)r->data + off, sizeof(v));
	return v;
}

static void read_task(const struct kt_rec *r, int comm, int pid, int prio, int comm_len,
		      char *buf, struct kt_slice_task *t)
{
	size_t n = comm_len < KT_SLICE_COMM ? (size_t)comm_len : KT_SLICE_COMM - 1;

	buf[0] = '\0';
	if (comm >= 0 && (uint32_t)comm + n <= r->size) {
		memcpy(buf, (const char *)r->data + comm, n);
		buf[n] = '\0';
	}
	t->comm = buf;
	t->pid = read_int(r, pid);
	t->prio = read_int(r, prio);
}

static void feed_switch(struct kt_timeindex *ti, const struct kt_rec *r)
{
	const struct kt_switch_fields *f = &ti->sw;
	char pc[KT_SLICE_COMM], nc[KT_SLICE_COMM];
	struct kt_slice_task prev, next;
	struct running *run;

	if (!ti->slicer || r->cpu >= (uint32_t)ti->ncpus)
		return;
	read_task(r, f->prev_comm, f->prev_pid, f->prev_prio, f->comm_len, pc, &prev);
	read_task(r, f->next_comm, f->next_pid, f->next_prio, f->comm_len, nc, &next);
	run = &ti->run[r->cpu];
	if (run->seen && r->ts < run->s.start)
		return; /* as the slicer: out of order */
	cpuslicer_switch(ti->slicer, (int)r->cpu, r->ts, &prev, &next);
	run->seen = true;
	memset(&run->s, 0, sizeof(run->s));
	run->s.start = r->ts;
	run->s.cpu = (int)r->cpu;
	run->s.pid = next.pid;
	run->s.prio = next.prio;
	memcpy(run->s.comm, nc, sizeof(run->s.comm));
	run->s.clipped_end = true;
}

static void feed(struct kt_timeindex *ti, const struct kt_rec *r)
{
	struct kind *k;
	int type;

	if (!ti->have_first) {
		ti->have_first = true;
		ti->first_ts = r->ts;
		ti->slicer = ti->sw.type >= 0 ?
				     cpuslicer_new(ti->ncpus, r->ts, keep_slice, ti) : NULL;
	}
	if (r->ts > ti->last_ts)
		ti->last_ts = r->ts;
	ti->records++;
	if (r->flags & KT_REC_STACK)
		return;
	if (r->flags & KT_REC_LOST) {
		tslog_push(&ti->lost, r->ts);
		return;
	}
	type = decoder_rec_type(r);
	k = kind_for(ti, type, r->seq);
	if (k)
		tslog_push(&k->ts, r->ts);
	if (type == ti->sw.type)
		feed_switch(ti, r);
}

/* Live: what the store evicted (records before first, older than oldest) goes from the
 * index too. */
static void trim(struct kt_timeindex *ti, uint64_t first, uint64_t oldest)
{
	int i;

	if (first <= ti->trimmed_at)
		return;
	ti->trimmed_at = first;
	for (i = 0; i < ti->nkinds; i++)
		tslog_trim(&ti->kinds[i].ts, oldest);
	tslog_trim(&ti->lost, oldest);
	for (i = 0; i < ti->ncpus; i++) {
		struct cpulog *l = &ti->cpu[i];
		size_t n = slicelog_len(&l->log);

		slicelog_trim(&l->log, oldest);
		if (slicelog_len(&l->log) < n)
			l->head_clipped = false;
	}
}

/* What feed() needs of a record, copied under the store lock so that the index's own lock
 * is held only to add them (queries do not wait for the store's paging). */
struct copied {
	struct kt_rec r;
	unsigned char data[KT_COPY_MAX];
};

/* Reads up to BATCH records; returns how many. */
static size_t step(struct kt_timeindex *ti)
{
	uint64_t first, end, seq, next, total, oldest = 0;
	struct copied *c = ti->batch;
	struct kt_rec r;
	size_t n = 0, i;

	pthread_mutex_lock(&ti->mu);
	next = ti->next;
	pthread_mutex_unlock(&ti->mu);
	store_lock(ti->st);
	first = store_first(ti->st);
	end = store_end(ti->st);
	total = store_browse_end(ti->st);
	if (next < first)
		next = first;
	for (seq = next; seq < end && n < BATCH; seq++) {
		if (!store_get(ti->st, seq, &r))
			continue;
		c[n].r = r;
		c[n].r.size = r.size < KT_COPY_MAX ? r.size : KT_COPY_MAX;
		memcpy(c[n].data, r.data, c[n].r.size);
		c[n].r.data = c[n].data;
		n++;
	}
	if (first > ti->trimmed_at && store_get(ti->st, first, &r))
		oldest = r.ts;
	store_unlock(ti->st);
	pthread_mutex_lock(&ti->mu);
	for (i = 0; i < n; i++)
		feed(ti, &c[i].r);
	ti->next = seq;
	ti->total = total;
	if (oldest)
		trim(ti, first, oldest);
	pthread_mutex_unlock(&ti->mu);
	return seq - next;
}

static void finish(struct kt_timeindex *ti)
{
	int i;

	cpuslicer_finish(ti->slicer, ti->last_ts);
	ti->slicer = NULL;
	for (i = 0; i < ti->ncpus; i++) {
		ti->run[i].seen = false;
		slicelog_shrink(&ti->cpu[i].log);
	}
	for (i = 0; i < ti->nkinds; i++)
		tslog_shrink(&ti->kinds[i].ts);
	tslog_shrink(&ti->lost);
	ti->done = true;
}

static void *index_thread(void *arg)
{
	struct kt_timeindex *ti = arg;
	struct timespec until;

	for (;;) {
		pthread_mutex_lock(&ti->mu);
		if (ti->stop) {
			pthread_mutex_unlock(&ti->mu);
			return NULL;
		}
		pthread_mutex_unlock(&ti->mu);
		if (step(ti))
			continue;
		pthread_mutex_lock(&ti->mu);
		if (ti->final && !ti->done)
			finish(ti);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)IDLE_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		if (!ti->stop)
			pthread_cond_timedwait(&ti->cv, &ti->mu, &until);
		pthread_mutex_unlock(&ti->mu);
	}
}

static void free_parts(struct kt_timeindex *ti)
{
	int i;

	cpuslicer_finish(ti->slicer, ti->last_ts); /* frees it (its last slices are kept) */
	for (i = 0; ti->cpu && i < ti->ncpus; i++)
		slicelog_free(&ti->cpu[i].log);
	for (i = 0; i < ti->nkinds; i++)
		tslog_free(&ti->kinds[i].ts);
	free(ti->cpu);
	free(ti->run);
	free(ti->kinds);
	free(ti->kind_of);
	tslog_free(&ti->lost);
	free(ti->tasks);
	free(ti->task_slot);
	free(ti->batch);
	free(ti->names);
	free(ti->name_slot);
	pthread_mutex_destroy(&ti->mu);
	pthread_cond_destroy(&ti->cv);
	free(ti);
}

struct kt_timeindex *timeindex_new(struct kt_store *st, int ncpus,
				   const struct kt_switch_fields *sw)
{
	struct kt_timeindex *ti = calloc(1, sizeof(*ti));

	if (!ti)
		return NULL;
	pthread_mutex_init(&ti->mu, NULL);
	pthread_cond_init(&ti->cv, NULL);
	ti->st = st;
	ti->ncpus = ncpus > 0 ? ncpus : 1;
	ti->sw = *sw;
	ti->cpu = calloc((size_t)ti->ncpus, sizeof(*ti->cpu));
	ti->run = calloc((size_t)ti->ncpus, sizeof(*ti->run));
	ti->kind_of = calloc(NTYPES, sizeof(*ti->kind_of));
	ti->batch = malloc(BATCH * sizeof(*ti->batch));
	ti->name_slot = calloc(NAME_SLOTS, sizeof(*ti->name_slot));
	if (!ti->cpu || !ti->run || !ti->kind_of || !ti->batch || !ti->name_slot ||
	    pthread_create(&ti->thread, NULL, index_thread, ti)) {
		free_parts(ti);
		return NULL;
	}
	return ti;
}

void timeindex_free(struct kt_timeindex *ti)
{
	if (!ti)
		return;
	pthread_mutex_lock(&ti->mu);
	ti->stop = true;
	pthread_cond_signal(&ti->cv);
	pthread_mutex_unlock(&ti->mu);
	pthread_join(ti->thread, NULL);
	free_parts(ti);
}

void timeindex_set_final(struct kt_timeindex *ti)
{
	pthread_mutex_lock(&ti->mu);
	ti->final = true;
	pthread_cond_signal(&ti->cv);
	pthread_mutex_unlock(&ti->mu);
}

void timeindex_info(struct kt_timeindex *ti, struct kt_ti_info *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&ti->mu);
	out->first_ts = ti->first_ts;
	out->last_ts = ti->last_ts;
	out->records = ti->records;
	out->total = ti->total;
	out->done = ti->done;
	out->switches = ti->sw.type >= 0;
	out->ncpus = ti->ncpus;
	out->nkinds = ti->nkinds;
	out->bytes = sizeof(*ti) + NTYPES * sizeof(*ti->kind_of) + tslog_bytes(&ti->lost) +
		     (size_t)ti->capkinds * sizeof(*ti->kinds) + BATCH * sizeof(*ti->batch);
	for (i = 0; i < ti->nkinds; i++)
		out->bytes += tslog_bytes(&ti->kinds[i].ts);
	for (i = 0; i < ti->ncpus; i++)
		out->bytes += slicelog_bytes(&ti->cpu[i].log);
	out->bytes += ti->capnames * KT_SLICE_COMM + NAME_SLOTS * sizeof(uint32_t) +
		      ti->captasks * sizeof(*ti->tasks) + ti->ntask_slots * sizeof(uint32_t);
	pthread_mutex_unlock(&ti->mu);
}

int timeindex_kind(struct kt_timeindex *ti, int i, uint64_t *seq)
{
	int type = -1;

	pthread_mutex_lock(&ti->mu);
	if (i >= 0 && i < ti->nkinds) {
		type = ti->kinds[i].type;
		if (seq)
			*seq = ti->kinds[i].seq;
	}
	pthread_mutex_unlock(&ti->mu);
	return type;
}

size_t timeindex_slices(struct kt_timeindex *ti, int cpu, uint64_t from, uint64_t to,
			kt_cpuslice_fn fn, void *arg)
{
	struct kt_cpuslice open, one;
	struct kt_slicecur c;
	size_t n = 0;
	bool more;

	if (cpu < 0 || cpu >= ti->ncpus)
		return 0;
	pthread_mutex_lock(&ti->mu);
	for (more = slicelog_seek_end(&ti->cpu[cpu].log, from, &c); more && c.s.start < to;
	     more = slicelog_next(&c), n++) {
		expand(ti, cpu, &c, &one);
		fn(&one, arg);
	}
	if (ti->run[cpu].seen && ti->run[cpu].s.start < to && ti->last_ts > from &&
	    ti->last_ts > ti->run[cpu].s.start) {
		open = ti->run[cpu].s;
		open.end = ti->last_ts;
		fn(&open, arg);
		n++;
	}
	pthread_mutex_unlock(&ti->mu);
	return n;
}

size_t timeindex_nslices(struct kt_timeindex *ti, int cpu, uint64_t from, uint64_t to)
{
	size_t n = 0;

	if (cpu < 0 || cpu >= ti->ncpus || to <= from)
		return 0;
	pthread_mutex_lock(&ti->mu);
	n = slicelog_end_lower(&ti->cpu[cpu].log, to) - slicelog_end_lower(&ti->cpu[cpu].log, from);
	pthread_mutex_unlock(&ti->mu);
	return n;
}

/* The slice of cpu that holds ts (the running one included). Lock held. */
static bool slice_at(struct kt_timeindex *ti, int cpu, uint64_t ts, struct kt_cpuslice *out)
{
	struct kt_slicecur c;

	if (slicelog_seek_end(&ti->cpu[cpu].log, ts, &c) && c.s.start <= ts) {
		expand(ti, cpu, &c, out);
		return true;
	}
	if (ti->run[cpu].seen && ti->run[cpu].s.start <= ts && ts < ti->last_ts) {
		*out = ti->run[cpu].s;
		out->end = ti->last_ts;
		return true;
	}
	return false;
}

bool timeindex_slice_at(struct kt_timeindex *ti, int cpu, uint64_t ts, struct kt_cpuslice *out)
{
	bool ok;

	if (cpu < 0 || cpu >= ti->ncpus)
		return false;
	pthread_mutex_lock(&ti->mu);
	ok = slice_at(ti, cpu, ts, out);
	pthread_mutex_unlock(&ti->mu);
	return ok;
}

void timeindex_slices_at(struct kt_timeindex *ti, int cpu, const uint64_t *ts, int n,
			 struct kt_cpuslice *out)
{
	int i;

	for (i = 0; i < n; i++)
		out[i].pid = -1;
	if (cpu < 0 || cpu >= ti->ncpus)
		return;
	pthread_mutex_lock(&ti->mu);
	for (i = 0; i < n; i++)
		if (!slice_at(ti, cpu, ts[i], &out[i]))
			out[i].pid = -1;
	pthread_mutex_unlock(&ti->mu);
}

static const struct kt_tslog *kind_ts(struct kt_timeindex *ti, int kind)
{
	if (kind == KT_TI_LOST)
		return &ti->lost;
	if (kind < 0 || kind >= NTYPES || !ti->kind_of[kind])
		return NULL;
	return &ti->kinds[ti->kind_of[kind] - 1].ts;
}

/* Records of kind before ts. Lock held. */
static uint64_t count_before(struct kt_timeindex *ti, int kind, uint64_t ts)
{
	const struct kt_tslog *t;
	uint64_t n = 0;
	int i;

	if (kind == KT_TI_ALL) {
		for (i = 0; i < ti->nkinds; i++)
			n += tslog_lower(&ti->kinds[i].ts, ts);
	} else if ((t = kind_ts(ti, kind))) {
		n = tslog_lower(t, ts);
	}
	return n;
}

uint64_t timeindex_count(struct kt_timeindex *ti, int kind, uint64_t from, uint64_t to)
{
	uint64_t n;

	if (to <= from)
		return 0;
	pthread_mutex_lock(&ti->mu);
	n = count_before(ti, kind, to) - count_before(ti, kind, from);
	pthread_mutex_unlock(&ti->mu);
	return n;
}

void timeindex_counts(struct kt_timeindex *ti, int kind, uint64_t from, uint64_t width, int n,
		      uint64_t *out)
{
	uint64_t before, after;
	int c;

	pthread_mutex_lock(&ti->mu);
	before = count_before(ti, kind, from);
	for (c = 0; c < n; c++) {
		after = count_before(ti, kind, from + (uint64_t)(c + 1) * width);
		out[c] = after - before;
		before = after;
	}
	pthread_mutex_unlock(&ti->mu);
}

/* The first slice start after ts, or the last before it; the running slice's too. */
static bool next_boundary(struct kt_timeindex *ti, int cpu, uint64_t ts, int dir, uint64_t *out)
{
	const struct kt_slicelog *l = &ti->cpu[cpu].log;
	const struct running *run = &ti->run[cpu];
	struct kt_slicecur c;
	size_t k;

	if (dir > 0) {
		if (slicelog_seek_start(l, ts + 1, &c)) {
			*out = c.s.start;
			return true;
		}
		if (slicelog_len(l) && l->p.last > ts && !run->seen) {
			*out = l->p.last; /* the capture's end */
			return true;
		}
		if (run->seen && run->s.start > ts) {
			*out = run->s.start;
			return true;
		}
		return false;
	}
	if (run->seen && run->s.start < ts) {
		*out = run->s.start;
		return true;
	}
	k = slicelog_seek_start(l, ts, &c) ? c.k : slicelog_len(l);
	if (k > 0 && slicelog_seek_k(l, k - 1, &c)) {
		*out = c.s.start;
		return true;
	}
	return false;
}

bool timeindex_next(struct kt_timeindex *ti, int cpu, int kind, uint64_t ts, int dir,
		    uint64_t *out)
{
	const struct kt_tslog *t;
	bool ok = false;
	size_t i;

	pthread_mutex_lock(&ti->mu);
	if (cpu >= 0 && cpu < ti->ncpus) {
		ok = next_boundary(ti, cpu, ts, dir, out);
	} else if (cpu < 0 && (t = kind_ts(ti, kind)) && tslog_len(t)) {
		i = dir > 0 ? tslog_lower(t, ts + 1) : tslog_lower(t, ts);
		if (dir > 0 && i < tslog_len(t)) {
			*out = tslog_at(t, i);
			ok = true;
		} else if (dir < 0 && i > 0) {
			*out = tslog_at(t, i - 1);
			ok = true;
		}
	}
	pthread_mutex_unlock(&ti->mu);
	return ok;
}
