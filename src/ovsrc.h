/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the overview pane and -b --top draw: one tick of the overview (overview.h) and of
 * the system strip (sysstrip.h), counted on this machine (ovsrc_local_open) or on an
 * agent's (the remote source's overview_open op: the agent runs the same BPF object and
 * sends each tick, remote/ovrows.h). They update it on their tick and read the same
 * figures, never knowing which.
 */
#ifndef KTOP_OVSRC_H
#define KTOP_OVSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/overview.h"
#include "backend/sysstrip.h"

struct kt_app;
struct kt_ovsrc;

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
};

struct kt_ovsrc {
	const struct kt_ovsrc_ops *ops;
	/* its ticks come at the far end's pace (an agent's), each kept until taken: update
	 * often and take every one; else update counts the tick when called */
	bool paced;
};

/* This machine's (overview_open's via and syscalls). Never NULL. */
struct kt_ovsrc *ovsrc_local_open(const char *via, bool syscalls);
/* app's source's own (source_overview_open) when it has one, else this machine's when the
 * source is this machine's live kernel; NULL with one line in err (a recording, an agent
 * that refused). */
struct kt_ovsrc *ovsrc_open(struct kt_app *app, const char *via, char *err, size_t errlen);

/* A recording's (-i), from its sched_switch and sched_wakeup events: one tick as long as
 * the file, on-CPU, run-queue and context-switch columns, the rest not in the file. NULL
 * with one line in err when the file holds no sched_switch. */
struct kt_ovsrc *ovsrc_recording_open(struct kt_app *app, char *err, size_t errlen);

bool ovsrc_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys);
const char *ovsrc_source(struct kt_ovsrc *o);
const char *ovsrc_missing(struct kt_ovsrc *o, enum kt_ov_col c);
int ovsrc_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen);
bool ovsrc_syscalls_on(struct kt_ovsrc *o);
void ovsrc_close(struct kt_ovsrc *o); /* NULL is fine */

#endif
