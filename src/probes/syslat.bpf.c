// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscall latency: time from sys_enter to sys_exit of the same thread, keyed by syscall,
 * command, process or CPU. Three variants of the same two hooks; the loader keeps the
 * first the kernel accepts: tp_btf (cheapest), raw_tp, then the plain tracepoint.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct start {
	unsigned long long ts;
	long id;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned int);
	__type(value, struct start);
} starts SEC(".maps");

/* exit(2) and exit_group(2), set by the loader: they never return, so a start kept for them
 * would stay for good, one per exited thread, until the map filled. */
const volatile long nr_exit = -1;
const volatile long nr_exit_group = -1;

static __always_inline int on_enter(long id)
{
	unsigned int tid = (unsigned int)bpf_get_current_pid_tgid();
	struct start s;

	if (!hist_wanted() || id == nr_exit || id == nr_exit_group)
		return 0;
	s.ts = bpf_ktime_get_ns();
	s.id = id;
	bpf_map_update_elem(&starts, &tid, &s, BPF_ANY);
	return 0;
}

static __always_inline int on_exit(void)
{
	unsigned int tid = (unsigned int)bpf_get_current_pid_tgid();
	struct kt_hist_key k = {};
	struct start *s;
	unsigned long long now = bpf_ktime_get_ns();

	s = bpf_map_lookup_elem(&starts, &tid);
	if (!s)
		return 0;
	if (hist_by == KT_BY_SYSCALL)
		k.id = (unsigned long long)s->id;
	else
		hist_key_current(&k);
	hist_add(&k, now - s->ts);
	bpf_map_delete_elem(&starts, &tid);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(btf_enter, struct pt_regs *regs, long id)
{
	return on_enter(id);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(btf_exit, struct pt_regs *regs, long ret)
{
	return on_exit();
}

SEC("raw_tp/sys_enter")
int BPF_PROG(raw_enter, struct pt_regs *regs, long id)
{
	return on_enter(id);
}

SEC("raw_tp/sys_exit")
int BPF_PROG(raw_exit, struct pt_regs *regs, long ret)
{
	return on_exit();
}

SEC("tracepoint/raw_syscalls/sys_enter")
int tp_enter(struct trace_event_raw_sys_enter *ctx)
{
	return on_enter(BPF_CORE_READ(ctx, id));
}

SEC("tracepoint/raw_syscalls/sys_exit")
int tp_exit(struct trace_event_raw_sys_exit *ctx)
{
	return on_exit();
}
