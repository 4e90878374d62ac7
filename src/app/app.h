/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running session as the front ends (interactive UI, batch mode) see it: the backend
 * objects wired together, plus the figures sampled on each tick. */
#ifndef KTOP_APP_H
#define KTOP_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "backend/ingest/loss.h"
#include "backend/tracefs/probes.h"
#include "backend/ingest/reader.h"
#include "backend/ingest/selfstat.h"
#include "backend/ingest/store.h"
#include "options.h"
#include "source/source.h" /* enum kt_cap, for app_can */

struct kt_session;
struct kt_decoder;
struct kt_catalog;
struct kt_event_desc;
struct kt_comms;
struct kt_pmu;
struct kt_profile;
struct kt_bpfhist;
struct kt_cgroup;
struct kt_stopwhen;
struct kt_stacks;
struct kt_symbolizer;

struct kt_app {
	const struct kt_options *opts;
	/* where events and control come from (source/source.h): the live session, a
	 * recording. The panes and batch mode ask it (app_can) and go through it; only
	 * app.c and the source implementations touch session, reader and probes. */
	struct kt_source *source;
	const char *tracing_dir;
	struct kt_session *session; /* the live source's instance, NULL for other sources */
	struct kt_store *store;
	struct kt_decoder *decoder;
	struct kt_catalog *catalog;
	struct kt_reader *reader;
	struct kt_comms *comms; /* task names over time, fed by the reader */
	struct kt_pmu *pmu; /* performance counters, NULL while not counting */
	struct kt_profile *profile; /* --profile's sampling (profile.h), NULL: none */
	struct kt_stacks *flame, *flame_base; /* --flame, --diff-base: their stacks until the
					       * flame pane takes them */
	struct kt_probes *probes; /* dynamic probes in group ktop_<pid>, removed by app_close */
	struct kt_stopwhen *stop; /* --stop-when (stopwhen.h), NULL: none */
	struct kt_symbolizer *symbolizer; /* user frames of event stacks (app_symbolizer) */
	bool symbolizer_tried;
	struct kt_probe_report *probe_reports; /* the probes' last health, taken as they
						 * go (app_stop_capture) */
	size_t n_probe_reports;
	char *event_filter; /* --filter, with --comm's COMM test; NULL: none */
	bool scope_children; /* the pid scope follows forks */
	struct kt_cgroup *cgroup; /* --cgroup or the scope key's cgroup=, NULL: none */
	unsigned long long cgroup_synced_ns; /* when its members were last read */
	char scope_desc[64]; /* "pid 1234", "comm bash", "cgroup /a/b"; "": not scoped (the header shows it) */
	char start_warning[512]; /* app_open: events of -e/-P the kernel refused ("": none) */
	struct kt_reader_stats rstats_base; /* counts of readers before a tracer switch */
	struct kt_bpfhist **hists; /* BPF histograms: --hist, then the panes' */
	size_t n_hists;
	int wake_rd, wake_wr; /* the reader writes a byte when records arrived */
	struct kt_page_sink page_sink; /* the agent: pages go there, not to the store */
	int ncpus;

	/* sampled by app_tick() */
	struct kt_selfstat self;
	struct kt_cpu_stats *cpu_stats;	  /* ncpus entries */
	struct kt_reader_stats *cpu_rstats; /* ncpus entries: the reader's per CPU, since it
					     * (and the kernel's counters) last started */
	uint64_t kernel_lost;		  /* sum of loss_total() over CPUs */
	struct kt_reader_stats rstats;
	struct kt_store_stats sstats;
	double events_per_sec;
	uint64_t last_events;
	unsigned long long last_tick_ns;
	uint64_t capture_start;	/* what --from +T counts from: a recording's first timestamp,
				 * a live capture's start (its trace clock) */
};

/* True when the app's event source has every capability in caps (enum kt_cap). */
bool app_can(const struct kt_app *app, unsigned int caps);
/* The one line said when the source lacks one of caps (source_refusal); NULL: it has them. */
const char *app_refusal(const struct kt_app *app, unsigned int caps);
/* The control calls below (events, stacks, tracer, scope, probes, histograms, counters,
 * profile) first ask the source: when it lacks the capability they change nothing and fail
 * with app_refusal's line in err. */
/* Zeroes app, keeps opts and makes the pipe that wakes the main loop: what app_open and
 * app_open_recording both start with. Returns 0, or an exit code with the reason in err. */
int app_init(struct kt_app *app, const struct kt_options *opts, char *err, size_t errlen);
/* Opens tracefs, removes stale ktop state, creates the instance, store, decoder and
 * catalogue, starts the reader, enables the -e events with --filter, adds --trigger's
 * triggers and arms --stop-when. Where tracefs cannot
 * be used (not root), a batch run of --pmu and built-in --hist alone goes on without it:
 * no session, reader, decoder or catalogue, an empty store. Returns 0, or an exit code
 * with a one-line message in err: 3 when privilege is what is missing. */
int app_open(struct kt_app *app, const struct kt_options *opts, char *err, size_t errlen);
/* -i: opens the recording instead of the kernel, as the recording source
 * (source_recording.c): store (paged from the file), decoder (the file's formats and
 * names), catalogue (the events the file has). No tracefs is touched.
 * Returns 0, or an exit code with "FILE: what is wrong" in err. */
int app_open_recording(struct kt_app *app, const struct kt_options *opts, char *err,
		       size_t errlen);
/* -H HOST or --via CMD without -b: starts the agent (remote/client.h) as the remote source
 * (source/remote_*.c): store fed by its client thread, decoder on the agent's formats,
 * catalogue of its available events, the -e events (with --filter) asked for. No tracefs is
 * touched here. Returns 0, or an exit code with the agent's one line in err. */
int app_open_remote(struct kt_app *app, const struct kt_options *opts, char *err,
		    size_t errlen);
/* --flame: reads the folded-stacks file (and --diff-base's) for the flame pane, with an
 * empty store under the stream pane. No tracefs is touched. Returns 0, or an exit code with
 * "FILE:LINE: what is wrong" in err. */
int app_open_flame(struct kt_app *app, const struct kt_options *opts, char *err,
		   size_t errlen);
/* ktop --list: prints the available events matching spec (NULL: all), one "sys:event" per
 * line. Returns an exit code, with the reason in err. */
int app_list_events(FILE *out, const char *spec, char *err, size_t errlen);
/* Stops the reader (draining the kernel's buffers into the store), removes the instance. */
void app_stop_capture(struct kt_app *app);
/* app_stop_capture() if not done, then frees everything. Safe to call twice. */
void app_close(struct kt_app *app);

/* Enables (on) or disables every event matching spec ("sys:event", globs). A whole system
 * is one write to its enable file, its formats loaded on their first record; single events'
 * formats are loaded at once. A glob never
 * takes in another ktop's probe group. Returns the number of matching events now in the
 * state asked for, with err "" or, when the kernel refused some of a glob's events, a
 * one-line warning naming how many and the first; -1 with err filled when nothing matches,
 * the one event named is refused, or all of a glob's are. */
int app_set_events(struct kt_app *app, const char *spec, bool on, char *err, size_t errlen);
/* What names the user frames of event stacks (--user-stacks, live): made on first use
 * (kallsyms and every running process's mappings are read then), given the mappings,
 * forks, execs and exits of perf's side band (reader_feed) on each call and each tick, so
 * a process that exited keeps its frames named (the last KT_APP_EXITED_KEPT of them: a
 * machine that forks all day does not grow it without end). NULL for a recording, without
 * --user-stacks, or when it cannot be made (the frames stay addresses). */
#define KT_APP_EXITED_KEPT 4096
struct kt_symbolizer *app_symbolizer(struct kt_app *app);
/* What names the user frames of a record of that CPU: its agent's names over a remote
 * source (--user-stacks there), else app_symbolizer. */
struct kt_symbolizer *app_symbolizer_cpu(struct kt_app *app, uint32_t cpu);
/* Kernel stacks on every event matching spec (globs): on enables those not on yet (as
 * app_set_events, with --filter; one already on keeps its filter) and puts a stacktrace
 * trigger on each (evstack.h); off removes those triggers and leaves the events on. Returns
 * how many events, or -1 with one line in err. */
int app_set_stacks(struct kt_app *app, const char *spec, bool on, char *err, size_t errlen);
/* The --kprobe ... --uretprobe and --usdt definitions, created and enabled (through the
 * source: on an agent's machine over one). Returns an exit code. */
int app_setup_probes(struct kt_app *app, char *err, size_t errlen);
/* True when app_set_events(spec) acts on ev. */
bool app_spec_selects(const char *spec, const struct kt_event_desc *ev);
/* Creates a dynamic probe from a definition (probes.h), adds it to the catalogue so the
 * picker and -e globs see it, loads its format, and with enable turns it on (with --filter
 * and --comm scoping like -e events). Returns 0 with "ktop_<pid>:<name>" in event, or -1
 * with a one-line reason in err and nothing changed. */
int app_probe_create(struct kt_app *app, enum kt_probe_kind kind, const char *def, bool enable,
		     char *event, size_t eventlen, char *err, size_t errlen);
/* Creates a USDT probe (usdt.h's definition) as one uprobe per site of the probe, each as
 * app_probe_create does. Returns how many, with the first's "ktop_<pid>:<name>" in event,
 * or -1 with a one-line reason in err and nothing created. */
int app_usdt_create(struct kt_app *app, const char *def, bool enable, char *event,
		    size_t eventlen, char *err, size_t errlen);
/* Disables and removes a probe of the session, and drops it from the catalogue. */
int app_probe_delete(struct kt_app *app, const char *name, char *err, size_t errlen);
/* Switches the instance's tracer (tracers_set). The kernel refuses while trace_pipe_raw is
 * open, so the reader is stopped (draining into the store) and started again around it;
 * counts carry on. Returns 0, or -1 with the one-line reason: the tracer unchanged, or the
 * reader could not start again and the capture stopped (a later switch, to the same tracer
 * too, starts it again). */
int app_set_tracer(struct kt_app *app, const char *name, char *err, size_t errlen);
/* Scopes events (and function tracers) to pids, with their children when children
 * (scope_set_pids); n == 0 clears the scope. */
int app_set_scope(struct kt_app *app, const pid_t *pids, size_t n, bool children, char *err,
		  size_t errlen);
/* Scopes events and probes to the cgroup path names (cgroup.h), kept current on every tick
 * (scope_sync_cgroup), and histograms and counters opened from then on; replaces a pid
 * scope. Before the session is open it only resolves. Returns 0, or -1 with a one-line
 * reason and the scope unchanged. app_set_scope() drops it. */
int app_set_cgroup(struct kt_app *app, const char *path, char *err, size_t errlen);
/* The scope on a source that sets it on another machine (source_own_scope: a remote
 * agent's processes): kind and arg as source.h's set_scope takes them; the header's words
 * into app->scope_desc. note: what some hosts of several refused. Returns 0, or -1 with
 * one line naming the host and the scope unchanged. */
int app_set_source_scope(struct kt_app *app, const char *kind, const char *arg, char *note,
			 size_t notelen, char *err, size_t errlen);
/* Brings the --cgroup scope up to date with the cgroup's members (app_tick does; batch mode
 * on each of its -d waits). */
void app_follow_cgroup(struct kt_app *app);
/* From now on the reader hands every page to sink as the kernel wrote it (reader.h's page
 * mode) instead of storing records: the remote agent's way. Restarts the reader (nothing is
 * lost: it drains first). Returns 0, or -1 with a one-line reason and no reader running. */
int app_set_page_sink(struct kt_app *app, const struct kt_page_sink *sink, char *err,
		      size_t errlen);
/* Reloads the catalogue from available_events (after dynamic events came or went). */
int app_catalog_refresh(struct kt_app *app, char *err, size_t errlen);

/* Opens the counter set the options describe (default set, --pmu-event, -p) unless it is
 * open. Returns 0, or -1 with a one-line reason in err ("-p 42: no such process"). A
 * counter the machine cannot give is not an error: the set says why it is missing. */
int app_pmu_open(struct kt_app *app, char *err, size_t errlen);
/* The same with these --pmu-event specs (n of them) instead of the options' (an agent's,
 * which its viewer names). */
int app_pmu_open_events(struct kt_app *app, const char *const *events, size_t n, char *err,
			size_t errlen);
/* Closes the counters (their fds). Safe when not open. */
void app_pmu_close(struct kt_app *app);
/* Opens --profile's sampling (frequency, -p or --comm scope, --memory as the bound of the
 * stacks it fills) unless it is open. Returns 0, or -1 with a one-line reason in err and
 * errno EACCES/EPERM when privilege is what is missing. */
int app_profile_open(struct kt_app *app, char *err, size_t errlen);
/* The off-CPU profile's scope (offcpu.h) from the app's -p (one process), --comm and
 * --cgroup (a v2 one), as its BPF programs filter, after the privileges BPF needs are
 * checked, for a refusal that names them. Returns 0, or -1 with one line in err ("off-CPU
 * profile: ..."). s's strings point into the app's options. */
struct kt_offcpu_scope;
int app_offcpu_scope(const struct kt_app *app, struct kt_offcpu_scope *s, char *err,
		     size_t errlen);
/* Parses spec, loads and attaches its BPF histogram, and keeps it in app->hists. Returns
 * it, or NULL with a one-line reason in err (bad spec, no such field, the kernel's refusal
 * with the verifier's last lines); nothing else changes then. */
struct kt_bpfhist *app_hist_open(struct kt_app *app, const char *spec, char *err,
				 size_t errlen);
/* Detaches and forgets h. */
void app_hist_close(struct kt_app *app, struct kt_bpfhist *h);
/* Samples rates, loss counters, ktop's own cost, and reads the counters. */
void app_tick(struct kt_app *app);
/* Drains the wake pipe (after poll said it is readable). */
void app_drain_wake(struct kt_app *app);

#endif
