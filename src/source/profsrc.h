/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A profile the flame graph pane follows, taken by its source (source_profile_open): on this
 * machine profile.h or offcpu.h (the live source, source/live_data.c); on an agent's, which
 * samples there, names the frames there and sends the stacks counted since its last tick
 * (the remote source; with several agents each host's under its label). The pane adds what
 * came on its tick and closes it; it never knows which.
 */
#ifndef KTOP_PROFSRC_H
#define KTOP_PROFSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kt_profsrc;
struct kt_stacks;

/* What the pane asks for. */
struct kt_profsrc_req {
	bool off_cpu; /* the off-CPU profile, else the on-CPU one */
	unsigned freq; /* on-CPU: -F (0: the default) */
	pid_t pid;     /* this process alone (0: the options' scope); an agent's is its scope's */
	bool wakers;   /* off-CPU: joined to the wakers' stacks */
	bool faults;   /* on-CPU's place: every page fault of pid's threads, with its stack */
};

struct kt_profsrc_ops {
	/* adds to into what came since the last update; true when into changed. A line said
	 * about it since (a poll that failed) goes to note, "" when none (a good poll) */
	bool (*update)(struct kt_profsrc *p, struct kt_stacks *into, char *note, size_t len);
	/* samples only CPU cpu from now on (-1: every CPU), one this machine has online.
	 * NULL: no CPU choice (off-CPU time, an agent's stacks summed over its CPUs) */
	void (*set_cpu)(struct kt_profsrc *p, int cpu);
	/* stops it (its programs and perf events go, there too) and frees p */
	void (*close)(struct kt_profsrc *p);
};

struct kt_profsrc {
	const struct kt_profsrc_ops *ops;
	char name[128];		 /* the pane's title: "cpu-clock", "off-CPU, tp_btf, pid 12" */
	bool off_cpu;		 /* its weights are ns off the CPU, not samples */
};

#endif
