// SPDX-License-Identifier: GPL-2.0-or-later
/* --disable-bpf: the armed kernel conditions cannot be loaded (armbpf.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "armbpf.h"

struct kt_armbpf *armbpf_open(const struct kt_arm_cond *conds, size_t n, char *err,
			      size_t errlen)
{
	(void)conds;
	(void)n;
	snprintf(err, errlen, "this ktop was built without BPF (--disable-bpf): only "
		 "event:SYS:EV conditions can be armed");
	return NULL;
}

bool armbpf_take(struct kt_armbpf *a, unsigned int i, struct kt_arm_fire *f)
{
	(void)a;
	(void)i;
	(void)f;
	return false;
}

void armbpf_counts(struct kt_armbpf *a, unsigned int i, struct kt_arm_count *c)
{
	(void)a;
	(void)i;
	memset(c, 0, sizeof(*c));
}

void armbpf_close(struct kt_armbpf *a)
{
	(void)a;
}
