// SPDX-License-Identifier: GPL-2.0-or-later
/* This process's privileges (see privs.h). */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "privs.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38
#define CAP_BPF_BIT 39

void privs_read(struct kt_privs *pv)
{
	unsigned long long eff = 0;
	char line[256];
	FILE *f;

	pv->root = geteuid() == 0;
	f = fopen("/proc/self/status", "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "CapEff: %llx", &eff) == 1)
				break;
		fclose(f);
	}
	pv->sys_admin = eff & (1ULL << CAP_SYS_ADMIN_BIT);
	pv->bpf = eff & (1ULL << CAP_BPF_BIT);
	pv->perfmon = eff & (1ULL << CAP_PERFMON_BIT);
}

const char *privs_bpf_refusal(const struct kt_privs *pv, char *buf, size_t len)
{
	bool bpf = pv->bpf || pv->sys_admin, perfmon = pv->perfmon || pv->sys_admin;

	if (bpf && perfmon)
		return NULL;
	snprintf(buf, len, "not permitted: BPF tracing programs need CAP_BPF and CAP_PERFMON, "
		 "and ktop lacks %s (run ktop as root, or give it both: setcap "
		 "cap_bpf,cap_perfmon+ep)", !bpf && !perfmon ? "both" : !bpf ? "CAP_BPF"
		 : "CAP_PERFMON");
	return buf;
}
