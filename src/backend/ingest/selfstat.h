/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktop's own cost, for the header: CPU% since the previous sample and resident memory. */
#ifndef KTOP_SELFSTAT_H
#define KTOP_SELFSTAT_H

struct kt_selfstat {
	double cpu_pct; /* of one core, since the previous sample */
	unsigned long rss_kb;
	unsigned long peak_rss_kb;
	/* private */
	unsigned long long last_cpu_ns, last_wall_ns;
};

void selfstat_sample(struct kt_selfstat *s);

#endif
