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
struct tep_handle;

/* The name pid had at ts, or NULL when unknown ("<...>" is printed). */
typedef const char *(*batch_tree_comm_fn)(void *ctx, int pid, unsigned long long ts);

/* NULL with a one-line reason in err when there can be no trees (no function_graph tracer
 * in this kernel, no funcgraph formats). */
struct kt_batch_tree *batch_tree_new(struct kt_app *app, char *err, size_t errlen);
/* Trees of records decoded with tep (with its kernel's kallsyms: the functions' names), tasks
 * named by comm: another machine's (an agent's, batch_remote.c). NULL with one line in err
 * when tep has no funcgraph formats. */
struct kt_batch_tree *batch_tree_new_tep(struct tep_handle *tep, batch_tree_comm_fn comm,
					 void *ctx, char *err, size_t errlen);
void batch_tree_feed(struct kt_batch_tree *bt, const struct kt_rec *r);
/* Prints every tree, under host's label (NULL: one machine's); returns how many. */
unsigned long long batch_tree_print(struct kt_batch_tree *bt, FILE *out, bool json,
				    const char *host);
void batch_tree_free(struct kt_batch_tree *bt);

#endif
