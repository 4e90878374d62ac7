// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The block I/O histograms with BTF-typed hooks: bio-latency (block_rq_issue of a request
 * -> block_rq_complete of it, matched on the start sector) and bio-size (the bytes of each
 * issued request), reading the struct request the hook is given through CO-RE. tp_btf and
 * raw_tp variants of the same hooks; the plain tracepoint variant is tphist.bpf.c. Each
 * value is computed as the tracepoints compute their fields (include/trace/events/block.h),
 * so every variant counts the same: the sector is 0 for passthrough requests at issue, dev
 * is MKDEV(major, first_minor) of the request's disk, and by=pid|tid|comm|cpu is the current
 * task or CPU.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "hist_common.bpf.h"
#include "rqdev.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* by=dev, resolved by the loader: key by the request's device instead of the current task */
const volatile unsigned int key_dev = 0;

/* include/linux/blk_types.h: the operation is the low 8 bits of cmd_flags */
#define REQ_OP_MASK 0xff
#define REQ_OP_DRV_IN 34
#define REQ_OP_DRV_OUT 35

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned long long);
	__type(value, unsigned long long);
} starts SEC(".maps");

/* block_rq_issue's sector (blk_rq_trace_sector): none for passthrough or unset positions. */
static __always_inline unsigned long long issue_sector(struct request *rq)
{
	unsigned int op = BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK;
	unsigned long long pos = BPF_CORE_READ(rq, __sector);

	if (op == REQ_OP_DRV_IN || op == REQ_OP_DRV_OUT || pos == (unsigned long long)-1)
		return 0;
	return pos;
}

static __always_inline void key_of(struct request *rq, struct kt_hist_key *k)
{
	if (key_dev)
		k->id = rq_dev(rq);
	else
		hist_key_current(k);
}

static __always_inline void start(struct request *rq)
{
	unsigned long long m, ts;

	if (!hist_wanted())
		return;
	m = issue_sector(rq);
	ts = bpf_ktime_get_ns();
	hist_put_start(&starts, &m, &ts, BPF_ANY);
}

/* block_rq_complete's sector is blk_rq_pos, whatever the request. */
static __always_inline void end(struct request *rq)
{
	unsigned long long m, *ts, now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};

	m = BPF_CORE_READ(rq, __sector);
	ts = bpf_map_lookup_elem(&starts, &m);
	if (!ts)
		return;
	key_of(rq, &k);
	if (now > *ts)
		hist_add(&k, now - *ts);
	bpf_map_delete_elem(&starts, &m);
}

static __always_inline void size(struct request *rq)
{
	struct kt_hist_key k = {};

	if (!hist_wanted())
		return;
	key_of(rq, &k);
	hist_add(&k, BPF_CORE_READ(rq, __data_len));
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(btf_issue, struct request *rq)
{
	start(rq);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(btf_complete, struct request *rq)
{
	end(rq);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(btf_size, struct request *rq)
{
	size(rq);
	return 0;
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_issue, struct request *rq)
{
	start(rq);
	return 0;
}

SEC("raw_tp/block_rq_complete")
int BPF_PROG(raw_complete, struct request *rq)
{
	end(rq);
	return 0;
}

SEC("raw_tp/block_rq_issue")
int BPF_PROG(raw_size, struct request *rq)
{
	size(rq);
	return 0;
}
