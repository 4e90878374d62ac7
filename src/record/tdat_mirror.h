/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recording's event formats, printk formats, task names and kallsyms copied out as a
 * tracing directory (tdat_mirror.c), for the writer (struct kt_tdat_meta's tracing_dir) to
 * write a part of the recording as a trace.dat of its own. */
#ifndef KTOP_TDAT_MIRROR_H
#define KTOP_TDAT_MIRROR_H

#include <stddef.h>

#include "tdat_check.h"

/* Makes the directory under $TMPDIR (or /tmp) into dir. path: a file tdat_check() passed,
 * info what it found. Returns 0, or -1 with a one-line reason in err (nothing left). */
int tdat_mirror(const char *path, const struct kt_tdat_info *info, char *dir, size_t dirlen,
		char *err, size_t errlen);
/* Removes what tdat_mirror() made. */
void tdat_mirror_remove(const char *dir);

#endif
