/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One histogram's rows from several hosts (the explorer over agents, histsrc.h), put side by
 * side for the pane: one group a key, each host's row of it, and each host's total, so the
 * same key on every machine can be read across one line. No curses: the pane draws them.
 */
#ifndef KTOP_HISTHOSTS_H
#define KTOP_HISTHOSTS_H

#include <stddef.h>

#include "backend/bpf/histdata.h"

/* The most hosts one histogram's rows come from (the remote source's own limit). */
#define KT_HIST_HOSTS 16

struct kt_hist_group {
	struct kt_hist_key key;
	int row[KT_HIST_HOSTS]; /* the host's row of the key in rows, -1 when it has none */
};

/* Groups rows (each with its host < nhosts) by key, in the order keys first appear.
 * Returns how many, *groups malloc'd (NULL for none); rows of a host at or past nhosts are
 * left out. */
size_t hist_groups(const struct kt_hist_row *rows, size_t n, unsigned int nhosts,
		   struct kt_hist_group **groups);
/* totals[h]: every row of host h summed (its "all keys"), for h < nhosts. */
void hist_host_totals(const struct kt_hist_row *rows, size_t n, unsigned int nhosts,
		      struct kt_hist_row *totals);
/* The group's rows summed over the hosts, into out (the key across every machine). */
void hist_group_sum(const struct kt_hist_group *g, const struct kt_hist_row *rows,
		    unsigned int nhosts, struct kt_hist_row *out);

#endif
