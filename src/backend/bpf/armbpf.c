// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the armed conditions' program and reading its slots (armbpf.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "armbpf.h"
#include "bpfobj.h"
#include "util/log.h"
#include "util/xalloc.h"

#define ARM_PROGS 5

struct kt_armbpf {
	struct bpf_object *obj;
	struct bpf_link *links[ARM_PROGS];
	size_t nlinks;
	int fires_fd, counts_fd;
};

/* The hooks conds need, NULL-terminated into want. */
static void arm_wanted(const struct kt_arm_cond *conds, size_t n, const char **want)
{
	bool sys = false, sched = false;
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		sys |= conds[i].kind == KT_ARM_SYSCALL || conds[i].kind == KT_ARM_ERRNO;
		sched |= conds[i].kind == KT_ARM_RUNQ || conds[i].kind == KT_ARM_OFFCPU;
	}
	if (sys) {
		want[w++] = "sys_enter";
		want[w++] = "sys_exit";
	}
	if (sched) {
		want[w++] = "sched_wakeup";
		want[w++] = "sched_wakeup_new";
		want[w++] = "sched_switch";
	}
	want[w] = NULL;
}

/* Loads a->obj with conds and attaches want. 0, or -1 with why in err. */
static int arm_load(struct kt_armbpf *a, const struct kt_arm_cond *conds, size_t n,
		    const char *const *want, char *err, size_t errlen)
{
	struct kt_arm_cond rows[KT_ARM_MAX] = { 0 };
	struct bpf_link *l;
	int r;

	memcpy(rows, conds, n * sizeof(*conds));
	if (bpfobj_set_bytes(a->obj, "conds", rows, sizeof(rows), err, errlen) < 0 ||
	    bpfobj_set_int(a->obj, "n_conds", n, err, errlen) < 0)
		return -1;
	bpfobj_autoload_only(a->obj, want);
	bpfobj_log_capture();
	r = bpf_object__load(a->obj);
	for (; !r && *want; want++) {
		l = bpf_program__attach(bpfobj_program(a->obj, *want));
		if (!l)
			r = -errno;
		else
			a->links[a->nlinks++] = l;
	}
	if (r) {
		bpfobj_failure_reason(-r, err, errlen);
		return -1;
	}
	bpfobj_log_release();
	a->fires_fd = bpf_object__find_map_fd_by_name(a->obj, "fires");
	a->counts_fd = bpf_object__find_map_fd_by_name(a->obj, "counts");
	return 0;
}

struct kt_armbpf *armbpf_open(const struct kt_arm_cond *conds, size_t n, char *err,
			      size_t errlen)
{
	const char *want[ARM_PROGS + 1];
	struct kt_armbpf *a;

	if (n > KT_ARM_MAX) {
		snprintf(err, errlen, "at most %d kernel conditions may be armed", KT_ARM_MAX);
		return NULL;
	}
	a = xcalloc(1, sizeof(*a));
	a->obj = bpfobj_open("arm");
	if (!a->obj) {
		snprintf(err, errlen, "cannot open the BPF object arm: %s", strerror(errno));
		free(a);
		return NULL;
	}
	arm_wanted(conds, n, want);
	if (arm_load(a, conds, n, want, err, errlen) < 0) {
		armbpf_close(a);
		return NULL;
	}
	log_debug("%s: %zu conditions armed", __func__, n);
	return a;
}

bool armbpf_take(struct kt_armbpf *a, unsigned int i, struct kt_arm_fire *f)
{
	struct kt_arm_fire slot, freed = { .state = KT_ARM_ARMED };
	unsigned int k, best = ~0u;

	for (unsigned int s = 0; s < KT_ARM_SLOTS; s++) {
		k = i * KT_ARM_SLOTS + s;
		if (bpf_map_lookup_elem(a->fires_fd, &k, &slot) || slot.state != KT_ARM_FIRED ||
		    (best != ~0u && slot.ts >= f->ts))
			continue;
		*f = slot;
		best = k;
	}
	/* a FIRED slot is the kernel's no more: freeing it races with nothing */
	return best != ~0u && bpf_map_update_elem(a->fires_fd, &best, &freed, BPF_ANY) == 0;
}

void armbpf_counts(struct kt_armbpf *a, unsigned int i, struct kt_arm_count *c)
{
	memset(c, 0, sizeof(*c));
	bpf_map_lookup_elem(a->counts_fd, &i, c);
}

void armbpf_close(struct kt_armbpf *a)
{
	if (!a)
		return;
	while (a->nlinks)
		bpf_link__destroy(a->links[--a->nlinks]);
	bpf_object__close(a->obj);
	free(a);
}
