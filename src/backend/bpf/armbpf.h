/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flight recorder's kernel conditions (src/probes/arm.bpf.c): loaded with the rows of
 * src/probes/arm.h, only the hooks they need attached (sys_enter/exit for syscall and errno,
 * the scheduler's for runq and offcpu). The kernel fills a free slot of a condition when it
 * is met (at most once per its gap); the caller takes the slots, which frees them. */
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
/* Takes condition i's oldest firing not yet taken into *f, freeing its slot. False: none. */
bool armbpf_take(struct kt_armbpf *a, unsigned int i, struct kt_arm_fire *f);
/* Condition i's counts so far (matches, firings lost to full slots). */
void armbpf_counts(struct kt_armbpf *a, unsigned int i, struct kt_arm_count *c);
/* Detaches and frees. Safe on NULL. */
void armbpf_close(struct kt_armbpf *a);

#endif
