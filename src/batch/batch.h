/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch mode (-b): capture for --duration or until a signal, then print events and a loss
 * summary to stdout, as text or one JSON object per line. */
#ifndef KTOP_BATCH_H
#define KTOP_BATCH_H

#include <stdio.h>

struct kt_app;

int batch_run(struct kt_app *app, FILE *out);

#endif
