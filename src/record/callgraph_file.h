/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace.dat (trace-cmd's format) read whole into a call-tree builder, through libtracecmd,
 * for the call-tree pane's open-a-recording key. The file goes the way ktop -i's do
 * (tdat_open.h): the structure check, libtracecmd tried in a child first, its mapped pages
 * released as it is read. ktop built without libtracecmd (the kernel lab's static build)
 * says so instead. */
#ifndef KTOP_CALLGRAPH_FILE_H
#define KTOP_CALLGRAPH_FILE_H

#include <stddef.h>

struct kt_callgraph;
struct kt_callgraph_file;

/* Reads every record of path into a new builder of max_nodes nodes (callgraph.h: the
 * oldest trees go past that). NULL with "PATH: what is wrong" in err. */
struct kt_callgraph_file *callgraph_file_open(const char *path, size_t max_nodes, char *err,
					      size_t errlen);
/* The builder (its function names come from the file's kallsyms; valid until close). */
struct kt_callgraph *callgraph_file_graph(struct kt_callgraph_file *f);
void callgraph_file_close(struct kt_callgraph_file *f);

#endif
