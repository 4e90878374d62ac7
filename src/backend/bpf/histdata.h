/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Histogram arithmetic shared by the loader, batch output and the pane: bucket bounds,
 * percentiles, sums and differences of snapshots, key names. No kernel access here. */
#ifndef KTOP_BACKEND_HISTDATA_H
#define KTOP_BACKEND_HISTDATA_H

#include <stddef.h>

#include "histspec.h"

/* One key of a histogram: the totals since the start and the part of the last tick. */
struct kt_hist_row {
	struct kt_hist_key key;
	struct kt_hist_val cum;
	struct kt_hist_val iv;
	unsigned int host; /* the explorer over several agents: whose row (histsrc.h), else 0 */
};

/* Values of bucket slot are in [*lo, *hi); the last linear bucket has *hi == 0 (open). */
void hist_bounds(const struct kt_hist_spec *s, unsigned int slot, unsigned long long *lo,
		 unsigned long long *hi);
/* The q-quantile (0 < q <= 1) estimated from the buckets, interpolated inside the bucket
 * and never above the maximum. 0 when v is empty. */
unsigned long long hist_percentile(const struct kt_hist_spec *s, const struct kt_hist_val *v,
				   double q);
void hist_val_add(struct kt_hist_val *dst, const struct kt_hist_val *src);
/* dst = a - b bucket by bucket; min and max stay a's (neither can be subtracted). */
void hist_val_diff(struct kt_hist_val *dst, const struct kt_hist_val *a,
		   const struct kt_hist_val *b);
/* "nanosleep", "bash", "pid 42", "cpu 1", "123", "all". */
void hist_key_label(const struct kt_hist_spec *s, const struct kt_hist_key *k, char *buf,
		    size_t len);
/* "12.3ms", "512", "4K": a value in the histogram's unit, short. */
void hist_format_value(const struct kt_hist_spec *s, unsigned long long v, char *buf,
		       size_t len);
/* Name of syscall nr on this architecture, NULL when unknown. */
const char *hist_syscall_name(unsigned long long nr);

#endif
