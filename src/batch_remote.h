/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -b with -H HOST or --via CMD: batch mode over a remote agent (src/remote/). */
#ifndef KTOP_BATCH_REMOTE_H
#define KTOP_BATCH_REMOTE_H

#include <stdio.h>

#include "options.h"

/* Starts the agent, asks for the options' probes, tracer and events, prints the events it
 * sends until --duration or a signal, then the summary. Returns the exit code; errors are
 * one line on stderr (the agent's refusal with its reason). */
int batch_remote_run(const struct kt_options *opts, FILE *out);

#endif
