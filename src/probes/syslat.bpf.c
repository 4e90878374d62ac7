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
	unsigned long long ts; /* 0: no syscall of this thread is being timed */
	long id;
};

/* The start of each thread's syscall in the thread's own storage: a lookup in the task
 * rather than a hash update and delete under a bucket lock on every call. It goes with
 * the thread, so the starts of exit(2), which never returns, need no sweeping. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct start);
} starts SEC(".maps");

/* by=syscall: the rows of syscall numbers below KT_HIST_SYSCALLS, found by index (the
 * verifier inlines the lookup) rather than by hashing the whole key into the hash */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KT_HIST_SYSCALLS);
	__type(key, unsigned int);
	__type(value, struct kt_hist_val);
} hist_syscalls SEC(".maps");

static __always_inline int on_enter(long id)
{
	struct start *s;

	if (!hist_wanted())
		return 0;
	s = bpf_task_storage_get(&starts, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s) { /* no memory for the task's storage, or its lock busy */
		__sync_fetch_and_add(&dropped, 1);
		return 0;
	}
	s->id = id;
	s->ts = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int on_exit(void)
{
	unsigned long long now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};
	struct kt_hist_val *row;
	struct start *s;
	unsigned int nr;

	s = bpf_task_storage_get(&starts, bpf_get_current_task_btf(), 0, 0);
	if (!s || !s->ts)
		return 0;
	if (hist_by == KT_BY_SYSCALL && (unsigned long)s->id < KT_HIST_SYSCALLS) {
		nr = (unsigned int)s->id;
		row = bpf_map_lookup_elem(&hist_syscalls, &nr);
		if (row)
			hist_row_add(row, now - s->ts);
	} else {
		if (hist_by == KT_BY_SYSCALL)
			k.id = (unsigned long long)s->id;
		else
			hist_key_current(&k);
		hist_add(&k, now - s->ts);
	}
	s->ts = 0;
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
