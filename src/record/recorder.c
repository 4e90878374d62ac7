// SPDX-License-Identifier: GPL-2.0-or-later
/* Copies the store's records to a trace.dat writer, the way batch mode prints them: a
 * bounded batch per hold of the store lock, so the reader thread never waits long. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/ingest/store.h"
#include "recorder.h"
#include "tdat_write.h"

#define RECORDER_BATCH 4096

struct kt_recorder {
	struct kt_store *store;
	const struct kt_cpu_stats *cpu_stats;
	struct kt_tdat_writer *w;
	uint64_t next;
	uint64_t from, to; /* the window written (trace timestamps, both included) */
	unsigned long long missed;
	char *path;
	struct kt_window_stats *win; /* a window's losses, counted as it is written; or NULL */
};

struct kt_recorder *recorder_start(const struct kt_recorder_from *from, const char *path,
				   uint64_t from_seq, char *err, size_t errlen)
{
	struct kt_recorder *rc;

	rc = calloc(1, sizeof(*rc));
	if (!rc || !(rc->path = strdup(path))) {
		free(rc);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rc->w = tdat_writer_open(path, &from->meta, err, errlen);
	if (!rc->w) {
		free(rc->path);
		free(rc);
		return NULL;
	}
	rc->store = from->store;
	rc->cpu_stats = from->cpu_stats;
	rc->next = from_seq;
	rc->to = UINT64_MAX;
	return rc;
}

static int recorder_add(struct kt_recorder *rc, const struct kt_rec *r, char *err,
			size_t errlen)
{
	if (rc->win && (r->flags & KT_REC_LOST)) {
		rc->win->lost_markers++;
		if (r->lost > 0)
			rc->win->lost_events += (unsigned long long)r->lost;
	}
	return tdat_writer_add(rc->w, r, err, errlen);
}

int recorder_pump(struct kt_recorder *rc, char *err, size_t errlen)
{
	struct kt_store *st = rc->store;
	struct kt_rec r;
	uint64_t end;
	unsigned n;
	int ret = 0;

	do {
		store_lock(st);
		if (rc->next < store_first(st)) {
			rc->missed += store_first(st) - rc->next;
			rc->next = store_first(st);
		}
		end = store_end(st);
		for (n = 0; rc->next < end && n < RECORDER_BATCH && !ret; n++, rc->next++)
			if (store_get(st, rc->next, &r) && r.ts >= rc->from && r.ts <= rc->to)
				ret = recorder_add(rc, &r, err, errlen);
		store_unlock(st);
	} while (!ret && rc->next < end);
	return ret;
}

void recorder_set_window(struct kt_recorder *rc, uint64_t from, uint64_t to)
{
	rc->from = from;
	rc->to = to;
}

unsigned long long recorder_events(const struct kt_recorder *rc)
{
	return tdat_writer_events(rc->w);
}

unsigned long long recorder_missed(const struct kt_recorder *rc)
{
	return rc->missed;
}

const char *recorder_path(const struct kt_recorder *rc)
{
	return rc->path;
}

int recorder_set_stacks(struct kt_recorder *rc, const char *text)
{
	return tdat_writer_set_stacks(rc->w, text);
}

int recorder_finish(struct kt_recorder *rc, char *err, size_t errlen)
{
	int ret;

	/* a page that cannot be written stops the writer; its close says so */
	recorder_pump(rc, err, errlen);
	ret = tdat_writer_close(rc->w, rc->win ? NULL : rc->cpu_stats, err, errlen);
	free(rc->path);
	free(rc);
	return ret;
}

/* Whether the store still holds from: its oldest record is not later. */
static bool recorder_holds(struct kt_store *st, uint64_t from)
{
	struct kt_rec r;
	bool held;

	store_lock(st);
	held = store_first(st) == store_end(st) || !store_get(st, store_first(st), &r) ||
	       r.ts <= from;
	store_unlock(st);
	return held;
}

int recorder_write_window(const struct kt_recorder_from *src, const char *path, uint64_t from,
			  uint64_t to, struct kt_window_stats *ws, char *err, size_t errlen)
{
	struct kt_recorder *rc;
	uint64_t first;

	memset(ws, 0, sizeof(*ws));
	ws->truncated = !recorder_holds(src->store, from);
	store_lock(src->store);
	first = store_first(src->store);
	store_unlock(src->store);
	rc = recorder_start(src, path, first, err, errlen);
	if (!rc)
		return -1;
	recorder_set_window(rc, from, to);
	rc->win = ws;
	recorder_pump(rc, err, errlen);
	ws->events = recorder_events(rc);
	/* the kernel's counters are the whole capture's: a window's losses are its markers */
	return recorder_finish(rc, err, errlen);
}
