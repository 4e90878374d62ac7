// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel lock contention: time from lock:contention_begin to lock:contention_end of the same
 * thread on the same lock (mutexes, rwsems, spinlocks, rwlocks, as the kernel reports them),
 * keyed by the current task or CPU, or by=flags (the LCB_F_* kind of wait) or
 * by=lock_addr. A waiter's waits on different locks nest (a spinlock inside a mutex's slow
 * path), so a start is kept per thread and lock; a mutex's optimistic spin and the sleep
 * after it are two contention_begin of one wait, which counts from the first. tp_btf, raw_tp
 * and plain tracepoint variants of the same two hooks count alike.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define EEXIST 17 /* <errno.h>'s, which a BPF program cannot include */

/* by=FIELD, set by the loader */
const volatile unsigned int key_field = KT_LOCK_KEY_NONE;

/* Waits that could not be timed: a contention_begin inside a program's own update of the
 * starts map (two CPUs on one of its bucket locks) finds the bucket busy (EBUSY). The loader
 * adds them to the runs the kernel skipped, so the histogram says it lacks them. */
unsigned long long untimed = 0;

struct wait_key {
	unsigned long long lock;
	unsigned int tid;
	unsigned int pad;
};

struct wait_start {
	unsigned long long ts;
	unsigned int flags;
	unsigned int pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, struct wait_key);
	__type(value, struct wait_start);
} starts SEC(".maps");

/* The records of the plain tracepoints, as events/lock/contention_{begin,end}/format has
 * them (the common fields, then the lock). */
struct contention_begin_record {
	unsigned long long common;
	unsigned long long lock_addr;
	unsigned int flags;
};

struct contention_end_record {
	unsigned long long common;
	unsigned long long lock_addr;
	int ret;
};

static __always_inline void begin(unsigned long long lock, unsigned int flags)
{
	struct wait_key w = { .lock = lock, .tid = (unsigned int)bpf_get_current_pid_tgid() };
	struct wait_start s = { .flags = flags };
	long r;

	if (!hist_wanted())
		return;
	s.ts = bpf_ktime_get_ns();
	/* a second begin of the same wait (spin, then sleep) keeps the first */
	r = bpf_map_update_elem(&starts, &w, &s, BPF_NOEXIST);
	if (r && r != -EEXIST)
		__sync_fetch_and_add(&untimed, 1);
}

static __always_inline void end(unsigned long long lock)
{
	struct wait_key w = { .lock = lock, .tid = (unsigned int)bpf_get_current_pid_tgid() };
	unsigned long long now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};
	struct wait_start *s;

	s = bpf_map_lookup_elem(&starts, &w);
	if (!s)
		return;
	if (key_field == KT_LOCK_KEY_FLAGS)
		k.id = s->flags;
	else if (key_field == KT_LOCK_KEY_ADDR)
		k.id = lock;
	else
		hist_key_current(&k);
	hist_add(&k, now > s->ts ? now - s->ts : 0);
	bpf_map_delete_elem(&starts, &w);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(btf_begin, void *lock, unsigned int flags)
{
	begin((unsigned long long)lock, flags);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(btf_end, void *lock, int ret)
{
	end((unsigned long long)lock);
	return 0;
}

SEC("raw_tp/contention_begin")
int BPF_PROG(raw_begin, void *lock, unsigned int flags)
{
	begin((unsigned long long)lock, flags);
	return 0;
}

SEC("raw_tp/contention_end")
int BPF_PROG(raw_end, void *lock, int ret)
{
	end((unsigned long long)lock);
	return 0;
}

SEC("tracepoint/lock/contention_begin")
int tp_begin(struct contention_begin_record *ctx)
{
	begin(ctx->lock_addr, ctx->flags);
	return 0;
}

SEC("tracepoint/lock/contention_end")
int tp_end(struct contention_end_record *ctx)
{
	end(ctx->lock_addr);
	return 0;
}
