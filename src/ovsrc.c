// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview's figures (ovsrc.h): the source's own, or this machine's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "ovsrc.h"
#include "source/source.h"
#include "xalloc.h"

struct local_ov {
	struct kt_ovsrc base;
	struct kt_overview *ov;
};

#define LO(o) ((struct local_ov *)(o))

static bool local_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	overview_read(LO(o)->ov, snap);
	sysstrip_sample(sys);
	overview_disk_latency(snap, sys);
	return true;
}

static const char *local_source(struct kt_ovsrc *o)
{
	return overview_source(LO(o)->ov);
}

static const char *local_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	return overview_missing(LO(o)->ov, c);
}

static int local_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	return overview_set_syscalls(LO(o)->ov, on, err, errlen);
}

static bool local_syscalls_on(struct kt_ovsrc *o)
{
	return overview_syscalls_on(LO(o)->ov);
}

static void local_close(struct kt_ovsrc *o)
{
	overview_free(LO(o)->ov);
	free(o);
}

static const struct kt_ovsrc_ops local_ops = {
	.update = local_update,
	.source = local_source,
	.missing = local_missing,
	.set_syscalls = local_set_syscalls,
	.syscalls_on = local_syscalls_on,
	.close = local_close,
};

struct kt_ovsrc *ovsrc_local_open(const char *via, bool syscalls)
{
	struct local_ov *lo = xcalloc(1, sizeof(*lo));

	lo->base.ops = &local_ops;
	lo->ov = overview_open(via, syscalls);
	return &lo->base;
}

struct kt_ovsrc *ovsrc_open(struct kt_app *app, const char *via, char *err, size_t errlen)
{
	if (source_has_overview(app->source))
		return source_overview_open(app->source, via, err, errlen);
	/* a recording: the file's events, never this machine's tasks */
	if (app_can(app, KT_CAP_SEEK))
		return ovsrc_recording_open(app, err, errlen);
	if (!app_can(app, KT_CAP_OVERVIEW)) {
		snprintf(err, errlen, "%s", app_refusal(app, KT_CAP_OVERVIEW));
		return NULL;
	}
	return ovsrc_local_open(via, true);
}

bool ovsrc_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	return o->ops->update(o, snap, sys);
}

const char *ovsrc_source(struct kt_ovsrc *o)
{
	return o->ops->source(o);
}

const char *ovsrc_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	return o->ops->missing(o, c);
}

int ovsrc_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	return o->ops->set_syscalls(o, on, err, errlen);
}

bool ovsrc_syscalls_on(struct kt_ovsrc *o)
{
	return o->ops->syscalls_on(o);
}

void ovsrc_close(struct kt_ovsrc *o)
{
	if (o)
		o->ops->close(o);
}
