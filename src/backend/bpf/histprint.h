/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histograms for scripts (ktop -b --hist): text like bcc's print_log2_hist, or one JSON
 * object per histogram. Cumulative over the whole run. */
#ifndef KTOP_BACKEND_HISTPRINT_H
#define KTOP_BACKEND_HISTPRINT_H

#include <stdio.h>

struct kt_bpfhist;

void histprint_text(const struct kt_bpfhist *h, FILE *out);
void histprint_json(const struct kt_bpfhist *h, FILE *out);

#endif
