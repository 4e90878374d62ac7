// SPDX-License-Identifier: GPL-2.0-or-later
/* --disable-bpf: the armed kernel conditions cannot be loaded (armbpf.h). */
#include "config.h"

#include <stdio.h>

#include "backend/armbpf.h"

struct kt_armbpf *armbpf_open(const struct kt_arm_cond *conds, size_t n, char *err,
			      size_t errlen)
{
	(void)conds;
	(void)n;
	snprintf(err, errlen, "this ktop was built without BPF (--disable-bpf): only "
		 "event:SYS:EV conditions can be armed");
	return NULL;
}

bool armbpf_fired(struct kt_armbpf *a, unsigned int i, struct kt_arm_fire *f)
{
	(void)a;
	(void)i;
	(void)f;
	return false;
}

int armbpf_rearm(struct kt_armbpf *a, unsigned int i)
{
	(void)a;
	(void)i;
	return -1;
}

unsigned long long armbpf_hits(struct kt_armbpf *a, unsigned int i)
{
	(void)a;
	(void)i;
	return 0;
}

void armbpf_close(struct kt_armbpf *a)
{
	(void)a;
}
