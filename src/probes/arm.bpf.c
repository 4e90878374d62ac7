// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flight recorder's armed conditions (arm.h), met in the kernel so that nothing is
 * streamed to find them: the start of each matching thread's syscall, wait on a run queue
 * or stretch off the CPU is kept in the thread's own storage, and its end is compared with
 * the conditions' thresholds there. A match is written out to a free slot of its condition
 * (arm.h) at most once per gap; user space polls the slots.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "arm.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct kt_arm_cond conds[KT_ARM_MAX] = {};
const volatile unsigned int n_conds = 0;

/* matches of each condition, fired or not (the slot is filled once per arming) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KT_ARM_MAX);
	__type(key, unsigned int);
	__type(value, struct kt_arm_count);
} counts SEC(".maps");

/* condition i's slots are i * KT_ARM_SLOTS on */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KT_ARM_MAX * KT_ARM_SLOTS);
	__type(key, unsigned int);
	__type(value, struct kt_arm_fire);
} fires SEC(".maps");

/* A thread's stretches being timed; a mask bit per condition its start matched. */
struct arm_task {
	unsigned long long sys_ts, wake_ts, off_ts;
	long nr;
	unsigned int sys_mask, wake_mask, off_mask, pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct arm_task);
} tasks SEC(".maps");

/* Who a condition is about, read once per hook. */
struct who {
	int pid, tid;
	char comm[KT_ARM_COMM];
	bool current; /* task is the one running: its cgroup ancestors can be asked */
};

static __always_inline void who_of(struct who *w, struct task_struct *t, bool current)
{
	w->current = current;
	w->pid = BPF_CORE_READ(t, tgid);
	w->tid = BPF_CORE_READ(t, pid);
	bpf_probe_read_kernel_str(w->comm, sizeof(w->comm), &t->comm);
}

static __always_inline bool comm_is(const struct who *w, const volatile char *want)
{
	for (int i = 0; i < KT_ARM_COMM; i++) {
		if (w->comm[i] != want[i])
			return false;
		if (!want[i])
			break;
	}
	return true;
}

/* The qualifiers of condition i (its kind already matched). cgroup= is asked of the running
 * task only (the parser refuses it on runq, whose start is another task's wakeup). */
static __always_inline bool matches(unsigned int i, const struct who *w, long nr)
{
	const volatile struct kt_arm_cond *c = &conds[i];

	if (c->pid && c->pid != w->pid)
		return false;
	if (c->nr >= 0 && c->nr != nr)
		return false;
	if (c->comm[0] && !comm_is(w, c->comm))
		return false;
	if (!c->cgroup)
		return true;
	return w->current &&
	       bpf_get_current_ancestor_cgroup_id(c->cgroup_level) == c->cgroup;
}

/* Bits of the conditions of kind k that w (in syscall nr) matches. */
static __always_inline unsigned int mask_of(unsigned int k, unsigned int k2, const struct who *w,
					    long nr)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < KT_ARM_MAX && i < n_conds; i++)
		if ((conds[i].kind == k || conds[i].kind == k2) && matches(i, w, nr))
			m |= 1u << i;
	return m;
}

/* A free slot of condition i, claimed (FILLING); NULL when all are taken. */
static __always_inline struct kt_arm_fire *claim(unsigned int i)
{
	struct kt_arm_fire *f;
	unsigned int k;

	for (unsigned int s = 0; s < KT_ARM_SLOTS; s++) {
		k = i * KT_ARM_SLOTS + s;
		f = bpf_map_lookup_elem(&fires, &k);
		if (f && __sync_val_compare_and_swap(&f->state, KT_ARM_ARMED, KT_ARM_FILLING) ==
				 KT_ARM_ARMED)
			return f;
	}
	return NULL;
}

/* Condition i met: a slot is filled, unless it fired less than its gap ago. */
static __always_inline void fire(unsigned int i, const struct who *w, long nr, long ret,
				 unsigned long long start, unsigned long long now,
				 unsigned long long value)
{
	struct kt_arm_count *n = bpf_map_lookup_elem(&counts, &i);
	struct kt_arm_fire *f;

	if (!n || i >= KT_ARM_MAX)
		return;
	__sync_fetch_and_add(&n->matches, 1);
	if (n->last_ts && now - n->last_ts < conds[i].gap_ns)
		return;
	f = claim(i);
	if (!f) {
		__sync_fetch_and_add(&n->full, 1);
		return;
	}
	n->last_ts = now;
	f->cpu = bpf_get_smp_processor_id();
	f->pid = w->pid;
	f->tid = w->tid;
	f->nr = nr;
	f->ret = ret;
	f->start = start;
	f->ts = now;
	f->value = value;
	__builtin_memcpy(f->comm, w->comm, sizeof(f->comm));
	__sync_lock_test_and_set(&f->state, KT_ARM_FIRED);
}

/* Every condition in mask whose threshold ns reaches (syscall, runq, offcpu), or whose
 * errno ret is (errno). */
static __always_inline void check(unsigned int mask, const struct who *w, long nr, long ret,
				  unsigned long long start, unsigned long long now)
{
	unsigned long long ns = now - start;

	for (unsigned int i = 0; i < KT_ARM_MAX && i < n_conds; i++) {
		if (!(mask & (1u << i)))
			continue;
		if (conds[i].kind == KT_ARM_ERRNO) {
			if (ret == -(long)conds[i].err)
				fire(i, w, nr, ret, start, now, (unsigned long long)conds[i].err);
		} else if (ns >= conds[i].min_ns) {
			fire(i, w, nr, ret, start, now, ns);
		}
	}
}

static __always_inline struct arm_task *task_of(struct task_struct *t, bool create)
{
	return bpf_task_storage_get(&tasks, t, 0, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct arm_task *s;
	unsigned int m;
	struct who w;

	who_of(&w, t, true);
	m = mask_of(KT_ARM_SYSCALL, KT_ARM_ERRNO, &w, id);
	if (!m || !(s = task_of(t, true)))
		return 0;
	s->sys_mask = m;
	s->nr = id;
	s->sys_ts = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	unsigned long long now = bpf_ktime_get_ns();
	struct task_struct *t = bpf_get_current_task_btf();
	struct arm_task *s = task_of(t, false);
	unsigned long long start;
	struct who w;

	if (!s || !s->sys_ts)
		return 0;
	start = s->sys_ts;
	s->sys_ts = 0;
	who_of(&w, t, true);
	check(s->sys_mask, &w, s->nr, ret, start, now);
	return 0;
}

/* p is runnable from now: its wait on the run queue starts. */
static __always_inline void runnable(struct task_struct *p, bool current)
{
	struct arm_task *s;
	unsigned int m;
	struct who w;

	who_of(&w, p, current);
	m = mask_of(KT_ARM_RUNQ, KT_ARM_RUNQ, &w, -1);
	if (!m || !(s = task_of(p, true)))
		return;
	s->wake_mask = m;
	s->wake_ts = bpf_ktime_get_ns();
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup, struct task_struct *p)
{
	runnable(p, false);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
	runnable(p, false);
	return 0;
}

/* prev leaves the CPU (it is still the current task here), next takes it. */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	unsigned long long now = bpf_ktime_get_ns(), start;
	struct arm_task *s;
	unsigned int m;
	struct who w;

	who_of(&w, prev, true);
	m = mask_of(KT_ARM_OFFCPU, KT_ARM_OFFCPU, &w, -1);
	if (m && (s = task_of(prev, true))) {
		s->off_mask = m;
		s->off_ts = now;
	}
	if (preempt) /* still runnable: back on the run queue */
		runnable(prev, true);
	s = task_of(next, false);
	if (!s)
		return 0;
	who_of(&w, next, false);
	if (s->wake_ts) {
		start = s->wake_ts;
		s->wake_ts = 0;
		check(s->wake_mask, &w, -1, 0, start, now);
	}
	if (s->off_ts) {
		start = s->off_ts;
		s->off_ts = 0;
		check(s->off_mask, &w, -1, 0, start, now);
	}
	return 0;
}
