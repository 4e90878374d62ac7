// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a trace.dat through libtracecmd into the paged store. Two libtracecmd handles on
 * the same file: the index thread's and the pager's (the UI thread's), because a handle
 * keeps per-CPU read positions and is not thread safe.
 *
 * Both walk the file with the same merge: the CPU whose next record is oldest goes first
 * (ties to the lower CPU), and a record whose page says events were missed is preceded by a
 * loss marker. A record and its marker form one step; checkpoints fall between steps.
 *
 * This file opens, attaches and closes a recording and applies the user's choices; the
 * merge is recording_walk.c's, the index thread recording_index.c's, the pager and the
 * tail recording_pager.c's (they share recording_local.h).
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

#include "backend/ingest/store.h"
#include "recording_local.h"
#include "tdat_mirror.h"
#include "tdat_write.h"
#include "util/testhooks.h"

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
	rec->check_pages = rec->fd >= 0 && rec->file.info.cpus &&
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
	rec->gate = test_hook_env("KTOP_TEST_INDEX_GATE");
	rec->start_gate = test_hook_env("KTOP_TEST_INDEX_START_GATE");
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
	rec->index.from = rec->pager.from;
	rec->index.to = rec->pager.to;
	rec->index.rec = rec;
	rec->index.page_size = rec->file.info.page_size;
	rec->store = st;
	rec->wake_fd = wake_fd;
	store_lock(st);
	store_set_pager(st, recording_pager, rec);
	store_unlock(st);
	return recording_index_start(rec, err, errlen);
}

void recording_set_window(struct kt_recording *rec, uint64_t from, uint64_t to)
{
	rec->pager.from = from;
	rec->pager.to = to;
}

/* The pager's walk has not moved yet: each CPU's first record is in peek. */
uint64_t recording_start(struct kt_recording *rec)
{
	int cpu = walk_next_cpu(&rec->pager); /* still at the file's start */

	return cpu < 0 ? 0 : rec->pager.peek[cpu]->ts;
}

int recording_record_meta(struct kt_recording *rec, struct kt_tdat_meta *meta, char *err,
			  size_t errlen)
{
	const struct kt_tdat_info *f = &rec->file.info;

	if (!rec->mirror[0] &&
	    tdat_mirror(rec->path, f, rec->mirror, sizeof(rec->mirror), err, errlen) < 0) {
		rec->mirror[0] = '\0';
		return -1;
	}
	snprintf(rec->kallsyms, sizeof(rec->kallsyms), "%s/kallsyms", rec->mirror);
	snprintf(rec->uname, sizeof(rec->uname), "Linux %s %s", f->host, f->kernel);
	meta->tracing_dir = rec->mirror;
	meta->kallsyms = rec->kallsyms;
	meta->uname = rec->uname;
	meta->ncpus = rec->pager.ncpus;
	meta->clock = f->clock[0] ? f->clock : "local";
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

void recording_hold_index(struct kt_recording *rec, const char *gate)
{
	rec->gate = gate;
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
	tdat_mirror_remove(rec->mirror);
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
	recording_tail_free(rec);
	store_restart(rec->store, 0);
	store_set_span(rec->store, 0);
	store_set_estimate(rec->store, 0);
	rec->pager.seq = UINT64_MAX; /* no window to read on from */
	rec->info.records = rec->info.events = 0;
	rec->info.indexed = false;
	store_unlock(rec->store);
	recording_index_start(rec, err, sizeof(err));
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
