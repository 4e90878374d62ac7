/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flight recorder's kernel conditions (src/probes/arm.bpf.c): loaded with the rows of
 * src/probes/arm.h, only the hooks they need attached (sys_enter/exit for syscall and errno,
 * the scheduler's for runq and offcpu). The kernel fills a condition's slot once when it is
 * met; the caller polls the slots and re-arms a condition when it is ready for another. */
#ifndef KTOP_BACKEND_ARMBPF_H
#define KTOP_BACKEND_ARMBPF_H

#include <stdbool.h>
#include <stddef.h>

#include "src/probes/arm.h"

struct kt_armbpf;

/* Loads and attaches conds[0..n) (n <= KT_ARM_MAX), all armed. NULL with a one-line reason
 * (the verifier's, a missing BTF, not built with BPF). */
struct kt_armbpf *armbpf_open(const struct kt_arm_cond *conds, size_t n, char *err,
			      size_t errlen);
/* True when condition i has fired since it was armed, its slot in *f. */
bool armbpf_fired(struct kt_armbpf *a, unsigned int i, struct kt_arm_fire *f);
/* Arms condition i again. 0, or -1 with errno. */
int armbpf_rearm(struct kt_armbpf *a, unsigned int i);
/* Matches of condition i so far, fired or not. */
unsigned long long armbpf_hits(struct kt_armbpf *a, unsigned int i);
/* Detaches and frees. Safe on NULL. */
void armbpf_close(struct kt_armbpf *a);

#endif
