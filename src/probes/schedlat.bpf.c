// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scheduler histograms with BTF-typed hooks: runq-latency (sched_wakeup and
 * sched_wakeup_new of a task -> sched_switch to it) and offcpu (sched_switch away from a
 * task -> sched_switch back to it), matched on the thread id read from the task_struct
 * the hook is given (CO-RE). tp_btf and raw_tp variants of the same hooks; the plain
 * tracepoint variant is tphist.bpf.c. Keys and the pid= filter mean what they mean there,
 * so every variant counts the same: by=pid|tid|comm|cpu is the current task or CPU, the
 * fields next_comm and next_pid are the task switched to.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* by=FIELD, resolved by the loader: which field of the task switched to */
const volatile unsigned int key_next = KT_SCHED_KEY_NONE;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned long long);
	__type(value, unsigned long long);
} starts SEC(".maps");

/* offcpu: stretches whose switch back in was never seen (the task went off the CPU again, or
 * died, with its start still there): not timed, and the loader counts them as missed. */
unsigned long long unended = 0;

/* A start for t; off: t is going off the CPU, so it is on it, and a start still there is
 * unended (runq-latency's wakeups may come twice before a switch in: the later one wins). */
static __always_inline void start(struct task_struct *t, bool off)
{
	unsigned long long m, ts;
	long r;

	if (!hist_wanted())
		return;
	m = (unsigned int)BPF_CORE_READ(t, pid);
	ts = bpf_ktime_get_ns();
	if (!off) {
		hist_put_start(&starts, &m, &ts, BPF_ANY);
		return;
	}
	r = bpf_map_update_elem(&starts, &m, &ts, BPF_NOEXIST);
	if (r == -EEXIST) {
		__sync_fetch_and_add(&unended, 1);
		hist_put_start(&starts, &m, &ts, BPF_EXIST);
	} else if (r) {
		__sync_fetch_and_add(&dropped, 1);
	}
}

#define TASK_DEAD 0x80

/* offcpu: a task's last switch, as it dies: it never comes back, so no start is kept and any
 * left from a missed switch-in goes (one per exited task would fill the map); the tracepoint
 * variant does the same on the switches whose prev_state the kernel reports as X or Z. */
static __always_inline bool last_switch(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state) & TASK_DEAD;
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state) & TASK_DEAD;
}

/* Its start, if a switch back in was skipped (a run the kernel missed). */
static __always_inline void forget(struct task_struct *t)
{
	unsigned long long m = (unsigned int)BPF_CORE_READ(t, pid);

	if (!bpf_map_delete_elem(&starts, &m))
		__sync_fetch_and_add(&unended, 1);
}

static __always_inline void end(struct task_struct *next)
{
	unsigned long long m, *ts, now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};

	m = (unsigned int)BPF_CORE_READ(next, pid);
	ts = bpf_map_lookup_elem(&starts, &m);
	if (!ts)
		return;
	if (key_next == KT_SCHED_KEY_COMM)
		BPF_CORE_READ_STR_INTO(&k.name, next, comm);
	else if (key_next == KT_SCHED_KEY_PID)
		k.id = m;
	else
		hist_key_current(&k);
	if (now > *ts)
		hist_add(&k, now - *ts);
	bpf_map_delete_elem(&starts, &m);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(btf_wakeup, struct task_struct *p)
{
	start(p, false);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(btf_wakeup_new, struct task_struct *p)
{
	start(p, false);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch_in, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	end(next);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (last_switch(prev))
		forget(prev);
	else
		start(prev, true);
	end(next);
	return 0;
}

SEC("raw_tp/sched_wakeup")
int BPF_PROG(raw_wakeup, struct task_struct *p)
{
	start(p, false);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(raw_wakeup_new, struct task_struct *p)
{
	start(p, false);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_switch_in, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	end(next);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	if (last_switch(prev))
		forget(prev);
	else
		start(prev, true);
	end(next);
	return 0;
}
