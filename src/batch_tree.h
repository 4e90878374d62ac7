/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode --tree: the function_graph records of the capture (or recording) become call
 * trees, printed at the end in the kernel's own layout, or one JSON object per tree. */
#ifndef KTOP_BATCH_TREE_H
#define KTOP_BATCH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kt_app;
struct kt_rec;
struct kt_batch_tree;

/* NULL with a one-line reason in err when there can be no trees (no function_graph tracer
 * in this kernel, no funcgraph formats). */
struct kt_batch_tree *batch_tree_new(struct kt_app *app, char *err, size_t errlen);
void batch_tree_feed(struct kt_batch_tree *bt, const struct kt_rec *r);
/* Prints every tree; returns how many. */
unsigned long long batch_tree_print(struct kt_batch_tree *bt, FILE *out, bool json);
void batch_tree_free(struct kt_batch_tree *bt);

#endif
