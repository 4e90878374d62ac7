// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a trace.dat through libtracecmd into the paged store. Two libtracecmd handles on
 * the same file: the index thread's and the pager's (the UI thread's), because a handle
 * keeps per-CPU read positions and is not thread safe.
 *
 * Both walk the file with the same merge: the CPU whose next record is oldest goes first
 * (ties to the lower CPU), and a record whose page says events were missed is preceded by a
 * loss marker. A record and its marker form one step; checkpoints fall between steps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <trace-cmd/trace-cmd.h>

#include "../backend/store.h"
#include "recording.h"
#include "tdat_open.h"

#define RECORDING_CHECKPOINT 16384 /* records between checkpoints */
#define RECORDING_PUBLISH 65536	   /* records indexed between updates of the span */
#define RECORDING_FIRST_PUBLISH 4096 /* ... but the first screen's worth goes at once */
#define RECORDING_FILL_AHEAD 16384 /* records the pager reads past the one asked for */
#define RECORDING_TAIL_PAGES 8	   /* pages per CPU the tail starts with (End's screen) */
#define RECORDING_TAIL_MAX_PAGES 4096 /* ... and grows to: each growth reads it all again */
#define RECORDING_DROP_EVERY 65536 /* records read between releases of the file's pages */

/* One libtracecmd handle and the merge state over its CPUs. */
struct walk {
	struct tracecmd_input *top, *h; /* h: the buffer read (top or one instance) */
	struct tep_record **peek;	/* each CPU's next record, NULL when done */
	int ncpus;
	uint64_t seq;			/* sequence number of the next step */
	struct tep_event_filter *filter; /* the user's filters, built on this handle's tep */
	const bool *hidden;		/* event ids the user hid (the recording's) */
	unsigned page_size;		/* the file's (libtracecmd does not tell) */
	struct kt_recording *rec;	/* for the page checks */
	struct kbuffer *kbuf;		/* parses a page ahead of libtracecmd */
	unsigned char *page;
	uint64_t *sound;		/* per CPU: the last page this walk checked ahead */
};

struct user_filter {
	int id;
	char *expr;
};

struct checkpoint {
	uint64_t seq;
	unsigned long long *offs; /* ncpus file offsets of each CPU's next record; 0: done */
};

struct kt_recording {
	char *path;
	struct kt_tdat_file file; /* checked, with what tdat_check() found */
	int buffer; /* -1: the top-level buffer, else the instance index */
	char buffer_name[128];
	struct walk pager, index;
	struct kt_store *store;
	int wake_fd;
	uint64_t pager_dropped_at; /* the pager's position when it last dropped file pages */
	int fd;			   /* the file, for the page checks */
	bool check_pages;	   /* v6, top-level buffer: pages checked before libtracecmd reads */
	uint64_t *checked;	   /* per CPU: pages up to this offset are sound (atomics) */
	char corrupt[256];	   /* the first corrupt page met (under the store lock) */

	/* under the store lock */
	struct checkpoint *cps;
	size_t ncps, cap;
	struct kt_recording_info info;
	/* The tail, read before the index reaches it (recording.h): its records numbered
	 * provisionally up to est, the estimated total, which stays put once there is a tail. */
	uint64_t est;		  /* 0: none */
	struct checkpoint *tcps;  /* the tail's checkpoints, provisional numbers, oldest first */
	size_t ntcps;
	uint64_t tail_first;	  /* provisional number of its first record */
	unsigned tail_pages;	  /* it starts this many pages back from each CPU's last: 0 none */
	bool tail_stuck;	  /* it cannot grow back before the index is done */
	uint64_t *first_page, *last_page; /* per CPU of the buffer shown; last 0: no data */
	char *gate;		  /* tests: the index holds while this file exists */
	char *start_gate;	  /* tests: ... and does not begin while this one exists */

	uint64_t *type_counts; /* 65536, relaxed atomics */
	bool *hidden;	       /* 65536: event ids left out */
	struct user_filter *filters;
	size_t nfilters;
	pthread_t thread;
	bool started;
	bool stop;		/* atomic */
	bool done;
	pthread_mutex_t done_lock;
	pthread_cond_t done_cond;
};

static void walk_close(struct walk *w)
{
	int i;

	for (i = 0; w->peek && i < w->ncpus; i++)
		if (w->peek[i])
			tracecmd_free_record(w->peek[i]);
	free(w->peek);
	w->peek = NULL;
	if (w->filter)
		tep_filter_free(w->filter);
	w->filter = NULL;
	if (w->kbuf)
		kbuffer_free(w->kbuf);
	w->kbuf = NULL;
	free(w->page);
	w->page = NULL;
	free(w->sound);
	w->sound = NULL;
	if (w->h && w->h != w->top)
		tracecmd_close(w->h);
	if (w->top)
		tracecmd_close(w->top);
	w->h = w->top = NULL;
}

/* Opens the file and the buffer to show: the top-level one when it has data, else the
 * first instance that has (trace-cmd extract -B writes the instance as a buffer of its
 * own). buffer: -2 to choose, else the one chosen before. */
static int walk_open(struct walk *w, const char *path, int *buffer, char *name, size_t namelen)
{
	struct tracecmd_input *b;
	int i, n, cpu;

	memset(w, 0, sizeof(*w));
	w->top = tracecmd_open(path, TDAT_OPEN_FLAGS);
	if (!w->top)
		return -1;
	w->h = w->top;
	if (*buffer == -2) {
		*buffer = -1;
		name[0] = '\0';
		for (cpu = 0; cpu < tep_get_cpus(tracecmd_get_tep(w->top)); cpu++) {
			struct tep_record *r = tracecmd_read_cpu_first(w->top, cpu);

			if (r) {
				tracecmd_free_record(r);
				break;
			}
		}
		n = tracecmd_buffer_instances(w->top);
		if (cpu == tep_get_cpus(tracecmd_get_tep(w->top)) && n > 0) {
			*buffer = 0;
			snprintf(name, namelen, "%s", tracecmd_buffer_instance_name(w->top, 0));
		}
	}
	if (*buffer >= 0) {
		b = tracecmd_buffer_instance_handle(w->top, *buffer);
		if (!b)
			return -1;
		w->h = b;
	}
	w->ncpus = tep_get_cpus(tracecmd_get_tep(w->h));
	if (w->ncpus < 0)
		return -1;
	w->peek = calloc((size_t)w->ncpus + 1, sizeof(*w->peek));
	w->sound = calloc((size_t)w->ncpus + 1, sizeof(*w->sound));
	if (!w->peek || !w->sound)
		return -1;
	for (i = 0; i < w->ncpus; i++)
		w->peek[i] = tracecmd_read_cpu_first(w->h, i);
	return 0;
}

/* The CPU whose next record goes first, or -1 at the end. */
static int walk_next_cpu(const struct walk *w)
{
	int i, m = -1;

	for (i = 0; i < w->ncpus; i++)
		if (w->peek[i] && (m < 0 || w->peek[i]->ts < w->peek[m]->ts))
			m = i;
	return m;
}

/* A record a corrupt page cannot have produced: the common fields are there and it fits
 * in its page. Others are left out (and counted), never handed on. */
static bool record_sane(const struct walk *w, const struct tep_record *r)
{
	return r->data && r->size >= 8 && w->page_size &&
	       r->offset % w->page_size + (unsigned)r->size <= w->page_size;
}

/* Whether the user's choices keep the record: its event not hidden, its filter matched. */
static bool walk_shows(const struct walk *w, const struct tep_record *r)
{
	uint16_t type;

	if (!record_sane(w, r))
		return false;
	memcpy(&type, r->data, sizeof(type));
	if (w->hidden && w->hidden[type])
		return false;
	return !w->filter || tep_event_filtered(w->filter, type) != 1 ||
	       tep_filter_match(w->filter, (struct tep_record *)(uintptr_t)r) ==
		       TEP_ERRNO__FILTER_MATCH;
}

/* Records one step takes: the record if shown, and its loss marker (always: a loss is a
 * fact about the buffer, whatever is shown). */
static unsigned step_records(const struct walk *w, const struct tep_record *r)
{
	return (r->missed_events ? 1u : 0u) + (walk_shows(w, r) ? 1u : 0u);
}

/* Whether r is the last record of its page (the page parsed here, on a copy). */
static bool last_in_page(struct walk *w, const struct tep_record *r, uint64_t page)
{
	struct kt_recording *rec = w->rec;
	unsigned long long ts;
	int last = -1, next;

	if (!w->kbuf)
		w->kbuf = kbuffer_alloc(rec->file.info.long_size == 4 ? KBUFFER_LSIZE_4 :
								   KBUFFER_LSIZE_8,
					KBUFFER_ENDIAN_LITTLE);
	if (!w->page)
		w->page = calloc(1, (size_t)w->page_size + 16);
	if (!w->kbuf || !w->page ||
	    pread(rec->fd, w->page, w->page_size, (off_t)page) != (ssize_t)w->page_size ||
	    kbuffer_load_subbuffer(w->kbuf, w->page) < 0 || !kbuffer_read_event(w->kbuf, &ts))
		return true;
	do { /* up to where the page's events stop going forward, as walk_advance() */
		next = kbuffer_curr_offset(w->kbuf);
		if (next <= last)
			break;
		last = next;
	} while (kbuffer_next_event(w->kbuf, &ts));
	/* libtracecmd's record offset is the page's plus kbuffer_curr_offset() too */
	return last < 0 || r->offset >= page + (unsigned)last;
}

/* Keeps the first corrupt page met, for recording_info(). */
static void note_corrupt(struct kt_recording *rec, const char *what)
{
	/* not the store lock: the pager runs under it */
	pthread_mutex_lock(&rec->done_lock);
	if (!rec->corrupt[0])
		snprintf(rec->corrupt, sizeof(rec->corrupt), "%s", what);
	pthread_mutex_unlock(&rec->done_lock);
}

/*
 * libtracecmd trusts a page's header and reads past the page with a corrupt one, so the
 * page after r's is checked before libtracecmd may load it; when it is corrupt, the CPU
 * ends with the last record of r's page. Every walk decides the same, so sequence numbers
 * stay the same. Returns false when the CPU ends at r.
 */
static bool next_page_sound(struct walk *w, int cpu, const struct tep_record *r)
{
	struct kt_recording *rec = w->rec;
	uint64_t page, next, end;
	char err[256];

	if (!rec || !rec->check_pages || cpu >= rec->file.info.ncpus)
		return true;
	page = r->offset / w->page_size * w->page_size;
	next = page + w->page_size;
	end = rec->file.info.cpus[cpu].off + rec->file.info.cpus[cpu].size;
	if (next >= end || next <= __atomic_load_n(&rec->checked[cpu], __ATOMIC_RELAXED) ||
	    (w->sound && w->sound[cpu] == next))
		return true;
	if (tdat_check_page(rec->fd, rec->path, &rec->file.info, next, cpu, err, sizeof(err)) == 0) {
		/* only a walk that came page by page extends what is known sound (the tail's
		 * does not: it starts far ahead of the index) */
		uint64_t prev = next - w->page_size;

		__atomic_compare_exchange_n(&rec->checked[cpu], &prev, next, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		if (w->sound)
			w->sound[cpu] = next;
		return true;
	}
	if (!last_in_page(w, r, page))
		return true;
	note_corrupt(rec, err);
	return false;
}

/*
 * A page whose event lengths lead back to an earlier event (a corrupt length) has
 * libtracecmd read the same events over and over, each later than the last: its CPU ends
 * before the first record that is not past the one before, for every walk alike.
 */
static void walk_advance(struct walk *w, int cpu)
{
	unsigned long long prev = w->peek[cpu]->offset;
	bool more = next_page_sound(w, cpu, w->peek[cpu]);
	struct tep_record *r;
	char err[256];

	tracecmd_free_record(w->peek[cpu]);
	r = more ? tracecmd_read_data(w->h, cpu) : NULL;
	if (r && r->offset <= prev) {
		snprintf(err, sizeof(err),
			 "%s: corrupt page at offset %llu in CPU %d's data: the event after offset "
			 "%llu is at %llu, not past it",
			 w->rec->path, prev - prev % w->page_size, cpu, prev, r->offset);
		note_corrupt(w->rec, err);
		tracecmd_free_record(r);
		r = NULL;
	}
	w->peek[cpu] = r;
}

/* Puts the walk where checkpoint cp was taken. */
static void walk_restore(struct walk *w, const struct checkpoint *cp)
{
	int i, cpu;

	for (i = 0; i < w->ncpus; i++) {
		if (w->peek[i])
			tracecmd_free_record(w->peek[i]);
		w->peek[i] = NULL;
		if (!cp->offs[i])
			continue;
		w->peek[i] = tracecmd_read_at(w->h, cp->offs[i], &cpu);
		if (w->peek[i] && cpu != i) {
			tracecmd_free_record(w->peek[i]);
			w->peek[i] = NULL;
		}
	}
	w->seq = cp->seq;
}

/* ---- the index thread ------------------------------------------------------------------- */

static void wake(struct kt_recording *rec)
{
	char b = 1;
	ssize_t n;

	if (rec->wake_fd >= 0) {
		n = write(rec->wake_fd, &b, 1);
		(void)n;
	}
}

/* Checkpoints taken since the last publish, handed over under the store lock. */
struct pending {
	struct checkpoint *cps;
	size_t n, cap;
};

static void take_checkpoint(struct pending *p, const struct walk *w)
{
	struct checkpoint *grown, *cp;
	int i;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 8;
		grown = realloc(p->cps, p->cap * sizeof(*grown));
		if (!grown)
			return;
		p->cps = grown;
	}
	cp = &p->cps[p->n];
	cp->offs = calloc((size_t)w->ncpus + 1, sizeof(*cp->offs));
	if (!cp->offs)
		return;
	cp->seq = w->seq;
	for (i = 0; i < w->ncpus; i++)
		cp->offs[i] = w->peek[i] ? w->peek[i]->offset : 0;
	p->n++;
}

static void free_checkpoints(struct checkpoint *cps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(cps[i].offs);
	free(cps);
}

/* Forgets the tail and the estimate. Lock held. */
static void tail_free(struct kt_recording *rec)
{
	free_checkpoints(rec->tcps, rec->ntcps);
	rec->tcps = NULL;
	rec->ntcps = 0;
	rec->tail_pages = 0;
	rec->tail_stuck = false;
	rec->est = 0;
}

/* The index is through: the tail's provisional numbers become the real ones, total - est
 * away, and a browser holding them moves as much. Lock held. */
static void tail_settle(struct kt_recording *rec, uint64_t total)
{
	if (rec->tail_pages) {
		store_set_shift(rec->store, rec->tail_first, (int64_t)(total - rec->est));
		store_restart(rec->store, 0);
		rec->pager.seq = UINT64_MAX; /* no window to read on from */
	}
	tail_free(rec);
}

/* The records the buffer holds, estimated from what the index has read: its records per
 * byte of page read, times the bytes of every CPU's pages. More than records. */
static uint64_t estimate_total(const struct kt_recording *rec, const struct walk *w,
			       uint64_t records)
{
	double total = 0, done = 0, bytes;
	uint64_t est;
	int i;

	for (i = 0; i < w->ncpus; i++) {
		if (!rec->last_page[i])
			continue;
		bytes = (double)(rec->last_page[i] + w->page_size - rec->first_page[i]);
		total += bytes;
		done += w->peek[i] ? (double)(w->peek[i]->offset - rec->first_page[i]) : bytes;
	}
	if (!total)
		return 0; /* no tail to show, nothing to estimate for */
	est = done > 0 ? (uint64_t)((double)records * (total / done)) : 0;
	return est > records ? est : records + 1;
}

static void publish(struct kt_recording *rec, struct pending *p, const struct kt_recording_info *in,
		    uint64_t est)
{
	uint64_t span = in->records;
	struct checkpoint *grown;
	size_t need;

	store_lock(rec->store);
	need = rec->ncps + p->n;
	if (need > rec->cap) {
		grown = realloc(rec->cps, (need + 64) * sizeof(*grown));
		if (grown) {
			rec->cps = grown;
			rec->cap = need + 64;
		}
	}
	if (p->n && need <= rec->cap) { /* nothing new: cps may still be NULL */
		memcpy(rec->cps + rec->ncps, p->cps, p->n * sizeof(*p->cps));
		rec->ncps = need;
		p->n = 0;
	}
	rec->info.records = in->records;
	rec->info.events = in->events;
	rec->info.lost_marked = in->lost_marked;
	rec->info.lost_unknown = in->lost_unknown;
	rec->info.first_ts = in->first_ts;
	rec->info.last_ts = in->last_ts;
	rec->info.indexed = in->indexed;
	rec->info.corrupt = in->corrupt;
	if (in->indexed)
		tail_settle(rec, in->records);
	else if (!rec->tail_pages)
		rec->est = est;
	/* the index's numbers stop where the tail's begin, until they are settled */
	if (rec->tail_pages && span > rec->tail_first)
		span = rec->tail_first;
	store_set_span(rec->store, rec->ncps ? span : 0);
	store_set_estimate(rec->store, rec->ncps ? rec->est : 0);
	store_unlock(rec->store);
	wake(rec);
}

/* Tests hold the index while the file gate names exists: after its first screen
 * (KTOP_TEST_INDEX_GATE), to show the tail before the index is through whatever the
 * machine's speed; before its first record (KTOP_TEST_INDEX_START_GATE), to show the first
 * screen is drawn when the first records arrive, not at the next tick. */
static void hold_at_gate(struct kt_recording *rec, const char *gate)
{
	while (gate && access(gate, F_OK) == 0 && !__atomic_load_n(&rec->stop, __ATOMIC_RELAXED))
		usleep(20000);
}

static void *index_main(void *arg)
{
	struct kt_recording *rec = arg;
	struct walk *w = &rec->index;
	struct kt_recording_info in = { 0 };
	struct pending p = { 0 };
	uint64_t next_cp = 0, next_pub = RECORDING_FIRST_PUBLISH;
	struct tep_record *r;
	uint16_t type;
	int cpu;

	hold_at_gate(rec, rec->start_gate);
	while (!__atomic_load_n(&rec->stop, __ATOMIC_RELAXED)) {
		cpu = walk_next_cpu(w);
		if (cpu < 0)
			break;
		r = w->peek[cpu];
		if (w->seq >= next_cp) {
			take_checkpoint(&p, w);
			next_cp = w->seq + RECORDING_CHECKPOINT;
		}
		if (r->missed_events > 0)
			in.lost_marked += (uint64_t)r->missed_events;
		else if (r->missed_events < 0)
			in.lost_unknown++;
		if (record_sane(w, r)) {
			memcpy(&type, r->data, sizeof(type));
			__atomic_fetch_add(&rec->type_counts[type], 1, __ATOMIC_RELAXED);
		} else {
			in.corrupt++;
		}
		if (!in.events)
			in.first_ts = r->ts;
		in.last_ts = r->ts;
		in.events++;
		w->seq += step_records(w, r);
		walk_advance(w, cpu);
		if (w->seq >= next_pub) {
			in.records = w->seq;
			publish(rec, &p, &in, estimate_total(rec, w, w->seq));
			tdat_drop_pages(&rec->file);
			next_pub = w->seq + RECORDING_PUBLISH;
			hold_at_gate(rec, rec->gate);
		}
	}
	in.records = w->seq;
	in.indexed = walk_next_cpu(w) < 0;
	publish(rec, &p, &in, 0);
	free(p.cps);
	pthread_mutex_lock(&rec->done_lock);
	rec->done = true;
	pthread_cond_broadcast(&rec->done_cond);
	pthread_mutex_unlock(&rec->done_lock);
	return NULL;
}

/* ---- the pager -------------------------------------------------------------------------- */

/* Appends one step of the pager's walk to the store. */
static void pager_step(struct kt_store *st, struct walk *w)
{
	int cpu = walk_next_cpu(w);
	struct tep_record *r = w->peek[cpu];

	if (r->missed_events)
		store_append_lost(st, r->ts, (uint32_t)cpu,
				  r->missed_events > 0 ? r->missed_events : -1);
	if (walk_shows(w, r))
		store_append(st, r->ts, (uint32_t)cpu, r->data, (uint32_t)r->size);
	w->seq += step_records(w, r);
	walk_advance(w, cpu);
}

/* ---- the tail -------------------------------------------------------------------------- */

/* Puts every CPU of the pager's walk at the first record of its page pages back from its
 * last page; the newest of those records' times in *after. false when a CPU would start in
 * the part the index has read (the tail would not be ahead of it), or on a corrupt page. */
static bool tail_position(struct kt_recording *rec, unsigned pages, unsigned long long *after)
{
	struct walk *w = &rec->pager;
	const struct checkpoint *front = rec->ncps ? &rec->cps[rec->ncps - 1] : NULL;
	uint64_t back, start;
	char err[256];
	bool any = false;
	int i, cpu;

	for (i = 0; i < w->ncpus; i++) {
		if (w->peek[i])
			tracecmd_free_record(w->peek[i]);
		w->peek[i] = NULL;
	}
	*after = 0;
	for (i = 0; i < w->ncpus; i++) {
		if (!rec->last_page[i])
			continue;
		back = (uint64_t)(pages - 1) * w->page_size;
		start = rec->last_page[i] - rec->first_page[i] > back ? rec->last_page[i] - back
								       : rec->first_page[i];
		if (front && (!front->offs[i] || start <= front->offs[i]))
			return false;
		if (rec->check_pages && i < rec->file.info.ncpus &&
		    start > __atomic_load_n(&rec->checked[i], __ATOMIC_RELAXED) &&
		    tdat_check_page(rec->fd, rec->path, &rec->file.info, start, i, err, sizeof(err)) < 0)
			return false;
		w->peek[i] = tracecmd_read_at(w->h, start, &cpu);
		if (w->peek[i] && cpu != i) {
			tracecmd_free_record(w->peek[i]);
			w->peek[i] = NULL;
		}
		if (w->peek[i] && (!any || w->peek[i]->ts > *after))
			*after = w->peek[i]->ts;
		any |= w->peek[i] != NULL;
	}
	return any;
}

/*
 * Reads the tail: the records newer than every CPU's first record pages back from its last.
 * Records older than that all come before (each CPU's times only grow), so these are the
 * file's last records in the order the full walk gives them, whatever the middle holds.
 * Numbers them to end at the estimate (raised if the index's numbers would reach them),
 * with checkpoints for the pager. false, the tail as it was, when it cannot. Lock held.
 */
static bool tail_build(struct kt_recording *rec, unsigned pages)
{
	struct walk *w = &rec->pager;
	struct pending p = { 0 };
	unsigned long long after;
	uint64_t next_cp = 0, span = store_end(rec->store), est = rec->est;
	size_t i;
	int cpu;

	w->seq = UINT64_MAX; /* the window's walk is gone whatever happens */
	if (!tail_position(rec, pages, &after))
		return false;
	for (cpu = 0; cpu < w->ncpus; cpu++)
		while (w->peek[cpu] && w->peek[cpu]->ts <= after)
			walk_advance(w, cpu);
	w->seq = 0;
	while ((cpu = walk_next_cpu(w)) >= 0) {
		if (w->seq >= next_cp) {
			take_checkpoint(&p, w);
			next_cp = w->seq + RECORDING_CHECKPOINT;
		}
		w->seq += step_records(w, w->peek[cpu]);
		walk_advance(w, cpu);
	}
	if (!rec->tail_pages && est < span + w->seq)
		est = span + w->seq;
	if (!p.n || w->seq > est || est - w->seq < span || (rec->tail_pages && w->seq <= est -
							     rec->tail_first)) {
		free_checkpoints(p.cps, p.n);
		w->seq = UINT64_MAX;
		return false;
	}
	for (i = 0; i < p.n; i++)
		p.cps[i].seq += est - w->seq;
	free_checkpoints(rec->tcps, rec->ntcps);
	rec->tcps = p.cps;
	rec->ntcps = p.n;
	rec->tail_first = est - w->seq;
	rec->tail_pages = pages;
	rec->est = est;
	store_set_estimate(rec->store, est);
	w->seq = UINT64_MAX;
	return true;
}

/* Makes the tail reach back to seq: the first time a few pages, then twice as many each
 * time, until it does or cannot. Lock held. */
static bool tail_reach(struct kt_recording *rec, uint64_t seq)
{
	unsigned pages = rec->tail_pages ? rec->tail_pages : RECORDING_TAIL_PAGES;

	if (rec->tail_pages && seq >= rec->tail_first)
		return true;
	while (!rec->tail_stuck) {
		if (rec->tail_pages)
			pages *= 2;
		if (pages > RECORDING_TAIL_MAX_PAGES || !tail_build(rec, pages))
			rec->tail_stuck = rec->tail_pages != 0;
		if (!rec->tail_pages)
			return false;
		if (seq >= rec->tail_first)
			return true;
	}
	return false;
}

/* ---- the pager -------------------------------------------------------------------------- */

static void pager(void *ctx, struct kt_store *st, uint64_t seq)
{
	struct kt_recording *rec = ctx;
	struct walk *w = &rec->pager;
	uint64_t first, end, limit, region = 0, region_end = store_end(st);
	const struct checkpoint *cps = rec->cps;
	size_t lo = 0, hi = rec->ncps, mid;

	if (seq >= region_end) { /* past the index: the tail's */
		if (!tail_reach(rec, seq))
			return;
		cps = rec->tcps;
		hi = rec->ntcps;
		region = rec->tail_first;
		region_end = rec->est;
	}
	if (!hi)
		return;
	store_held(st, &first, &end);
	/* Reading on from where the window ends is cheaper than a jump. */
	if (!(first < end && w->seq == end && seq >= end && end > region &&
	      seq < end + RECORDING_CHECKPOINT)) {
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (cps[mid].seq <= seq)
				lo = mid;
			else
				hi = mid;
		}
		walk_restore(w, &cps[lo]);
		store_restart(st, w->seq);
	}
	limit = seq + RECORDING_FILL_AHEAD;
	if (limit > region_end)
		limit = region_end;
	while (w->seq < limit && walk_next_cpu(w) >= 0)
		pager_step(st, w);
	if (w->seq - rec->pager_dropped_at >= RECORDING_DROP_EVERY || w->seq < rec->pager_dropped_at) {
		tdat_drop_pages(&rec->file);
		rec->pager_dropped_at = w->seq;
	}
}

/* ---- the handle ------------------------------------------------------------------------- */

/* Each CPU's first and last page, where the tail and the estimate start from: known from
 * the file's CPU data section (v6, the top-level buffer), else left 0: no tail, End waits
 * for the index there. */
static int find_pages(struct kt_recording *rec)
{
	const struct kt_tdat_info *fi = &rec->file.info;
	uint64_t page = fi->page_size;
	int i;

	rec->first_page = calloc((size_t)rec->pager.ncpus + 1, sizeof(*rec->first_page));
	rec->last_page = calloc((size_t)rec->pager.ncpus + 1, sizeof(*rec->last_page));
	if (!rec->first_page || !rec->last_page)
		return -1;
	if (!fi->cpus || !page || rec->buffer != -1 || rec->pager.ncpus != fi->ncpus)
		return 0;
	for (i = 0; i < rec->pager.ncpus; i++) {
		if (!fi->cpus[i].size || fi->cpus[i].off % page)
			continue;
		rec->first_page[i] = fi->cpus[i].off;
		rec->last_page[i] = fi->cpus[i].off + (fi->cpus[i].size - 1) / page * page;
	}
	return 0;
}

static int index_start(struct kt_recording *rec, char *err, size_t errlen);

struct kt_recording *recording_open(const char *path, char *err, size_t errlen)
{
	struct kt_recording *rec = calloc(1, sizeof(*rec));
	int i;

	if (!rec) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&rec->done_lock, NULL);
	pthread_cond_init(&rec->done_cond, NULL);
	rec->wake_fd = -1;
	rec->fd = -1;
	rec->path = strdup(path);
	rec->type_counts = calloc(65536, sizeof(*rec->type_counts));
	rec->hidden = calloc(65536, sizeof(*rec->hidden));
	if (!rec->path || !rec->type_counts || !rec->hidden) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (tdat_open_check(path, &rec->file, err, errlen) < 0)
		goto fail;
	rec->buffer = -2;
	if (walk_open(&rec->pager, path, &rec->buffer, rec->buffer_name,
		      sizeof(rec->buffer_name)) < 0) {
		snprintf(err, errlen, "%s: libtracecmd cannot read it (%s)", path,
			 errno ? strerror(errno) : "a section it needs is missing or corrupt");
		goto fail;
	}
	rec->fd = open(path, O_RDONLY | O_CLOEXEC);
	rec->check_pages = rec->fd >= 0 && rec->file.info.version == 6 && rec->file.info.cpus &&
			   rec->buffer == -1 && rec->pager.ncpus == rec->file.info.ncpus;
	rec->checked = calloc((size_t)rec->file.info.ncpus + 1, sizeof(*rec->checked));
	if (!rec->checked) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (i = 0; i < rec->file.info.ncpus; i++) /* what tdat_check() covered */
		rec->checked[i] = rec->file.info.cpus[i].off +
				  (uint64_t)(TDAT_CHECK_PAGES - 1) * rec->file.info.page_size;
	rec->pager.rec = rec;
	rec->pager.hidden = rec->hidden;
	rec->pager.page_size = rec->file.info.page_size;
	if (find_pages(rec) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	rec->gate = getenv("KTOP_TEST_INDEX_GATE");
	rec->start_gate = getenv("KTOP_TEST_INDEX_START_GATE");
	rec->info.file = rec->file.info;
	rec->info.ncpus = rec->pager.ncpus;
	snprintf(rec->info.buffer, sizeof(rec->info.buffer), "%s", rec->buffer_name);
	return rec;
fail:
	recording_close(rec);
	return NULL;
}

int recording_attach(struct kt_recording *rec, struct kt_store *st, int wake_fd, char *err,
		     size_t errlen)
{
	int buffer = rec->buffer;
	char name[128];

	if (walk_open(&rec->index, rec->path, &buffer, name, sizeof(name)) < 0) {
		snprintf(err, errlen, "%s: libtracecmd cannot read it", rec->path);
		return -1;
	}
	rec->index.hidden = rec->hidden;
	rec->index.rec = rec;
	rec->index.page_size = rec->file.info.page_size;
	rec->store = st;
	rec->wake_fd = wake_fd;
	store_lock(st);
	store_set_pager(st, pager, rec);
	store_unlock(st);
	return index_start(rec, err, errlen);
}

static int index_start(struct kt_recording *rec, char *err, size_t errlen)
{
	sigset_t all, old;

	rec->done = false;
	__atomic_store_n(&rec->stop, false, __ATOMIC_RELAXED);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	errno = pthread_create(&rec->thread, NULL, index_main, rec);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno) {
		snprintf(err, errlen, "cannot start the index thread: %s", strerror(errno));
		return -1;
	}
	rec->started = true;
	return 0;
}

void recording_wait_indexed(struct kt_recording *rec)
{
	pthread_mutex_lock(&rec->done_lock);
	while (rec->started && !rec->done)
		pthread_cond_wait(&rec->done_cond, &rec->done_lock);
	pthread_mutex_unlock(&rec->done_lock);
}

struct tep_handle *recording_tep(struct kt_recording *rec)
{
	return tracecmd_get_tep(rec->pager.h);
}

const char *recording_stacks(struct kt_recording *rec)
{
	return rec->file.info.stacks;
}

void recording_info(struct kt_recording *rec, struct kt_recording_info *out)
{
	if (rec->store)
		store_lock(rec->store);
	*out = rec->info;
	if (rec->store)
		store_unlock(rec->store);
	out->file.cpus = NULL; /* rec's own */
	out->file.stacks = NULL; /* recording_stacks() */
	pthread_mutex_lock(&rec->done_lock);
	snprintf(out->corrupt_page, sizeof(out->corrupt_page), "%s", rec->corrupt);
	pthread_mutex_unlock(&rec->done_lock);
}

uint64_t recording_type_count(struct kt_recording *rec, int id)
{
	if (id < 0 || id > 65535)
		return 0;
	return __atomic_load_n(&rec->type_counts[id], __ATOMIC_RELAXED);
}

void recording_close(struct kt_recording *rec)
{
	size_t i;

	if (!rec)
		return;
	if (rec->started) {
		__atomic_store_n(&rec->stop, true, __ATOMIC_RELAXED);
		pthread_join(rec->thread, NULL);
	}
	if (rec->store) {
		store_lock(rec->store);
		store_set_pager(rec->store, NULL, NULL);
		store_unlock(rec->store);
	}
	walk_close(&rec->pager);
	walk_close(&rec->index);
	for (i = 0; i < rec->ncps; i++)
		free(rec->cps[i].offs);
	free(rec->cps);
	free_checkpoints(rec->tcps, rec->ntcps);
	free(rec->first_page);
	free(rec->last_page);
	for (i = 0; i < rec->nfilters; i++)
		free(rec->filters[i].expr);
	free(rec->filters);
	free(rec->hidden);
	free(rec->checked);
	if (rec->fd >= 0)
		close(rec->fd);
	tdat_info_free(&rec->file.info);
	free(rec->type_counts);
	free(rec->path);
	pthread_mutex_destroy(&rec->done_lock);
	pthread_cond_destroy(&rec->done_cond);
	free(rec);
}

/* ---- the user's choices ----------------------------------------------------------------- */

/* A filter for w's tep from the user's expressions; NULL when there are none. */
static int build_filter(struct kt_recording *rec, struct walk *w, char *err, size_t errlen)
{
	struct tep_handle *tep = tracecmd_get_tep(w->h);
	struct tep_event_filter *f;
	struct tep_event *ev;
	char *spec;
	size_t i;
	int ret;

	if (w->filter)
		tep_filter_free(w->filter);
	w->filter = NULL;
	if (!rec->nfilters)
		return 0;
	f = tep_filter_alloc(tep);
	if (!f)
		return -1;
	for (i = 0; i < rec->nfilters; i++) {
		ev = tep_find_event(tep, rec->filters[i].id);
		if (!ev || asprintf(&spec, "%s/%s:%s", ev->system, ev->name,
				    rec->filters[i].expr) < 0)
			continue;
		ret = tep_filter_add_filter_str(f, spec);
		free(spec);
		if (ret < 0) {
			if (err)
				tep_filter_strerror(f, ret, err, errlen);
			tep_filter_free(f);
			return -1;
		}
	}
	w->filter = f;
	return 0;
}

/* Indexes again from the start with the user's current choices. */
static void reindex(struct kt_recording *rec)
{
	char err[256];
	size_t i;
	int cpu;

	if (rec->started) {
		__atomic_store_n(&rec->stop, true, __ATOMIC_RELAXED);
		pthread_join(rec->thread, NULL);
		rec->started = false;
	}
	build_filter(rec, &rec->index, NULL, 0);
	build_filter(rec, &rec->pager, NULL, 0);
	for (cpu = 0; cpu < rec->index.ncpus; cpu++) {
		if (rec->index.peek[cpu])
			tracecmd_free_record(rec->index.peek[cpu]);
		rec->index.peek[cpu] = tracecmd_read_cpu_first(rec->index.h, cpu);
	}
	rec->index.seq = 0;
	memset(rec->type_counts, 0, 65536 * sizeof(*rec->type_counts));
	store_lock(rec->store);
	for (i = 0; i < rec->ncps; i++)
		free(rec->cps[i].offs);
	rec->ncps = 0;
	tail_free(rec);
	store_restart(rec->store, 0);
	store_set_span(rec->store, 0);
	store_set_estimate(rec->store, 0);
	rec->pager.seq = UINT64_MAX; /* no window to read on from */
	rec->info.records = rec->info.events = 0;
	rec->info.indexed = false;
	store_unlock(rec->store);
	index_start(rec, err, sizeof(err));
}

bool recording_hidden(struct kt_recording *rec, int id)
{
	return id >= 0 && id < 65536 && rec->hidden[id];
}

void recording_set_hidden(struct kt_recording *rec, int id, bool hidden)
{
	if (id < 0 || id >= 65536 || rec->hidden[id] == hidden)
		return;
	rec->hidden[id] = hidden;
	if (rec->store)
		reindex(rec);
}

const char *recording_filter(struct kt_recording *rec, int id)
{
	size_t i;

	for (i = 0; i < rec->nfilters; i++)
		if (rec->filters[i].id == id)
			return rec->filters[i].expr;
	return NULL;
}

int recording_set_filter(struct kt_recording *rec, int id, const char *expr, char *err,
			 size_t errlen)
{
	struct user_filter *grown, saved = { .id = -1 };
	size_t i;

	for (i = 0; i < rec->nfilters; i++)
		if (rec->filters[i].id == id)
			break;
	if (i < rec->nfilters) { /* taken out; put back if the new one does not parse */
		saved = rec->filters[i];
		rec->filters[i] = rec->filters[--rec->nfilters];
	}
	if (expr && *expr) {
		grown = realloc(rec->filters, (rec->nfilters + 1) * sizeof(*grown));
		if (!grown)
			goto fail;
		rec->filters = grown;
		rec->filters[rec->nfilters].id = id;
		rec->filters[rec->nfilters].expr = strdup(expr);
		if (!rec->filters[rec->nfilters].expr)
			goto fail;
		rec->nfilters++;
		/* parsed on the pager's tep first: a rejected filter changes nothing */
		if (build_filter(rec, &rec->pager, err, errlen) < 0) {
			free(rec->filters[--rec->nfilters].expr);
			goto fail;
		}
	}
	free(saved.expr);
	reindex(rec);
	return 0;
fail:
	if (saved.expr)
		rec->filters[rec->nfilters++] = saved;
	build_filter(rec, &rec->pager, NULL, 0);
	return -1;
}
