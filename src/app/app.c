// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "backend/tracefs/catalog.h"
#include "backend/perf/comms.h"
#include "backend/bpf/bpfhist.h"
#include "backend/tracefs/cgroup.h"
#include "backend/ingest/decode.h"
#include "backend/stacks/folded.h"
#include "backend/bpf/offcpu.h"
#include "backend/perf/pmu.h"
#include "backend/perf/profile.h"
#include "backend/tracefs/privs.h"
#include "backend/tracefs/owner.h"
#include "backend/tracefs/probes.h"
#include "backend/tracefs/scope.h"
#include "backend/tracefs/session.h"
#include "backend/tracefs/toplevel.h"
#include "backend/tracefs/tracers.h"
#include "util/log.h"
#include "source/source.h"
#include "stopwhen.h"
#include "backend/callgraph/evstack.h"
#include "backend/symbols/symbolize.h"
#include "util/xalloc.h"
#include "util/clock.h"

/* True, with the source's reason in err, when it cannot do caps: the control calls below
 * run on any source and refuse what it cannot do. */
static bool app_refuses(const struct kt_app *app, unsigned int caps, char *err, size_t errlen)
{
	if (app_can(app, caps))
		return false;
	if (err && errlen)
		snprintf(err, errlen, "%s", app_refusal(app, caps));
	return true;
}

static int exit_code_for(int err)
{
	return err == EACCES || err == EPERM ? KT_EXIT_NOPERM : KT_EXIT_FAILURE;
}

static bool catalog_has_match(const struct kt_catalog *cat, const char *spec)
{
	size_t i;

	for (i = 0; i < cat->count; i++)
		if (catalog_spec_matches(spec, &cat->events[i]))
			return true;
	return false;
}

/* -t or -g that only tracefs's top level offers: refused without --top-level; with it, the
 * top level is claimed (toplevel.h) and the tracer and its lists go there. Events, probes
 * and -p/--comm stay in ktop's instance, which the reader then does not read: refused.
 * Returns an exit code. */
static int app_use_top_level(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	const char *what;

	what = toplevel_needed(app->session, o->tracer,
			       o->n_ftrace_lists[KT_GRAPH_FUNCTION] ||
				       o->n_ftrace_lists[KT_GRAPH_NOTRACE]);
	if (!what)
		return KT_EXIT_OK;
	if (!o->top_level) {
		snprintf(err, errlen, "%s exists only at tracefs's top level on this kernel, not in "
			 "ktop's instance: --top-level lets ktop use it while it is idle (saved and "
			 "restored at exit)", what);
		return KT_EXIT_FAILURE;
	}
	if (o->n_events || o->n_profile_events || o->n_probes || o->n_pids || o->comm ||
	    o->cgroup || o->n_stacks) {
		snprintf(err, errlen, "--top-level traces only the tracer: events, probes, -p, "
			 "--comm and --cgroup are not combined with it (run them in a second ktop)");
		return KT_EXIT_USAGE;
	}
	if (toplevel_claim(o->tracer, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	session_use_top_level(app->session);
	return KT_EXIT_OK;
}

/* Function lists, the tracer and pid/comm scoping the options ask for, in that order: lists
 * before the tracer so it never starts unfiltered; all before the reader opens the pipes,
 * since the kernel will not switch tracers under an open trace_pipe_raw. Returns an exit
 * code. */
static int app_setup_tracing(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	pid_t *pids = NULL, *comm_pids;
	size_t i, j, n = 0, ncomm;
	int which, ret = KT_EXIT_OK;

	if (o->comm) {
		app->event_filter = scope_comm_filter(o->comm, o->filter, err, errlen);
		if (!app->event_filter)
			return KT_EXIT_USAGE;
	} else if (o->filter && *o->filter) {
		app->event_filter = xstrdup(o->filter);
	}
	ret = app_use_top_level(app, err, errlen);
	if (ret != KT_EXIT_OK)
		return ret;
	for (which = 0; which < KT_FTRACE_NLISTS; which++)
		for (i = 0; i < o->n_ftrace_lists[which]; i++)
			if (tracers_filter_add(app->session, (enum kt_ftrace_list)which,
					       o->ftrace_lists[which][i], err, errlen) < 0)
				return KT_EXIT_FAILURE;
	if (o->tracer && tracers_set(app->session, o->tracer, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	/* -p, and the processes running --comm now (for the function tracers) */
	if (o->n_pids || (o->comm && o->tracer)) {
		pids = xcalloc(o->n_pids + 1, sizeof(*pids));
		for (i = 0; i < o->n_pids; i++)
			pids[n++] = o->pids[i];
		comm_pids = o->comm && o->tracer ? scope_comm_pids(o->comm, &ncomm) : NULL;
		for (j = 0; comm_pids && j < ncomm; j++) {
			pids = xreallocarray(pids, n + 1, sizeof(*pids));
			pids[n++] = comm_pids[j];
		}
		free(comm_pids);
		if (n && app_set_scope(app, pids, n, o->follow_children, err, errlen) < 0)
			ret = KT_EXIT_FAILURE;
		free(pids);
	}
	if (app->cgroup && scope_sync_cgroup(app->session, app->cgroup, err, errlen) < 0)
		ret = KT_EXIT_FAILURE;
	return ret;
}

int app_setup_probes(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	char event[128];
	size_t i;

	for (i = 0; i < o->n_probes; i++) {
		if (o->probes[i].usdt ? app_usdt_create(app, o->probes[i].def, true, event,
							sizeof(event), err, errlen) < 0 :
					app_probe_create(app, (enum kt_probe_kind)o->probes[i].kind,
							 o->probes[i].def, true, event,
							 sizeof(event), err, errlen) < 0)
			return KT_EXIT_FAILURE;
		log_debug("%s: probe %s", __func__, event);
	}
	return KT_EXIT_OK;
}

static int app_start_reader(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	pid_t tids[2];

	/* A quiet batch run prints only the summary: the reader counts, nothing is kept. */
	if (app->page_sink.page)
		app->reader = reader_start_pages(app->session, &app->page_sink, app->comms, err,
						 errlen);
	else
		app->reader = reader_start(app->session,
					   o->mode == KT_MODE_BATCH && o->quiet && !o->max_events &&
							   !o->record_path ? NULL : app->store,
					   app->comms, o->user_stacks, app->wake_wr, err, errlen);
	if (!app->reader)
		return -1;
	/* ktop's own syscalls stay out of what it shows */
	tids[0] = getpid();
	tids[1] = reader_tid(app->reader);
	session_exclude_tids(app->session, tids, 2);
	return 0;
}

/* The reader stopped, its counts kept for those of the next (the live source's hook). */
static void app_stop_reader(struct kt_app *app)
{
	struct kt_reader_stats last;

	if (!app->reader)
		return;
	reader_stop(app->reader, &last, app_symbolizer(app));
	app->reader = NULL;
	reader_stats_add(&app->rstats_base, &last);
}

/* What the live source asks of the app (source.h). */
static const struct kt_source_live_hooks app_live_hooks = {
	.reader_stop = app_stop_reader,
	.reader_start = app_start_reader,
	.catalog_refresh = app_catalog_refresh,
	.scope_pids = app_set_scope,
	.scope_cgroup = app_set_cgroup,
};

int app_set_page_sink(struct kt_app *app, const struct kt_page_sink *sink, char *err,
		      size_t errlen)
{
	struct kt_reader_stats last;

	if (app->reader) {
		reader_stop(app->reader, &last, NULL);
		app->reader = NULL;
	}
	app->page_sink = *sink;
	return app_start_reader(app, err, errlen);
}

int app_set_scope(struct kt_app *app, const pid_t *pids, size_t n, bool children, char *err,
		  size_t errlen)
{
	if (app_refuses(app, KT_CAP_SCOPE, err, errlen))
		return -1;
	if (scope_set_pids(app->session, pids, n, children, err, errlen) < 0)
		return -1;
	free(app->cgroup);
	app->cgroup = NULL;
	app->scope_children = children;
	if (!n)
		app->scope_desc[0] = '\0';
	else if (n == 1)
		snprintf(app->scope_desc, sizeof(app->scope_desc), "pid %d", (int)pids[0]);
	else
		snprintf(app->scope_desc, sizeof(app->scope_desc), "pid %d +%zu", (int)pids[0],
			 n - 1);
	if (n && children)
		strncat(app->scope_desc, " +children",
			sizeof(app->scope_desc) - strlen(app->scope_desc) - 1);
	return 0;
}

int app_set_cgroup(struct kt_app *app, const char *path, char *err, size_t errlen)
{
	struct kt_cgroup *cg = xcalloc(1, sizeof(*cg));

	if (cgroup_resolve(path, cg, err, errlen) < 0 ||
	    source_sync_cgroup(app->source, cg, err, errlen) < 0) {
		free(cg);
		return -1;
	}
	free(app->cgroup);
	app->cgroup = cg;
	app->scope_children = true;
	snprintf(app->scope_desc, sizeof(app->scope_desc), "cgroup %.*s",
		 (int)sizeof(app->scope_desc) - 8, cg->name);
	return 0;
}

int app_set_source_scope(struct kt_app *app, const char *kind, const char *arg, char *note,
			 size_t notelen, char *err, size_t errlen)
{
	char desc[sizeof(app->scope_desc)] = "";

	if (app_refuses(app, KT_CAP_SCOPE, err, errlen) ||
	    source_set_scope(app->source, kind, arg, desc, sizeof(desc), note, notelen, err,
			     errlen) < 0)
		return -1;
	snprintf(app->scope_desc, sizeof(app->scope_desc), "%s", desc);
	return 0;
}

int app_set_tracer(struct kt_app *app, const char *name, char *err, size_t errlen)
{
	if (app_refuses(app, KT_CAP_TRACER, err, errlen))
		return -1;
	return source_set_tracer(app->source, name, err, errlen);
}

/* Whether the options ask for anything that needs tracefs. A batch run of counters and
 * built-in BPF histograms alone does not (their tracepoint variants and field histograms
 * do, and say so when they fail), so it runs where tracefs cannot be used. */
static bool app_needs_tracefs(const struct kt_options *o)
{
	struct kt_hist_spec spec;
	size_t i;

	if (o->mode != KT_MODE_BATCH || (!o->pmu && !o->n_hists && !o->cpu_profile) ||
	    o->n_events || o->n_profile_events || o->n_probes || o->tracer || o->top_level ||
	    (o->comm && !o->cpu_profile) ||
	    (o->filter && *o->filter) || o->record_path || o->tree || o->n_triggers ||
	    o->stop_when || o->n_stacks || o->user_stacks || o->n_arms)
		return true;
	for (i = 0; i < KT_FTRACE_NLISTS; i++)
		if (o->n_ftrace_lists[i])
			return true;
	for (i = 0; i < o->n_hists; i++)
		if (histspec_parse(o->hists[i], &spec, NULL, 0) == 0 && !spec.builtin[0] &&
		    (spec.kind == KT_HIST_FIELD || spec.kind == KT_HIST_LATENCY))
			return true;
	return false;
}

/* A batch run of --profile alone: sampling needs perf, not tracefs, so ktop's instance is
 * not even made. */
static bool app_profile_only(const struct kt_options *o)
{
	return o->cpu_profile && !o->pmu && !o->n_hists && !app_needs_tracefs(o);
}

/* The --hist histograms (batch mode), the --pmu counters and --profile, last so that they
 * cover the capture and no more. Returns an exit code: 3 when privilege is what is
 * missing. */
static int app_open_counting(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *opts = app->opts;
	struct kt_privs pv;
	char why[256];
	size_t i;

	/* Batch mode stops on a refused --hist; the explorer shows the reason in its pane. */
	for (i = 0; opts->mode == KT_MODE_BATCH && i < opts->n_hists; i++) {
		if (app_hist_open(app, opts->hists[i], err, errlen))
			continue;
		privs_read(&pv);
		return privs_bpf_refusal(&pv, why, sizeof(why)) ? KT_EXIT_NOPERM : KT_EXIT_FAILURE;
	}
	if (opts->pmu && app_pmu_open(app, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	/* Batch mode asked for counters and nothing may be counted: say why and stop. */
	if (opts->pmu && opts->mode == KT_MODE_BATCH && pmu_refused(app->pmu, err, errlen))
		return KT_EXIT_NOPERM;
	if (opts->cpu_profile && app_profile_open(app, err, errlen) < 0)
		return errno == EACCES || errno == EPERM ? KT_EXIT_NOPERM : KT_EXIT_FAILURE;
	app->last_tick_ns = clock_mono_ns();
	selfstat_sample(&app->self);
	return KT_EXIT_OK;
}

/* The kernel's events, from dir's available_events. NULL with "cannot read PATH: why" in
 * err and errno kept for exit_code_for(). */
static struct kt_catalog *kernel_catalog(const char *dir, char *err, size_t errlen)
{
	struct kt_catalog *cat;
	char path[4096];
	int e;

	snprintf(path, sizeof(path), "%s/available_events", dir);
	cat = catalog_load_file(path);
	if (!cat) {
		e = errno;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		errno = e;
	}
	return cat;
}

bool app_can(const struct kt_app *app, unsigned int caps)
{
	return source_can(app->source, caps);
}

const char *app_refusal(const struct kt_app *app, unsigned int caps)
{
	return source_refusal(app->source, caps);
}

int app_init(struct kt_app *app, const struct kt_options *opts, char *err, size_t errlen)
{
	int fds[2];

	memset(app, 0, sizeof(*app));
	app->opts = opts;
	app->wake_rd = app->wake_wr = -1;
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return KT_EXIT_FAILURE;
	}
	app->wake_rd = fds[0];
	app->wake_wr = fds[1];
	return KT_EXIT_OK;
}

int app_open_flame(struct kt_app *app, const struct kt_options *opts, char *err,
		   size_t errlen)
{
	int ret = app_init(app, opts, err, errlen);

	if (ret != KT_EXIT_OK)
		return ret;
	app->source = source_live_new(app, &app_live_hooks); /* without a session: no events, only stacks */
	app->flame = folded_load(opts->flame_path, err, errlen);
	if (!app->flame)
		return KT_EXIT_FAILURE;
	if (opts->diff_base) {
		app->flame_base = folded_load(opts->diff_base, err, errlen);
		if (!app->flame_base)
			return KT_EXIT_FAILURE;
	}
	app->store = store_new(opts->memory_bytes);
	if (!app->store) {
		snprintf(err, errlen, "out of memory for the event store");
		return KT_EXIT_FAILURE;
	}
	return KT_EXIT_OK;
}

/* -e and -P at start-up: a refusal of part of a glob is kept to be shown once the capture
 * runs (the first one). */
static int app_start_events(struct kt_app *app, const char *spec, char *err, size_t errlen)
{
	int n = app_set_events(app, spec, true, err, errlen);

	if (n >= 0 && err[0] && !app->start_warning[0])
		snprintf(app->start_warning, sizeof(app->start_warning), "%s", err);
	return n;
}

int app_open(struct kt_app *app, const struct kt_options *opts, char *err, size_t errlen)
{
	struct kt_session_opts sopts = { .buffer_kb = opts->buffer_kb,
					 .no_mmap = opts->read_copy };
	size_t i;
	int ret;
	pid_t self;

	ret = app_init(app, opts, err, errlen);
	if (ret != KT_EXIT_OK)
		return ret;
	app->source = source_live_new(app, &app_live_hooks);
	/* the session is not open yet: app_setup_tracing scopes the events to it */
	if (opts->cgroup && app_set_cgroup(app, opts->cgroup, err, errlen) < 0)
		return KT_EXIT_USAGE;

	if (app_profile_only(opts))
		snprintf(err, errlen, "a profile alone needs no tracefs");
	else
		app->tracing_dir = session_tracing_dir(err, errlen);
	if (!app->tracing_dir && app_needs_tracefs(opts)) {
		if (geteuid() != 0)
			snprintf(err + strlen(err), errlen - strlen(err), "; without root, ktop "
				 "counts your own processes (ktop -b --pmu -p PID) and reads "
				 "recordings (ktop -i FILE)");
		return KT_EXIT_NOPERM;
	}
	if (!app->tracing_dir) {
		log_debug("%s: %s: counting without tracefs", __func__, err);
		app->store = store_new(opts->memory_bytes);
		if (!app->store) {
			snprintf(err, errlen, "out of memory for the event store");
			return KT_EXIT_FAILURE;
		}
		return app_open_counting(app, err, errlen);
	}
	if (session_remove_stale() > 0)
		log_debug("%s: removed state left by dead ktop processes", __func__);
	errno = 0;
	app->session = session_open(&sopts, err, errlen);
	if (!app->session)
		return exit_code_for(errno);
	app->ncpus = session_ncpus(app->session);
	app->cpu_stats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_stats));
	app->cpu_rstats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_rstats));
	app->store = store_new(opts->memory_bytes);
	if (!app->store) {
		snprintf(err, errlen, "out of memory for the event store");
		return KT_EXIT_FAILURE;
	}
	app->decoder = decoder_new(app->tracing_dir, err, errlen);
	if (!app->decoder)
		return KT_EXIT_FAILURE;
	evstack_setup(app->store, app->decoder);
	app->catalog = kernel_catalog(app->tracing_dir, err, errlen);
	if (!app->catalog)
		return exit_code_for(errno);
	app->comms = comms_new();
	decoder_set_comms(app->decoder, app->comms);
	/* before a tracer starts: ktop's own file reads stay out of the function tracers. Only
	 * then: every later change to the list waits for the kernel to retire the old one
	 * (tens of ms, on the way to the first frame), so without a tracer this thread and the
	 * reader's are excluded in one write (app_start_reader), before any event is on. */
	if (opts->tracer) {
		self = getpid();
		session_exclude_tids(app->session, &self, 1);
	}
	app->probes = probes_new(app->session);
	if (!app->probes) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	ret = app_setup_tracing(app, err, errlen);
	if (ret != KT_EXIT_OK)
		return ret;
	if (app_start_reader(app, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	ret = app_setup_probes(app, err, errlen);
	if (ret != KT_EXIT_OK)
		return ret;
	for (i = 0; i < opts->n_events; i++)
		if (app_start_events(app, opts->events[i], err, errlen) < 0)
			return KT_EXIT_FAILURE;
	/* -P: a profile names events some kernels lack; those are skipped */
	for (i = 0; i < opts->n_profile_events; i++) {
		if (!catalog_has_match(app->catalog, opts->profile_events[i])) {
			log_debug("%s: profile event %s: none here", __func__,
				  opts->profile_events[i]);
			continue;
		}
		if (app_start_events(app, opts->profile_events[i], err, errlen) < 0)
			return KT_EXIT_FAILURE;
	}
	for (i = 0; i < opts->n_stacks; i++)
		if (app_set_stacks(app, opts->stacks[i], true, err, errlen) < 0)
			return KT_EXIT_FAILURE;
	if (opts->user_stacks && evstack_user(app->session, true, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	if (stopwhen_start(app, err, errlen) < 0)
		return KT_EXIT_FAILURE;
	return app_open_counting(app, err, errlen);
}

int app_pmu_open(struct kt_app *app, char *err, size_t errlen)
{
	return app_pmu_open_events(app, app->opts->pmu_events, app->opts->n_pmu_events, err,
				   errlen);
}

int app_pmu_open_events(struct kt_app *app, const char *const *events, size_t n, char *err,
			size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_pmu_config cfg = {
		.tracing_dir = app->tracing_dir,
		.pids = o->pids,
		.npids = o->n_pids,
		.cgroup_dir = app->cgroup ? app->cgroup->dir : NULL,
		.events = events,
		.nevents = n,
	};
	struct kt_pmu *p;

	if (app->pmu)
		return 0;
	if (app_refuses(app, KT_CAP_COUNTERS, err, errlen))
		return -1;
	p = pmu_new(&cfg, err, errlen);
	if (!p)
		return -1;
	if (pmu_open(p, err, errlen) < 0) {
		pmu_free(p);
		return -1;
	}
	app->pmu = p;
	log_debug("%s: %zu counters", __func__, pmu_ncounters(p));
	return 0;
}

struct kt_bpfhist *app_hist_open(struct kt_app *app, const char *text, char *err,
				 size_t errlen)
{
	struct kt_hist_spec spec;
	struct kt_bpfhist *h;
	struct kt_privs pv;
	char why[256];

	if (app_refuses(app, KT_CAP_HIST, err, errlen) ||
	    histspec_parse(text, &spec, err, errlen) < 0)
		return NULL;
	/* offline (a recording): its histograms are its stored events', never BPF here */
	if (app_can(app, KT_CAP_SEEK)) {
		snprintf(err, errlen, "%s: BPF histograms run in a live kernel; a recording "
			 "counts field: histograms from its events (H)", spec.text);
		return NULL;
	}
	if (app->cgroup && !app->cgroup->v2) {
		snprintf(err, errlen, "%s: BPF filters by cgroup v2 ids only, and %s is a v1 "
			 "cgroup: give its path below the cgroup v2 mount", spec.text,
			 app->cgroup->dir);
		return NULL;
	}
	if (app->cgroup) {
		spec.cgroup_id = app->cgroup->id;
		spec.cgroup_level = app->cgroup->level;
	}
	privs_read(&pv);
	if (privs_bpf_refusal(&pv, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", spec.text, why);
		return NULL;
	}
	h = bpfhist_open(&spec, err, errlen);
	if (!h)
		return NULL;
	app->hists = xreallocarray(app->hists, app->n_hists + 1, sizeof(*app->hists));
	app->hists[app->n_hists++] = h;
	return h;
}

void app_hist_close(struct kt_app *app, struct kt_bpfhist *h)
{
	size_t i;

	for (i = 0; i < app->n_hists; i++) {
		if (app->hists[i] != h)
			continue;
		memmove(&app->hists[i], &app->hists[i + 1],
			(app->n_hists - i - 1) * sizeof(*app->hists));
		app->n_hists--;
		bpfhist_free(h);
		return;
	}
}

int app_profile_open(struct kt_app *app, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_profile_opts po = {
		.freq = o->freq,
		.pids = o->pids,
		.npids = o->n_pids,
		.comm = o->comm,
		.max_bytes = o->memory_bytes,
	};

	if (app->profile)
		return 0;
	if (app_refuses(app, KT_CAP_PROFILE, err, errlen)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	app->profile = profile_open(&po, err, errlen);
	return app->profile ? 0 : -1;
}

int app_offcpu_scope(const struct kt_app *app, struct kt_offcpu_scope *s, char *err,
		     size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_privs pv;
	char why[400];

	/* the programs follow one tgid, as ktop -b --off-cpu refuses more */
	if (o->n_pids > 1) {
		snprintf(err, errlen, "off-CPU profile: it scopes to one process, and -p gave %zu: "
			 "start ktop with one -p PID (k: the on-CPU profile takes them all)",
			 o->n_pids);
		return -1;
	}
	privs_read(&pv);
	if (privs_bpf_refusal(&pv, why, sizeof(why))) {
		snprintf(err, errlen, "off-CPU profile: %s", why);
		return -1;
	}
	memset(s, 0, sizeof(*s));
	s->comm = o->comm;
	s->via = o->off_cpu_via;
	if (o->n_pids)
		s->tgid = (unsigned int)o->pids[0];
	if (!app->cgroup)
		return 0;
	if (!app->cgroup->v2) {
		snprintf(err, errlen, "off-CPU profile: it filters by cgroup v2 ids only, and %s is a v1 cgroup",
			 app->cgroup->name);
		return -1;
	}
	s->cgroup_id = app->cgroup->id;
	s->cgroup_level = app->cgroup->level;
	return 0;
}

void app_pmu_close(struct kt_app *app)
{
	pmu_free(app->pmu);
	app->pmu = NULL;
}

int app_list_events(FILE *out, const char *spec, char *err, size_t errlen)
{
	const char *dir = session_tracing_dir(err, errlen);
	struct kt_catalog *cat;
	size_t i, n = 0;

	if (!dir)
		return KT_EXIT_NOPERM;
	cat = kernel_catalog(dir, err, errlen);
	if (!cat)
		return exit_code_for(errno);
	for (i = 0; i < cat->count; i++) {
		if (spec && !catalog_spec_matches(spec, &cat->events[i]))
			continue;
		fprintf(out, "%s:%s\n", cat->events[i].system, cat->events[i].name);
		n++;
	}
	catalog_free(cat);
	if (spec && !n) {
		snprintf(err, errlen, "no event matches '%s' (ktop --list shows them all)", spec);
		return KT_EXIT_FAILURE;
	}
	return KT_EXIT_OK;
}

/* Another ktop's probe group, ktop_<pid> of another pid (or ktop_<ns>_<pid>, owner.h): a
 * glob never takes it in, since an event enabled in this instance keeps that ktop from
 * removing its probe. */
static bool foreign_probe_group(const char *system)
{
	const char *p = system + strlen(KT_GROUP_PREFIX);
	char mine[64];

	if (strncmp(system, KT_GROUP_PREFIX, strlen(KT_GROUP_PREFIX)) || !*p ||
	    strspn(p, "0123456789_") != strlen(p))
		return false;
	owner_name(mine, sizeof(mine), KT_GROUP_PREFIX, getpid());
	return strcmp(system, mine) != 0;
}

static bool selected(const char *spec, bool glob, const struct kt_event_desc *ev)
{
	return catalog_spec_matches(spec, ev) && !(glob && foreign_probe_group(ev->system));
}

bool app_spec_selects(const char *spec, const struct kt_event_desc *ev)
{
	return selected(spec, catalog_spec_is_glob(spec), ev);
}

struct kt_symbolizer *app_symbolizer(struct kt_app *app)
{
	char err[256];

	/* this machine's processes name the frames: its reader's side band, with stack
	 * triggers (a live session's; no reader reads another machine's processes) */
	if (!app->symbolizer && !app->symbolizer_tried && app->reader &&
	    app_can(app, KT_CAP_STACKS) && app->opts->user_stacks) {
		app->symbolizer_tried = true;
		app->symbolizer = symbolizer_new(err, sizeof(err));
		if (!app->symbolizer)
			log_debug("%s: user frames stay addresses: %s", __func__, err);
		else /* as perf synthesizes them: named even if they exit before the side band */
			symbolizer_preload_all(app->symbolizer);
	}
	if (!app->symbolizer)
		return NULL;
	/* the mappings that came and went since: exited processes' frames stay named */
	reader_feed(app->reader, app->symbolizer);
	return app->symbolizer;
}


struct kt_symbolizer *app_symbolizer_cpu(struct kt_app *app, uint32_t cpu)
{
	struct kt_symbolizer *sym = source_user_symbolizer(app->source, cpu);

	return sym ? sym : app_symbolizer(app);
}

/* One event on or off; on: its format loaded and --filter set first, so no unfiltered
 * event slips through. */
static int set_one(struct kt_app *app, const struct kt_event_desc *ev, bool on, char *err,
		   size_t errlen)
{
	const char *filter = app->event_filter;

	if (!on)
		return source_enable(app->source, ev->system, ev->name, false, err, errlen);
	decoder_load(app->decoder, ev->system, ev->name);
	if (filter && *filter &&
	    source_set_filter(app->source, ev->system, ev->name, filter, err, errlen) < 0)
		return -1;
	return source_enable(app->source, ev->system, ev->name, true, err, errlen);
}

int app_set_events(struct kt_app *app, const char *spec, bool on, char *err, size_t errlen)
{
	const struct kt_catalog *cat = app->catalog;
	const char *filter = app->event_filter;
	bool glob = catalog_spec_is_glob(spec);
	unsigned long long t0 = clock_mono_ns();
	int done = 0, refused = 0;
	char first[512] = "", one[512];
	size_t i, j, k, m;

	if (app_refuses(app, KT_CAP_EVENTS, err, errlen))
		return -1;
	/* The catalogue is sorted by system: one system at a time. */
	for (i = 0; i < cat->count; i = j) {
		const char *sys = cat->events[i].system;

		for (j = i, m = 0; j < cat->count && !strcmp(cat->events[j].system, sys); j++)
			m += selected(spec, glob, &cat->events[j]);
		if (!m)
			continue;
		/* All of a system and no filter to set first: one write to its enable file; the
		 * formats load on the first record of each event (decode.c), not all ahead. */
		if (m == j - i && !(on && filter && *filter)) {
			if (source_enable(app->source, sys, NULL, on, one, sizeof(one)) >= 0) {
				done += (int)m;
				continue;
			}
			/* the kernel refused some: one by one, to name them and do the rest */
		}
		for (k = i; k < j; k++) {
			if (!selected(spec, glob, &cat->events[k]))
				continue;
			if (set_one(app, &cat->events[k], on, one, sizeof(one)) >= 0) {
				done++;
				continue;
			}
			log_debug("%s: %s", __func__, one);
			if (!refused++)
				snprintf(first, sizeof(first), "%s", one);
		}
	}
	log_debug("%s: %s %s: %d events, %d refused, %llu ms", __func__,
		  on ? "enabled" : "disabled", spec, done, refused, (clock_mono_ns() - t0) / 1000000);
	if (!done && !refused) {
		snprintf(err, errlen,
			 "no event matches '%s' (events are system:event, e.g. sched:sched_switch; "
			 "ktop --list shows them)",
			 spec);
		return -1;
	}
	if (refused && (!glob || !done)) {
		if (glob)
			snprintf(err, errlen, "the kernel refused all %d events matching '%s'; the first: %s",
				 refused, spec, first);
		else
			snprintf(err, errlen, "%s", first);
		return -1;
	}
	if (refused)
		snprintf(err, errlen,
			 "%s (refused: %d of the %d events matching '%s', ktop -v logs each; the "
			 "other %d are %s)",
			 first, refused, done + refused, spec, done, on ? "on" : "off");
	else if (errlen)
		err[0] = '\0';
	return done;
}

int app_set_stacks(struct kt_app *app, const char *spec, bool on, char *err, size_t errlen)
{
	const struct kt_catalog *cat = app->catalog;
	const struct kt_event_desc *ev;
	struct tep_event *te;
	int n = 0;
	size_t i;

	if (app_refuses(app, KT_CAP_STACKS, err, errlen))
		return -1;
	for (i = 0; i < cat->count; i++) {
		ev = &cat->events[i];
		if (!app_spec_selects(spec, ev))
			continue;
		n++;
		if (!on) {
			if (source_stacks_set(app->source, NULL, ev->system, ev->name, false, err,
					      errlen) < 0)
				return -1;
			continue;
		}
		/* The event first: a trigger on a disabled event writes stacks without their
		 * rows. One already on keeps the filter it has. */
		if (!source_is_enabled(app->source, ev->system, ev->name) &&
		    set_one(app, ev, true, err, errlen) < 0)
			return -1;
		te = decoder_load(app->decoder, ev->system, ev->name) == 0 ?
			     tep_find_event_by_name(decoder_tep(app->decoder), ev->system, ev->name) :
			     NULL;
		if (source_stacks_set(app->source, te, ev->system, ev->name, true, err,
				      errlen) < 0)
			return -1;
	}
	if (!n) {
		snprintf(err, errlen, "no event matches '%s' (events are system:event, e.g. "
			 "sched:sched_switch; ktop --list shows them)", spec);
		return -1;
	}
	return n;
}

int app_catalog_refresh(struct kt_app *app, char *err, size_t errlen)
{
	struct kt_catalog *cat = kernel_catalog(app->tracing_dir, err, errlen);

	if (!cat)
		return -1;
	catalog_free(app->catalog);
	app->catalog = cat;
	return 0;
}

int app_probe_create(struct kt_app *app, enum kt_probe_kind kind, const char *def, bool enable,
		     char *event, size_t eventlen, char *err, size_t errlen)
{
	char name[128], sys[64];
	const char *ev;

	if (app_refuses(app, KT_CAP_PROBES, err, errlen))
		return -1;
	/* made and in the catalogue: on this machine's tracefs, or by the agent */
	if (source_probe_create(app->source, kind, def, name, sizeof(name), err, errlen) < 0)
		return -1;
	if (event)
		snprintf(event, eventlen, "%s", name);
	ev = strchr(name, ':') + 1;
	snprintf(sys, sizeof(sys), "%.*s", (int)(ev - 1 - name), name);
	if (decoder_load(app->decoder, sys, ev) < 0) {
		snprintf(err, errlen, "cannot read the format of %s", name);
		goto undo;
	}
	if (enable && app_set_events(app, name, true, err, errlen) < 0)
		goto undo;
	return 0;
undo:
	source_probe_delete(app->source, name, NULL, 0);
	return -1;
}

/* The source makes one probe per site (the binary read where its kernel is); each site's
 * format loaded and the site enabled, all or none. */
int app_usdt_create(struct kt_app *app, const char *def, bool enable, char *event,
		    size_t eventlen, char *err, size_t errlen)
{
	char names[4096], *save = NULL, *w, *dot;
	int n;

	if (app_refuses(app, KT_CAP_PROBES, err, errlen))
		return -1;
	n = source_usdt_create(app->source, def, names, sizeof(names), err, errlen);
	if (n < 0)
		return -1;
	if (event)
		snprintf(event, eventlen, "%.*s", (int)strcspn(names, " "), names);
	for (w = strtok_r(names, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		dot = strchr(w, ':');
		*dot = '\0';
		if (decoder_load(app->decoder, w, dot + 1) < 0) {
			snprintf(err, errlen, "cannot read the format of %s:%s", w, dot + 1);
			goto undo;
		}
		*dot = ':';
		if (enable && app_set_events(app, w, true, err, errlen) < 0)
			goto undo;
	}
	return n;
undo:
	for (int k = 0; k < n; k++) {
		const struct kt_probe *pr =
			source_probe_get(app->source, source_probe_count(app->source) - 1);

		app_probe_delete(app, pr->event, NULL, 0);
	}
	return -1;
}

int app_probe_delete(struct kt_app *app, const char *name, char *err, size_t errlen)
{
	return source_probe_delete(app->source, name, err, errlen);
}

void app_follow_cgroup(struct kt_app *app)
{
	unsigned long long now = clock_mono_ns();
	char err[256];

	/* tasks moved into the cgroup since the last tick (its forks come by event-fork); at
	 * most once per -d, however often records wake batch mode */
	if (now - app->cgroup_synced_ns < app->opts->delay_ms * 1000000ull)
		return;
	app->cgroup_synced_ns = now;
	if (app->cgroup && app->reader &&
	    source_sync_cgroup(app->source, app->cgroup, err, sizeof(err)) < 0)
		log_debug("%s: %s", __func__, err);
}

void app_tick(struct kt_app *app)
{
	unsigned long long now = clock_mono_ns();
	char err[512];
	size_t i;

	selfstat_sample(&app->self);
	app_follow_cgroup(app);
	if (app->pmu)
		pmu_read(app->pmu);
	for (i = 0; i < app->n_hists; i++)
		if (bpfhist_read(app->hists[i], err, sizeof(err)) < 0)
			log_debug("%s: %s", __func__, err);
	source_tick(app->source);
	/* the side band's mappings taken in each tick, so their queue stays short; the
	 * mappings of processes long gone let go of; a frame no mapping held may look in
	 * /proc again */
	if (app_symbolizer(app)) {
		symbolizer_forget_exited(app->symbolizer, KT_APP_EXITED_KEPT);
		symbolizer_next_pass(app->symbolizer);
	}
	store_lock(app->store);
	store_stats(app->store, &app->sstats);
	store_unlock(app->store);
	if (now > app->last_tick_ns) {
		app->events_per_sec = (double)(app->rstats.events - app->last_events) * 1e9 /
				      (double)(now - app->last_tick_ns);
		app->last_events = app->rstats.events;
		app->last_tick_ns = now;
	}
}

void app_drain_wake(struct kt_app *app)
{
	char buf[256];

	while (read(app->wake_rd, buf, sizeof(buf)) > 0)
		;
}

void app_stop_capture(struct kt_app *app)
{
	session_stop_top_level(app->session);
	if (app->reader) {
		/* the side band's last mappings too: the events drained last are named after */
		reader_stop(app->reader, &app->rstats, app_symbolizer(app));
		app->reader = NULL;
		reader_stats_add(&app->rstats, &app->rstats_base);
		/* the kernel's last loss figures, while the instance still exists */
		app_tick(app);
	}
	/* the kernel's last hit and miss counts, while the probes still exist */
	if (app->probes) {
		free(app->probe_reports);
		app->probe_reports = probes_report(app->probes, &app->n_probe_reports);
	}
	/* before the instance goes: each probe is disabled in it, then removed */
	probes_free(app->probes);
	app->probes = NULL;
	if (app->session) {
		session_close(app->session);
		app->session = NULL;
	}
}

void app_close(struct kt_app *app)
{
	app_pmu_close(app);
	profile_close(app->profile);
	app->profile = NULL;
	while (app->n_hists)
		app_hist_close(app, app->hists[app->n_hists - 1]);
	free(app->hists);
	app->hists = NULL;
	app_stop_capture(app);
	source_free(app->source); /* before the store a recording pages */
	app->source = NULL;
	catalog_free(app->catalog);
	app->catalog = NULL;
	decoder_free(app->decoder);
	app->decoder = NULL;
	symbolizer_free(app->symbolizer);
	app->symbolizer = NULL;
	comms_free(app->comms);
	app->comms = NULL;
	store_free(app->store);
	app->store = NULL;
	stacks_free(app->flame);
	stacks_free(app->flame_base);
	app->flame = app->flame_base = NULL;
	free(app->stop);
	app->stop = NULL;
	free(app->cpu_stats);
	app->cpu_stats = NULL;
	free(app->cpu_rstats);
	app->cpu_rstats = NULL;
	free(app->event_filter);
	app->event_filter = NULL;
	free(app->cgroup);
	app->cgroup = NULL;
	free(app->probe_reports);
	app->probe_reports = NULL;
	app->n_probe_reports = 0;
	if (app->wake_rd >= 0)
		close(app->wake_rd);
	if (app->wake_wr >= 0)
		close(app->wake_wr);
	app->wake_rd = app->wake_wr = -1;
}
