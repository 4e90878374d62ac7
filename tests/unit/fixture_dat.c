// SPDX-License-Identifier: GPL-2.0-or-later
/* Reads a whole trace.dat into memory with libtracecmd (fixture_dat.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "fixture_dat.h"
#include "util/xalloc.h"

static int keep_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct fixture_dat *f = data;

	(void)h;
	(void)cpu;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 1024;
		f->recs = xreallocarray(f->recs, f->cap, sizeof(*f->recs));
	}
	/* The iterator frees its records after the callback: keep a copy of each. */
	f->recs[f->n] = xmalloc(sizeof(*rec));
	*f->recs[f->n] = *rec;
	f->recs[f->n]->data = xmalloc((size_t)rec->size);
	memcpy(f->recs[f->n]->data, rec->data, (size_t)rec->size);
	f->recs[f->n]->priv = NULL;
	f->n++;
	return 0;
}

int fixture_dat_open(struct fixture_dat *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!f->handle) {
		fprintf(stderr, "%s: not a trace.dat libtracecmd can open\n", path);
		return -1;
	}
	f->tep = tracecmd_get_tep(f->handle);
	if (tracecmd_iterate_events(f->handle, NULL, 0, keep_record, f) < 0) {
		fprintf(stderr, "%s: reading the records failed\n", path);
		fixture_dat_close(f);
		return -1;
	}
	return 0;
}

void fixture_dat_close(struct fixture_dat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->recs[i]->data);
		free(f->recs[i]);
	}
	free(f->recs);
	if (f->handle)
		tracecmd_close(f->handle);
	memset(f, 0, sizeof(*f));
}
