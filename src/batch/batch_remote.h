/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -b with -H HOST or --via CMD: batch mode over a remote agent (src/remote/), or over
 * several, merged into one stream with a host column. */
#ifndef KTOP_BATCH_REMOTE_H
#define KTOP_BATCH_REMOTE_H

#include <stdio.h>

#include "app/options.h"

/* Starts the agents, asks each for the options' probes, tracer and events, prints the
 * events they send until --duration or a signal, then the summary. Returns the exit code;
 * errors are one line on stderr (an agent's refusal with its reason). With several, an
 * agent that dies during the capture is named on stderr, the others go on, and the exit
 * code is 1. */
int batch_remote_run(const struct kt_options *opts, FILE *out);

#endif
