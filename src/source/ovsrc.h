/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the overview pane and -b --top draw: one tick of the overview (overview.h) and of
 * the system strip (sysstrip.h), counted on this machine (the live source, or
 * ovsrc_local_open) or on an agent's (the remote source's: the agent runs the same BPF object and
 * sends each tick, remote/ovrows.h). They update it on their tick and read the same
 * figures, never knowing which. Over several agents (-H a,b) one tick holds every host's
 * rows, each row's host set (kt_ov_row.host), and each host's strip is asked by its index
 * (ovsrc_host).
 */
#ifndef KTOP_OVSRC_H
#define KTOP_OVSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/overview/overview.h"
#include "backend/overview/sysstrip.h"

struct kt_ovsrc;

/* One of several hosts, as of its last tick: its label, its strip and the system-wide part
 * of its snapshot (interval, run-queue, disks; its rows are in the merged snapshot's). */
struct kt_ovsrc_host {
	const char *label;
	const struct kt_ov_snap *snap; /* procs and threads NULL */
	const struct kt_sysstrip *sys;
	const char *source;	       /* overview_source's there */
	bool fresh;		       /* its tick is in the last update's rows */
};

struct kt_ovsrc_ops {
	/* the tick since the last update into snap and sys (snap's arrays reused or
	 * replaced: overview_snap_free frees them); false: none came, both unchanged */
	bool (*update)(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys);
	/* overview_source's, overview_missing's, of wherever it counts */
	const char *(*source)(struct kt_ovsrc *o);
	const char *(*missing)(struct kt_ovsrc *o, enum kt_ov_col c);
	/* its syscall hooks on or off (overview_set_syscalls's contract) */
	int (*set_syscalls)(struct kt_ovsrc *o, bool on, char *err, size_t errlen);
	bool (*syscalls_on)(struct kt_ovsrc *o);
	/* stops it (its programs go, here or on the agent) and frees o */
	void (*close)(struct kt_ovsrc *o);
	/* several hosts: how many (NULL: one), and host i's last tick (ovsrc_host) */
	unsigned int (*hosts)(struct kt_ovsrc *o);
	bool (*host)(struct kt_ovsrc *o, unsigned int i, struct kt_ovsrc_host *out);
};

struct kt_ovsrc {
	const struct kt_ovsrc_ops *ops;
	/* its ticks come at the far end's pace (an agent's), each kept until taken: update
	 * often and take every one; else update counts the tick when called */
	bool paced;
};

/* This machine's (overview_open's via and syscalls), without a source (-b --top). Never
 * NULL. A pane opens its source's: source_overview_open (source.h). */
struct kt_ovsrc *ovsrc_local_open(const char *via, bool syscalls);

bool ovsrc_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys);
const char *ovsrc_source(struct kt_ovsrc *o);
const char *ovsrc_missing(struct kt_ovsrc *o, enum kt_ov_col c);
int ovsrc_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen);
bool ovsrc_syscalls_on(struct kt_ovsrc *o);
void ovsrc_close(struct kt_ovsrc *o); /* NULL is fine */
/* 1, or the hosts whose rows the snapshot merges (each row's host indexes them) */
unsigned int ovsrc_hosts(struct kt_ovsrc *o);
/* Host i of several: false when it has sent no tick yet (out unset). */
bool ovsrc_host(struct kt_ovsrc *o, unsigned int i, struct kt_ovsrc_host *out);
/* The seconds row r's counts are over: its host's interval with several, else snap's. */
double ovsrc_row_interval(struct kt_ovsrc *o, const struct kt_ov_snap *snap,
			  const struct kt_ov_row *r);

#endif
