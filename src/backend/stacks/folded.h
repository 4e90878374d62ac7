/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folded stacks read into a stack tree: one stack per line, "frame;frame;...;frame COUNT",
 * root to leaf, the format stackcollapse-perf, inferno, perf script's collapsed output and
 * ktop -b --folded write and flamelens reads. The count is the last space-separated word (a
 * frame may hold spaces); blank lines and '#' comments are skipped; a comment
 * "# unit: samples|ns|events" before the first stack says what the counts are (samples
 * otherwise). A frame ending in "_[k]" is a kernel one and "_[j]" a JIT one (FlameGraph's
 * annotations); the first frame is the task. Lines of zero count add nothing.
 */
#ifndef KTOP_FOLDED_H
#define KTOP_FOLDED_H

#include <stddef.h>
#include <stdio.h>

#include "stacks.h"

/* Frames one stack may have: deeper is refused, not cut (perf's own limit is 1024). */
#define KT_FOLDED_MAX_DEPTH 4096

/* Reads every line of in (named name in messages) into a new tree. Returns it, or NULL
 * with "NAME:LINE: reason" (or "NAME: reason" for the whole file: no stacks, a read error,
 * out of memory) on one line in err; nothing is kept then. */
struct kt_stacks *folded_read(FILE *in, const char *name, char *err, size_t errlen);
/* folded_read() of the file at path; "PATH: strerror" when it cannot be opened. */
struct kt_stacks *folded_load(const char *path, char *err, size_t errlen);

#endif
