/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bucket arithmetic and map update every histogram program shares (bcc's bits.bpf.h
 * and maps.bpf.h do the same for libbpf-tools). Included by *.bpf.c only. */
#ifndef KTOP_PROBES_HIST_COMMON_BPF_H
#define KTOP_PROBES_HIST_COMMON_BPF_H

#include "hist.h"

#ifndef EEXIST
#define EEXIST 17 /* <errno.h>'s, which a BPF program cannot include */
#endif

/* Set by the loader between open and load. */
const volatile unsigned int hist_scale = KT_SCALE_LOG2;
const volatile unsigned long long hist_step = 1;
const volatile unsigned int hist_by = KT_BY_NONE;
const volatile unsigned int filter_tgid = 0; /* 0: every process */
/* ktop's own process, left out (its map reads would top syscall-latency); 0: none */
const volatile unsigned int exclude_tgid = 0;
/* --cgroup: only tasks in this cgroup v2 id or below it, the cgroup being filter_cgroup_level
 * deep; 0: every cgroup */
const volatile unsigned long long filter_cgroup = 0;
const volatile int filter_cgroup_level = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KT_HIST_MAX_KEYS);
	__type(key, struct kt_hist_key);
	__type(value, struct kt_hist_val);
} hist SEC(".maps");

/* Samples a program had and could not keep: a start or a new row the map refused (full, or
 * since 6.15 its bucket lock not taken: a hash map's update can then fail with -EDEADLK or
 * -ETIMEDOUT). Reported with the runs the kernel skipped, as missed=. */
unsigned long long dropped = 0;

/* Keeps a start, or counts it dropped: the end it waits for would find nothing, silently. */
static __always_inline void hist_put_start(void *map, const void *key, const void *val,
					   unsigned long long flags)
{
	if (bpf_map_update_elem(map, key, val, flags))
		__sync_fetch_and_add(&dropped, 1);
}

/* Bucket of v: floor(log2(v)) for log2, v / step for linear. */
static __always_inline unsigned int hist_slot(unsigned long long v)
{
	unsigned int s = 0;

	if (hist_scale == KT_SCALE_LINEAR) {
		v = hist_step ? v / hist_step : v;
		return v >= KT_HIST_SLOTS - 1 ? KT_HIST_SLOTS - 1 : (unsigned int)v;
	}
	if (v >> 32) { v >>= 32; s += 32; }
	if (v >> 16) { v >>= 16; s += 16; }
	if (v >> 8) { v >>= 8; s += 8; }
	if (v >> 4) { v >>= 4; s += 4; }
	if (v >> 2) { v >>= 2; s += 2; }
	if (v >> 1) s += 1;
	return s;
}

/* The one filter every program applies before it records anything. */
static __always_inline bool hist_wanted(void)
{
	unsigned int tgid = bpf_get_current_pid_tgid() >> 32;

	if ((filter_tgid && tgid != filter_tgid) || (exclude_tgid && tgid == exclude_tgid))
		return false;
	return !filter_cgroup ||
	       bpf_get_current_ancestor_cgroup_id(filter_cgroup_level) == filter_cgroup;
}

/* Fills the parts of the key that come from the current task or CPU. */
static __always_inline void hist_key_current(struct kt_hist_key *k)
{
	switch (hist_by) {
	case KT_BY_PID:
		k->id = bpf_get_current_pid_tgid() >> 32;
		break;
	case KT_BY_TID:
		k->id = (unsigned int)bpf_get_current_pid_tgid();
		break;
	case KT_BY_COMM:
		bpf_get_current_comm(k->name, sizeof(k->name));
		break;
	case KT_BY_CPU:
		k->id = bpf_get_smp_processor_id();
		break;
	case KT_BY_CGROUP:
		k->id = bpf_get_current_cgroup_id();
		break;
	default:
		break;
	}
}

/* Adds v to one row: its bucket, count, sum, smallest and largest. Per-CPU values: plain
 * adds, no atomics. */
static __always_inline void hist_row_add(struct kt_hist_val *h, unsigned long long v)
{
	unsigned int s = hist_slot(v);

	h->slots[s & (KT_HIST_SLOTS - 1)]++;
	if (!h->count || v < h->min)
		h->min = v;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

static __always_inline void hist_add(const struct kt_hist_key *k, unsigned long long v)
{
	static const struct kt_hist_val zero;
	struct kt_hist_val *h;

	h = bpf_map_lookup_elem(&hist, k);
	if (!h) {
		bpf_map_update_elem(&hist, k, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hist, k);
		if (!h) {
			__sync_fetch_and_add(&dropped, 1);
			return;
		}
	}
	hist_row_add(h, v);
}

#endif
