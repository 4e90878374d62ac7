// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The merge over one libtracecmd handle (recording_local.h): the CPU whose next record is
 * oldest goes first (ties to the lower CPU), and a record whose page says events were
 * missed is preceded by a loss marker. A record and its marker form one step. Pages past
 * the ones tdat_check() read are checked before libtracecmd may load them, and every walk
 * ends a CPU at the same corrupt page, so sequence numbers stay the same whoever walks.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <trace-cmd/trace-cmd.h>

#include "backend/ingest/store.h"
#include "recording_local.h"

void walk_close(struct walk *w)
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

int walk_open(struct walk *w, const char *path, int *buffer, char *name, size_t namelen)
{
	struct tracecmd_input *b;
	int i, n, cpu;

	memset(w, 0, sizeof(*w));
	w->to = UINT64_MAX;
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

int walk_next_cpu(const struct walk *w)
{
	int i, m = -1;

	for (i = 0; i < w->ncpus; i++)
		if (w->peek[i] && (m < 0 || w->peek[i]->ts < w->peek[m]->ts))
			m = i;
	return m;
}

bool record_sane(const struct walk *w, const struct tep_record *r)
{
	return r->data && r->size >= 8 && w->page_size &&
	       r->offset % w->page_size + (unsigned)r->size <= w->page_size;
}

bool walk_in_window(const struct walk *w, const struct tep_record *r)
{
	return r->ts >= w->from && r->ts <= w->to;
}

bool walk_shows(const struct walk *w, const struct tep_record *r)
{
	uint16_t type;

	if (!record_sane(w, r) || !walk_in_window(w, r))
		return false;
	memcpy(&type, r->data, sizeof(type));
	if (w->hidden && w->hidden[type])
		return false;
	return !w->filter || tep_event_filtered(w->filter, type) != 1 ||
	       tep_filter_match(w->filter, (struct tep_record *)(uintptr_t)r) ==
		       TEP_ERRNO__FILTER_MATCH;
}

unsigned step_records(const struct walk *w, const struct tep_record *r)
{
	bool marker = r->missed_events && walk_in_window(w, r);

	return (marker ? 1u : 0u) + (walk_shows(w, r) ? 1u : 0u);
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
void walk_advance(struct walk *w, int cpu)
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

void walk_restore(struct walk *w, const struct checkpoint *cp)
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

void take_checkpoint(struct pending *p, const struct walk *w)
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

void free_checkpoints(struct checkpoint *cps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(cps[i].offs);
	free(cps);
}
