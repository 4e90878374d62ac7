// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One generic program for every tracepoint histogram: the loader reads the field's offset,
 * size and sign from the event's format (libtraceevent) and hands them over in .rodata, so
 * no program is written per question.
 *
 *   field_hist        a numeric field of one event, bucketed
 *   lat_start/lat_end the time between two events whose match values agree: the thread,
 *                     or a field of each (sched_wakeup.pid -> sched_switch.next_pid)
 *
 * The record a tracepoint program sees is exactly the one described by the format file,
 * so format offsets apply unchanged.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct kt_hist_field value_field = {};
const volatile struct kt_hist_field key_field = {};	   /* by=FIELD (of the end event) */
const volatile unsigned int start_match = KT_MATCH_TID;
const volatile struct kt_hist_field start_field = {};
const volatile unsigned int end_match = KT_MATCH_TID;
const volatile struct kt_hist_field end_field = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned long long);
	__type(value, unsigned long long);
} starts SEC(".maps");

/* What field_hist also does on every run it counts: nothing, but for the tests
 * (tests/helpers/tphist_recurse.bpf.c sends a signal, so a run can be made to recurse). */
#ifndef KT_TPHIST_ON_RUN
#define KT_TPHIST_ON_RUN()
#endif

/* A numeric field, sign-extended when the format says signed. */
static __always_inline long long read_num(void *ctx, unsigned int off, unsigned int size,
					  unsigned int is_signed)
{
	unsigned char *p = (unsigned char *)ctx + off;
	long long v = 0;

	switch (size) {
	case 1: {
		unsigned char x;

		bpf_probe_read_kernel(&x, 1, p);
		v = is_signed ? (long long)(signed char)x : (long long)x;
		break;
	}
	case 2: {
		unsigned short x;

		bpf_probe_read_kernel(&x, 2, p);
		v = is_signed ? (long long)(short)x : (long long)x;
		break;
	}
	case 4: {
		unsigned int x;

		bpf_probe_read_kernel(&x, 4, p);
		v = is_signed ? (long long)(int)x : (long long)x;
		break;
	}
	default:
		bpf_probe_read_kernel(&v, 8, p);
		break;
	}
	return v;
}

static __always_inline void key_of(void *ctx, struct kt_hist_key *k)
{
	if (hist_by != KT_BY_FIELD) {
		hist_key_current(k);
		return;
	}
	if (key_field.is_string)
		bpf_probe_read_kernel_str(k->name, sizeof(k->name),
					  (unsigned char *)ctx + key_field.offset);
	else
		k->id = (unsigned long long)read_num(ctx, key_field.offset, key_field.size,
						     key_field.is_signed);
}

SEC("tracepoint")
int field_hist(void *ctx)
{
	struct kt_hist_key k = {};
	long long v;

	if (!hist_wanted())
		return 0;
	KT_TPHIST_ON_RUN();
	v = read_num(ctx, value_field.offset, value_field.size, value_field.is_signed);
	if (v < 0) /* an error return: not a size */
		return 0;
	key_of(ctx, &k);
	hist_add(&k, (unsigned long long)v);
	return 0;
}

static __always_inline unsigned long long match_of(void *ctx, unsigned int how,
						   unsigned int off, unsigned int size)
{
	if (how == KT_MATCH_TID)
		return (unsigned int)bpf_get_current_pid_tgid();
	return (unsigned long long)read_num(ctx, off, size, 0);
}

/* offcpu: where sched_switch's prev_state is (0: not offcpu). A task's last switch, as it
 * dies, reports X or Z there; it never comes back, so no start is kept and any left by a
 * missed switch-in goes (one per exited task would fill the map), as the typed variants do. */
const volatile struct kt_hist_field dying_field = {};

#define KT_STATE_DEAD 0x10   /* X: EXIT_DEAD */
#define KT_STATE_ZOMBIE 0x20 /* Z: EXIT_ZOMBIE */

/* offcpu (dying_field set): stretches whose switch back in was never seen (the task went off
 * the CPU again, or died, with its start still there): not timed, counted as missed. */
unsigned long long unended = 0;

SEC("tracepoint")
int lat_start(void *ctx)
{
	unsigned long long m, ts;
	long long state;
	long r;

	if (!hist_wanted())
		return 0;
	m = match_of(ctx, start_match, start_field.offset, start_field.size);
	if (dying_field.size) {
		state = read_num(ctx, dying_field.offset, dying_field.size, 0);
		if (state == KT_STATE_DEAD || state == KT_STATE_ZOMBIE) {
			if (!bpf_map_delete_elem(&starts, &m)) /* left by a missed switch-in */
				__sync_fetch_and_add(&unended, 1);
			return 0;
		}
	}
	ts = bpf_ktime_get_ns();
	if (!dying_field.size) {
		hist_put_start(&starts, &m, &ts, BPF_ANY);
		return 0;
	}
	r = bpf_map_update_elem(&starts, &m, &ts, BPF_NOEXIST);
	if (r == -EEXIST) {
		/* the task going off the CPU is on it: its last switch back in was missed */
		__sync_fetch_and_add(&unended, 1);
		hist_put_start(&starts, &m, &ts, BPF_EXIST);
	} else if (r) {
		__sync_fetch_and_add(&dropped, 1);
	}
	return 0;
}

SEC("tracepoint")
int lat_end(void *ctx)
{
	unsigned long long m, *ts, now = bpf_ktime_get_ns();
	struct kt_hist_key k = {};

	m = match_of(ctx, end_match, end_field.offset, end_field.size);
	ts = bpf_map_lookup_elem(&starts, &m);
	if (!ts)
		return 0;
	key_of(ctx, &k);
	if (now > *ts)
		hist_add(&k, now - *ts);
	bpf_map_delete_elem(&starts, &m);
	return 0;
}
