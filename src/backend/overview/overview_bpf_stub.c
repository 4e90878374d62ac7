// SPDX-License-Identifier: GPL-2.0-or-later
/* ktop configured with --disable-bpf: the overview reads /proc, and says why. */
#include "config.h"

#include <stdio.h>

#include "overview_local.h"

int ov_bpf_open(struct kt_overview *ov, const char *only, char *why, size_t whylen)
{
	(void)ov;
	(void)only;
	snprintf(why, whylen, "this ktop was built without BPF (configure --disable-bpf)");
	return -1;
}

void ov_bpf_close(struct kt_overview *ov)
{
	(void)ov;
}

int ov_bpf_syscalls(struct kt_overview *ov, bool on, char *err, size_t errlen)
{
	(void)ov;
	(void)on;
	(void)err;
	(void)errlen;
	return -1;
}

void ov_bpf_read_disks(struct kt_overview *ov, struct kt_ov_snap *s)
{
	(void)ov;
	(void)s;
}

void ov_bpf_read(struct kt_overview *ov, struct kt_ov_snap *s, unsigned long long now)
{
	(void)ov;
	(void)s;
	(void)now;
}
