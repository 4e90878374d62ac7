// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An incident's stacks (incident.h): the event stacks the store holds in its window
 * (--stack's kernel stacks, --user-stacks' user stacks, an event condition's own
 * stacktrace:1), folded as stackcollapse-perf.pl folds, so FlameGraph and inferno draw them:
 * all of them in stacks.folded, the firing task's alone in task.folded.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "backend/ingest/decode.h"
#include "backend/callgraph/evstacks.h"
#include "backend/stacks/stacks.h"
#include "backend/ingest/store.h"
#include "incident.h"

/* The firing task's records alone. */
static bool of_task(void *arg, const struct kt_rec *r)
{
	return decoder_rec_pid(r) == *(const int *)arg;
}

/* The stacks of [first, end) (of tid's records when tid is not NULL) folded into
 * dir/name, when there are any. Returns how many, or -1 with errno. */
static int64_t fold_to(const struct kt_incident_from *src, const char *dir, const char *name,
		       uint64_t first, uint64_t end, int *tid)
{
	struct kt_evstacks_scan scan = { .shown = of_task, .arg = (void *)tid };
	struct kt_stacks *st = stacks_new(KT_STACK_EVENTS);
	char path[4096];
	int64_t n = -1;
	FILE *f;

	if (!st) {
		errno = ENOMEM;
		return -1;
	}
	n = evstacks_collect(st, src->decoder, src->sym(src->sym_ctx), src->rec.store, first, end,
			     tid ? &scan : NULL);
	if (n > 0) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "wx");
		if (!f || stacks_write_folded(st, f) < 0 || fclose(f)) {
			if (f)
				fclose(f);
			n = -1;
		}
	}
	stacks_free(st);
	return n;
}

int incident_stacks_write(const struct kt_incident_from *src, const char *dir,
			  const struct kt_incident *inc, struct kt_incident_stacks *s)
{
	struct kt_store *store = src->rec.store;
	int tid = inc->fire.tid;
	uint64_t first, end;

	store_lock(store);
	first = store_seek_ts(store, store_first(store), store_end(store), inc->from);
	end = store_seek_ts(store, first, store_end(store), inc->to + 1);
	store_unlock(store);
	s->all = fold_to(src, dir, INCIDENT_STACKS, first, end, NULL);
	s->task = s->all > 0 ? fold_to(src, dir, INCIDENT_TASK_STACKS, first, end,
				       &tid) : 0;
	return s->all < 0 || s->task < 0 ? -1 : 0;
}
