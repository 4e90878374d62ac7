// SPDX-License-Identifier: GPL-2.0-or-later
/* The overview's figures (ovsrc.h), whoever counts them. */
#include "config.h"

#include "ovsrc.h"

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

unsigned int ovsrc_hosts(struct kt_ovsrc *o)
{
	return o->ops->hosts ? o->ops->hosts(o) : 1;
}

bool ovsrc_host(struct kt_ovsrc *o, unsigned int i, struct kt_ovsrc_host *out)
{
	return o->ops->host && o->ops->host(o, i, out);
}

double ovsrc_row_interval(struct kt_ovsrc *o, const struct kt_ov_snap *snap,
			  const struct kt_ov_row *r)
{
	struct kt_ovsrc_host h;

	if (ovsrc_hosts(o) > 1 && ovsrc_host(o, r->host, &h))
		return h.snap->interval_s;
	return snap->interval_s;
}
