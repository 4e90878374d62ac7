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
