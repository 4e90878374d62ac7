// SPDX-License-Identifier: GPL-2.0-or-later
/* trace.dat into a call-tree builder (callgraph_file.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBTRACECMD
#include <trace-cmd.h>
#endif

#include "backend/callgraph.h"
#include "backend/callgraph_file.h"
#include "xalloc.h"

struct kt_callgraph_file {
	struct kt_callgraph *cg;
#ifdef HAVE_LIBTRACECMD
	struct tracecmd_input *handle;
#endif
};

#ifdef HAVE_LIBTRACECMD
static int feed_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	(void)h;
	(void)cpu;
	callgraph_feed(data, rec);
	return 0;
}
#endif

struct kt_callgraph_file *callgraph_file_open(const char *path, size_t max_nodes, char *err,
					      size_t errlen)
{
#ifdef HAVE_LIBTRACECMD
	struct kt_callgraph_file *f;

	if (access(path, R_OK) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!f->handle) {
		snprintf(err, errlen, "%s: not a trace.dat file (trace-cmd record writes them)",
			 path);
		free(f);
		return NULL;
	}
	f->cg = callgraph_new(max_nodes);
	if (callgraph_set_tep(f->cg, tracecmd_get_tep(f->handle)) < 0) {
		snprintf(err, errlen,
			 "%s: no function_graph records (record with -p function_graph)", path);
		callgraph_file_close(f);
		return NULL;
	}
	if (tracecmd_iterate_events(f->handle, NULL, 0, feed_record, f->cg) < 0) {
		snprintf(err, errlen, "%s: reading its records failed", path);
		callgraph_file_close(f);
		return NULL;
	}
	callgraph_finish(f->cg);
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
#endif
	free(f);
}
