/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch text output that cannot drive the operator's terminal. Task names (any local user's
 * prctl(PR_SET_NAME)), string fields, file and symbol names and an agent's bytes reach the
 * text unescaped; a stream over stdout turns every byte the explorer would not draw (control
 * bytes, escape sequences, bytes past ASCII: str_shown()) into '?', keeping newlines and tabs.
 * JSON output escapes its strings itself and is not wrapped. */
#ifndef KTOP_TEXTOUT_H
#define KTOP_TEXTOUT_H

#include <stdio.h>

/* A stream writing to out, flushed through to it whenever it is flushed itself (fflush, a
 * full buffer, fclose), so a consumer of out sees lines when it would have; out is not
 * closed with it. NULL when it cannot be made (then write to out). */
FILE *textout_open(FILE *out);

#endif
