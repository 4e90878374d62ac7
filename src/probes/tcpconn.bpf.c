// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP connect latency: from a socket's move to SYN_SENT (connect()) to ESTABLISHED (its
 * SYN-ACK handled), on sock:inet_sock_set_state, matched on the socket. The key is taken at
 * connect, from the task that connected (the handshake often ends in a softirq, on another
 * task's time): its pid, tid, comm, cgroup or CPU, or by=dport, the port connected to. A
 * connect that fails (SYN_SENT to CLOSE: refused, timed out, reset) is not counted and
 * leaves nothing behind. tp_btf, raw_tp and plain tracepoint variants count alike.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "hist_common.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#define TCP_ESTABLISHED 1
#define TCP_SYN_SENT 2
#define IPPROTO_TCP 6 /* not MPTCP's own socket: its subflows are TCP sockets, counted */

/* by=dport, set by the loader */
const volatile unsigned int key_dport = 0;

struct start {
	unsigned long long ts;
	struct kt_hist_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KT_HIST_MAX_INFLIGHT);
	__type(key, unsigned long long); /* the socket */
	__type(value, struct start);
} starts SEC(".maps");

/* The plain tracepoint's record, as events/sock/inet_sock_set_state/format has it. */
struct set_state_record {
	unsigned long long common;
	unsigned long long skaddr;
	int oldstate;
	int newstate;
	unsigned short sport;
	unsigned short dport; /* host order */
	unsigned short family;
	unsigned short protocol;
};

static __always_inline void set_state(unsigned long long sk, int oldstate, int newstate,
				      unsigned int dport, unsigned int protocol)
{
	struct kt_hist_key k;
	struct start s = {}, *st;
	unsigned long long now;

	if (protocol != IPPROTO_TCP)
		return;
	if (newstate == TCP_SYN_SENT) {
		if (!hist_wanted())
			return;
		s.ts = bpf_ktime_get_ns();
		if (key_dport)
			s.key.id = dport;
		else
			hist_key_current(&s.key);
		hist_put_start(&starts, &sk, &s, BPF_ANY);
		return;
	}
	if (oldstate != TCP_SYN_SENT)
		return;
	st = bpf_map_lookup_elem(&starts, &sk);
	if (!st)
		return;
	if (newstate == TCP_ESTABLISHED) {
		now = bpf_ktime_get_ns();
		k = st->key;
		hist_add(&k, now > st->ts ? now - st->ts : 0);
	}
	bpf_map_delete_elem(&starts, &sk);
}

SEC("tp_btf/inet_sock_set_state")
int BPF_PROG(btf_state, const struct sock *sk, int oldstate, int newstate)
{
	set_state((unsigned long long)sk, oldstate, newstate,
		  bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport)), BPF_CORE_READ(sk, sk_protocol));
	return 0;
}

SEC("raw_tp/inet_sock_set_state")
int BPF_PROG(raw_state, const struct sock *sk, int oldstate, int newstate)
{
	set_state((unsigned long long)sk, oldstate, newstate,
		  bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport)), BPF_CORE_READ(sk, sk_protocol));
	return 0;
}

SEC("tracepoint/sock/inet_sock_set_state")
int tp_state(struct set_state_record *ctx)
{
	set_state(ctx->skaddr, ctx->oldstate, ctx->newstate, ctx->dport, ctx->protocol);
	return 0;
}
