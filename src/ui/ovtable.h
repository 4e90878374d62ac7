/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The overview pane's table, without curses: its columns (what each shows of a row, per
 * second, and how wide it is), which rows are shown (processes, or their threads unfolded;
 * the filter on name, user and cgroup), in which order (any column, either way), the totals
 * row, and which columns fit a width. view_overview.c draws what this decides.
 */
#ifndef KTOP_UI_OVTABLE_H
#define KTOP_UI_OVTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/overview/overview.h"

enum kt_ovt_col {
	OVT_HOST, /* several hosts only: the agent the row ran on */
	OVT_PID,
	OVT_USER,
	OVT_CPU,
	OVT_RUNQ,
	OVT_RUNQ_P99,
	OVT_OFF,
	OVT_OFF_D,
	OVT_SYSC,
	OVT_ERR,
	OVT_P99,
	OVT_MINFLT,
	OVT_MAJFLT,
	OVT_IO,
	OVT_VCSW,
	OVT_ICSW,
	OVT_MIGR,
	OVT_CGROUP,
	OVT_COMM, /* always last, the rest of the width */
	OVT_NCOLS
};

struct kt_ovt_colinfo {
	const char *head;   /* its header */
	int width;	    /* cells, right-aligned numbers */
	enum kt_ov_col src; /* the backend column whose absence it shares */
};

const struct kt_ovt_colinfo *ovtable_col(enum kt_ovt_col c);

#define KT_OVT_PINS 16
#define KT_OVT_HOSTS 16

struct kt_ovtable {
	enum kt_ovt_col sort; /* by this column */
	int pins[KT_OVT_PINS]; /* processes kept at the top, in the sort's order among them */
	unsigned int pin_hosts[KT_OVT_PINS]; /* each one's host */
	size_t npins;
	bool ascending;	      /* else descending (numbers) */
	bool threads;	      /* threads unfolded under their process */
	char filter[64];      /* substring of comm, user, cgroup or host; "" all */
	/* several hosts: each one's label, by the rows' host (nhosts 0 or 1: one host) */
	const char *hosts[KT_OVT_HOSTS];
	unsigned int nhosts;
	/* the rows shown this tick, in order (into the snapshot) */
	const struct kt_ov_row **rows;
	size_t nrows, cap;
	struct kt_ov_row total; /* the shown processes summed */
};

/* Pins process pid of host (its rows stay at the top), or unpins it. false: no room for
 * another (KT_OVT_PINS). */
bool ovtable_pin(struct kt_ovtable *t, unsigned int host, int pid);
bool ovtable_pinned(const struct kt_ovtable *t, unsigned int host, int pid);
/* Row r's host's label ("" with one host). */
const char *ovtable_host(const struct kt_ovtable *t, const struct kt_ov_row *r);
/* The columns hidden by the user as ktoprc's overview-hide keeps them: their names, space
 * separated ("" none). parse: off[] from text; -1 with one line for a name no column has,
 * or PID, HOST and COMMAND, which always show (HOST with several hosts). */
int ovtable_hide_parse(const char *text, bool *off, char *err, size_t errlen);
void ovtable_hide_text(const bool *off, char *buf, size_t len);

/* The rows of s to show, sorted (pinned processes first), and their total. */
void ovtable_build(struct kt_ovtable *t, const struct kt_ov_snap *s);
void ovtable_free(struct kt_ovtable *t);
/* Column c of r as text in buf (per second over interval_s; "-" where the backend has no
 * figure for it, missing). */
void ovtable_cell(enum kt_ovt_col c, const struct kt_ov_row *r, double interval_s, bool missing,
		  char *buf, size_t len);
/* Which columns fit width cells (COMMAND at least 8), in order: on[c] set. Columns are
 * dropped from the end of the priority order first; off[c] set: hidden by the user. HOST
 * is never set: the pane shows it with several hosts, in a width it keeps off this one. */
void ovtable_fit(int width, const bool *off, bool *on);

#endif
