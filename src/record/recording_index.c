// SPDX-License-Identifier: GPL-2.0-or-later
/* The index thread (recording.h): walks the file once on its own libtracecmd handle, takes
 * a checkpoint every RECORDING_CHECKPOINT records, counts events per type, and publishes
 * its progress to the store (the first screen's worth at once). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <trace-cmd/trace-cmd.h>

#include "backend/ingest/store.h"
#include "recording_local.h"

static void wake(struct kt_recording *rec)
{
	char b = 1;
	ssize_t n;

	if (rec->wake_fd >= 0) {
		n = write(rec->wake_fd, &b, 1);
		(void)n;
	}
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
		recording_tail_settle(rec, in->records);
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

/* r's part in the figures (recording_info()) and the counts per type. */
static void count_record(struct kt_recording *rec, const struct walk *w,
			 const struct tep_record *r, struct kt_recording_info *in)
{
	uint16_t type;

	if (r->missed_events > 0)
		in->lost_marked += (uint64_t)r->missed_events;
	else if (r->missed_events < 0)
		in->lost_unknown++;
	if (record_sane(w, r)) {
		memcpy(&type, r->data, sizeof(type));
		__atomic_fetch_add(&rec->type_counts[type], 1, __ATOMIC_RELAXED);
	} else {
		in->corrupt++;
	}
	if (!in->events)
		in->first_ts = r->ts;
	in->last_ts = r->ts;
	in->events++;
}

static void *index_main(void *arg)
{
	struct kt_recording *rec = arg;
	struct walk *w = &rec->index;
	struct kt_recording_info in = { 0 };
	struct pending p = { 0 };
	uint64_t next_cp = 0, next_pub = RECORDING_FIRST_PUBLISH;
	struct tep_record *r;
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
		if (walk_in_window(w, r))
			count_record(rec, w, r, &in);
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

int recording_index_start(struct kt_recording *rec, char *err, size_t errlen)
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
