// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor of the histogram bench (tests/bench/hist.sh): a syscall-latency histogram
 * written the plain way by hand (ktop's per-CPU start slot, src/probes/syslat.bpf.c, now
 * costs less). sys_enter notes the time in the thread's own storage;
 * sys_exit adds the nanoseconds since to one log2 bucket of a per-CPU array. No key, no
 * filter, no hash (hist_common.bpf.h's map is declared but never used): what is left is
 * the cost of the two hooks, the clock and the storage.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hist_common.bpf.h" /* hist_slot(): the same log2 buckets as ktop's */

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, unsigned long long);
} floor_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KT_HIST_SLOTS);
	__type(key, unsigned int);
	__type(value, unsigned long long);
} floor_slots SEC(".maps");

SEC("tp_btf/sys_enter")
int BPF_PROG(floor_enter)
{
	unsigned long long *ts = bpf_task_storage_get(&floor_start, bpf_get_current_task_btf(), 0,
						      BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (ts)
		*ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(floor_exit)
{
	unsigned long long now = bpf_ktime_get_ns(), *ts, *n;
	unsigned int s;

	ts = bpf_task_storage_get(&floor_start, bpf_get_current_task_btf(), 0, 0);
	if (!ts || !*ts)
		return 0;
	s = hist_slot(now - *ts);
	*ts = 0;
	n = bpf_map_lookup_elem(&floor_slots, &s);
	if (n)
		(*n)++;
	return 0;
}
