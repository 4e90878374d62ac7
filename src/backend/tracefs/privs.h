/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What this process may do in the kernel, from its effective capabilities: loading BPF
 * tracing programs needs CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN stands in for either),
 * whatever kernel.unprivileged_bpf_disabled says. tracefs is a matter of file modes (it
 * is root's, mode 0700): no capability but CAP_DAC_OVERRIDE opens it to another user, and
 * root needs none. No curses, no tracefs.
 */
#ifndef KTOP_PRIVS_H
#define KTOP_PRIVS_H

#include <stdbool.h>
#include <stddef.h>

struct kt_privs {
	bool root;	/* euid 0 */
	bool sys_admin; /* CAP_SYS_ADMIN in CapEff */
	bool bpf;	/* CAP_BPF in CapEff */
	bool perfmon;	/* CAP_PERFMON in CapEff */
};

/* Reads euid and CapEff (/proc/self/status); capabilities it cannot read are missing. */
void privs_read(struct kt_privs *pv);
/* NULL when pv may load ktop's BPF programs, else buf filled with one line naming the
 * missing capabilities and the way out ("BPF needs CAP_BPF and CAP_PERFMON; this ktop
 * lacks CAP_BPF (run it as root, ...)"). */
const char *privs_bpf_refusal(const struct kt_privs *pv, char *buf, size_t len);

#endif
