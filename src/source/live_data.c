// SPDX-License-Identifier: GPL-2.0-or-later
/* What the histogram, counters, overview and flame panes draw when the source is this
 * machine's kernel (live_data.h): BPF histograms and perf counters the app owns and
 * app_tick reads, the overview's BPF object, and an on- or off-CPU profile. The remote
 * source has its own of each (an agent's); a pane opens them through the source alone. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/bpf/bpfhist.h"
#include "backend/bpf/offcpu.h"
#include "backend/perf/pmu.h"
#include "backend/perf/profile.h"
#include "backend/stacks/stacks.h"
#include "countersrc.h"
#include "histsrc.h"
#include "app/options.h"
#include "ovsrc.h"
#include "profsrc.h"
#include "source/live_data.h"
#include "source/source.h"
#include "util/xalloc.h"

/* ---- histograms: one of this machine's, owned by the app (app_hist_close) ---------- */

struct local_hist {
	struct kt_histsrc base;
	struct kt_app *app;
	struct kt_bpfhist *h;
};

#define LH(h) ((struct local_hist *)(h))

static bool hist_update(struct kt_histsrc *h)
{
	(void)h; /* app_tick read the map just before the pane's tick */
	return true;
}

static size_t hist_rows(struct kt_histsrc *h, const struct kt_hist_row **rows)
{
	return bpfhist_rows(LH(h)->h, rows);
}

static const struct kt_hist_row *hist_total(struct kt_histsrc *h)
{
	return bpfhist_total(LH(h)->h);
}

static const char *hist_variant(struct kt_histsrc *h)
{
	return bpfhist_variant(LH(h)->h);
}

static uint64_t hist_missed(struct kt_histsrc *h)
{
	return bpfhist_missed(LH(h)->h);
}

static void hist_close(struct kt_histsrc *h)
{
	app_hist_close(LH(h)->app, LH(h)->h);
	free(h);
}

static const struct kt_histsrc_ops hist_ops = {
	.update = hist_update,
	.rows = hist_rows,
	.total = hist_total,
	.variant = hist_variant,
	.missed = hist_missed,
	.close = hist_close,
};

struct kt_histsrc *live_hist_open(struct kt_source *s, const char *spec, char *err,
				  size_t errlen)
{
	struct kt_bpfhist *h = app_hist_open(s->app, spec, err, errlen);
	struct local_hist *lh;

	if (!h)
		return NULL;
	lh = xcalloc(1, sizeof(*lh));
	lh->base.ops = &hist_ops;
	lh->base.spec = *bpfhist_spec(h);
	lh->app = s->app;
	lh->h = h;
	return &lh->base;
}

/* ---- counters: this machine's set, owned by the app (app_pmu_close) ---------------- */

struct local_counters {
	struct kt_countersrc base;
	struct kt_app *app;
	struct kt_pmu_snap snap;
};

#define LC(c) ((struct local_counters *)(c))

static bool counters_update(struct kt_countersrc *c)
{
	/* app_tick read the set just before the pane's tick */
	if (!LC(c)->app->pmu)
		return false;
	pmu_snap_take(LC(c)->app->pmu, &LC(c)->snap);
	return true;
}

static unsigned counters_nhosts(struct kt_countersrc *c)
{
	(void)c;
	return 1;
}

static void counters_host(struct kt_countersrc *c, unsigned i, struct kt_countersrc_host *out)
{
	(void)i;
	*out = (struct kt_countersrc_host){ .snap = &LC(c)->snap };
}

static void counters_close(struct kt_countersrc *c)
{
	app_pmu_close(LC(c)->app);
	pmu_snap_free(&LC(c)->snap);
	free(c);
}

static const struct kt_countersrc_ops counters_ops = {
	.update = counters_update,
	.nhosts = counters_nhosts,
	.host = counters_host,
	.close = counters_close,
};

struct kt_countersrc *live_counters_open(struct kt_source *s, char *err, size_t errlen)
{
	struct local_counters *lc;

	if (app_pmu_open(s->app, err, errlen) < 0)
		return NULL;
	lc = xcalloc(1, sizeof(*lc));
	lc->base.ops = &counters_ops;
	lc->app = s->app;
	counters_update(&lc->base);
	return &lc->base;
}

/* ---- the overview: this machine's BPF object (or /proc) ---------------------------- */

struct local_ov {
	struct kt_ovsrc base;
	struct kt_overview *ov;
};

#define LO(o) ((struct local_ov *)(o))

static bool ov_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	overview_read(LO(o)->ov, snap);
	sysstrip_sample(sys);
	overview_read_disks(LO(o)->ov, snap); /* at diskstats' instant */
	overview_disk_latency(snap, sys);
	return true;
}

static const char *ov_source(struct kt_ovsrc *o)
{
	return overview_source(LO(o)->ov);
}

static const char *ov_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	return overview_missing(LO(o)->ov, c);
}

static int ov_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	return overview_set_syscalls(LO(o)->ov, on, err, errlen);
}

static bool ov_syscalls_on(struct kt_ovsrc *o)
{
	return overview_syscalls_on(LO(o)->ov);
}

static void ov_close(struct kt_ovsrc *o)
{
	overview_free(LO(o)->ov);
	free(o);
}

static const struct kt_ovsrc_ops ov_ops = {
	.update = ov_update,
	.source = ov_source,
	.missing = ov_missing,
	.set_syscalls = ov_set_syscalls,
	.syscalls_on = ov_syscalls_on,
	.close = ov_close,
};

struct kt_ovsrc *ovsrc_local_open(const char *via, bool syscalls)
{
	struct local_ov *lo = xcalloc(1, sizeof(*lo));

	lo->base.ops = &ov_ops;
	lo->ov = overview_open(via, syscalls);
	return &lo->base;
}

struct kt_ovsrc *live_overview_open(struct kt_source *s, const char *via, char *err,
				    size_t errlen)
{
	(void)s;
	(void)err;
	(void)errlen;
	return ovsrc_local_open(via, true);
}

/* ---- profiles: profile.h (on-CPU) or offcpu.h sampled here ------------------------- */

struct local_prof {
	struct kt_profsrc base;
	struct kt_profile *prof; /* on-CPU, or */
	struct kt_offcpu *oc;	 /* off-CPU */
};

#define LP(p) ((struct local_prof *)(p))

static bool prof_update(struct kt_profsrc *p, struct kt_stacks *into, char *note, size_t len)
{
	note[0] = '\0';
	if (LP(p)->prof)
		return profile_poll(LP(p)->prof, into) > 0;
	/* a failed poll is said; a good one forgets the last failure ("" note) */
	return offcpu_poll(LP(p)->oc, into, note, len) == 0;
}

static void prof_set_cpu(struct kt_profsrc *p, int cpu)
{
	struct kt_profile_scope sc = { .cpu = cpu };

	profile_set_scope(LP(p)->prof, &sc);
}

static void prof_close(struct kt_profsrc *p)
{
	profile_close(LP(p)->prof);
	offcpu_free(LP(p)->oc);
	free(p);
}

static const struct kt_profsrc_ops oncpu_ops = {
	.update = prof_update,
	.set_cpu = prof_set_cpu,
	.close = prof_close,
};

/* a task blocks on one CPU and may wake on another: no CPU choice */
static const struct kt_profsrc_ops offcpu_ops = {
	.update = prof_update,
	.close = prof_close,
};

static int oncpu_open(struct kt_app *app, struct local_prof *lp,
		      const struct kt_profsrc_req *req, char *err, size_t errlen)
{
	const struct kt_options *o = app->opts;
	struct kt_profile_opts po = { .freq = req->freq, .pids = o->pids, .npids = o->n_pids,
				      .comm = o->comm, .max_bytes = o->memory_bytes / 4 };
	struct kt_profile_scope scope = { .cpu = -1, .pid = req->pid };

	if (req->faults) {
		/* the process's own threads (and what they start), not every CPU's filtered */
		po.faults = true;
		po.pids = &req->pid;
		po.npids = 1;
	}
	lp->prof = profile_open(&po, err, errlen);
	if (!lp->prof)
		return -1;
	if (req->pid)
		profile_set_scope(lp->prof, &scope);
	lp->base.ops = &oncpu_ops;
	snprintf(lp->base.name, sizeof(lp->base.name), "%s", profile_event_name(lp->prof));
	return 0;
}

static int offcpu_start(struct kt_app *app, struct local_prof *lp,
			const struct kt_profsrc_req *req, char *err, size_t errlen)
{
	struct kt_offcpu_scope sc;

	if (app_offcpu_scope(app, &sc, err, errlen) < 0)
		return -1;
	if (req->pid) /* the drilled process alone, whatever -p said */
		sc.tgid = (unsigned int)req->pid;
	sc.wakers = req->wakers;
	lp->oc = offcpu_open(&sc, err, errlen);
	if (!lp->oc)
		return -1;
	lp->base.ops = &offcpu_ops;
	lp->base.off_cpu = true;
	snprintf(lp->base.name, sizeof(lp->base.name), "off-CPU%s, %s",
		 req->wakers ? " + wakers" : "", offcpu_variant(lp->oc));
	return 0;
}

struct kt_profsrc *live_profile_open(struct kt_source *s, const struct kt_profsrc_req *req,
				     char *err, size_t errlen)
{
	struct local_prof *lp = xcalloc(1, sizeof(*lp));
	size_t n;

	if ((req->off_cpu ? offcpu_start : oncpu_open)(s->app, lp, req, err, errlen) < 0) {
		free(lp);
		return NULL;
	}
	n = strlen(lp->base.name);
	if (req->pid)
		snprintf(lp->base.name + n, sizeof(lp->base.name) - n, ", pid %d", (int)req->pid);
	return &lp->base;
}
