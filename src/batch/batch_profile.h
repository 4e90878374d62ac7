/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode --profile: the samples of the run gathered into a stack tree, printed at the
 * end as folded stacks (FlameGraph's, inferno's, speedscope's and flamelens's input) or as
 * one JSON object; kept in a recording (-o) as text, and read back from one (-i). */
#ifndef KTOP_BATCH_PROFILE_H
#define KTOP_BATCH_PROFILE_H

#include <stddef.h>
#include <stdio.h>

struct kt_app;
struct kt_options;
struct kt_batch_profile;

/* The live profile's (app->profile). NULL when out of memory. */
struct kt_batch_profile *batch_profile_new(struct kt_app *app);
/* A recording's or an agent's, from its text (batch_profile_text's), printed as the
 * options say. NULL with err when it does not parse. */
struct kt_batch_profile *batch_profile_from_text(const struct kt_options *opts, const char *text,
						 char *err, size_t errlen);
/* Takes what the live profile's rings hold. */
void batch_profile_poll(struct kt_batch_profile *bp);
/* The stacks and their counts as a recording keeps them: the "# profile:" line, then one
 * line per stack, "KINDS FOLDED COUNT", KINDS a letter per frame (t task, k kernel, u user,
 * j JIT, x unresolved). malloc'd; NULL when out of memory. */
char *batch_profile_text(struct kt_batch_profile *bp);
/* Prints the stacks: text (a "# profile:" header line, then folded lines; --folded: the
 * folded lines alone) or {"profile":{...}}. Counts of what was not added (lost, out of
 * scope, over --memory, unresolved frames) go with them, or with --folded to stderr.
 * Returns 0, or -1 on a write error. */
int batch_profile_print(struct kt_batch_profile *bp, FILE *out);
void batch_profile_free(struct kt_batch_profile *bp);

#endif
