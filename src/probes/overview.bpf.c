// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview's counters (overview.h): one record per thread on the scheduler, syscall and
 * block hooks, tp_btf and raw_tp variants of each. No event leaves the kernel: user space
 * reads the records once per tick (src/backend/overview/overview.c).
 *
 * A thread's time is split by its state between two of its own hooks: on a CPU (per-CPU
 * slot, from switch-in to switch-out), waiting for one (wake-up or preemption to
 * switch-in: the run-queue wait), and blocked (switch-out to wake-up), S or D as the task's
 * state said at switch-out. Faults are the kernel's own per-task counts read at switch-out.
 * Records are written by the CPU the thread runs on, except a wake-up's and a migration's,
 * which another CPU may do: a race there costs one stretch, never a record. Block requests'
 * latencies go per disk (block_rq_complete, from the request's own start time).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "overview.h"
#include "rqdev.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define TASK_UNINTERRUPTIBLE 0x2
#define TASK_DEAD 0x80
#define TASK_NOLOAD 0x400 /* TASK_IDLE kernel threads: asleep, not in D */
#define MAX_ERRNO 4095
#define REQ_OP_MASK 0xff

/* threads the hash had no room for (their events go to "other") */
unsigned long long other_threads = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_OV_MAX_TASKS);
	__type(key, unsigned int);
	__type(value, struct kt_ov_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct kt_ov_task);
} other SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, unsigned int);
	__type(value, struct kt_ov_cpu);
} cpus SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_OV_MAX_DISKS);
	__type(key, unsigned int);
	__type(value, struct kt_ov_disk);
} disks SEC(".maps");

static __always_inline unsigned int slot(unsigned long long v)
{
	unsigned int s = 0;

	if (v >> 32) { v >>= 32; s += 32; }
	if (v >> 16) { v >>= 16; s += 16; }
	if (v >> 8) { v >>= 8; s += 8; }
	if (v >> 4) { v >>= 4; s += 4; }
	if (v >> 2) { v >>= 2; s += 2; }
	if (v >> 1) s += 1;
	return s < KT_OV_SLOTS ? s : KT_OV_SLOTS - 1;
}

static __always_inline struct kt_ov_task *other_rec(void)
{
	unsigned int zero = 0;

	return bpf_map_lookup_elem(&other, &zero);
}

static __always_inline struct kt_ov_cpu *cpu_rec(void)
{
	unsigned int zero = 0;

	return bpf_map_lookup_elem(&cpus, &zero);
}

static __always_inline void init_rec(struct kt_ov_task *r, struct task_struct *t,
				     unsigned int state, unsigned long long now)
{
	r->tgid = (unsigned int)BPF_CORE_READ(t, tgid);
	r->state = state;
	r->since = now;
	r->born = now;
	r->minflt0 = BPF_CORE_READ(t, min_flt);
	r->majflt0 = BPF_CORE_READ(t, maj_flt);
	BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
}

/* t's record, made when it is new; NULL when the hash is full (counted). The record is
 * too big for the BPF stack: a zeroed one goes in, then its fields are set in place. */
static __always_inline struct kt_ov_task *task_rec(struct task_struct *t, unsigned int state,
						   unsigned long long now)
{
	static const struct kt_ov_task zero;
	unsigned int tid = (unsigned int)BPF_CORE_READ(t, pid);
	struct kt_ov_task *r;

	r = bpf_map_lookup_elem(&tasks, &tid);
	if (r)
		return r;
	/* -EEXIST: another CPU made it first, and it is there */
	bpf_map_update_elem(&tasks, &tid, &zero, BPF_NOEXIST);
	r = bpf_map_lookup_elem(&tasks, &tid);
	if (!r) {
		__sync_fetch_and_add(&other_threads, 1);
		return NULL;
	}
	if (r->since)
		return r;
	init_rec(r, t, state, now);
	return r;
}

/* A new task: a record left by an earlier thread of the same id (whose last switch the
 * hook did not see) starts afresh, marked by born, or the new one inherits its state. */
static __always_inline void new_task(struct task_struct *t, unsigned long long now)
{
	static const struct kt_ov_task zero;
	unsigned int tid = (unsigned int)BPF_CORE_READ(t, pid);
	struct kt_ov_task *r;

	if (bpf_map_lookup_elem(&tasks, &tid))
		bpf_map_update_elem(&tasks, &tid, &zero, BPF_EXIST);
	r = task_rec(t, KT_OV_RUNNABLE, now);
	if (r && r->born != now)
		init_rec(r, t, KT_OV_RUNNABLE, now);
}

/* A task's last switch (the pre-5.14 field was 'long state'). */
static __always_inline unsigned long task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

/* The CPU's time since its last switch to the thread switched in then, when that is not
 * the one the tracepoint says leaves now: a switch-out the hook never saw with that thread
 * as prev (seen here: with proxy execution the task that ran is not always sched_switch's
 * prev). Time on a CPU follows the CPU, not the tracepoint's prev. */
static __always_inline void charge_cpu(struct kt_ov_cpu *c, unsigned long long now)
{
	unsigned int tid = c->tid;
	struct kt_ov_task *r;

	if (!tid || now <= c->since)
		return;
	r = bpf_map_lookup_elem(&tasks, &tid);
	if (r)
		r->oncpu_ns += now - c->since;
}

/* prev leaves the CPU at now: its time on it ends, its wait or sleep begins. */
static __always_inline void switch_out(struct kt_ov_cpu *c, bool preempt,
				       struct task_struct *prev, unsigned long long now)
{
	unsigned long st = task_state(prev);
	bool runnable = preempt || !(st & 0xff);
	struct kt_ov_task *r = task_rec(prev, KT_OV_RUNNING, now);

	if (!r) {
		r = other_rec();
		if (r)
			r->vol_ctxsw += !runnable, r->invol_ctxsw += runnable;
		return;
	}
	if (c->tid == (unsigned int)BPF_CORE_READ(prev, pid) && now > c->since)
		r->oncpu_ns += now - c->since;
	else
		charge_cpu(c, now);
	r->vol_ctxsw += !runnable;
	r->invol_ctxsw += runnable;
	r->minflt = BPF_CORE_READ(prev, min_flt) - r->minflt0;
	r->majflt = BPF_CORE_READ(prev, maj_flt) - r->majflt0;
	r->cgroup = bpf_get_current_cgroup_id();
	BPF_CORE_READ_STR_INTO(&r->comm, prev, comm);
	if (st & TASK_DEAD)
		r->state = KT_OV_DEAD;
	else if (runnable)
		r->state = KT_OV_RUNNABLE;
	else if ((st & TASK_UNINTERRUPTIBLE) && !(st & TASK_NOLOAD))
		r->state = KT_OV_DISK;
	else
		r->state = KT_OV_SLEEP;
	r->since = now;
}

/* next takes the CPU at now: a wait for it ends. */
static __always_inline void switch_in(struct kt_ov_cpu *c, struct task_struct *next,
				      unsigned long long now)
{
	unsigned int tid = (unsigned int)BPF_CORE_READ(next, pid);
	struct kt_ov_task *r;
	unsigned long long d;
	unsigned int s;

	c->tid = tid;
	c->since = now;
	if (!tid)
		return;
	r = task_rec(next, KT_OV_RUNNING, now);
	if (!r)
		return;
	if (r->state == KT_OV_RUNNABLE && now > r->since) {
		d = now - r->since;
		s = slot(d);
		r->runq_ns += d;
		r->runq_slots[s]++;
		c->runq_ns += d;
		c->switches++;
		c->runq_slots[s]++;
	}
	r->state = KT_OV_RUNNING;
	r->since = now;
}

static __always_inline void switched(bool preempt, struct task_struct *prev,
				     struct task_struct *next)
{
	unsigned long long now = bpf_ktime_get_ns();
	struct kt_ov_cpu *c = cpu_rec();

	if (!c)
		return;
	if (BPF_CORE_READ(prev, pid))
		switch_out(c, preempt, prev, now);
	else
		charge_cpu(c, now);
	switch_in(c, next, now);
}

/* A blocked task becomes runnable: its sleep ends, its wait for a CPU begins. */
static __always_inline void woken(struct task_struct *p)
{
	unsigned int tid = (unsigned int)BPF_CORE_READ(p, pid);
	unsigned long long now = bpf_ktime_get_ns();
	struct kt_ov_task *r = bpf_map_lookup_elem(&tasks, &tid);

	if (!r || (r->state != KT_OV_SLEEP && r->state != KT_OV_DISK))
		return;
	if (now > r->since) {
		if (r->state == KT_OV_DISK)
			r->disk_ns += now - r->since;
		else
			r->sleep_ns += now - r->since;
	}
	r->state = KT_OV_RUNNABLE;
	r->since = now;
}

static __always_inline void migrated(struct task_struct *p)
{
	struct kt_ov_task *r = task_rec(p, KT_OV_RUNNABLE, bpf_ktime_get_ns());

	if (!r)
		r = other_rec();
	if (r)
		__sync_fetch_and_add(&r->migrations, 1);
}

static __always_inline struct kt_ov_task *current_rec(void)
{
	struct task_struct *t = (struct task_struct *)bpf_get_current_task();
	struct kt_ov_task *r = task_rec(t, KT_OV_RUNNING, bpf_ktime_get_ns());

	return r ? r : other_rec();
}

static __always_inline void sys_enter(void)
{
	struct kt_ov_task *r = current_rec();

	if (!r)
		return;
	r->syscalls++;
	r->sys_start = bpf_ktime_get_ns();
}

/* The most frequent errnos, kept in a few slots: a new one takes the rarest's place with
 * its count plus one (the space-saving count), so a frequent one cannot be pushed out. */
static __always_inline void count_errno(struct kt_ov_task *r, unsigned int err)
{
	unsigned int i, low = 0;

	for (i = 0; i < KT_OV_ERRNOS; i++) {
		if (r->errnos[i].err == err || !r->errnos[i].count) {
			r->errnos[i].err = err;
			r->errnos[i].count++;
			return;
		}
		if (r->errnos[i].count < r->errnos[low].count)
			low = i;
	}
	r->errnos[low & (KT_OV_ERRNOS - 1)].err = err;
	r->errnos[low & (KT_OV_ERRNOS - 1)].count++;
}

static __always_inline void sys_exit(long ret)
{
	struct kt_ov_task *r = current_rec();
	unsigned long long now = bpf_ktime_get_ns();

	if (!r)
		return;
	if (ret < 0 && ret >= -MAX_ERRNO) {
		r->syscall_errors++;
		count_errno(r, (unsigned int)-ret);
	}
	if (r->sys_start && now > r->sys_start)
		r->sys_slots[slot(now - r->sys_start)]++;
	r->sys_start = 0;
}

/* A bio submitted: its bytes go to the thread that submitted it (REQ_OP_READ 0, WRITE 1). */
static __always_inline void bio_queued(struct bio *bio)
{
	unsigned int op = BPF_CORE_READ(bio, bi_opf) & REQ_OP_MASK;
	unsigned int size = BPF_CORE_READ(bio, bi_iter.bi_size);
	struct kt_ov_task *r;

	if (op > 1)
		return;
	r = current_rec();
	if (!r)
		return;
	if (op)
		__sync_fetch_and_add(&r->write_bytes, size);
	else
		__sync_fetch_and_add(&r->read_bytes, size);
}

/* A request done: its latency into its disk's buckets, counted as /proc/diskstats counts
 * reads and writes (the last completion of the request; discards and flushes apart). */
static __always_inline void rq_done(struct request *rq, unsigned int nr_bytes)
{
	static const struct kt_ov_disk zero;
	unsigned int op = BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK;
	unsigned long long start = BPF_CORE_READ(rq, start_time_ns);
	unsigned long long now = bpf_ktime_get_ns(), d;
	unsigned int dev = rq_dev(rq);
	struct kt_ov_disk *k;

	if (op > 1 || !start || now <= start || !dev || nr_bytes < BPF_CORE_READ(rq, __data_len))
		return;
	k = bpf_map_lookup_elem(&disks, &dev);
	if (!k) {
		bpf_map_update_elem(&disks, &dev, &zero, BPF_NOEXIST);
		k = bpf_map_lookup_elem(&disks, &dev);
		if (!k)
			return;
	}
	d = now - start;
	__sync_fetch_and_add(&k->count, 1);
	__sync_fetch_and_add(&k->sum_ns, d);
	__sync_fetch_and_add(&k->slots[slot(d)], 1);
}

/* Every hook twice: tp_btf, then raw_tp where the kernel refuses the first. */
#define OV_HOOKS(KIND, PFX)                                                                     \
	SEC(KIND "/sched_switch")                                                               \
	int BPF_PROG(PFX##_switch, bool preempt, struct task_struct *prev,                     \
		     struct task_struct *next)                                                  \
	{                                                                                       \
		switched(preempt, prev, next);                                                  \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/sched_wakeup")                                                               \
	int BPF_PROG(PFX##_wakeup, struct task_struct *p)                                       \
	{                                                                                       \
		woken(p);                                                                       \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/sched_wakeup_new")                                                           \
	int BPF_PROG(PFX##_wakeup_new, struct task_struct *p)                                   \
	{                                                                                       \
		new_task(p, bpf_ktime_get_ns());                                                \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/sched_migrate_task")                                                         \
	int BPF_PROG(PFX##_migrate, struct task_struct *p, int dest_cpu)                        \
	{                                                                                       \
		migrated(p);                                                                    \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/sys_enter")                                                                  \
	int BPF_PROG(PFX##_sys_enter, struct pt_regs *regs, long id)                            \
	{                                                                                       \
		sys_enter();                                                                    \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/sys_exit")                                                                   \
	int BPF_PROG(PFX##_sys_exit, struct pt_regs *regs, long ret)                            \
	{                                                                                       \
		sys_exit(ret);                                                                  \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/block_bio_queue")                                                            \
	int BPF_PROG(PFX##_bio, struct bio *bio)                                                \
	{                                                                                       \
		bio_queued(bio);                                                                \
		return 0;                                                                       \
	}                                                                                       \
	SEC(KIND "/block_rq_complete")                                                          \
	int BPF_PROG(PFX##_rq_done, struct request *rq, int error, unsigned int nr_bytes)      \
	{                                                                                       \
		rq_done(rq, nr_bytes);                                                          \
		return 0;                                                                       \
	}

OV_HOOKS("tp_btf", btf)
OV_HOOKS("raw_tp", raw)
