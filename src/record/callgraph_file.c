// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.dat into a call-tree builder (callgraph_file.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef HAVE_LIBTRACECMD
#include <trace-cmd/trace-cmd.h>

#include "record/tdat_open.h"
#endif

#include "backend/callgraph/callgraph.h"
#include "record/callgraph_file.h"
#include "util/xalloc.h"

/* Records read between releases of the file's mapped pages (as ktop -i's reader does). */
#define CALLGRAPH_FILE_DROP_EVERY 65536

struct kt_callgraph_file {
	struct kt_callgraph *cg;
#ifdef HAVE_LIBTRACECMD
	struct tracecmd_input *handle;
	struct kt_tdat_file file;
	unsigned long long fed;
#endif
};

#ifdef HAVE_LIBTRACECMD
static int feed_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct kt_callgraph_file *f = data;

	(void)h;
	(void)cpu;
	callgraph_feed(f->cg, rec);
	if (++f->fed % CALLGRAPH_FILE_DROP_EVERY == 0)
		tdat_drop_pages(&f->file);
	return 0;
}
#endif

struct kt_callgraph_file *callgraph_file_open(const char *path, size_t max_nodes, char *err,
					      size_t errlen)
{
#ifdef HAVE_LIBTRACECMD
	struct kt_callgraph_file *f = xcalloc(1, sizeof(*f));

	if (tdat_open_check(path, &f->file, err, errlen) < 0) {
		free(f);
		return NULL;
	}
	f->handle = tracecmd_open(path, TDAT_OPEN_FLAGS);
	if (!f->handle) {
		snprintf(err, errlen, "%s: libtracecmd cannot read it", path);
		callgraph_file_close(f);
		return NULL;
	}
	f->cg = callgraph_new(max_nodes);
	if (callgraph_set_tep(f->cg, tracecmd_get_tep(f->handle)) < 0) {
		snprintf(err, errlen,
			 "%s: no function_graph records (record with -p function_graph)", path);
		callgraph_file_close(f);
		return NULL;
	}
	if (tracecmd_iterate_events(f->handle, NULL, 0, feed_record, f) < 0) {
		snprintf(err, errlen, "%s: reading its records failed", path);
		callgraph_file_close(f);
		return NULL;
	}
	callgraph_finish(f->cg);
	tdat_drop_pages(&f->file);
	return f;
#else
	(void)max_nodes;
	snprintf(err, errlen, "%s: this ktop was built without libtracecmd and cannot read "
		 "trace.dat files", path);
	return NULL;
#endif
}

struct kt_callgraph *callgraph_file_graph(struct kt_callgraph_file *f)
{
	return f->cg;
}

void callgraph_file_close(struct kt_callgraph_file *f)
{
	if (!f)
		return;
	callgraph_free(f->cg);
#ifdef HAVE_LIBTRACECMD
	if (f->handle)
		tracecmd_close(f->handle);
	tdat_info_free(&f->file.info);
#endif
	free(f);
}
