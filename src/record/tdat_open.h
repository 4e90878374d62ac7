/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one way a trace.dat reaches libtracecmd, whoever reads it (ktop -i's recording, the
 * call-tree pane's O): the structure check first (tdat_check.h), then libtracecmd opens the
 * file once in a child process, because it crashes in its own clean-up on some corrupt files
 * that pass the check. And what keeps a reader's resident size within --memory: libtracecmd
 * maps the per-CPU data and never unmaps what it has read. */
#ifndef KTOP_TDAT_OPEN_H
#define KTOP_TDAT_OPEN_H

#include <sys/types.h>

#include <trace-cmd/trace-cmd.h>

#include "tdat_check.h"

/* The flags every handle is opened with: rows as ktop shows them live, no plugins. */
#define TDAT_OPEN_FLAGS TRACECMD_FL_LOAD_NO_PLUGINS

struct kt_tdat_file {
	struct kt_tdat_info info; /* what tdat_check() found */
	dev_t dev;		  /* the file, to find libtracecmd's mappings of it */
	ino_t ino;
};

/* Checks path and has libtracecmd open it in a child; silences libtracecmd's and
 * libtraceevent's logs (nothing may print under curses, and a corrupt file makes them
 * talk). Returns 0 with f filled (tdat_info_free(&f->info) frees it), or -1 with "PATH: what
 * is wrong" in err. Forks: the child only opens the file and exits. */
int tdat_open_check(const char *path, struct kt_tdat_file *f, char *err, size_t errlen);
/* Releases the resident pages of this process's mappings of f (read-only file mappings: a
 * later access reads them again from the page cache). */
void tdat_drop_pages(const struct kt_tdat_file *f);

#endif
