// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the histogram bench's hooks cost with nothing in them (tests/bench/hist.sh): a pair
 * of programs on sys_enter and sys_exit that only count the exits (one per-CPU slot, so
 * the bench can see they ran). No clock, no storage, no histogram: any syscall-latency
 * histogram on these hooks costs at least this much. Built twice: as tp_btf programs
 * (ktop's first choice) and, with KT_HOOKS_TRACEPOINT, as plain tracepoint programs (the
 * hooks bpftrace uses, and ktop's via=tracepoint).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1); /* hist_floor reads floor_slots, as the floor's */
	__type(key, unsigned int);
	__type(value, unsigned long long);
} floor_slots SEC(".maps");

static __always_inline void count_exit(void)
{
	unsigned int s = 0;
	unsigned long long *n = bpf_map_lookup_elem(&floor_slots, &s);

	if (n)
		(*n)++;
}

#ifdef KT_HOOKS_TRACEPOINT
SEC("tracepoint/raw_syscalls/sys_enter")
int hooks_enter(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int hooks_exit(void *ctx)
{
	(void)ctx;
	count_exit();
	return 0;
}
#else
SEC("tp_btf/sys_enter")
int BPF_PROG(hooks_enter)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(hooks_exit)
{
	count_exit();
	return 0;
}
#endif
