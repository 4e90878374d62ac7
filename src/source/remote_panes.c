// SPDX-License-Identifier: GPL-2.0-or-later
/* What the explorer opens on every agent, which sends it every tick: histograms
 * (histsrc.h), profiles (profsrc.h) and counters (countersrc.h); the overview
 * (remote_overview.c) opens likewise. */
#include "config.h"

#include "source/remote_local.h"

/* ---- what the explorer opens on every agent, which sends it every tick ------------------ */

/* Opens lv on host h with arg and a tick of tick_ms (rs_live_open: this explorer's -d, so
 * its interval is the pane's tick), and lists it before the lock goes (its first frame may come at once). Returns 0, or -1
 * with the agent's reason (or why it is gone) in reply. */
int rs_live_open_every(struct rs_host *h, struct rs_live *lv, const char *arg,
		       unsigned tick_ms, char *reply, size_t len)
{
	struct remote_src *rs = h->rs;
	char tick[16];
	sigset_t old;
	int ret = -1;

	snprintf(tick, sizeof(tick), "%u", tick_ms);
	remote_sigpipe_block(&old);
	rs_lock(rs);
	if (rs_gone(h)) {
		snprintf(reply, len, "%s", h->ended);
	} else {
		ret = remote_call(h->r, lv->op, arg, tick, reply, len);
		if (ret == 0) {
			lv->id[h->idx] = remote_last_id(h->r);
			if (rs->lives != lv) { /* once: its hosts open one after another */
				lv->next = rs->lives;
				rs->lives = lv;
			}
		}
	}
	rs_unlock_request(rs);
	remote_sigpipe_restore(&old);
	return ret;
}

static int rs_live_open(struct rs_host *h, struct rs_live *lv, const char *arg, char *reply,
			size_t len)
{
	return rs_live_open_every(h, lv, arg, h->rs->app->opts->delay_ms, reply, len);
}

/* Opens lv on every host, all or none. Returns 0 with the first host's reply in first, or
 * -1 with the first refusal (or why that host is gone; with several hosts its label first)
 * in err: the caller closes lv then (rs_live_close), on the hosts that took it. */
static int rs_live_open_all(struct remote_src *rs, struct rs_live *lv, const char *arg,
			    char *first, size_t firstlen, char *err, size_t errlen)
{
	char reply[1024];

	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_live_open(&rs->hosts[i], lv, arg, reply, sizeof(reply)) < 0) {
			snprintf(err, errlen, "%s%s%s", rs->n > 1 ? rs->hosts[i].label : "",
				 rs->n > 1 ? ": " : "", reply);
			return -1;
		}
		if (!i)
			snprintf(first, firstlen, "%s", reply);
	}
	return 0;
}

/* Out of the list, and closed (close_op, the id of the request that opened it) on each
 * host that opened it (its programs go with it there), no reply waited for: Esc and q
 * never wait for a slow link; done(obj, host) frees what each host's frames left. */
void rs_live_close(struct remote_src *rs, struct rs_live *lv, uint8_t close_op,
		   void (*done)(void *obj, unsigned host))
{
	struct rs_live **pp;
	sigset_t old;
	char id[16];

	remote_sigpipe_block(&old);
	rs_lock(rs);
	for (pp = &rs->lives; *pp && *pp != lv; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = lv->next;
	for (unsigned i = 0; i < rs->n; i++) {
		snprintf(id, sizeof(id), "%u", lv->id[i]);
		if (lv->id[i] && !rs_gone(&rs->hosts[i]) &&
		    remote_send_request(rs->hosts[i].r, close_op, id, "") < 0)
			log_debug("%s: %s: %s", __func__, rs->hosts[i].label, strerror(errno));
		if (done)
			done(lv->obj, i);
	}
	rs_unlock(rs);
	remote_sigpipe_restore(&old);
}

/* ---- histograms on the agent (histsrc.h) ------------------------------------------------- */

#define RH(h) ((struct rs_hist *)(h))

/* Every host's rows one after the other, their totals and misses summed. UI thread. */
static void rh_gather(struct rs_hist *rh)
{
	unsigned n = rh->rs->n;
	size_t k = 0;

	rh->nrows = 0;
	for (unsigned i = 0; i < n; i++)
		rh->nrows += rh->last[i].nrows;
	free(rh->rows);
	rh->rows = rh->nrows ? xcalloc(rh->nrows, sizeof(*rh->rows)) : NULL;
	memset(&rh->total, 0, sizeof(rh->total));
	rh->missed = 0;
	for (unsigned i = 0; i < n; i++) {
		for (uint32_t j = 0; j < rh->last[i].nrows; j++) {
			rh->rows[k] = rh->last[i].rows[j];
			rh->rows[k++].host = i;
		}
		hist_val_add(&rh->total.cum, &rh->last[i].total.cum);
		hist_val_add(&rh->total.iv, &rh->last[i].total.iv);
		rh->missed += rh->last[i].missed;
	}
	if (rh->last[0].variant[0])
		snprintf(rh->variant, sizeof(rh->variant), "%s", rh->last[0].variant);
}

static bool rh_update(struct kt_histsrc *h)
{
	struct rs_hist *rh = RH(h);
	bool changed = false;

	rs_lock(rh->rs);
	for (unsigned i = 0; i < rh->rs->n; i++) {
		if (!rh->fresh[i])
			continue;
		free(rh->last[i].rows);
		rh->last[i] = rh->in[i];
		rh->in[i].rows = NULL;
		rh->fresh[i] = false;
		changed = true;
	}
	rs_unlock(rh->rs);
	if (changed)
		rh_gather(rh);
	return changed;
}

static size_t rh_rows(struct kt_histsrc *h, const struct kt_hist_row **rows)
{
	*rows = RH(h)->rows;
	return RH(h)->nrows;
}

static const struct kt_hist_row *rh_total(struct kt_histsrc *h)
{
	return &RH(h)->total;
}

static const char *rh_variant(struct kt_histsrc *h)
{
	return RH(h)->variant;
}

static uint64_t rh_missed(struct kt_histsrc *h)
{
	return RH(h)->missed;
}

/* Several hosts: a row's host's label. */
static const char *rh_host_label(struct kt_histsrc *h, unsigned host)
{
	struct remote_src *rs = RH(h)->rs;

	return rs->n > 1 && host < rs->n ? rs->hosts[host].label : NULL;
}

static unsigned int rh_hosts(struct kt_histsrc *h)
{
	return RH(h)->rs->n;
}

/* Each host's frames of it, as the histogram closes. Lock held. */
static void rh_done(void *obj, unsigned host)
{
	struct rs_hist *rh = obj;

	free(rh->in[host].rows);
	free(rh->last[host].rows);
}

/* Out of the list, then closed on the agents. */
static void rh_close(struct kt_histsrc *h)
{
	struct rs_hist *rh = RH(h);

	rs_live_close(rh->rs, &rh->live, KT_REQ_HIST_CLOSE, rh_done);
	free(rh->rows);
	free(rh);
}

static const struct kt_histsrc_ops rh_ops = {
	.update = rh_update,
	.rows = rh_rows,
	.total = rh_total,
	.variant = rh_variant,
	.missed = rh_missed,
	.host_label = rh_host_label,
	.hosts = rh_hosts,
	.close = rh_close,
};

/* The spec's syntax is checked here, as batch mode does; each agent opens it as local
 * batch mode would (app_hist_open) and sends its rows on every tick. All or none: the
 * first host that refuses (or ended) is named with its reason, and the hosts that took it
 * close it again. */
struct kt_histsrc *remote_hist_open(struct kt_source *s, const char *spec, char *err,
				    size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_hist *rh = xcalloc(1, sizeof(*rh));
	char reply[1024];
	const char *via;

	rh->base.ops = &rh_ops;
	rh->rs = rs;
	rh->live = (struct rs_live){ .op = KT_REQ_HIST_LIVE, .obj = rh };
	if (histspec_parse(spec, &rh->base.spec, err, errlen) < 0) {
		free(rh);
		return NULL;
	}
	if (rs_live_open_all(rs, &rh->live, spec, reply, sizeof(reply), err, errlen) < 0) {
		rh_close(&rh->base);
		return NULL;
	}
	/* "SPEC via=VARIANT": the variant until the first rows say it */
	via = strstr(reply, " via=");
	snprintf(rh->variant, sizeof(rh->variant), "%s", via ? via + 5 : "?");
	return &rh->base;
}

/* ---- profiles on the agent (profsrc.h) --------------------------------------------------- */

#define RP(p) ((struct rs_prof *)(p))

/* The stacks of what came since the last update added to into, each host's under its
 * label with several, within a quarter of --memory as a local pane's profile is bounded.
 * UI thread; the frames are taken under the lock, added after it. */
static bool rp_update(struct kt_profsrc *p, struct kt_stacks *into, char *note, size_t len)
{
	struct rs_prof *rp = RP(p);
	struct remote_src *rs = rp->rs;
	struct kt_wbuf got;
	struct kt_profrows rows = { 0 };
	uint64_t dropped = 0, frozen;
	struct kt_rbuf r;
	unsigned host;
	bool changed;
	int ret = 0;

	rs_lock(rs);
	snprintf(note, len, "%s", rp->note);
	rp->note[0] = '\0';
	got = rp->pending;
	memset(&rp->pending, 0, sizeof(rp->pending));
	frozen = rp->pending_dropped;
	rp->pending_dropped = 0;
	rs_unlock(rs);
	changed = got.len > 0;
	rbuf_init(&r, got.data, got.len);
	while (r.left && !r.bad && !ret) {
		host = rbuf_u32(&r);
		rows.nstacks = rbuf_u32(&r);
		rows.stacks_len = (size_t)rbuf_u64(&r);
		rows.stacks = r.p;
		r.p += rows.stacks_len;
		r.left -= rows.stacks_len;
		ret = profrows_add(&rows, into, rs->n > 1 ? rs->hosts[host].label : NULL,
				   rs->app->opts->memory_bytes / 4, &dropped);
	}
	wbuf_free(&got);
	if (ret < 0)
		snprintf(note, len, "%s: out of memory for its stacks", p->name);
	else if (frozen)
		snprintf(note, len, "%s: %" PRIu64 " of the agents' frames left out while the pane "
			 "took none (past %u MiB)", p->name, frozen, RS_PROF_PENDING_MAX >> 20);
	else if (dropped && !note[0])
		snprintf(note, len, "%s: stacks of weight %" PRIu64 " left out: past a quarter of "
			 "--memory", p->name, dropped);
	return changed;
}

/* Out of the list, then closed on the agents: their perf events and BPF programs go. */
static void rp_close(struct kt_profsrc *p)
{
	struct rs_prof *rp = RP(p);

	rs_live_close(rp->rs, &rp->live, KT_REQ_PROFILE_CLOSE, NULL);
	wbuf_free(&rp->pending);
	free(rp);
}

static const struct kt_profsrc_ops rp_ops = {
	.update = rp_update,
	.close = rp_close,
};

/* Each agent samples (or counts its off-CPU time) on its machine, names the frames there
 * and sends the stacks counted since its last tick, every tick of this explorer's. All or
 * none: the first host that refuses (or ended) is named with its reason, and the hosts
 * that took it close it again. The title is the first host's. */
struct kt_profsrc *remote_profile_open(struct kt_source *s,
				       const struct kt_profsrc_req *req, char *err,
				       size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_prof *rp;
	char arg[16];

	if (req->wakers) {
		snprintf(err, errlen, "off-CPU profile: the pane has no wakers over agents yet: "
			 "ktop -b --off-cpu --wakers -H HOST gives them");
		return NULL;
	}
	if (req->faults) {
		snprintf(err, errlen, "not over an agent yet: the agent samples on- and off-CPU "
			 "only (ktop -b --top -H HOST counts the faults)");
		return NULL;
	}
	rp = xcalloc(1, sizeof(*rp));
	rp->base.ops = &rp_ops;
	rp->base.off_cpu = req->off_cpu;
	rp->rs = rs;
	rp->live = (struct rs_live){ .op = KT_REQ_PROFILE_LIVE, .obj = rp };
	if (req->off_cpu)
		snprintf(arg, sizeof(arg), "off-cpu");
	else if (req->freq)
		snprintf(arg, sizeof(arg), "%u", req->freq);
	else
		arg[0] = '\0';
	/* the title: the first host's reply */
	if (rs_live_open_all(rs, &rp->live, arg, rp->base.name, sizeof(rp->base.name), err,
			     errlen) < 0) {
		rp_close(&rp->base);
		return NULL;
	}
	return &rp->base;
}

/* ---- counters on the agents (countersrc.h) ------------------------------------------------ */

#define RC(c) ((struct rs_ctrs *)(c))

static bool rc_update(struct kt_countersrc *c)
{
	struct rs_ctrs *rc = RC(c);
	bool changed = false;

	rs_lock(rc->rs);
	for (unsigned i = 0; i < rc->rs->n; i++) {
		if (!rc->fresh[i])
			continue;
		pmu_snap_free(&rc->last[i]);
		rc->last[i] = rc->in[i];
		memset(&rc->in[i], 0, sizeof(rc->in[i]));
		rc->fresh[i] = false;
		rc->have[i] = changed = true;
	}
	rs_unlock(rc->rs);
	return changed;
}

static unsigned rc_nhosts(struct kt_countersrc *c)
{
	return RC(c)->rs->n;
}

static void rc_host(struct kt_countersrc *c, unsigned i, struct kt_countersrc_host *out)
{
	struct rs_ctrs *rc = RC(c);

	*out = (struct kt_countersrc_host){
		.label = rc->rs->n > 1 ? rc->rs->hosts[i].label : NULL,
		.refusal = rc->refusal[i],
		.snap = rc->have[i] ? &rc->last[i] : NULL,
	};
}

/* Out of the source, closed on the agents (their perf fds go there), freed. */
static void rc_close(struct kt_countersrc *c)
{
	struct rs_ctrs *rc = RC(c);
	struct remote_src *rs = rc->rs;

	rs_live_close(rs, &rc->live, KT_REQ_COUNTERS_CLOSE, NULL);
	rs_lock(rs);
	if (rs->ctrs == rc)
		rs->ctrs = NULL;
	rs_unlock(rs);
	for (unsigned i = 0; i < rs->n; i++) {
		pmu_snap_free(&rc->in[i]);
		pmu_snap_free(&rc->last[i]);
		free(rc->refusal[i]);
	}
	free(rc);
}

static const struct kt_countersrc_ops rc_ops = {
	.update = rc_update,
	.nhosts = rc_nhosts,
	.host = rc_host,
	.close = rc_close,
};

/* The options' counters (the default set, --pmu-event) opened by each agent as local batch
 * mode would (app_pmu_open_events, scoped by its scope), their figures sent on every tick.
 * A host that refuses keeps its reason for the pane; NULL with err (the first host's
 * reason, its label first with several) when none took them. */
struct kt_countersrc *remote_counters_open(struct kt_source *s, char *err,
					   size_t errlen)
{
	struct remote_src *rs = RS(s);
	const struct kt_options *o = rs->app->opts;
	struct rs_ctrs *rc;
	char reply[1024], *specs;
	unsigned took = 0;

	if (rs->ctrs) {
		snprintf(err, errlen, "the counters are open already (one set at a time)");
		return NULL;
	}
	specs = str_join(o->pmu_events, o->n_pmu_events);
	if (!specs) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rc = xcalloc(1, sizeof(*rc));
	rc->base.ops = &rc_ops;
	rc->rs = rs;
	rc->live = (struct rs_live){ .op = KT_REQ_COUNTERS_LIVE, .obj = rc };
	rs_lock(rs);
	rs->ctrs = rc;
	rs_unlock(rs);
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_live_open(&rs->hosts[i], &rc->live, specs, reply, sizeof(reply)) == 0)
			took++;
		else
			rc->refusal[i] = xstrdup(reply);
	}
	free(specs);
	if (took)
		return &rc->base;
	snprintf(err, errlen, "%s%s%s", rs->n > 1 ? rs->hosts[0].label : "", rs->n > 1 ? ": " : "",
		 rc->refusal[0]);
	rc_close(&rc->base);
	return NULL;
}
