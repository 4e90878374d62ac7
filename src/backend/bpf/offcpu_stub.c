// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop configured with --disable-bpf: the off-CPU profile says why it cannot be. Nothing else
 * is called, since it never opens. */
#include "config.h"

#include <stdio.h>

#include "offcpu.h"

struct kt_offcpu *offcpu_open(const struct kt_offcpu_scope *scope, char *err, size_t errlen)
{
	(void)scope;
	snprintf(err, errlen, "off-CPU profile: this ktop was built without BPF "
		 "(configure --disable-bpf)");
	return NULL;
}

void offcpu_free(struct kt_offcpu *oc)
{
	(void)oc;
}

const char *offcpu_variant(const struct kt_offcpu *oc)
{
	(void)oc;
	return "none";
}

const struct kt_symbolizer *offcpu_symbolizer(const struct kt_offcpu *oc)
{
	(void)oc;
	return NULL;
}

bool offcpu_wakers(const struct kt_offcpu *oc)
{
	(void)oc;
	return false;
}

const char *offcpu_refused(const struct kt_offcpu *oc)
{
	(void)oc;
	return "";
}

int offcpu_poll(struct kt_offcpu *oc, struct kt_stacks *st, char *err, size_t errlen)
{
	(void)oc;
	(void)st;
	snprintf(err, errlen, "built without BPF");
	return -1;
}

void offcpu_stats(const struct kt_offcpu *oc, struct kt_offcpu_stats *out)
{
	(void)oc;
	*out = (struct kt_offcpu_stats){ 0 };
}
