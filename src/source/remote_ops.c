// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote source's own ops: capabilities and refusals, the header's description,
 * the tick, closing, the request calls every host answers, events, filters and stacks on
 * events. */
#include "config.h"

#include "source/remote_local.h"

/* ---- the source's ops ------------------------------------------------------------------ */

unsigned int remote_caps(struct kt_source *s)
{
	struct remote_src *rs = RS(s);

	/* w and A: one host's capture is one trace.dat, the agent's files mirrored here */
	return ~KT_CAP_WRITE | (rs && rs->n == 1 && rs->hosts[0].mirror ? KT_CAP_WRITE : 0);
}

/* One line each, short enough for an 80-column status line. */
const char *remote_refusal(struct kt_source *s, enum kt_cap cap)
{
	(void)s;
	switch (cap) {
	case KT_CAP_WRITE:
		/* several hosts' records are merged onto this clock, ids made the first's */
		return "remote: w and A record one host (ktop -b -o: a file a host)";
	default:
		return "remote: not available over an agent yet (events, filters, tracers are)";
	}
}

/* Host h for the header. Lock held. */
static void rs_describe_host(struct rs_host *h, struct kt_source_host *d)
{
	snprintf(d->label, sizeof(d->label), "%s", h->label);
	d->clock = remote_clock(h->r, &d->offset_ns, &d->uncertainty_ns);
	d->ended = rs_gone(h);
	snprintf(d->group, sizeof(d->group), "%s", h->group);
	if (h->backlog.age_ns >= REMOTE_BEHIND_NS && !d->ended) {
		d->behind_bytes = h->backlog.bytes;
		d->behind_ns = h->backlog.age_ns;
	}
}

void remote_describe(struct kt_source *s, struct kt_source_desc *d)
{
	struct remote_src *rs = RS(s);
	struct rs_host *h0 = &rs->hosts[0];
	bool all_gone = true;

	for (unsigned i = 0; i < rs->n; i++)
		all_gone &= rs_gone(&rs->hosts[i]);
	/* first: the header cuts a long --via command short */
	snprintf(d->name, sizeof(d->name), "%s%.240s", all_gone ? "ENDED " : "", rs->name);
	snprintf(d->note, sizeof(d->note), "%s", rs->note);
	snprintf(d->files_of, sizeof(d->files_of), "the agent's");
	snprintf(d->instance_of, sizeof(d->instance_of), "the agent's");
	d->note_seq = rs->noteseq;
	if (rs->n > 1) {
		rs_lock(rs); /* the clocks the pongs refine */
		for (unsigned i = 0; i < rs->n; i++)
			rs_describe_host(&rs->hosts[i], &d->hosts[i]);
		rs_unlock(rs);
		d->n_hosts = rs->n;
		return;
	}
	snprintf(d->host, sizeof(d->host), "%s", h0->hello.host);
	snprintf(d->kernel, sizeof(d->kernel), "%s", h0->hello.kernel);
	/* an agent that ended is behind no longer: what it sent is all there is */
	if (h0->backlog.age_ns >= REMOTE_BEHIND_NS && !all_gone) {
		d->behind_bytes = h0->backlog.bytes;
		d->behind_ns = h0->backlog.age_ns;
	}
}

/* The agents' last loss counters and what their pages brought, every host's CPUs after the
 * one before's. */
void remote_tick(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	struct kt_app *app = s->app;
	struct kt_reader_stats all;
	const struct kt_cpu_stats *st;
	uint64_t lost;
	uint32_t n, room;

	rs_lock(rs);
	app->rstats = (struct kt_reader_stats){ 0 };
	app->kernel_lost = 0;
	for (unsigned k = 0; k < rs->n; k++) {
		struct rs_host *h = &rs->hosts[k];

		room = (uint32_t)app->ncpus - h->cpu_base;
		rpages_stats(h->pages, &all, app->cpu_rstats + h->cpu_base, room, &lost);
		app->rstats.pages += all.pages;
		app->rstats.events += all.events;
		app->rstats.missed += all.missed;
		app->rstats.missed_unknown += all.missed_unknown;
		app->kernel_lost += lost;
		st = rpages_cpu_stats(h->pages, &n);
		for (uint32_t i = 0; i < n && i < room; i++)
			app->cpu_stats[h->cpu_base + i] = st[i];
		rpages_backlog(h->pages, &h->backlog);
	}
	memcpy(rs->note, rs->errlast, sizeof(rs->note));
	rs->noteseq = rs->errseq;
	rs_unlock(rs);
}

static const char *remote_cpu_host(struct kt_source *s, uint32_t cpu, uint32_t *local)
{
	struct remote_src *rs = RS(s);
	unsigned k = rs->n;

	if (rs->n < 2)
		return NULL;
	while (k > 1 && cpu < rs->hosts[k - 1].cpu_base)
		k--;
	*local = cpu - rs->hosts[k - 1].cpu_base;
	return rs->hosts[k - 1].label;
}

/* Several hosts: the tep of the host whose CPU cpu is, which holds its kallsyms once a
 * stack asked for them (the UI thread reads it; the client thread only adds formats);
 * NULL for the first host's, which is the decoder's. */
static struct tep_handle *remote_symbols(struct kt_source *s, uint32_t cpu)
{
	struct remote_src *rs = RS(s);

	for (unsigned k = rs->n; rs->host_symbols && k-- > 1;)
		if (cpu >= rs->hosts[k].cpu_base)
			return rs->hosts[k].tep;
	return NULL; /* the first host's: the decoder's */
}

/* The names the agent of the host whose CPU cpu is gave its user frames. */
static struct kt_symbolizer *remote_user_symbolizer(struct kt_source *s, uint32_t cpu)
{
	struct remote_src *rs = RS(s);
	unsigned k = rs->n;

	while (k-- > 1 && cpu < rs->hosts[k].cpu_base)
		;
	return rs->hosts[k].unames ? usernames_symbolizer(rs->hosts[k].unames) : NULL;
}

void rs_probe_free(struct kt_probe *p)
{
	free(p->system);
	free(p->event);
	free(p->definition);
}

void remote_close_src(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	char b = 1;

	if (rs->thread_on) {
		__atomic_store_n(&rs->stopping, true, __ATOMIC_RELEASE);
		if (write(rs->ctl[1], &b, 1) < 0 && errno != EAGAIN) /* full: it wakes anyway */
			log_debug("%s: %s", __func__, strerror(errno));
		pthread_join(rs->thread, NULL);
	}
	/* every agent sees its input and output close: it removes its instance at once */
	for (unsigned i = 0; i < rs->n; i++)
		remote_close(rs->hosts[i].r);
	if (s->app->store) /* what the last round staged, the client thread stopped */
		rs_flush(rs);
	recq_free(&rs->staged);
	recq_free(&rs->flushing);
	rs_stderr_out(rs);
	close(rs->ctl[0]);
	close(rs->ctl[1]);
	for (unsigned i = 0; i < rs->n; i++) {
		rpages_free(rs->hosts[i].pages);
		free(rs->hosts[i].buf);
		free(rs->hosts[i].ids);
		free(rs->hosts[i].counts);
		free(rs->hosts[i].list_text);
		mirror_free(rs->hosts[i].mirror);
		usernames_free(rs->hosts[i].unames);
		if (rs->hosts[i].tep)
			tep_free(rs->hosts[i].tep);
	}
	hostmerge_free(rs->merge);
	for (size_t i = 0; i < rs->n_ev; i++) {
		free(rs->ev[i].spec);
		free(rs->ev[i].filter);
	}
	free(rs->ev);
	for (size_t i = 0; i < rs->n_asked; i++)
		free(rs->asked[i]);
	free(rs->asked);
	free(rs->events);
	for (size_t i = 0; i < rs->n_probes; i++)
		rs_probe_free(&rs->probes[i]);
	free(rs->probes);
	for (size_t i = 0; i < rs->n_trig; i++)
		free(rs->trig_events[i]);
	free(rs->trig_events);
	pthread_mutex_destroy(&rs->lock);
	free(rs);
	s->data = NULL;
}

struct rs_event *rs_find(struct remote_src *rs, const char *system, const char *event,
			 bool add)
{
	char spec[512];

	snprintf(spec, sizeof(spec), "%s:%s", system, event ? event : "*");
	for (size_t i = 0; i < rs->n_ev; i++)
		if (!strcmp(rs->ev[i].spec, spec))
			return &rs->ev[i];
	if (!add)
		return NULL;
	rs->ev = xreallocarray(rs->ev, rs->n_ev + 1, sizeof(*rs->ev));
	rs->ev[rs->n_ev] = (struct rs_event){ .spec = xstrdup(spec) };
	return &rs->ev[rs->n_ev++];
}

/* A request to host h and its reply (the agent's text, or its refusal; once the agent is
 * gone, why, without writing to its closed pipe). */
static int rs_ask_locked(struct rs_host *h, uint8_t op, const char *arg, const char *arg2,
			 char *reply, size_t len)
{
	sigset_t old;
	int ret = -1;

	/* an agent that died makes the write fail, not the explorer end (SIGPIPE ends it) */
	remote_sigpipe_block(&old);
	if (rs_gone(h))
		snprintf(reply, len, "%s", h->ended);
	else
		ret = remote_call(h->r, op, arg, arg2, reply, len);
	remote_sigpipe_restore(&old);
	return ret;
}

int rs_ask(struct rs_host *h, uint8_t op, const char *arg, const char *arg2,
	   char *reply, size_t len)
{
	int ret;

	rs_lock(h->rs);
	ret = rs_ask_locked(h, op, arg, arg2, reply, len);
	rs_unlock_request(h->rs);
	return ret;
}

/* A request to the first host; its refusal as err. */
int rs_call(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
	    char *err, size_t errlen)
{
	char reply[1024];
	int ret = rs_ask(&rs->hosts[0], op, arg, arg2, reply, sizeof(reply));

	if (ret < 0 && err && errlen)
		snprintf(err, errlen, "%s", reply);
	return ret;
}

/* arg as host h knows it: an event of the first host's probe group ("GROUP:NAME", or
 * "GROUP:*") is the one of that name in h's group. */
const char *rs_host_arg(const struct rs_host *h, const char *arg, char *buf, size_t len)
{
	const char *g0 = h->rs->hosts[0].group;
	size_t n = strlen(g0);

	if (!h->idx || !n || !h->group[0] || strncmp(arg, g0, n) || arg[n] != ':')
		return arg;
	snprintf(buf, len, "%s%s", h->group, arg + n);
	return buf;
}

/* A request to every host (an event named as each host's group has it). Returns 0 when
 * all took it, -1 with err saying why the first that refused did (its label first with
 * several; how many took it after); *took: whether any did. A host that ended is passed
 * over while another takes it. */
int rs_call_all(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		bool *took, char *err, size_t errlen)
{
	char reply[1024], own[512];
	int yes = 0, no = 0;

	if (rs->n == 1) {
		*took = rs_call(rs, op, arg, arg2, err, errlen) == 0;
		return *took ? 0 : -1;
	}
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, op, rs_host_arg(h, arg, own, sizeof(own)), arg2, reply,
			   sizeof(reply)) == 0)
			yes++;
		else if (!rs_gone(h) && !no++ && err && errlen)
			snprintf(err, errlen, "%s: %s", h->label, reply);
	}
	*took = yes > 0;
	if (!yes && !no) { /* all of them ended */
		snprintf(err, errlen, "%s: %s", rs->hosts[0].label, rs->hosts[0].ended);
		return -1;
	}
	if (no && yes && err && errlen && strlen(err) + 40 < errlen)
		snprintf(err + strlen(err), errlen - strlen(err), " (%d other%s took it)", yes,
			 yes > 1 ? "s" : "");
	return no ? -1 : 0;
}

/* The decoder lacks a format (the picker shows one, a filter is checked against it, a row
 * is drawn): the first agent sends it, once per event. UI thread, maybe with the store
 * locked: the lock order (remote_local.h) lets it wait for the lock, which nobody holds
 * while waiting for the store's. */
int rs_load_format(void *ctx, const char *system, const char *event)
{
	struct remote_src *rs = ctx;
	char spec[512], reply[1024];
	int ret;

	snprintf(spec, sizeof(spec), "%s:%s", system, event);
	for (size_t i = 0; i < rs->n_asked; i++)
		if (!strcmp(rs->asked[i], spec))
			return -1;
	rs->asked = xreallocarray(rs->asked, rs->n_asked + 1, sizeof(*rs->asked));
	rs->asked[rs->n_asked++] = xstrdup(spec);
	rs_lock(rs);
	ret = rs_ask_locked(&rs->hosts[0], KT_REQ_FORMAT, spec, "", reply, sizeof(reply));
	rs_unlock_request(rs);
	return ret;
}

/* Whether an event of system (event NULL: any of it) prints a kernel symbol (%pS, %ps,
 * %pF, %pf, %pB: kmem's call_site, timer's function), its format in the first host's tep. */
static bool rs_prints_symbols(struct remote_src *rs, const char *system, const char *event)
{
	struct tep_handle *tep = rs->hosts[0].tep;
	bool prints = false;
	const char *f;

	rs_lock(rs); /* the client thread adds formats under it */
	for (int i = 0; tep && !prints && i < tep_get_events_count(tep); i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (!ev || strcmp(ev->system, system) || (event && strcmp(ev->name, event)))
			continue;
		for (f = ev->print_fmt.format; f && !prints && (f = strstr(f, "%p")); f += 2)
			prints = f[2] && strchr("sSfFB", f[2]);
	}
	rs_unlock(rs);
	return prints;
}


/* On every host; on when any took it (a refusal is still reported: -1 with err). An event
 * that prints kernel symbols first fetches the agent's kallsyms, before any of its rows is
 * drawn (libtraceevent maps functions once, on the first lookup): the agent sent its
 * formats before it enabled it. */
static int remote_enable(struct kt_source *s, const char *system, const char *event, bool on,
			 char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool took;
	int ret = rs_call_all(rs, on ? KT_REQ_ENABLE : KT_REQ_DISABLE, e->spec,
			      on && e->filter ? e->filter : "", &took, err, errlen);

	if (took)
		e->on = on;
	if (on && took && !rs->symbols && rs_prints_symbols(rs, system, event))
		rs_symbols(rs);
	return ret;
}

static bool remote_is_enabled(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	if (!e && event) /* its whole system */
		e = rs_find(RS(s), system, NULL, false);
	return e && e->on;
}

static int remote_for_each_enabled(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	const struct kt_catalog *cat = s->app->catalog;
	int n = 0;

	for (size_t i = 0; cat && i < cat->count; i++) {
		if (!remote_is_enabled(s, cat->events[i].system, cat->events[i].name))
			continue;
		n++;
		if (fn)
			fn(cat->events[i].system, cat->events[i].name, ctx);
	}
	return n;
}

static char *remote_get_filter(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	return e && e->filter ? xstrdup(e->filter) : NULL;
}

/* An event that is on takes its new filter, or none, on every host (request 28); one that
 * is off keeps it for its enable request, which carries it. */
static int remote_set_filter(struct kt_source *s, const char *system, const char *event,
			     const char *filter, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool clear = !filter || !*filter, took = true;
	int ret = 0;

	if (e->on)
		ret = rs_call_all(rs, KT_REQ_FILTER, e->spec, clear ? "" : filter, &took, err,
				  errlen);
	if (took) {
		free(e->filter);
		e->filter = clear ? NULL : xstrdup(filter);
	}
	return ret;
}

/* A tracer's records and an event's stacks carry kernel addresses: before the first switch
 * to a tracer or the first stack, the first host's kallsyms and printk formats come into
 * its tep, which decodes every host's records (so with several hosts their kernels'
 * addresses are named by the first's), here, where the UI holds no lock the pages coming
 * meanwhile need (a row being drawn holds the store's; the decoder never asks for them
 * itself). A few MB: seconds over a slow link. */
void rs_symbols(struct remote_src *rs)
{
	char why[1024];

	if (rs->symbols)
		return;
	rs->symbols = true;
	if (rs_call(rs, KT_REQ_KALLSYMS, "", "", why, sizeof(why)) < 0)
		log_debug("%s: no kallsyms from the agent: %s", __func__, why);
}

/* Every host's kallsyms into its own tep, once, before the first stack: a stack's frames
 * are named by its host's kernel (remote_symbols), whose addresses KASLR makes its own. */
static void rs_host_symbols(struct remote_src *rs)
{
	char why[1024];

	rs_symbols(rs);
	if (rs->host_symbols)
		return;
	rs->host_symbols = true;
	for (unsigned i = 1; i < rs->n; i++)
		if (rs_ask(&rs->hosts[i], KT_REQ_KALLSYMS, "", "", why, sizeof(why)) < 0)
			log_debug("%s: no kallsyms from %s: %s", __func__, rs->hosts[i].label, why);
}

static bool remote_stacks_enabled(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	return e && e->stack;
}

/* On every host: the event's kernel stack after each of its records (KT_REQ_STACK with the
 * event's filter: the agent adds its stacktrace trigger as --stack does, the event on), the
 * first host's kallsyms fetched before the first (rs_symbols); off: KT_REQ_STACK_OFF, the
 * event stays on. On when any host took it (a refusal is still reported). */
static int remote_stacks_set(struct kt_source *s, struct tep_event *te, const char *system,
			     const char *event, bool on, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool took;
	int ret;

	(void)te; /* the agent checks the trigger against its own format */
	if (on)
		rs_host_symbols(rs);
	ret = rs_call_all(rs, on ? KT_REQ_STACK : KT_REQ_STACK_OFF, e->spec,
			  on && e->filter ? e->filter : "", &took, err, errlen);
	if (took) {
		e->stack = on;
		e->on |= on;
	}
	return ret;
}

/* The event's filter changed: its stacks, if it has them, are taken off and put on again
 * with it (the agent's trigger takes the event's filter as its condition). */
static int remote_stacks_refilter(struct kt_source *s, struct tep_event *te, const char *system,
				  const char *event, char *err, size_t errlen)
{
	if (!remote_stacks_enabled(s, system, event))
		return 0;
	if (remote_stacks_set(s, te, system, event, false, err, errlen) < 0)
		return -1;
	return remote_stacks_set(s, te, system, event, true, err, errlen);
}


const struct kt_source_events_ops remote_events_ops = {
	.enable = remote_enable,
	.is_enabled = remote_is_enabled,
	.for_each_enabled = remote_for_each_enabled,
};

const struct kt_source_filter_ops remote_filter_ops = {
	.get_filter = remote_get_filter,
	.set_filter = remote_set_filter,
};

const struct kt_source_stack_ops remote_stacks_ops = {
	.stacks_enabled = remote_stacks_enabled,
	.stacks_refilter = remote_stacks_refilter,
	.stacks_set = remote_stacks_set,
};

const struct kt_source_host_ops remote_hosts_ops = {
	.cpu_host = remote_cpu_host,
	.symbols = remote_symbols,
	.user_symbolizer = remote_user_symbolizer,
};
