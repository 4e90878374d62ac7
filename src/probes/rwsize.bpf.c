// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * read-size and write-size with BTF-typed hooks: the bytes each read(2) or write(2)
 * returned, from raw_syscalls' sys_exit (the syscall number in regs->orig_ax, the return
 * value its argument). tp_btf and raw_tp variants; the plain tracepoint variant is
 * tphist.bpf.c on syscalls:sys_exit_read/write, which this counts exactly like: errors are
 * not sizes, and 32-bit syscalls of compat tasks are left out as the syscalls:* tracepoints
 * leave them out. Keys: the current task or CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* the syscall counted, set by the loader: __NR_read or __NR_write of x86-64 */
const volatile long syscall_nr = -1;

#define TS_COMPAT 0x0002 /* arch/x86/include/asm/thread_info.h */

static __always_inline void on_exit(struct pt_regs *regs, long ret)
{
	struct task_struct *t;
	struct kt_hist_key k = {};

	if ((long)BPF_CORE_READ(regs, orig_ax) != syscall_nr || ret < 0 || !hist_wanted())
		return;
	t = (struct task_struct *)bpf_get_current_task();
	if (BPF_CORE_READ(t, thread_info.status) & TS_COMPAT)
		return;
	hist_key_current(&k);
	hist_add(&k, (unsigned long long)ret);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(btf_exit, struct pt_regs *regs, long ret)
{
	on_exit(regs, ret);
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(raw_exit, struct pt_regs *regs, long ret)
{
	on_exit(regs, ret);
	return 0;
}
