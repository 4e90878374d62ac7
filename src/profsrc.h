/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A profile the flame graph pane follows that its source takes itself (the remote source's
 * profile_open op: an agent samples on its machine, names the frames there and sends the
 * stacks counted since its last tick; with several agents each host's under its label).
 * The pane adds what came on its tick and closes it; on this machine the pane runs
 * profile.h or offcpu.h itself (flame_live.c).
 */
#ifndef KTOP_PROFSRC_H
#define KTOP_PROFSRC_H

#include <stdbool.h>
#include <stddef.h>

struct kt_profsrc;
struct kt_stacks;

struct kt_profsrc_ops {
	/* adds to into what came since the last update; true when into changed. A line the
	 * far end said about it since (a poll that failed) goes to note, "" when none */
	bool (*update)(struct kt_profsrc *p, struct kt_stacks *into, char *note, size_t len);
	/* stops it (its programs and perf events go, there too) and frees p */
	void (*close)(struct kt_profsrc *p);
};

struct kt_profsrc {
	const struct kt_profsrc_ops *ops;
	char name[128];		 /* the pane's title: "cpu-clock", "off-CPU, tp_btf" */
	bool off_cpu;		 /* its weights are ns off the CPU, not samples */
};

#endif
