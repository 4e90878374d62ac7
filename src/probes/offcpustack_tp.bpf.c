// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Off-CPU time by stack on the plain sched:sched_switch tracepoint, for kernels whose BTF
 * user space cannot read (no /sys/kernel/btf/vmlinux): no CO-RE here, so it loads without
 * it. The task switched to and whether the one leaving is dying are fields of the record,
 * at the offsets the loader read from the event's format file; so is the task sched_waking
 * wakes (wakers on).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "hist.h"
#include "offcpustack.bpf.h"

const volatile struct kt_hist_field next_pid_field = {};
const volatile struct kt_hist_field prev_state_field = {};
const volatile struct kt_hist_field waking_pid_field = {};

/* What prev_state reports for a task's last switch: X (EXIT_DEAD) or Z (EXIT_ZOMBIE). */
#define KT_STATE_DEAD 0x10
#define KT_STATE_ZOMBIE 0x20

/* An unsigned field of the record (little-endian: its low bytes first). */
static __always_inline unsigned long long field(void *ctx, unsigned int offset, unsigned int size)
{
	unsigned long long v = 0;

	bpf_probe_read_kernel(&v, size > sizeof(v) ? sizeof(v) : size, (char *)ctx + offset);
	return v;
}

SEC("tracepoint/sched/sched_switch")
int tp_switch(void *ctx)
{
	unsigned long long state = field(ctx, prev_state_field.offset, prev_state_field.size);

	off_cpu(ctx, state == KT_STATE_DEAD || state == KT_STATE_ZOMBIE);
	on_cpu((unsigned int)field(ctx, next_pid_field.offset, next_pid_field.size));
	return 0;
}

SEC("tracepoint/sched/sched_waking")
int tp_waking(void *ctx)
{
	waking(ctx, (unsigned int)field(ctx, waking_pid_field.offset, waking_pid_field.size));
	return 0;
}
