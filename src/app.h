/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running session as the front ends (interactive UI, batch mode) see it: the backend
 * objects wired together, plus the figures sampled on each tick. */
#ifndef KTOP_APP_H
#define KTOP_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/loss.h"
#include "backend/reader.h"
#include "backend/selfstat.h"
#include "backend/store.h"
#include "options.h"

struct kt_session;
struct kt_decoder;
struct kt_catalog;
struct kt_comms;
struct kt_pmu;
struct kt_recording;

struct kt_app {
	const struct kt_options *opts;
	const char *tracing_dir;
	struct kt_session *session;
	struct kt_store *store;
	struct kt_decoder *decoder;
	struct kt_catalog *catalog;
	struct kt_reader *reader;
	struct kt_comms *comms; /* task names over time, fed by the reader */
	struct kt_pmu *pmu; /* performance counters, NULL while not counting */
	struct kt_recording *recording; /* -i: the trace.dat explored (no session, no reader) */
	int wake_rd, wake_wr; /* the reader writes a byte when records arrived */
	int ncpus;

	/* sampled by app_tick() */
	struct kt_selfstat self;
	struct kt_cpu_stats *cpu_stats;	  /* ncpus entries */
	uint64_t kernel_lost;		  /* sum of loss_total() over CPUs */
	struct kt_reader_stats rstats;
	struct kt_store_stats sstats;
	double events_per_sec;
	uint64_t last_events;
	unsigned long long last_tick_ns;
};

/* Opens tracefs, removes stale ktop state, creates the instance, store, decoder and
 * catalogue, starts the reader, enables the -e events with --filter. Returns 0, or an exit
 * code with a one-line message in err. */
int app_open(struct kt_app *app, const struct kt_options *opts, char *err, size_t errlen);
/* -i: opens the recording instead of the kernel: store (paged from the file), decoder (the
 * file's formats and names), catalogue (the events the file has). No tracefs is touched.
 * Returns 0, or an exit code with "FILE: what is wrong" in err. */
int app_open_recording(struct kt_app *app, const struct kt_options *opts, char *err,
		       size_t errlen);
/* ktop --list: prints the available events matching spec (NULL: all), one "sys:event" per
 * line. Returns an exit code, with the reason in err. */
int app_list_events(FILE *out, const char *spec, char *err, size_t errlen);
/* Stops the reader (draining the kernel's buffers into the store), removes the instance. */
void app_stop_capture(struct kt_app *app);
/* app_stop_capture() if not done, then frees everything. Safe to call twice. */
void app_close(struct kt_app *app);

/* Enables (on) or disables every event matching spec ("sys:event", globs). Loads the
 * formats of what it enabled. Returns the number changed, or -1 with err filled. */
int app_set_events(struct kt_app *app, const char *spec, bool on, char *err, size_t errlen);
/* Opens the counter set the options describe (default set, --pmu-event, -p) unless it is
 * open. Returns 0, or -1 with a one-line reason in err ("-p 42: no such process"). A
 * counter the machine cannot give is not an error: the set says why it is missing. */
int app_pmu_open(struct kt_app *app, char *err, size_t errlen);
/* Closes the counters (their fds). Safe when not open. */
void app_pmu_close(struct kt_app *app);
/* Samples rates, loss counters, ktop's own cost, and reads the counters. */
void app_tick(struct kt_app *app);
/* Drains the wake pipe (after poll said it is readable). */
void app_drain_wake(struct kt_app *app);

unsigned long long app_now_ns(void);

#endif
