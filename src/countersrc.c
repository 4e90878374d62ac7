// SPDX-License-Identifier: GPL-2.0-or-later
/* The counters pane's data (countersrc.h): the source's counters, or perf's here. */
#include "config.h"

#include <stdlib.h>

#include "app.h"
#include "backend/pmu.h"
#include "countersrc.h"
#include "xalloc.h"

/* This machine's set, owned by the app (app_pmu_close), read by app_tick. */
struct local_counters {
	struct kt_countersrc base;
	struct kt_app *app;
	struct kt_pmu_snap snap;
};

#define LC(c) ((struct local_counters *)(c))

static bool local_update(struct kt_countersrc *c)
{
	/* app_tick read the set just before the pane's tick */
	if (!LC(c)->app->pmu)
		return false;
	pmu_snap_take(LC(c)->app->pmu, &LC(c)->snap);
	return true;
}

static unsigned local_nhosts(struct kt_countersrc *c)
{
	(void)c;
	return 1;
}

static void local_host(struct kt_countersrc *c, unsigned i, struct kt_countersrc_host *out)
{
	(void)i;
	*out = (struct kt_countersrc_host){ .snap = &LC(c)->snap };
}

static void local_close(struct kt_countersrc *c)
{
	app_pmu_close(LC(c)->app);
	pmu_snap_free(&LC(c)->snap);
	free(c);
}

static const struct kt_countersrc_ops local_ops = {
	.update = local_update,
	.nhosts = local_nhosts,
	.host = local_host,
	.close = local_close,
};

struct kt_countersrc *countersrc_open(struct kt_app *app, char *err, size_t errlen)
{
	struct local_counters *lc;

	if (source_has_counters(app->source))
		return source_counters_open(app->source, err, errlen);
	if (app_pmu_open(app, err, errlen) < 0)
		return NULL;
	lc = xcalloc(1, sizeof(*lc));
	lc->base.ops = &local_ops;
	lc->app = app;
	local_update(&lc->base);
	return &lc->base;
}

void countersrc_close(struct kt_countersrc *c)
{
	if (c)
		c->ops->close(c);
}
