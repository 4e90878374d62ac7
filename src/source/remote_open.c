// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote source's ops table and its opener (app_open_remote): the agents
 * started or connected, their hello and formats, the decoder, catalogue and client thread. */
#include "config.h"

#include "source/remote_local.h"

const struct kt_source_ops source_remote_ops = {
	.kind = "remote",
	/* triggers: on every host (a stop that fires on one stops the others) */
	.flags = KT_CAP_LIVE | KT_CAP_CLEAR | KT_CAP_KBUF | KT_CAP_WRITE,
	.caps = remote_caps,
	.refusal = remote_refusal,
	.describe = remote_describe,
	.tick = remote_tick,
	.close = remote_close_src,
	.record_meta = remote_record_meta,
	.hist_open = remote_hist_open,
	.counters_open = remote_counters_open,
	.profile_open = remote_profile_open,
	.overview_open = remote_overview_open,
	.events = &remote_events_ops,
	.filter = &remote_filter_ops,
	.triggers = &remote_triggers_ops,
	.stacks = &remote_stacks_ops,
	.tracer = &remote_tracer_ops,
	.probes = &remote_probes_ops,
	.scope = &remote_scope_ops,
	.hosts = &remote_hosts_ops,
};

/* ---- the opener ------------------------------------------------------------------------- */

/* Host i's agent started, up to its hello. Returns 0, or -1 with err. */
static int rs_host_start(struct remote_src *rs, unsigned i, const struct kt_options *opts,
			 char *err, size_t errlen)
{
	struct rs_host *h = &rs->hosts[i];

	h->rs = rs;
	h->idx = i;
	snprintf(h->label, sizeof(h->label), "%s", opts->remotes[i].label);
	h->tep = tep_alloc();
	h->pages = h->tep ? rpages_new(h->tep, rs_emit, h) : NULL;
	if (!h->pages) {
		snprintf(err, errlen, "cannot start: out of memory");
		return -1;
	}
	h->r = remote_spawn(opts->remotes[i].host, opts->remotes[i].via, opts->compress,
			    &rs_ops, h, err, errlen);
	return h->r ? 0 : -1;
}

/* Host i's hello; with several, its clock, and a layout the first host's decoder reads.
 * Returns 0, or -1 with err. */
static int rs_host_hello(struct remote_src *rs, unsigned i, char *err, size_t errlen)
{
	struct rs_host *h = &rs->hosts[i], *h0 = &rs->hosts[0];

	if (remote_handshake(h->r, REMOTE_HELLO_MS, err, errlen) < 0)
		return -1;
	h->cpu_base = i ? rs->hosts[i - 1].cpu_base + rs->hosts[i - 1].hello.ncpus : 0;
	if (rs->n == 1)
		return 0;
	if (h->hello.big_endian != h0->hello.big_endian ||
	    h->hello.long_size != h0->hello.long_size) {
		snprintf(err, errlen, "its kernel's byte order or long size is not %s's: one "
			 "explorer cannot merge them (ktop -b does, or one explorer each)",
			 h0->label);
		return -1;
	}
	return hostclock_sync(rs->merge, i, h->r, err, errlen);
}

/* Starts the agents and learns their layouts, the first one's events. Returns 0, or -1
 * with err (the host's label first with several). */
static int rs_connect(struct remote_src *rs, const struct kt_options *opts, char *err,
		      size_t errlen)
{
	struct rs_host *h0 = &rs->hosts[0];
	char reply[1024], why[1024];
	unsigned i;

	if (pipe2(rs->ctl, O_CLOEXEC | O_NONBLOCK) < 0) { /* rs_nudge must not block */
		snprintf(err, errlen, "cannot start: %s", strerror(errno));
		return -1;
	}
	if (rs->n > 1)
		rs->merge = hostmerge_new(rs->n, KT_HOSTMERGE_CAP, rs_merged, rs);
	for (i = 0; i < rs->n; i++)
		if (rs_host_start(rs, i, opts, why, sizeof(why)) < 0)
			goto fail;
	for (i = 0; i < rs->n; i++)
		if (rs_host_hello(rs, i, why, sizeof(why)) < 0)
			goto fail;
	if (remote_call(h0->r, KT_REQ_EVENTS, "", "", reply, sizeof(reply)) < 0 || !rs->events) {
		snprintf(why, sizeof(why), "%.200s gave no event list: %.700s", remote_name(h0->r),
			 reply[0] ? reply : "an older agent? (install the same ktop on both sides)");
		i = 0;
		goto fail;
	}
	if (rs->n > 1)
		snprintf(rs->name, sizeof(rs->name), "%u hosts", rs->n);
	else if (opts->remotes[0].host)
		snprintf(rs->name, sizeof(rs->name), "%s", opts->remotes[0].host);
	else
		snprintf(rs->name, sizeof(rs->name), "%.64s via %.180s", h0->hello.host,
			 opts->remotes[0].via);
	return 0;
fail:
	if (rs->n > 1)
		snprintf(err, errlen, "%s: %.900s", rs->hosts[i].label, why);
	else
		snprintf(err, errlen, "%s", why);
	return -1;
}

/* -p (--follow-children), --comm or --cgroup as the scope request to every host
 * (rs_scope_all), before any event is on: --comm's filter goes with every event enabled
 * after it, as locally; the header shows a pid or cgroup scope, as locally. Returns 0, or
 * -1 with err. */
/* --user-stacks: every agent's instance carries its tasks' user stacks, and names their
 * frames before the pages that hold them (before any event is on: the agent restarts its
 * reader). */
static int rs_user_stacks(struct remote_src *rs, char *err, size_t errlen)
{
	char why[512] = "";
	bool took;

	for (unsigned i = 0; i < rs->n; i++)
		rs->hosts[i].unames = usernames_new();
	if (rs_call_all(rs, KT_REQ_USER_STACKS, "", "", &took, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "--user-stacks: %s", why);
	return -1;
}

static int rs_start_scope(struct remote_src *rs, const struct kt_options *opts, char *err,
			  size_t errlen)
{
	struct kt_scopereq q;
	char desc[sizeof(rs->app->scope_desc)], note[1024];
	int ret;

	if (!scopereq_from_options(opts, &q))
		return 0;
	ret = rs_scope_all(rs, KT_REQ_SCOPE, q.opt, q.kind, q.arg, desc, sizeof(desc), note,
			   sizeof(note), err, errlen);
	if (ret == 0 && strcmp(q.kind, "comm"))
		snprintf(rs->app->scope_desc, sizeof(rs->app->scope_desc), "%s", desc);
	if (note[0])
		log_debug("%s: %s", __func__, note);
	scopereq_free(&q);
	return ret;
}

/* The options' scope, function lists, tracer, probes, events and stacks, as app_open sets
 * them up locally.
 * Returns 0, or -1 with err. */
static int rs_start_capture(struct remote_src *rs, const struct kt_options *opts, char *err,
			    size_t errlen)
{
	struct kt_app *app = rs->app;

	if (opts->filter && *opts->filter)
		app->event_filter = xstrdup(opts->filter);
	evstack_setup(app->store, app->decoder);
	if (rs_start_scope(rs, opts, err, errlen) < 0)
		return -1;
	for (int w = 0; w < KT_FTRACE_NLISTS; w++)
		for (size_t i = 0; i < opts->n_ftrace_lists[w]; i++)
			if (source_list_add(app->source, (enum kt_ftrace_list)w,
					    opts->ftrace_lists[w][i], err, errlen) < 0)
				return -1;
	if (opts->tracer && app_set_tracer(app, opts->tracer, err, errlen) < 0)
		return -1;
	if (app_setup_probes(app, err, errlen) != KT_EXIT_OK)
		return -1;
	if (opts->user_stacks && rs_user_stacks(rs, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < opts->n_events; i++)
		if (app_set_events(app, opts->events[i], true, err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < opts->n_stacks; i++)
		if (app_set_stacks(app, opts->stacks[i], true, err, errlen) < 0)
			return -1;
	/* --trigger and --stop-when, on the agent's events */
	return stopwhen_start(app, err, errlen);
}

int app_open_remote(struct kt_app *app, const struct kt_options *opts, char *err,
		    size_t errlen)
{
	struct remote_src *rs;
	struct kt_source *s;
	sigset_t all, old;
	int ret = app_init(app, opts, err, errlen);
	struct rs_host *last;
	char why[256];

	if (ret != KT_EXIT_OK)
		return ret;
	rs = xcalloc(1, sizeof(*rs));
	rs->app = app;
	rs->n = (unsigned)opts->n_remotes;
	rs->ctl[0] = rs->ctl[1] = -1;
	snprintf(rs->tracer, sizeof(rs->tracer), "nop"); /* a new instance's */
	pthread_mutex_init(&rs->lock, NULL);
	s = xcalloc(1, sizeof(*s));
	s->ops = &source_remote_ops;
	s->app = app;
	s->data = rs;
	app->source = s; /* closes the agents with the app */
	app->store = store_new(opts->memory_bytes);
	app->comms = comms_new();
	if (!app->store || !app->comms) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	if (rs->n == 1 && !(rs->hosts[0].mirror = mirror_new(why, sizeof(why))))
		log_debug("%s: w and A refused: %s", __func__, why);
	if (rs_connect(rs, opts, err, errlen) < 0) {
		rs_stderr_out(rs); /* the messages before the one line that says why */
		rs_fault(rs, err, errlen);
		return KT_EXIT_FAILURE;
	}
	last = &rs->hosts[rs->n - 1];
	app->decoder = decoder_new_offline(rs->hosts[0].tep);
	app->catalog = catalog_parse(rs->events);
	app->ncpus = (int)(last->cpu_base + last->hello.ncpus);
	if (app->ncpus < 1)
		app->ncpus = 1;
	app->cpu_stats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_stats));
	app->cpu_rstats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_rstats));
	if (!app->decoder || !app->catalog) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	decoder_set_comms(app->decoder, app->comms);
	decoder_set_loader(app->decoder, rs_load_format, rs);
	if (rs_start_capture(rs, opts, err, errlen) < 0) {
		rs_fault(rs, err, errlen);
		return KT_EXIT_FAILURE;
	}
	/* signals go to the main thread; the pings' SIGPIPE after an agent died is left
	 * pending on this one, the write failing with EPIPE instead */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&rs->thread, NULL, rs_thread, rs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, errlen, "cannot start the client thread: %s", strerror(ret));
		return KT_EXIT_FAILURE;
	}
	rs->thread_on = true;
	app->last_tick_ns = clock_mono_ns();
	selfstat_sample(&app->self);
	return KT_EXIT_OK;
}
