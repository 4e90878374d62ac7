/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The off-CPU stack programs' maps, tunables and steps (offcpu.h says what they keep), shared
 * by the typed variants (offcpustack.bpf.c) and the plain tracepoint one
 * (offcpustack_tp.bpf.c), which are two objects because the typed ones need the kernel's BTF
 * to load and the plain one must not. Included by those two only.
 *
 * On sched_switch the current task is still the one going off the CPU: its thread and
 * process ids, name and both stacks come from the helpers, the same in every variant. Only
 * the task switched to, and whether the one leaving is dying, come from the hook's
 * arguments.
 */
#ifndef KTOP_PROBES_OFFCPUSTACK_BPF_H
#define KTOP_PROBES_OFFCPUSTACK_BPF_H

#include "offcpu.h"

/* <errno.h>'s, which a BPF program cannot include */
#define ENOMEM 12
#define EEXIST 17

#define BPF_F_USER_STACK (1ULL << 8)

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader between open and load: only this process (0: every one), only tasks in
 * this cgroup v2 id or below it (0: every cgroup), only threads of this name ("": all). */
const volatile unsigned int filter_tgid = 0;
const volatile unsigned long long filter_cgroup = 0;
const volatile int filter_cgroup_level = 0;
const volatile char filter_comm[KT_OFFCPU_COMM] = {};

/* What could not be kept, read by the loader: stacks the stack map could not take (its
 * bucket held another stack, -EEXIST, or no room, -ENOMEM; the time still counts, under a
 * stack id of KT_OFFCPU_LOST_STACK), stretches the counts map had no room for (and their
 * time), threads the starts map had no room for, and stretches whose switch back in the
 * program never saw (their end, so their time, is unknown: the task went off the CPU again,
 * or died, with the start still there). */
unsigned long long lost_kstacks = 0;
unsigned long long lost_ustacks = 0;
unsigned long long dropped = 0;
unsigned long long dropped_ns = 0;
unsigned long long starts_dropped = 0;
unsigned long long unended = 0;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, KT_OFFCPU_MAX_STACKS);
	__uint(key_size, sizeof(unsigned int));
	__uint(value_size, KT_OFFCPU_MAX_DEPTH * sizeof(unsigned long long));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_OFFCPU_MAX_STARTS);
	__type(key, unsigned int); /* the thread */
	__type(value, struct kt_offcpu_start);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_OFFCPU_MAX_KEYS);
	__type(key, struct kt_offcpu_key);
	__type(value, struct kt_offcpu_val);
} counts SEC(".maps");

static __always_inline bool wanted(const char *comm)
{
	int i;

	if (filter_tgid && (bpf_get_current_pid_tgid() >> 32) != filter_tgid)
		return false;
	if (filter_cgroup &&
	    bpf_get_current_ancestor_cgroup_id(filter_cgroup_level) != filter_cgroup)
		return false;
	for (i = 0; i < KT_OFFCPU_COMM && filter_comm[0]; i++) {
		if (comm[i] != filter_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

/* A stack id; KT_OFFCPU_LOST_STACK, counted, when the map could not take it; else
 * KT_OFFCPU_NO_STACK (a kernel thread has no user stack: -EFAULT, not a loss). */
static __always_inline int stack_id(void *ctx, unsigned long long flags, unsigned long long *lost)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id >= 0)
		return (int)id;
	if (id != -EEXIST && id != -ENOMEM)
		return KT_OFFCPU_NO_STACK;
	__sync_fetch_and_add(lost, 1);
	return KT_OFFCPU_LOST_STACK;
}

/* The current task goes off the CPU; dying: this is its last switch (it never comes back,
 * so no start is kept for it, and one left by a missed switch-in goes). A task going off
 * the CPU is on it: a start still there is a stretch whose end was never seen. */
static __always_inline void off_cpu(void *ctx, bool dying)
{
	unsigned long long id = bpf_get_current_pid_tgid();
	unsigned int tid = (unsigned int)id;
	struct kt_offcpu_start s = {};
	long r;

	if (!tid) /* a CPU's idle task */
		return;
	if (dying) {
		if (!bpf_map_delete_elem(&starts, &tid))
			__sync_fetch_and_add(&unended, 1);
		return;
	}
	bpf_get_current_comm(s.key.comm, sizeof(s.key.comm));
	if (!wanted(s.key.comm))
		return;
	s.key.tgid = (unsigned int)(id >> 32);
	s.key.kstack = stack_id(ctx, 0, &lost_kstacks);
	s.key.ustack = stack_id(ctx, BPF_F_USER_STACK, &lost_ustacks);
	s.key.waker.kstack = KT_OFFCPU_NO_STACK;
	s.key.waker.ustack = KT_OFFCPU_NO_STACK;
	s.ts = bpf_ktime_get_ns();
	r = bpf_map_update_elem(&starts, &tid, &s, BPF_NOEXIST);
	if (r == -EEXIST) {
		__sync_fetch_and_add(&unended, 1);
		r = bpf_map_update_elem(&starts, &tid, &s, BPF_EXIST);
	}
	if (r)
		__sync_fetch_and_add(&starts_dropped, 1);
}

/* The current task wakes thread tid (sched_waking, in the waker's context): when tid is a
 * thread off the CPU that is counted, the waker's process, name and stacks go into its start,
 * so its stretch is counted under them too. Only the waker writes them: tid is not running
 * until it is woken, and sched_waking fires once per wakeup. */
static __always_inline void waking(void *ctx, unsigned int tid)
{
	struct kt_offcpu_start *s = bpf_map_lookup_elem(&starts, &tid);

	if (!s)
		return;
	s->key.waker.tgid = (unsigned int)(bpf_get_current_pid_tgid() >> 32);
	bpf_get_current_comm(s->key.waker.comm, sizeof(s->key.waker.comm));
	s->key.waker.kstack = stack_id(ctx, 0, &lost_kstacks);
	s->key.waker.ustack = stack_id(ctx, BPF_F_USER_STACK, &lost_ustacks);
}

/* Thread tid comes back on the CPU: its stretch off it goes to its key. */
static __always_inline void on_cpu(unsigned int tid)
{
	static const struct kt_offcpu_val zero;
	unsigned long long now = bpf_ktime_get_ns(), delta;
	struct kt_offcpu_start *s;
	struct kt_offcpu_val *v;

	s = bpf_map_lookup_elem(&starts, &tid);
	if (!s)
		return;
	delta = now > s->ts ? now - s->ts : 0;
	v = bpf_map_lookup_elem(&counts, &s->key);
	if (!v) {
		/* another CPU may add the same key first (-EEXIST): then it is there; a full
		 * map (-E2BIG) has no room for it */
		bpf_map_update_elem(&counts, &s->key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&counts, &s->key);
		if (!v) {
			__sync_fetch_and_add(&dropped, 1);
			__sync_fetch_and_add(&dropped_ns, delta);
			bpf_map_delete_elem(&starts, &tid);
			return;
		}
	}
	__sync_fetch_and_add(&v->ns, delta);
	__sync_fetch_and_add(&v->count, 1);
	bpf_map_delete_elem(&starts, &tid);
}

#endif
