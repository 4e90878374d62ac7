/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One flight-recorder incident on disk: DIR/incident-N-TIMESTAMP/ holding trace.dat (the live
 * store's window around the firing moment, recorder_write_window), summary.json (the
 * condition, the value that fired it, task, CPU, timestamps, loss in the window, the stack
 * files) and, when the window holds event stacks, stacks.folded and task.folded. */
#ifndef KTOP_INCIDENT_H
#define KTOP_INCIDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/probes/arm.h"
#include "recorder.h"

struct kt_decoder;
struct kt_symbolizer;

struct kt_incident {
	unsigned int n;		  /* 1, 2, ... in this run */
	const char *cond;	  /* the --arm text */
	unsigned int kind;	  /* enum kt_arm_kind; KT_ARM_NONE: an event */
	unsigned long long threshold_ns; /* syscall, runq, offcpu */
	const char *event;	  /* KT_ARM_NONE: "SYS:EV" */
	struct kt_arm_fire fire;  /* who, where, when; for an event, its record's */
	unsigned long long matches; /* times the condition was met so far, fired or not */
	unsigned long long full;    /* firings the kernel could not hold so far (not written) */
	uint64_t from, to;	  /* the window written, trace clock */
	double pre, post;	  /* --pre and --post */
	bool truncated;		  /* ktop quit or disarmed before to: the window ends there */
};

/* What an incident is written from, filled by its caller (app_incident_from,
 * src/app/app_recorder.c): the recording's inputs, and the decoder and symbolizer its stacks are
 * folded with. */
struct kt_incident_from {
	struct kt_recorder_from rec;
	struct kt_decoder *decoder;
	/* The user frames' symbolizer, or NULL; asked at each fold, so the mappings that came
	 * since the last are fed to it first. */
	struct kt_symbolizer *(*sym)(void *ctx);
	void *sym_ctx;
};

/* Writes inc under dir (created if missing, mode 0700); its directory's path into path.
 * Returns 0; 1 when trace.dat stopped early (a full disk: err says so, what was written is
 * kept); -1 with err when nothing usable was written (the directory is removed). *ws: what
 * the window held (events, loss). */
int incident_write(const struct kt_incident_from *src, const char *dir,
		   const struct kt_incident *inc, char *path, size_t pathlen,
		   struct kt_window_stats *ws, char *err, size_t errlen);
/* The window's event stacks (--stack, --user-stacks, an event condition's own), folded as
 * stackcollapse-perf.pl folds: all in INCIDENT_STACKS, the firing task's in
 * INCIDENT_TASK_STACKS; a file only when it has stacks (incident_stacks.c). */
#define INCIDENT_STACKS "stacks.folded"
#define INCIDENT_TASK_STACKS "task.folded"
struct kt_incident_stacks {
	int64_t all, task; /* stacks in each file (0: no file) */
};
/* Writes them under dir. 0, or -1 with errno. */
int incident_stacks_write(const struct kt_incident_from *src, const char *dir,
			  const struct kt_incident *inc, struct kt_incident_stacks *s);
/* Bytes the files of an incident directory take. */
unsigned long long incident_size(const char *path);
/* Removes an incident directory ktop wrote (its two files, then it). 0, or -1 with errno. */
int incident_remove(const char *path);

#endif
