// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Off-CPU time by stack, on BTF-typed hooks: sched_switch stamps the task going off the CPU
 * with its stacks (offcpustack.bpf.h) and ends the stretch of the task switched to, which it
 * finds in the task_struct the hook is given (CO-RE). tp_btf and raw_tp variants of the same
 * hook; the plain tracepoint variant, which needs no BTF, is offcpustack_tp.bpf.c. With
 * wakers, sched_waking names the task woken, the same way.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "offcpustack.bpf.h"

#define TASK_DEAD 0x80

/* A task's last switch, as it dies (the pre-5.14 field was 'long state'). */
static __always_inline bool dying(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state) & TASK_DEAD;
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state) & TASK_DEAD;
}

static __always_inline void switched(void *ctx, struct task_struct *prev, struct task_struct *next)
{
	off_cpu(ctx, dying(prev));
	on_cpu((unsigned int)BPF_CORE_READ(next, pid));
}

SEC("tp_btf/sched_switch")
int BPF_PROG(btf_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switched(ctx, prev, next);
	return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(raw_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	switched(ctx, prev, next);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(btf_waking, struct task_struct *p)
{
	waking(ctx, (unsigned int)BPF_CORE_READ(p, pid));
	return 0;
}

SEC("raw_tp/sched_waking")
int BPF_PROG(raw_waking, struct task_struct *p)
{
	waking(ctx, (unsigned int)BPF_CORE_READ(p, pid));
	return 0;
}
