// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview on the agents (ovsrc.h): each agent counts with its own BPF object (or
 * /proc) and sends a tick every interval; one update takes a tick of every host and merges
 * their rows into one snapshot, each row marked with its host, so one table sorts them
 * together. Each host's strip and system-wide figures stay its own (ovsrc_host).
 */
#include "config.h"

#include "source/remote_local.h"

#define RO(o) ((struct rs_ov *)(o))

/* Every host has a tick waiting (the hosts that ended aside), or one is two ticks ahead
 * of another that sent none: the merge waits no longer for a slow one. (One tick ahead is
 * no sign of a slow host: agents started apart tick out of phase, and a loaded machine's
 * jitter puts one's next tick before the other's.) Lock held. */
static bool ro_ready(struct rs_ov *ro)
{
	struct remote_src *rs = ro->rs;
	unsigned have = 0, waiting = 0;

	for (unsigned i = 0; i < rs->n; i++) {
		if (ro->nq[i] >= 3)
			return true;
		if (ro->nq[i])
			have++;
		else if (!rs_gone(&rs->hosts[i]))
			waiting++;
	}
	return have && !waiting;
}

/* Each host's oldest tick into t (NULL: none came). Lock held. */
static bool ro_take(struct rs_ov *ro, struct kt_ovrows **t)
{
	if (!ro_ready(ro))
		return false;
	for (unsigned i = 0; i < ro->rs->n; i++) {
		t[i] = NULL;
		if (!ro->nq[i])
			continue;
		t[i] = ro->q[i][0];
		memmove(ro->q[i], ro->q[i] + 1, --ro->nq[i] * sizeof(ro->q[i][0]));
	}
	return true;
}

/* Rows n of from appended to *to (its count *k), each marked with host. */
static void ro_append(struct kt_ov_row *to, size_t *k, const struct kt_ov_row *from, size_t n,
		      unsigned host)
{
	for (size_t j = 0; j < n; j++) {
		to[*k] = from[j];
		to[(*k)++].host = host;
	}
}

/* The hosts' ticks in t merged into snap (rows by host, then as each host had them: by pid
 * then tid), the system-wide part and sys the first host's that ticked; each host's own
 * kept for ovsrc_host. The ticks are freed. */
static void ro_merge(struct rs_ov *ro, struct kt_ovrows **t, struct kt_ov_snap *snap,
		     struct kt_sysstrip *sys)
{
	unsigned n = ro->rs->n, first = n;
	size_t np = 0, nt = 0, kp = 0, kt = 0;

	for (unsigned i = 0; i < n; i++) {
		ro->host[i].fresh = t[i] != NULL;
		if (!t[i])
			continue;
		np += t[i]->snap.nprocs;
		nt += t[i]->snap.nthreads;
		if (first == n)
			first = i;
	}
	overview_snap_free(snap);
	*snap = t[first]->snap;
	snap->procs = np ? xcalloc(np, sizeof(*snap->procs)) : NULL;
	snap->threads = nt ? xcalloc(nt, sizeof(*snap->threads)) : NULL;
	snap->nprocs = snap->cap_procs = np;
	snap->nthreads = snap->cap_threads = nt;
	*sys = t[first]->sys;
	for (unsigned i = 0; i < n; i++) {
		struct rs_ov_host *h = &ro->host[i];

		if (!t[i])
			continue;
		ro_append(snap->procs, &kp, t[i]->snap.procs, t[i]->snap.nprocs, i);
		ro_append(snap->threads, &kt, t[i]->snap.threads, t[i]->snap.nthreads, i);
		overview_snap_free(&h->snap);
		h->snap = t[i]->snap;
		free(h->snap.procs);
		free(h->snap.threads);
		h->snap.procs = h->snap.threads = NULL;
		h->snap.nprocs = h->snap.nthreads = h->snap.cap_procs = h->snap.cap_threads = 0;
		h->sys = t[i]->sys;
		snprintf(h->source, sizeof(h->source), "%s", t[i]->source);
		h->have = true;
	}
}

/* What the overview there is and lacks, from the hosts' ticks: the first's source, a
 * column empty on any host said with its label (several hosts). */
static void ro_state(struct rs_ov *ro, struct kt_ovrows **t)
{
	struct remote_src *rs = ro->rs;
	bool first = true;

	for (int c = 0; c < KT_OVC_N; c++)
		ro->missing[c][0] = '\0';
	for (unsigned i = 0; i < rs->n; i++) {
		if (!t[i])
			continue;
		if (first) {
			snprintf(ro->source, sizeof(ro->source), "%s", t[i]->source);
			ro->syscalls = t[i]->syscalls;
			first = false;
		}
		for (int c = 0; c < KT_OVC_N; c++)
			if (!ro->missing[c][0] && t[i]->missing[c][0])
				snprintf(ro->missing[c], sizeof(ro->missing[c]), "%s%s%.150s",
					 rs->n > 1 ? rs->hosts[i].label : "", rs->n > 1 ? ": " : "",
					 t[i]->missing[c]);
	}
}

static bool ro_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	struct rs_ov *ro = RO(o);
	struct kt_ovrows *t[KT_REMOTES_MAX];
	bool got;

	rs_lock(ro->rs);
	got = ro_take(ro, t);
	rs_unlock(ro->rs);
	if (!got)
		return false;
	ro_state(ro, t);
	if (ro->rs->n == 1) { /* one host: its tick as it came */
		overview_snap_free(snap);
		*snap = t[0]->snap;
		*sys = t[0]->sys;
	} else {
		ro_merge(ro, t, snap, sys);
	}
	for (unsigned i = 0; i < ro->rs->n; i++)
		free(t[i]);
	return true;
}

static const char *ro_source(struct kt_ovsrc *o)
{
	return RO(o)->source;
}

static const char *ro_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	return RO(o)->missing[c];
}

/* On every host: the columns they feed show on all of them or say who refused. */
static int ro_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	struct rs_ov *ro = RO(o);
	bool took;

	if (rs_call_all(ro->rs, KT_REQ_OVERVIEW_SYSCALLS, on ? "on" : "off", "", &took, err,
			errlen) < 0)
		return -1;
	ro->syscalls = on;
	return 0;
}

static bool ro_syscalls_on(struct kt_ovsrc *o)
{
	return RO(o)->syscalls;
}

static unsigned int ro_hosts(struct kt_ovsrc *o)
{
	return RO(o)->rs->n;
}

static bool ro_host(struct kt_ovsrc *o, unsigned int i, struct kt_ovsrc_host *out)
{
	struct rs_ov *ro = RO(o);

	if (i >= ro->rs->n || !ro->host[i].have)
		return false;
	*out = (struct kt_ovsrc_host){
		.label = ro->rs->hosts[i].label,
		.snap = &ro->host[i].snap,
		.sys = &ro->host[i].sys,
		.source = ro->host[i].source,
		.fresh = ro->host[i].fresh,
	};
	return true;
}

/* A host's ticks not taken, as the overview closes. Lock held. */
static void ro_done(void *obj, unsigned host)
{
	struct rs_ov *ro = obj;

	for (unsigned i = 0; i < ro->nq[host]; i++) {
		overview_snap_free(&ro->q[host][i]->snap);
		free(ro->q[host][i]);
	}
	ro->nq[host] = 0;
}

/* Out of the list, then closed on the agents: their programs go there. */
static void ro_close(struct kt_ovsrc *o)
{
	rs_live_close(RO(o)->rs, &RO(o)->live, KT_REQ_OVERVIEW_CLOSE, ro_done);
	free(o);
}

static const struct kt_ovsrc_ops ro_ops = {
	.update = ro_update,
	.source = ro_source,
	.missing = ro_missing,
	.set_syscalls = ro_set_syscalls,
	.syscalls_on = ro_syscalls_on,
	.close = ro_close,
	.hosts = ro_hosts,
	.host = ro_host,
};

/* Each agent opens it as local --top would (its BPF object, or /proc) and sends a tick
 * every --interval (-b --top's) or -d. All or none: the first host that refuses (or
 * ended) is named with its reason, and the hosts that took it close it again. */
struct kt_ovsrc *remote_overview_open(struct kt_source *s, const char *via, char *err,
				      size_t errlen)
{
	struct remote_src *rs = RS(s);
	const struct kt_options *o = rs->app->opts;
	struct rs_ov *ro = xcalloc(1, sizeof(*ro));
	unsigned tick = o->top_interval > 0 ? (unsigned)(o->top_interval * 1000 + 0.5) :
					      o->delay_ms;
	char reply[1024];

	ro->base.ops = &ro_ops;
	ro->base.paced = true;
	ro->rs = rs;
	ro->syscalls = true; /* as the agents open it */
	ro->live = (struct rs_live){ .op = KT_REQ_OVERVIEW_LIVE, .obj = ro };
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_live_open_every(&rs->hosts[i], &ro->live, via ? via : "", tick, reply,
				       sizeof(reply)) < 0) {
			snprintf(err, errlen, "%s%s%s", rs->n > 1 ? rs->hosts[i].label : "",
				 rs->n > 1 ? ": " : "", reply);
			ro_close(&ro->base);
			return NULL;
		}
		snprintf(ro->host[i].source, sizeof(ro->host[i].source), "%.255s", reply);
		if (!i)
			snprintf(ro->source, sizeof(ro->source), "%.255s", reply);
	}
	return &ro->base;
}
