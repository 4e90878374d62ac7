/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode --profile: the samples of the run gathered into a stack tree, printed at the
 * end as folded stacks (FlameGraph's, inferno's, speedscope's and flamelens's input) or as
 * one JSON object. */
#ifndef KTOP_BATCH_PROFILE_H
#define KTOP_BATCH_PROFILE_H

#include <stdio.h>

struct kt_app;
struct kt_batch_profile;

/* NULL when out of memory. */
struct kt_batch_profile *batch_profile_new(struct kt_app *app);
/* Takes what the profile's rings hold. */
void batch_profile_poll(struct kt_batch_profile *bp);
/* Prints the stacks polled so far: text (a "# profile:" header line, then folded lines; --folded: the
 * folded lines alone) or {"profile":{...}}. Counts of what was not added (lost, out of
 * scope, over --memory, unresolved frames) go with them, or with --folded to stderr.
 * Returns 0, or -1 on a write error. */
int batch_profile_print(struct kt_batch_profile *bp, FILE *out);
void batch_profile_free(struct kt_batch_profile *bp);

#endif
