// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Function latency: entry to return of one kernel function, per thread. fentry/fexit where
 * the kernel allows them (the loader names the function as the attach target), else
 * kprobe/kretprobe.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned int);
	__type(value, unsigned long long);
} starts SEC(".maps");

static __always_inline int on_entry(void)
{
	unsigned int tid = (unsigned int)bpf_get_current_pid_tgid();
	unsigned long long ts;

	if (!hist_wanted())
		return 0;
	ts = bpf_ktime_get_ns();
	hist_put_start(&starts, &tid, &ts, BPF_ANY);
	return 0;
}

static __always_inline int on_return(void)
{
	unsigned int tid = (unsigned int)bpf_get_current_pid_tgid();
	unsigned long long *ts, now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};

	ts = bpf_map_lookup_elem(&starts, &tid);
	if (!ts)
		return 0;
	hist_key_current(&k);
	hist_add(&k, now - *ts);
	bpf_map_delete_elem(&starts, &tid);
	return 0;
}

SEC("fentry")
int BPF_PROG(fentry_entry)
{
	return on_entry();
}

SEC("fexit")
int BPF_PROG(fexit_return)
{
	return on_return();
}

SEC("kprobe")
int BPF_KPROBE(kprobe_entry)
{
	return on_entry();
}

SEC("kretprobe")
int BPF_KRETPROBE(kretprobe_return)
{
	return on_return();
}
