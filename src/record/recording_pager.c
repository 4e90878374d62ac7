// SPDX-License-Identifier: GPL-2.0-or-later
/* The pager (recording.h): the store asks it for a record outside the window it holds, and
 * it reads from the nearest checkpoint on, in the same merge order as the index. Past the
 * index, the tail: each CPU's last pages read on their own, numbered provisionally up to an
 * estimate of the total until the index settles them. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include <traceevent/kbuffer.h>
#include <trace-cmd/trace-cmd.h>

#include "backend/ingest/store.h"
#include "recording_local.h"

void recording_tail_free(struct kt_recording *rec)
{
	free_checkpoints(rec->tcps, rec->ntcps);
	rec->tcps = NULL;
	rec->ntcps = 0;
	rec->tail_pages = 0;
	rec->tail_stuck = false;
	rec->est = 0;
}

void recording_tail_settle(struct kt_recording *rec, uint64_t total)
{
	if (rec->tail_pages) {
		store_set_shift(rec->store, rec->tail_first, (int64_t)(total - rec->est));
		store_restart(rec->store, 0);
		rec->pager.seq = UINT64_MAX; /* no window to read on from */
	}
	recording_tail_free(rec);
}

/* Appends one step of the pager's walk to the store. */
static void pager_step(struct kt_store *st, struct walk *w)
{
	int cpu = walk_next_cpu(w);
	struct tep_record *r = w->peek[cpu];

	if (r->missed_events && walk_in_window(w, r))
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

void recording_pager(void *ctx, struct kt_store *st, uint64_t seq)
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
