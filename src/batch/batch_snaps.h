/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What agents render for the end of a batch run (issue 38's "snapshots rendered at the
 * end"): --hist's histograms and --pmu's counters (as local batch mode prints them), their
 * probes' hits and misses, the --profile and --off-cpu stacks; one set a host, kept as
 * each snapshot comes (the last of each), printed after the capture, every host's in host
 * order; with several hosts, text blocks after a line naming the host and JSON objects
 * with "host" first, as events are. Apart from the agents' plumbing, so that any batch
 * front end reading agents prints them alike. */
#ifndef KTOP_BATCH_SNAPS_H
#define KTOP_BATCH_SNAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/options.h"
#include "backend/tracefs/probes.h"
#include "remote/proto.h"

/* One host's. */
struct batch_snaps {
	const char *label; /* -H's HOST, "via1" ... */
	const char *name;  /* its agent's (remote_name), for what stderr says of it */
	bool failed;	   /* it ended early: said with what it did not send */
	/* --hist's i-th histogram, and last (n_hists) --pmu's counters: the request that
	 * opened it (0: none), and its rendering (NULL: none came) */
	uint32_t *ids;
	char **text;
	/* its probes' hits and misses as its capture ended (NULL: none came) */
	struct kt_probe_report *probes;
	size_t n_probes;
	/* --profile: the request that opened it, and its stacks' text (NULL: none came) */
	uint32_t profile_id;
	char *profile_text;
	/* --off-cpu: likewise, rendered by the agent as local -b --off-cpu prints it */
	uint32_t offcpu_id;
	char *offcpu_text;
};

/* Room for the options' histograms and counters. */
void batch_snaps_init(struct batch_snaps *s, const struct kt_options *o);
void batch_snaps_free(struct batch_snaps *s, const struct kt_options *o);
/* A snapshot the host's agent sent: kept when it is one of s's (its text taken), else
 * freed. */
void batch_snaps_take(struct batch_snaps *s, const struct kt_options *o,
		      struct kt_snapshot *snap);
/* Each host's --profile or --off-cpu stacks (printed first, as locally). Returns -1 on a
 * write error. */
int batch_snaps_print_profiles(FILE *out, const struct kt_options *o, struct batch_snaps **s,
			       unsigned n);
/* --hist's histograms, then --pmu's counters, then the probes' counts. A host that sent
 * none of one is named on stderr. */
void batch_snaps_print(FILE *out, const struct kt_options *o, struct batch_snaps **s,
		       unsigned n);

#endif
