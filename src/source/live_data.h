/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live source's panes' data, counted on this machine (live_data.c): the ops of
 * source_live.c's histogram, counter, overview and profile tables. Each returns NULL with
 * one line in err. */
#ifndef KTOP_SOURCE_LIVE_DATA_H
#define KTOP_SOURCE_LIVE_DATA_H

#include <stddef.h>

struct kt_source;
struct kt_profsrc_req;

struct kt_histsrc *live_hist_open(struct kt_source *s, const char *spec, char *err,
				  size_t errlen);
struct kt_countersrc *live_counters_open(struct kt_source *s, char *err, size_t errlen);
struct kt_ovsrc *live_overview_open(struct kt_source *s, const char *via, char *err,
				    size_t errlen);
struct kt_profsrc *live_profile_open(struct kt_source *s, const struct kt_profsrc_req *req,
				     char *err, size_t errlen);

#endif
