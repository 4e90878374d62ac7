// SPDX-License-Identifier: GPL-2.0-or-later
/* The live event source: this machine's kernel through ktop's tracefs instance
 * (app->session, opened by app_open with the reader, probes and scope around it). Each op
 * is the backend call on the session; without tracefs (a batch run of counters, BPF
 * histograms or a profile alone, or --flame's file) only what needs no session is left. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "backend/symbols/ksyms.h"
#include "backend/symbols/probenames.h"
#include "backend/callgraph/evstack.h"
#include "backend/ingest/loss.h"
#include "backend/tracefs/probes.h"
#include "backend/ingest/reader.h"
#include "backend/tracefs/scope.h"
#include "backend/tracefs/owner.h"
#include "backend/tracefs/session.h"
#include "backend/tracefs/tracers.h"
#include "backend/tracefs/triggers.h"
#include "backend/tracefs/usdt.h"
#include "source/live_data.h"
#include "source/source.h"
#include "util/log.h"
#include "util/xalloc.h"

#define SES(s) ((s)->app->session)
#define HOOKS(s) ((const struct kt_source_live_hooks *)(s)->data)

/* What a kernel session gives beyond what needs no tracefs. */
#define LIVE_SESSION_CAPS                                                                  \
	(KT_CAP_EVENTS | KT_CAP_FILTER | KT_CAP_TRIGGERS | KT_CAP_STACKS | KT_CAP_TRACER |   \
	 KT_CAP_PROBES | KT_CAP_SCOPE | KT_CAP_WRITE | KT_CAP_KBUF)

/* Without tracefs only the counters, histograms, the profile and the overview are left. */
static unsigned int live_caps(struct kt_source *s)
{
	return SES(s) ? ~0u : ~LIVE_SESSION_CAPS;
}

static const char *live_refusal(struct kt_source *s, enum kt_cap cap)
{
	return "this needs tracefs, and this ktop runs without it (ktop --doctor says why)";
}

static void live_describe(struct kt_source *s, struct kt_source_desc *d)
{
	snprintf(d->name, sizeof(d->name), "%s", SES(s) ? session_name(SES(s)) : "ktop");
	snprintf(d->instance_of, sizeof(d->instance_of), "ktop's");
}

/* The kernel's loss counters per CPU and the reader's counts (with those of the readers
 * before a tracer switch). */
static void live_tick(struct kt_source *s)
{
	struct kt_app *app = s->app;
	uint64_t lost = 0;
	int cpu;

	if (SES(s)) {
		for (cpu = 0; cpu < app->ncpus; cpu++)
			if (loss_read_cpu(session_trace_instance(SES(s)), cpu,
					  &app->cpu_stats[cpu]) == 0)
				lost += loss_total(&app->cpu_stats[cpu]);
		app->kernel_lost = lost;
	}
	if (app->reader) {
		reader_stats(app->reader, &app->rstats);
		for (cpu = 0; cpu < app->ncpus; cpu++)
			reader_cpu_stats(app->reader, cpu, &app->cpu_rstats[cpu]);
		reader_stats_add(&app->rstats, &app->rstats_base);
	}
}

static void live_close(struct kt_source *s)
{
	free(s->data);
}

static int live_enable(struct kt_source *s, const char *system, const char *event, bool on,
		       char *err, size_t errlen)
{
	return (on ? session_enable : session_disable)(SES(s), system, event, err, errlen);
}

static bool live_is_enabled(struct kt_source *s, const char *system, const char *event)
{
	return session_is_enabled(SES(s), system, event);
}

static int live_for_each_enabled(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	return session_for_each_enabled(SES(s), fn, ctx);
}

static char *live_get_filter(struct kt_source *s, const char *system, const char *event)
{
	return session_get_filter(SES(s), system, event);
}

static int live_set_filter(struct kt_source *s, const char *system, const char *event,
			   const char *filter, char *err, size_t errlen)
{
	return session_set_filter(SES(s), system, event, filter, err, errlen);
}

static int live_trigger_add(struct kt_source *s, struct tep_event *te,
			    const struct kt_trigger *t, char *err, size_t errlen)
{
	return trigger_add(SES(s), te, t, err, errlen);
}

static int live_trigger_remove_all(struct kt_source *s, const char *system, const char *event,
				   char *err, size_t errlen)
{
	return trigger_remove_all(SES(s), system, event, err, errlen);
}

static int live_trigger_remove_cmd(struct kt_source *s, const char *system, const char *event,
				   const char *cmd, char *err, size_t errlen)
{
	return trigger_remove_cmd(SES(s), system, event, cmd, err, errlen);
}

static char *live_trigger_list(struct kt_source *s, const char *system, const char *event)
{
	return trigger_list(SES(s), system, event);
}

static int live_triggers_for_each(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	return triggers_for_each(SES(s), fn, ctx);
}

static bool live_trigger_spent(struct kt_source *s, const char *system, const char *event,
			       const char *cmd)
{
	return trigger_spent(SES(s), system, event, cmd);
}

static char *live_trigger_output(struct kt_source *s, const struct kt_trigger *t)
{
	return trigger_output(SES(s), t);
}

static int live_tracing_on(struct kt_source *s, bool on)
{
	return session_tracing_on(SES(s), on);
}

static bool live_stacks_enabled(struct kt_source *s, const char *system, const char *event)
{
	return evstack_enabled(SES(s), system, event);
}

static int live_stacks_refilter(struct kt_source *s, struct tep_event *te, const char *system,
				const char *event, char *err, size_t errlen)
{
	return evstack_refilter(SES(s), te, system, event, err, errlen);
}

static int live_stacks_set(struct kt_source *s, struct tep_event *te, const char *system,
			   const char *event, bool on, char *err, size_t errlen)
{
	if (on)
		return evstack_enable(SES(s), te, system, event, err, errlen);
	return evstack_disable(SES(s), system, event, err, errlen) < 0 ? -1 : 0;
}

static char *live_tracer(struct kt_source *s)
{
	return tracers_current(SES(s));
}

static char **live_tracers_available(struct kt_source *s, char *err, size_t errlen)
{
	return tracers_available(SES(s), err, errlen);
}

/* The kernel will not switch tracers while trace_pipe_raw is open (EBUSY): the reader
 * drains and closes, and a new one starts; the store and the counts go on. */
static int live_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	char rerr[256], why[256];
	pid_t *pids;
	size_t n = 0;
	int ret;

	HOOKS(s)->reader_stop(s->app);
	ret = tracers_set(SES(s), name, err, errlen);
	/* set_ftrace_pid follows the tracer (scope.h) */
	pids = ret == 0 ? scope_get_pids(SES(s), &n) : NULL;
	if (n)
		scope_set_pids(SES(s), pids, n, s->app->scope_children, NULL, 0);
	free(pids);
	if (HOOKS(s)->reader_start(s->app, rerr, sizeof(rerr)) < 0) {
		/* the capture stopped: that matters more than a tracer the kernel refused */
		snprintf(why, sizeof(why), "%s", ret < 0 ? err : "");
		snprintf(err, errlen, "the capture stopped: %s%s%s", rerr, ret < 0 ? "; " : "",
			 why);
		return -1;
	}
	return ret;
}

/* available_filter_functions, for the function lists' completion */
static struct kt_symlist *live_functions(struct kt_source *s, char *note, size_t notelen)
{
	char err[256] = "";
	struct kt_symlist *syms = ksyms_load(KT_KSYMS_FILTER_FUNCTIONS, note, notelen, err,
					     sizeof(err));

	if (!syms)
		snprintf(note, notelen, "no function names: %.200s", err);
	return syms;
}

static bool live_list_exists(struct kt_source *s, enum kt_ftrace_list which)
{
	return tracers_filter_exists(SES(s), which);
}

static char **live_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
			    size_t errlen)
{
	return tracers_filter_get(SES(s), which, err, errlen);
}

static int live_list_add(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			 char *err, size_t errlen)
{
	return tracers_filter_add(SES(s), which, entry, err, errlen);
}

static int live_list_remove(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			    char *err, size_t errlen)
{
	return tracers_filter_remove(SES(s), which, entry, err, errlen);
}

static int live_list_clear(struct kt_source *s, enum kt_ftrace_list which, char *err,
			   size_t errlen)
{
	return tracers_filter_clear(SES(s), which, err, errlen);
}

static int live_sync_cgroup(struct kt_source *s, const struct kt_cgroup *cg, char *err,
			    size_t errlen)
{
	return scope_sync_cgroup(SES(s), cg, err, errlen);
}

/* This machine's pids checked, a command's running processes found, a cgroup resolved and
 * followed (the app keeps the cgroup for its ticks). */
static int live_set_scope(struct kt_source *s, const char *kind, const char *arg, char *desc,
			  size_t desclen, char *note, size_t notelen, char *err, size_t errlen)
{
	size_t klen = strcspn(kind, "+");
	bool children = !strcmp(kind + klen, "+children");
	char what[16];
	pid_t *pids = NULL;
	ssize_t n = 0;
	int ret;

	snprintf(what, sizeof(what), "%.*s", (int)klen, kind);
	if (notelen)
		note[0] = '\0';
	if (!strcmp(what, "cgroup")) {
		if (HOOKS(s)->scope_cgroup(s->app, arg, err, errlen) < 0)
			return -1;
		snprintf(desc, desclen, "%s", s->app->scope_desc);
		return 0;
	}
	if ((*what && strcmp(what, "pid") && strcmp(what, "comm")) || (kind[klen] && !children)) {
		snprintf(err, errlen, "unknown scope '%.32s': pid, comm, cgroup or empty, "
			 "+children after pid or comm", kind);
		return -1;
	}
	if (*what && (n = scope_request_pids(what, arg, NULL, &pids, err, errlen)) < 0)
		return -1;
	ret = HOOKS(s)->scope_pids(s->app, pids, (size_t)n, children, err, errlen);
	free(pids);
	if (ret < 0)
		return -1;
	if (!strcmp(what, "comm"))
		snprintf(desc, desclen, "comm %.15s%s", arg, children ? " +children" : "");
	else
		snprintf(desc, desclen, "%s", s->app->scope_desc);
	return 0;
}

/* The probes are app->probes (app_open makes them with the session); the catalogue is
 * read again from tracefs after each change. */
static int live_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			     char *event, size_t eventlen, char *err, size_t errlen)
{
	if (probes_create(s->app->probes, kind, def, event, eventlen, err, errlen) < 0)
		return -1;
	if (HOOKS(s)->catalog_refresh(s->app, err, errlen) < 0) {
		probes_delete(s->app->probes, event, NULL, 0);
		HOOKS(s)->catalog_refresh(s->app, NULL, 0);
		return -1;
	}
	return 0;
}

static int live_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	if (probes_delete(s->app->probes, name, err, errlen) < 0)
		return -1;
	HOOKS(s)->catalog_refresh(s->app, NULL, 0);
	return 0;
}

static size_t live_probe_count(struct kt_source *s)
{
	return s->app->probes ? probes_count(s->app->probes) : 0;
}

static const struct kt_probe *live_probe_get(struct kt_source *s, size_t i)
{
	return s->app->probes ? probes_get(s->app->probes, i) : NULL;
}

static int live_probe_health(struct kt_source *s, size_t i, struct kt_probe_health *h)
{
	return s->app->probes ? probes_health(s->app->probes, i, h) : -1;
}

/* One uprobe per site of the USDT probe, all or none; their names space-separated. */
static int live_usdt_create(struct kt_source *s, const char *def, char *events, size_t eventslen,
			    char *err, size_t errlen)
{
	char **defs, name[128];
	size_t used = 0;
	int n = usdt_uprobe_defs(def, &defs, err, errlen), count = n, i;

	if (n < 0)
		return -1;
	if (eventslen)
		events[0] = '\0';
	for (i = 0; i < n; i++) {
		if (live_probe_create(s, KT_PROBE_UPROBE, defs[i], name, sizeof(name), err,
				      errlen) < 0)
			break;
		log_debug("%s: %s: %s", __func__, name, defs[i]);
		used += (size_t)snprintf(events + used, eventslen - used, "%s%s", i ? " " : "",
					 name);
		if (used >= eventslen) {
			snprintf(err, errlen, "%s has more sites (%d) than ktop takes in one probe: "
				 "name the library or the pid whose sites you want", def, n);
			i++;
			break;
		}
	}
	if (i < n) {
		/* the ones made so far go */
		while (i-- > 0)
			live_probe_delete(s, probes_get(s->app->probes,
							probes_count(s->app->probes) - 1)->event,
					  NULL, 0);
		n = -1;
	}
	usdt_defs_free(defs, count);
	return n;
}

static char **live_names(struct kt_source *s, const char *what, const char *arg, char *reply,
			 size_t len)
{
	char *lines;

	return probe_names(what, arg, &lines, reply, len) < 0 ? NULL : probe_names_split(lines);
}

static bool live_probe_supported(struct kt_source *s, enum kt_probe_kind kind, char *why,
				 size_t whylen)
{
	return probes_supported(kind, why, whylen);
}

static void live_probe_group(struct kt_source *s, char *buf, size_t len)
{
	owner_name(buf, len, KT_GROUP_PREFIX, getpid());
}

static const struct kt_source_events_ops live_events_ops = {
	.enable = live_enable,
	.is_enabled = live_is_enabled,
	.for_each_enabled = live_for_each_enabled,
};

static const struct kt_source_filter_ops live_filter_ops = {
	.get_filter = live_get_filter,
	.set_filter = live_set_filter,
};

static const struct kt_source_trigger_ops live_triggers_ops = {
	.trigger_add = live_trigger_add,
	.trigger_remove_all = live_trigger_remove_all,
	.trigger_remove_cmd = live_trigger_remove_cmd,
	.trigger_list = live_trigger_list,
	.triggers_for_each = live_triggers_for_each,
	.trigger_spent = live_trigger_spent,
	.trigger_output = live_trigger_output,
	.tracing_on = live_tracing_on,
};

static const struct kt_source_stack_ops live_stacks_ops = {
	.stacks_enabled = live_stacks_enabled,
	.stacks_refilter = live_stacks_refilter,
	.stacks_set = live_stacks_set,
};

static const struct kt_source_tracer_ops live_tracer_ops = {
	.tracer = live_tracer,
	.tracers_available = live_tracers_available,
	.set_tracer = live_set_tracer,
	.functions = live_functions,
	.list_exists = live_list_exists,
	.list_get = live_list_get,
	.list_add = live_list_add,
	.list_remove = live_list_remove,
	.list_clear = live_list_clear,
};

static const struct kt_source_probe_ops live_probes_ops = {
	.probe_create = live_probe_create,
	.probe_delete = live_probe_delete,
	.probe_count = live_probe_count,
	.probe_get = live_probe_get,
	.probe_health = live_probe_health,
	.usdt_create = live_usdt_create,
	.names = live_names,
	.supported = live_probe_supported,
	.group = live_probe_group,
};

static const struct kt_source_scope_ops live_scope_ops = {
	.sync_cgroup = live_sync_cgroup,
	.set_scope = live_set_scope,
};

const struct kt_source_ops source_live_ops = {
	.kind = "live",
	.flags = KT_CAP_LIVE | KT_CAP_CLEAR | KT_CAP_SELF | KT_CAP_WRITE | KT_CAP_KBUF,
	.caps = live_caps,
	.refusal = live_refusal,
	.describe = live_describe,
	.tick = live_tick,
	.close = live_close,
	.hist_open = live_hist_open,
	.counters_open = live_counters_open,
	.profile_open = live_profile_open,
	.overview_open = live_overview_open,
	.events = &live_events_ops,
	.filter = &live_filter_ops,
	.triggers = &live_triggers_ops,
	.stacks = &live_stacks_ops,
	.tracer = &live_tracer_ops,
	.probes = &live_probes_ops,
	.scope = &live_scope_ops,
};

struct kt_source *source_live_new(struct kt_app *app, const struct kt_source_live_hooks *hooks)
{
	struct kt_source *s = xcalloc(1, sizeof(*s));

	s->ops = &source_live_ops;
	s->app = app;
	s->data = xmalloc(sizeof(*hooks));
	memcpy(s->data, hooks, sizeof(*hooks));
	return s;
}
