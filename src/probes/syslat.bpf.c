// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscall latency: time from sys_enter to sys_exit of the same thread, keyed by syscall,
 * command, process or CPU. Three variants of the same two hooks; the loader keeps the
 * first the kernel accepts: tp_btf (cheapest, with a third hook on sched_switch), raw_tp,
 * then the plain tracepoint.
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

/*
 * tp_btf: the start of the syscall in flight on each CPU, in a per-CPU slot, which costs
 * less than the thread's storage (the two lookups were most of what the histogram cost
 * beyond its hooks and clock). A thread switched out before its syscall returns takes its
 * start to its own storage (btf_switch), so the slot only ever holds the current thread's:
 * a thread cannot leave its CPU, nor another enter a syscall there, without a switch.
 */
struct cpu_start {
	unsigned int tid; /* whose start ts is; ts 0: none */
	unsigned int pad;
	long id;
	unsigned long long ts;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct cpu_start);
} cpu_starts SEC(".maps");

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

/* One syscall of id that took ns, in its row. */
static __always_inline void record(long id, unsigned long long ns)
{
	struct kt_hist_key k = {};
	struct kt_hist_val *row;
	unsigned int nr;

	if (hist_by == KT_BY_SYSCALL && (unsigned long)id < KT_HIST_SYSCALLS) {
		nr = (unsigned int)id;
		row = bpf_map_lookup_elem(&hist_syscalls, &nr);
		if (row)
			hist_row_add(row, ns);
	} else {
		if (hist_by == KT_BY_SYSCALL)
			k.id = (unsigned long long)id;
		else
			hist_key_current(&k);
		hist_add(&k, ns);
	}
}

/* The start in the thread's storage: taken, and recorded against now. */
static __always_inline int exit_from_task(unsigned long long now)
{
	struct start *s = bpf_task_storage_get(&starts, bpf_get_current_task_btf(), 0, 0);

	if (!s || !s->ts)
		return 0;
	record(s->id, now - s->ts);
	s->ts = 0;
	return 0;
}

static __always_inline int on_exit(void)
{
	return exit_from_task(bpf_ktime_get_ns());
}

static __always_inline int on_enter_cpu(long id)
{
	unsigned int zero = 0;
	struct cpu_start *c;

	if (!hist_wanted())
		return 0;
	c = bpf_map_lookup_elem(&cpu_starts, &zero);
	if (!c)
		return 0;
	c->tid = (unsigned int)bpf_get_current_pid_tgid();
	c->id = id;
	c->ts = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int on_exit_cpu(void)
{
	unsigned long long now = bpf_ktime_get_ns(), ts;
	unsigned int zero = 0;
	struct cpu_start *c = bpf_map_lookup_elem(&cpu_starts, &zero);

	if (!c || !c->ts || c->tid != (unsigned int)bpf_get_current_pid_tgid())
		return exit_from_task(now); /* switched out since it entered */
	ts = c->ts;
	c->ts = 0;
	record(c->id, now - ts);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(btf_enter, struct pt_regs *regs, long id)
{
	return on_enter_cpu(id);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(btf_exit, struct pt_regs *regs, long ret)
{
	return on_exit_cpu();
}

/* prev leaves its CPU: the start of its syscall in flight goes with it, to its storage. A
 * start of another thread can only be there if a run of this program was missed (it is
 * attached first); it is dropped with the slot, which the next thread's syscall needs. */
SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned int zero = 0;
	struct cpu_start *c = bpf_map_lookup_elem(&cpu_starts, &zero);
	struct start *s;

	if (!c || !c->ts)
		return 0;
	if (c->tid == (unsigned int)prev->pid) {
		s = bpf_task_storage_get(&starts, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (s) {
			s->id = c->id;
			s->ts = c->ts;
		} else {
			__sync_fetch_and_add(&dropped, 1);
		}
	}
	c->ts = 0;
	return 0;
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
