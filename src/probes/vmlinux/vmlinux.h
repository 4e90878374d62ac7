/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The few kernel types ktop's BPF programs touch, written by hand (perf's
 * util/bpf_skel/vmlinux/vmlinux.h does the same). CO-RE relocates every field access
 * against the running kernel's BTF at load time, so only the names below matter, never
 * their offsets here: the build needs no BTF of its own and works on a machine without
 * /sys/kernel/btf/vmlinux (docs/architecture.md, "BPF histograms").
 */
#ifndef __VMLINUX_H__
#define __VMLINUX_H__

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;
typedef _Bool bool;
enum { false = 0, true = 1 };

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_STACK_TRACE = 7,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
};

/* map_flags: task storage is never preallocated */
enum {
	BPF_F_NO_PREALLOC = 1,
};

/* bpf_task_storage_get's flags */
enum {
	BPF_LOCAL_STORAGE_GET_F_CREATE = 1,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
};

/* x86-64, kernel field names (bpf_tracing.h's PT_REGS_* use these when __VMLINUX_H__ is
 * defined). */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di;
	unsigned long orig_ax, ip, cs, flags, sp, ss;
} __attribute__((preserve_access_index));

/* The records of the raw_syscalls tracepoints (events/raw_syscalls/sys_{enter,exit}/format). */
struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
} __attribute__((preserve_access_index));

struct trace_event_raw_sys_enter {
	struct trace_entry ent;
	long id;
	unsigned long args[6];
} __attribute__((preserve_access_index));

struct trace_event_raw_sys_exit {
	struct trace_entry ent;
	long id;
	long ret;
} __attribute__((preserve_access_index));

/* x86's thread_info.status says whether the current syscall is a 32-bit one (TS_COMPAT),
 * which the syscalls:* tracepoints ignore and so rwsize.bpf.c does too. */
struct thread_info {
	u32 status;
} __attribute__((preserve_access_index));

/* The task fields the scheduler histograms read (schedlat.bpf.c): thread id, process id,
 * command; and thread_info for rwsize.bpf.c. CO-RE finds them in whatever task_struct the
 * kernel has. */
struct task_struct {
	struct thread_info thread_info;
	unsigned int __state;
	int pid;
	int tgid;
	char comm[16];
	unsigned long min_flt; /* the task's own fault counts (overview.bpf.c) */
	unsigned long maj_flt;
} __attribute__((preserve_access_index));

/* Before Linux 5.14 the task's state was "long state". */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

/* The block request fields blockio.bpf.c reads: the disk (for dev), the operation, the
 * start sector and the size; what the block_rq_* tracepoints record from them. */
struct gendisk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

typedef u64 sector_t;

struct request {
	struct request_queue *q;
	unsigned int cmd_flags;
	unsigned int __data_len;
	sector_t __sector;
	u64 start_time_ns; /* when it was allocated (overview.bpf.c's disk latency) */
} __attribute__((preserve_access_index));

/* A bio's operation and size as block_bio_queue sees it (overview.bpf.c). */
struct bvec_iter {
	unsigned int bi_size;
} __attribute__((preserve_access_index));

struct bio {
	unsigned int bi_opf;
	struct bvec_iter bi_iter;
} __attribute__((preserve_access_index));

/* The socket fields tcpconn.bpf.c reads: the port connected to (in an anonymous struct of
 * a union in the kernel; CO-RE finds it by name) and the protocol. */
struct sock_common {
	__be16 skc_dport;
} __attribute__((preserve_access_index));

struct sock {
	struct sock_common __sk_common;
	u16 sk_protocol;
} __attribute__((preserve_access_index));

#endif
