/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktop --doctor: what this kernel and these privileges allow, and for each absence why. */
#ifndef KTOP_DOCTOR_H
#define KTOP_DOCTOR_H

#include <stdio.h>

/* Prints the report to out; json: one object. Returns the exit status (0 when ktop's core,
 * tracefs with tracepoints, works; 1 otherwise). */
int doctor_run(FILE *out, int json);

#endif
