/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recording the live capture to a trace.dat: the store's records from a starting point on,
 * copied to a tdat writer by whoever owns the decoder (batch mode, the UI thread). */
#ifndef KTOP_RECORDER_H
#define KTOP_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tdat_write.h"

struct kt_store;
struct kt_cpu_stats;
struct kt_recorder;

/* What a recording is made of, filled by its caller (app_recorder_from, src/app/app_recorder.c):
 * the store copied, the file's metadata (the source's own when its kernel is another
 * machine's), the kernel's loss counters written at the end. The recorder asks nothing else,
 * so it needs nothing above src/record/. */
struct kt_recorder_from {
	struct kt_store *store;
	struct kt_tdat_meta meta;
	const struct kt_cpu_stats *cpu_stats; /* meta.ncpus entries, or NULL */
};

/* Starts recording from->store to path from record from_seq on (store_first() for what the
 * store holds, store_end() for what is captured from now on). NULL with err filled. */
struct kt_recorder *recorder_start(const struct kt_recorder_from *from, const char *path,
				   uint64_t from_seq, char *err, size_t errlen);
/* Only the records from..to (trace timestamps, both included) are written: --from, --to. */
void recorder_set_window(struct kt_recorder *rc, uint64_t from, uint64_t to);
/* Writes the records the store gained since the last call. Returns 0, or -1 with err: a
 * page could not be written (a full disk, an I/O error) and nothing more will be; finish rc
 * then, and the file holds what was written before. */
int recorder_pump(struct kt_recorder *rc, char *err, size_t errlen);
/* Events written so far; records the store evicted before they could be written. */
unsigned long long recorder_events(const struct kt_recorder *rc);
unsigned long long recorder_missed(const struct kt_recorder *rc);
const char *recorder_path(const struct kt_recorder *rc);
/* The --profile stacks to keep in the file (batch_profile.h's text). Returns 0, or -1 out
 * of memory. */
int recorder_set_stacks(struct kt_recorder *rc, const char *text);
/* A last pump, then the file is written (with the kernel's loss counters) and rc freed.
 * Returns 0; 1 when it stopped early, err saying why and how many events the file holds (a
 * trace.dat all the same); -1 when the file could not be written, err saying why and that
 * it was removed. */
int recorder_finish(struct kt_recorder *rc, char *err, size_t errlen);

/* What a window of the store held. */
struct kt_window_stats {
	unsigned long long events;	 /* written */
	unsigned long long lost_markers; /* the kernel's loss markers inside the window */
	unsigned long long lost_events;	 /* events those markers counted */
	bool truncated;	/* the store had evicted the window's start (--memory too small) */
};

/* The live store's records with from <= ts <= to (the trace clock) into a new trace.dat at
 * path, at once: what the flight recorder keeps of an incident, and what -o writes of
 * -i FILE --from --to. The kernel's whole-capture loss counters are left out (ws counts the
 * window's). Returns recorder_finish()'s 0, 1 or -1, with err. */
int recorder_write_window(const struct kt_recorder_from *src, const char *path, uint64_t from,
			  uint64_t to, struct kt_window_stats *ws, char *err, size_t errlen);

#endif
