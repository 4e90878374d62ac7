// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the histogram bench's hooks cost with nothing in them (tests/bench/hist.sh): a pair
 * of programs on sys_enter and sys_exit that only count the exits (one per-CPU slot, so
 * the bench can see they ran). No clock, no storage, no histogram: any syscall-latency
 * histogram on these hooks costs at least this much. Built three times: as tp_btf programs
 * (ktop's first choice); with KT_HOOKS_TRACEPOINT, as plain tracepoint programs (the hooks
 * bpftrace uses, and ktop's via=tracepoint); with KT_HOOKS_CLOCK, as tp_btf programs that
 * also read the clock at both ends and keep the start in a per-CPU slot (less than any
 * latency histogram does: it needs the start per thread), counting the exits whose
 * latency is sane.
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

#if defined(KT_HOOKS_CLOCK)
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, unsigned long long);
} clock_start SEC(".maps");

SEC("tp_btf/sys_enter")
int BPF_PROG(hooks_enter)
{
	unsigned int s = 0;
	unsigned long long *t = bpf_map_lookup_elem(&clock_start, &s);

	if (t)
		*t = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(hooks_exit)
{
	unsigned long long now = bpf_ktime_get_ns(), *t;
	unsigned int s = 0;

	t = bpf_map_lookup_elem(&clock_start, &s);
	if (t && *t && now - *t < (1ull << 40))
		count_exit();
	return 0;
}
#elif defined(KT_HOOKS_TRACEPOINT)
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
