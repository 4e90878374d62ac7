// SPDX-License-Identifier: GPL-2.0-or-later
/* The event source's calls (source.h): each checks the capability, then the op, so a pane
 * asks once and a source without the op refuses with its own line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

/* err gets why s cannot do cap; returns -1 for the caller to pass on. */
static int refuse(struct kt_source *s, unsigned int cap, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", source_refusal(s, cap));
	return -1;
}

void source_free(struct kt_source *s)
{
	if (!s)
		return;
	if (s->ops->close)
		s->ops->close(s);
	free(s);
}

/* The capabilities s's tables and single ops give: a table present is its capability. */
static unsigned int table_caps(const struct kt_source_ops *o)
{
	const struct {
		unsigned int cap;
		bool has;
	} rows[] = {
		{ KT_CAP_EVENTS, o->events },	  { KT_CAP_FILTER, o->filter },
		{ KT_CAP_TRIGGERS, o->triggers }, { KT_CAP_STACKS, o->stacks },
		{ KT_CAP_TRACER, o->tracer },	  { KT_CAP_PROBES, o->probes },
		{ KT_CAP_SCOPE, o->scope },	  { KT_CAP_HIDE, o->hide },
		{ KT_CAP_SEEK, o->seek },	  { KT_CAP_HIST, o->hist_open },
		{ KT_CAP_COUNTERS, o->counters_open }, { KT_CAP_PROFILE, o->profile_open },
		{ KT_CAP_OVERVIEW, o->overview_open },
	};
	unsigned int caps = 0;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		caps |= rows[i].has ? rows[i].cap : 0;
	return caps;
}

unsigned int source_caps(struct kt_source *s)
{
	unsigned int caps;

	if (!s)
		return 0;
	caps = table_caps(s->ops) | s->ops->flags;
	return s->ops->caps ? caps & s->ops->caps(s) : caps;
}

bool source_can(struct kt_source *s, unsigned int caps)
{
	return (source_caps(s) & caps) == caps;
}

const char *source_refusal(struct kt_source *s, unsigned int caps)
{
	unsigned int missing = caps & ~source_caps(s);
	const char *why;

	if (!missing)
		return NULL;
	missing &= -missing; /* the lowest bit it lacks */
	why = s && s->ops->refusal ? s->ops->refusal(s, (enum kt_cap)missing) : NULL;
	return why ? why : "not available from this event source";
}

void source_describe(struct kt_source *s, struct kt_source_desc *d)
{
	memset(d, 0, sizeof(*d));
	if (s && s->ops->describe)
		s->ops->describe(s, d);
}

void source_tick(struct kt_source *s)
{
	if (s && s->ops->tick)
		s->ops->tick(s);
}

/* s can do cap and has the op of that table, or the op itself: the call goes on */
#define HAS(s, cap, table, op) (source_can((s), (cap)) && (s)->ops->table->op)
#define HAS_OP(s, cap, op) (source_can((s), (cap)) && (s)->ops->op)

int source_enable(struct kt_source *s, const char *system, const char *event, bool on,
		  char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_EVENTS, events, enable))
		return refuse(s, KT_CAP_EVENTS, err, errlen);
	return s->ops->events->enable(s, system, event, on, err, errlen);
}

bool source_is_enabled(struct kt_source *s, const char *system, const char *event)
{
	return HAS(s, KT_CAP_EVENTS, events, is_enabled) &&
	       s->ops->events->is_enabled(s, system, event);
}

int source_for_each_enabled(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	return HAS(s, KT_CAP_EVENTS, events, for_each_enabled)
		       ? s->ops->events->for_each_enabled(s, fn, ctx)
		       : 0;
}

int source_enabled_count(struct kt_source *s)
{
	int n = source_for_each_enabled(s, NULL, NULL);

	return n < 0 ? 0 : n;
}

char *source_get_filter(struct kt_source *s, const char *system, const char *event)
{
	return HAS(s, KT_CAP_FILTER, filter, get_filter)
		       ? s->ops->filter->get_filter(s, system, event)
		       : NULL;
}

int source_set_filter(struct kt_source *s, const char *system, const char *event,
		      const char *filter, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_FILTER, filter, set_filter))
		return refuse(s, KT_CAP_FILTER, err, errlen);
	return s->ops->filter->set_filter(s, system, event, filter, err, errlen);
}

int source_trigger_add(struct kt_source *s, struct tep_event *te, const struct kt_trigger *t,
		       char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRIGGERS, triggers, trigger_add))
		return refuse(s, KT_CAP_TRIGGERS, err, errlen);
	return s->ops->triggers->trigger_add(s, te, t, err, errlen);
}

int source_trigger_remove_all(struct kt_source *s, const char *system, const char *event,
			      char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRIGGERS, triggers, trigger_remove_all))
		return refuse(s, KT_CAP_TRIGGERS, err, errlen);
	return s->ops->triggers->trigger_remove_all(s, system, event, err, errlen);
}

int source_trigger_remove_cmd(struct kt_source *s, const char *system, const char *event,
			      const char *cmd, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRIGGERS, triggers, trigger_remove_cmd))
		return refuse(s, KT_CAP_TRIGGERS, err, errlen);
	return s->ops->triggers->trigger_remove_cmd(s, system, event, cmd, err, errlen);
}

char *source_trigger_list(struct kt_source *s, const char *system, const char *event)
{
	return HAS(s, KT_CAP_TRIGGERS, triggers, trigger_list)
		       ? s->ops->triggers->trigger_list(s, system, event)
		       : NULL;
}

int source_triggers_for_each(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	return HAS(s, KT_CAP_TRIGGERS, triggers, triggers_for_each) ?
		       s->ops->triggers->triggers_for_each(s, fn, ctx) : 0;
}

bool source_trigger_spent(struct kt_source *s, const char *system, const char *event,
			  const char *cmd)
{
	return HAS(s, KT_CAP_TRIGGERS, triggers, trigger_spent) &&
	       s->ops->triggers->trigger_spent(s, system, event, cmd);
}

char *source_trigger_output(struct kt_source *s, const struct kt_trigger *t)
{
	return HAS(s, KT_CAP_TRIGGERS, triggers, trigger_output)
		       ? s->ops->triggers->trigger_output(s, t)
		       : NULL;
}

int source_tracing_on(struct kt_source *s, bool on)
{
	if (!HAS(s, KT_CAP_TRIGGERS, triggers, tracing_on))
		return -1;
	return s->ops->triggers->tracing_on(s, on);
}

bool source_stacks_enabled(struct kt_source *s, const char *system, const char *event)
{
	return HAS(s, KT_CAP_STACKS, stacks, stacks_enabled) &&
	       s->ops->stacks->stacks_enabled(s, system, event);
}

int source_stacks_set(struct kt_source *s, struct tep_event *te, const char *system,
		      const char *event, bool on, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_STACKS, stacks, stacks_set))
		return refuse(s, KT_CAP_STACKS, err, errlen);
	return s->ops->stacks->stacks_set(s, te, system, event, on, err, errlen);
}

int source_stacks_refilter(struct kt_source *s, struct tep_event *te, const char *system,
			   const char *event, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_STACKS, stacks, stacks_refilter))
		return refuse(s, KT_CAP_STACKS, err, errlen);
	return s->ops->stacks->stacks_refilter(s, te, system, event, err, errlen);
}

char *source_tracer(struct kt_source *s)
{
	return HAS(s, KT_CAP_TRACER, tracer, tracer) ? s->ops->tracer->tracer(s) : NULL;
}

char **source_tracers_available(struct kt_source *s, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, tracers_available)) {
		refuse(s, KT_CAP_TRACER, err, errlen);
		return NULL;
	}
	return s->ops->tracer->tracers_available(s, err, errlen);
}

int source_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, set_tracer))
		return refuse(s, KT_CAP_TRACER, err, errlen);
	return s->ops->tracer->set_tracer(s, name, err, errlen);
}

struct kt_symlist *source_tracer_functions(struct kt_source *s, char *note, size_t notelen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, functions)) {
		refuse(s, KT_CAP_TRACER, note, notelen);
		return NULL;
	}
	return s->ops->tracer->functions(s, note, notelen);
}

bool source_list_exists(struct kt_source *s, enum kt_ftrace_list which)
{
	return HAS(s, KT_CAP_TRACER, tracer, list_exists) && s->ops->tracer->list_exists(s, which);
}

char **source_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
		       size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, list_get)) {
		refuse(s, KT_CAP_TRACER, err, errlen);
		return NULL;
	}
	return s->ops->tracer->list_get(s, which, err, errlen);
}

int source_list_add(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
		    char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, list_add))
		return refuse(s, KT_CAP_TRACER, err, errlen);
	return s->ops->tracer->list_add(s, which, entry, err, errlen);
}

int source_list_remove(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
		       char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, list_remove))
		return refuse(s, KT_CAP_TRACER, err, errlen);
	return s->ops->tracer->list_remove(s, which, entry, err, errlen);
}

int source_list_clear(struct kt_source *s, enum kt_ftrace_list which, char *err,
		      size_t errlen)
{
	if (!HAS(s, KT_CAP_TRACER, tracer, list_clear))
		return refuse(s, KT_CAP_TRACER, err, errlen);
	return s->ops->tracer->list_clear(s, which, err, errlen);
}

int source_record_meta(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
		       size_t errlen)
{
	/* a recording is not written by w or A, but a part of it is by -i FILE -o PART */
	if (!source_can(s, KT_CAP_WRITE) && !(s->ops->record_meta && source_can(s, KT_CAP_SEEK)))
		return refuse(s, KT_CAP_WRITE, err, errlen);
	if (!s->ops->record_meta)
		return 0;
	return s->ops->record_meta(s, meta, err, errlen) < 0 ? -1 : 1;
}

int source_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			char *event, size_t eventlen, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_PROBES, probes, probe_create))
		return refuse(s, KT_CAP_PROBES, err, errlen);
	return s->ops->probes->probe_create(s, kind, def, event, eventlen, err, errlen);
}

int source_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_PROBES, probes, probe_delete))
		return refuse(s, KT_CAP_PROBES, err, errlen);
	return s->ops->probes->probe_delete(s, name, err, errlen);
}

size_t source_probe_count(struct kt_source *s)
{
	return HAS(s, KT_CAP_PROBES, probes, probe_count) ? s->ops->probes->probe_count(s) : 0;
}

const struct kt_probe *source_probe_get(struct kt_source *s, size_t i)
{
	return HAS(s, KT_CAP_PROBES, probes, probe_get) ? s->ops->probes->probe_get(s, i) : NULL;
}

int source_probe_health(struct kt_source *s, size_t i, struct kt_probe_health *h)
{
	return HAS(s, KT_CAP_PROBES, probes, probe_health) ? s->ops->probes->probe_health(s, i, h)
							   : -1;
}

int source_probe_host_health(struct kt_source *s, size_t i, unsigned host,
			     struct kt_probe_health *h)
{
	return HAS(s, KT_CAP_PROBES, probes, probe_host_health)
		       ? s->ops->probes->probe_host_health(s, i, host, h)
		       : -1;
}

void source_probe_refresh(struct kt_source *s)
{
	if (HAS(s, KT_CAP_PROBES, probes, probe_refresh))
		s->ops->probes->probe_refresh(s);
}

int source_usdt_create(struct kt_source *s, const char *def, char *events, size_t eventslen,
		       char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_PROBES, probes, usdt_create))
		return refuse(s, KT_CAP_PROBES, err, errlen);
	return s->ops->probes->usdt_create(s, def, events, eventslen, err, errlen);
}

char **source_names(struct kt_source *s, const char *what, const char *arg, char *reply,
		    size_t len)
{
	if (!HAS(s, KT_CAP_PROBES, probes, names)) {
		refuse(s, KT_CAP_PROBES, reply, len);
		return NULL;
	}
	return s->ops->probes->names(s, what, arg, reply, len);
}

uint64_t source_type_count(struct kt_source *s, int id)
{
	return HAS(s, KT_CAP_HIDE, hide, type_count) ? s->ops->hide->type_count(s, id) : 0;
}

bool source_type_hidden(struct kt_source *s, int id)
{
	return HAS(s, KT_CAP_HIDE, hide, type_hidden) && s->ops->hide->type_hidden(s, id);
}

void source_type_set_hidden(struct kt_source *s, int id, bool hidden)
{
	if (HAS(s, KT_CAP_HIDE, hide, type_set_hidden))
		s->ops->hide->type_set_hidden(s, id, hidden);
}

const char *source_type_filter(struct kt_source *s, int id)
{
	return HAS(s, KT_CAP_HIDE, hide, type_filter) ? s->ops->hide->type_filter(s, id) : NULL;
}

int source_type_set_filter(struct kt_source *s, int id, const char *expr, char *err,
			   size_t errlen)
{
	if (!HAS(s, KT_CAP_HIDE, hide, type_set_filter))
		return refuse(s, KT_CAP_HIDE, err, errlen);
	return s->ops->hide->type_set_filter(s, id, expr, err, errlen);
}

struct tep_handle *source_symbols(struct kt_source *s, uint32_t cpu)
{
	return s && s->ops->hosts && s->ops->hosts->symbols ? s->ops->hosts->symbols(s, cpu) : NULL;
}

struct kt_symbolizer *source_user_symbolizer(struct kt_source *s, uint32_t cpu)
{
	return s && s->ops->hosts && s->ops->hosts->user_symbolizer
		       ? s->ops->hosts->user_symbolizer(s, cpu)
		       : NULL;
}

const char *source_cpu_host(struct kt_source *s, uint32_t cpu, uint32_t *local)
{
	*local = cpu;
	return s && s->ops->hosts && s->ops->hosts->cpu_host
		       ? s->ops->hosts->cpu_host(s, cpu, local)
		       : NULL;
}

void source_wait_complete(struct kt_source *s)
{
	if (HAS(s, KT_CAP_SEEK, seek, wait_complete))
		s->ops->seek->wait_complete(s);
}

struct kt_histsrc *source_hist_open(struct kt_source *s, const char *spec, char *err,
				    size_t errlen)
{
	if (!HAS_OP(s, KT_CAP_HIST, hist_open)) {
		refuse(s, KT_CAP_HIST, err, errlen);
		return NULL;
	}
	return s->ops->hist_open(s, spec, err, errlen);
}

struct kt_countersrc *source_counters_open(struct kt_source *s, char *err, size_t errlen)
{
	if (!HAS_OP(s, KT_CAP_COUNTERS, counters_open)) {
		refuse(s, KT_CAP_COUNTERS, err, errlen);
		return NULL;
	}
	return s->ops->counters_open(s, err, errlen);
}

struct kt_profsrc *source_profile_open(struct kt_source *s, const struct kt_profsrc_req *req,
				       char *err, size_t errlen)
{
	if (!HAS_OP(s, KT_CAP_PROFILE, profile_open)) {
		refuse(s, KT_CAP_PROFILE, err, errlen);
		return NULL;
	}
	return s->ops->profile_open(s, req, err, errlen);
}

struct kt_ovsrc *source_overview_open(struct kt_source *s, const char *via, char *err,
				      size_t errlen)
{
	if (!HAS_OP(s, KT_CAP_OVERVIEW, overview_open)) {
		refuse(s, KT_CAP_OVERVIEW, err, errlen);
		return NULL;
	}
	return s->ops->overview_open(s, via, err, errlen);
}

const char *source_kept_stacks(struct kt_source *s)
{
	return HAS(s, KT_CAP_SEEK, seek, kept_stacks) ? s->ops->seek->kept_stacks(s) : NULL;
}

bool source_probe_supported(struct kt_source *s, enum kt_probe_kind kind, char *why,
			    size_t whylen)
{
	if (!HAS(s, KT_CAP_PROBES, probes, supported))
		return refuse(s, KT_CAP_PROBES, why, whylen) == 0;
	return s->ops->probes->supported(s, kind, why, whylen);
}

void source_probe_group(struct kt_source *s, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (HAS(s, KT_CAP_PROBES, probes, group))
		s->ops->probes->group(s, buf, len);
}

int source_sync_cgroup(struct kt_source *s, const struct kt_cgroup *cg, char *err,
		       size_t errlen)
{
	return HAS(s, KT_CAP_SCOPE, scope, sync_cgroup)
		       ? s->ops->scope->sync_cgroup(s, cg, err, errlen)
		       : 0;
}

int source_set_scope(struct kt_source *s, const char *kind, const char *arg, char *desc,
		     size_t desclen, char *note, size_t notelen, char *err, size_t errlen)
{
	if (!HAS(s, KT_CAP_SCOPE, scope, set_scope))
		return refuse(s, KT_CAP_SCOPE, err, errlen);
	return s->ops->scope->set_scope(s, kind, arg, desc, desclen, note, notelen, err, errlen);
}
