// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A BPF object the verifier refuses, for tests only (tests/live/bpf_verifier.sh,
 * tests/term/hist_reject.sh). It has exactly the programs, maps and .rodata of
 * src/probes/syslat.bpf.c, so ktop loads it through its own loader in place of the
 * syscall-latency object (KTOP_TEST_BPF_OBJECT=syslat:FILE); every program reads a map value
 * without the NULL check the verifier insists on.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct start {
	unsigned long long ts;
	long id;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct start);
} starts SEC(".maps");

static __always_inline int unchecked(void)
{
	struct start *s = bpf_task_storage_get(&starts, bpf_get_current_task_btf(), 0, 0);

	return (int)s->ts; /* no "if (!s)": refused */
}

SEC("tp_btf/sys_enter")
int BPF_PROG(btf_enter)
{
	return unchecked();
}

SEC("tp_btf/sys_exit")
int BPF_PROG(btf_exit)
{
	return unchecked();
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch)
{
	return unchecked();
}

SEC("raw_tp/sys_enter")
int BPF_PROG(raw_enter)
{
	return unchecked();
}

SEC("raw_tp/sys_exit")
int BPF_PROG(raw_exit)
{
	return unchecked();
}

SEC("tracepoint/raw_syscalls/sys_enter")
int tp_enter(void *ctx)
{
	return unchecked();
}

SEC("tracepoint/raw_syscalls/sys_exit")
int tp_exit(void *ctx)
{
	return unchecked();
}
