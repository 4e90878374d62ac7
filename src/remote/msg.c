// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Payloads of the remote protocol: little-endian fields appended to a growing buffer, read
 * back with bounds checked on every field (a short or lying payload makes the reader bad,
 * never reads past the end), and one encoder and decoder per message.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "proto.h"
#include "util/xalloc.h"

void wbuf_free(struct kt_wbuf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void wbuf_put(struct kt_wbuf *b, const void *p, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap - b->len < n)
			cap *= 2;
		b->data = xrealloc(b->data, cap);
		b->cap = cap;
	}
	if (p && n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void wbuf_u8(struct kt_wbuf *b, uint8_t v)
{
	wbuf_put(b, &v, 1);
}

void wbuf_u16(struct kt_wbuf *b, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	wbuf_put(b, p, 2);
}

void wbuf_u32(struct kt_wbuf *b, uint32_t v)
{
	wbuf_u16(b, (uint16_t)v);
	wbuf_u16(b, (uint16_t)(v >> 16));
}

void wbuf_u64(struct kt_wbuf *b, uint64_t v)
{
	wbuf_u32(b, (uint32_t)v);
	wbuf_u32(b, (uint32_t)(v >> 32));
}

void wbuf_f64(struct kt_wbuf *b, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	wbuf_u64(b, u);
}

void wbuf_blob(struct kt_wbuf *b, const void *p, size_t n)
{
	wbuf_u32(b, (uint32_t)n);
	wbuf_put(b, p, n);
}

void wbuf_str(struct kt_wbuf *b, const char *s)
{
	wbuf_blob(b, s ? s : "", s ? strlen(s) : 0);
}

void rbuf_init(struct kt_rbuf *r, const void *p, size_t n)
{
	r->p = p;
	r->left = n;
	r->bad = false;
}

static const uint8_t *rbuf_take(struct kt_rbuf *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || r->left < n) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return p;
}

uint8_t rbuf_u8(struct kt_rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 1);

	return p ? p[0] : 0;
}

uint16_t rbuf_u16(struct kt_rbuf *r)
{
	const uint8_t *p = rbuf_take(r, 2);

	return p ? (uint16_t)(p[0] | p[1] << 8) : 0;
}

uint32_t rbuf_u32(struct kt_rbuf *r)
{
	uint32_t lo = rbuf_u16(r);

	return lo | (uint32_t)rbuf_u16(r) << 16;
}

uint64_t rbuf_u64(struct kt_rbuf *r)
{
	uint64_t lo = rbuf_u32(r);

	return lo | (uint64_t)rbuf_u32(r) << 32;
}

double rbuf_f64(struct kt_rbuf *r)
{
	uint64_t u = rbuf_u64(r);
	double v;

	memcpy(&v, &u, sizeof(v));
	if (isinf(v)) /* nothing ktop measures is infinite */
		r->bad = true;
	return v;
}

const uint8_t *rbuf_blob(struct kt_rbuf *r, uint32_t *n)
{
	*n = rbuf_u32(r);
	return rbuf_take(r, *n);
}

void rbuf_str(struct kt_rbuf *r, char *buf, size_t len)
{
	uint32_t n;
	const uint8_t *p = rbuf_blob(r, &n);

	buf[0] = '\0';
	if (!p)
		return;
	if (memchr(p, '\0', n)) {
		r->bad = true;
		return;
	}
	if (n >= len)
		n = (uint32_t)len - 1;
	/* a peer's strings end up in one-line messages: no control characters */
	for (uint32_t i = 0; i < n; i++)
		buf[i] = p[i] < 0x20 || p[i] == 0x7f ? '?' : (char)p[i];
	buf[n] = '\0';
}

void msg_hello_encode(struct kt_wbuf *b, const struct kt_hello *h)
{
	/* proto and version first, in every version to come */
	wbuf_u16(b, h->proto);
	wbuf_str(b, h->version);
	wbuf_u8(b, h->role);
	wbuf_u8(b, h->compress);
	wbuf_str(b, h->host);
	wbuf_str(b, h->kernel);
	wbuf_u32(b, h->ncpus);
	wbuf_u32(b, h->page_size);
	wbuf_u8(b, h->long_size);
	wbuf_u8(b, h->big_endian);
}

int msg_hello_decode(const uint8_t *p, size_t n, struct kt_hello *h, char *err, size_t errlen)
{
	struct kt_rbuf r;

	memset(h, 0, sizeof(*h));
	rbuf_init(&r, p, n);
	h->proto = rbuf_u16(&r);
	rbuf_str(&r, h->version, sizeof(h->version));
	if (r.bad) {
		snprintf(err, errlen, "malformed hello (%zu bytes)", n);
		return -1;
	}
	if (h->proto != KT_PROTO_VERSION)
		return 0; /* the rest is that version's: msg_version_mismatch names it */
	h->role = rbuf_u8(&r);
	h->compress = rbuf_u8(&r);
	rbuf_str(&r, h->host, sizeof(h->host));
	rbuf_str(&r, h->kernel, sizeof(h->kernel));
	h->ncpus = rbuf_u32(&r);
	h->page_size = rbuf_u32(&r);
	h->long_size = rbuf_u8(&r);
	h->big_endian = rbuf_u8(&r);
	if (r.bad || (h->role != 'A' && h->role != 'V')) {
		snprintf(err, errlen, "malformed hello from ktop %s (%zu bytes)", h->version, n);
		return -1;
	}
	if (h->role == 'A' && (!h->ncpus || h->ncpus > 65536 || h->page_size < 64 ||
			       h->page_size > (1u << 20) ||
			       (h->long_size != 4 && h->long_size != 8))) {
		snprintf(err, errlen, "agent's hello is not sane: %u CPUs, %u-byte pages, "
			 "%u-byte longs", h->ncpus, h->page_size, h->long_size);
		return -1;
	}
	return 0;
}

bool msg_version_mismatch(const struct kt_hello *peer, const char *who, bool viewer, char *line,
			  size_t len)
{
	bool newer = peer->proto > KT_PROTO_VERSION;

	line[0] = '\0';
	if (peer->proto == KT_PROTO_VERSION)
		return false;
	/* the side whose protocol is older is the one to update; a viewer can send its own */
	snprintf(line, len, "%s runs ktop %s (remote protocol %u), this is ktop %s (protocol %u): "
		 "%s", who, peer->version, peer->proto, PACKAGE_VERSION, KT_PROTO_VERSION,
		 viewer ? (newer ? "update ktop on this machine, the viewer's" :
				   "update ktop on the agent's host, or send this ktop's own agent "
				   "with --push") :
			  (newer ? "update ktop on this host, or let the viewer send its own agent "
				   "(--push)" :
				   "update ktop on the viewer's machine"));
	return true;
}

static const char *const req_names[KT_REQ_OP_MAX] = {
	[KT_REQ_ENABLE] = "enable",	[KT_REQ_DISABLE] = "disable",
	[KT_REQ_TRACER] = "tracer",	[KT_REQ_PROBE_ADD] = "probe-add",
	[KT_REQ_PROBE_DEL] = "probe-delete", [KT_REQ_KALLSYMS] = "kallsyms",
	[KT_REQ_EVENTS] = "events",	[KT_REQ_FORMAT] = "format",
	[KT_REQ_TRACERS] = "tracers",	[KT_REQ_HIST] = "hist",
	[KT_REQ_COUNTERS] = "counters",
	[KT_REQ_SCOPE] = "scope",
	[KT_REQ_STACK] = "stack",
	[KT_REQ_PROFILE] = "profile",
	[KT_REQ_HIST_LIVE] = "hist-live", [KT_REQ_HIST_CLOSE] = "hist-close",
	[KT_REQ_END] = "end",
	[KT_REQ_SCOPE_SET] = "scope-set", [KT_REQ_STACK_OFF] = "stack-off",
	[KT_REQ_COUNTERS_LIVE] = "counters-live", [KT_REQ_COUNTERS_CLOSE] = "counters-close",
	[KT_REQ_PROBE_COUNTS] = "probe-counts", [KT_REQ_TRIGGER] = "trigger",
	[KT_REQ_FTRACE_LIST] = "ftrace-list", [KT_REQ_USER_STACKS] = "user-stacks",
	[KT_REQ_FILTER] = "filter", [KT_REQ_NAMES] = "names",
	[KT_REQ_PROFILE_LIVE] = "profile-live", [KT_REQ_PROFILE_CLOSE] = "profile-close",
	[KT_REQ_OVERVIEW_LIVE] = "overview-live", [KT_REQ_OVERVIEW_CLOSE] = "overview-close",
	[KT_REQ_OVERVIEW_SYSCALLS] = "overview-syscalls",
};

const char *msg_request_name(uint8_t op)
{
	return op < KT_REQ_OP_MAX && req_names[op] ? req_names[op] : "unknown";
}

void msg_request_encode(struct kt_wbuf *b, uint32_t id, uint8_t op, const char *arg,
			const char *arg2)
{
	wbuf_u32(b, id);
	wbuf_u8(b, op);
	wbuf_str(b, arg);
	wbuf_str(b, arg2);
}

/* The length a string or blob at r says it has, not taken (0 when r is short: the read
 * that follows fails). */
static uint32_t rbuf_peek_len(const struct kt_rbuf *r)
{
	if (r->bad || r->left < 4)
		return 0;
	return r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 |
	       (uint32_t)r->p[3] << 24;
}

int msg_request_decode(const uint8_t *p, size_t n, struct kt_request *req, char *store,
		       size_t storelen, char *err, size_t errlen)
{
	struct kt_rbuf r;
	size_t half = storelen / 2;
	uint32_t n1, n2;

	rbuf_init(&r, p, n);
	req->id = rbuf_u32(&r);
	req->op = rbuf_u8(&r);
	n1 = rbuf_peek_len(&r);
	rbuf_str(&r, store, half);
	n2 = rbuf_peek_len(&r);
	rbuf_str(&r, store + half, storelen - half);
	req->arg = store;
	req->arg2 = store + half;
	if (r.bad) {
		snprintf(err, errlen, "malformed request (%zu bytes)", n);
		return -1;
	}
	if (n1 >= half || n2 >= storelen - half) { /* cut, it would mean something else */
		snprintf(err, errlen, "its %s is %u bytes, the agent takes at most %zu: name "
			 "less in one request", n1 >= half ? "argument" : "second argument",
			 n1 >= half ? n1 : n2, (n1 >= half ? half : storelen - half) - 1);
		return 1;
	}
	return 0;
}

void msg_reply_encode(struct kt_wbuf *b, uint32_t id, bool ok, const char *text)
{
	wbuf_u32(b, id);
	wbuf_u8(b, ok);
	wbuf_str(b, text);
}

int msg_reply_decode(const uint8_t *p, size_t n, uint32_t *id, bool *ok, char *text,
		     size_t textlen)
{
	struct kt_rbuf r;

	rbuf_init(&r, p, n);
	*id = rbuf_u32(&r);
	*ok = rbuf_u8(&r) != 0;
	rbuf_str(&r, text, textlen);
	return r.bad ? -1 : 0;
}

void msg_format_encode(struct kt_wbuf *b, const char *system, const char *name,
		       const char *text, size_t len)
{
	wbuf_str(b, system);
	wbuf_str(b, name);
	wbuf_blob(b, text, len);
}

int msg_format_decode(const uint8_t *p, size_t n, char *system, size_t syslen, char *name,
		      size_t namelen, const uint8_t **text, uint32_t *textlen)
{
	struct kt_rbuf r;

	rbuf_init(&r, p, n);
	rbuf_str(&r, system, syslen);
	rbuf_str(&r, name, namelen);
	*text = rbuf_blob(&r, textlen);
	return r.bad || !system[0] ? -1 : 0;
}

void msg_page_encode(struct kt_wbuf *b, uint32_t cpu, const void *page, size_t len)
{
	wbuf_u32(b, cpu);
	wbuf_blob(b, page, len);
}

int msg_page_decode(const uint8_t *p, size_t n, uint32_t *cpu, const uint8_t **page,
		    uint32_t *len)
{
	struct kt_rbuf r;

	rbuf_init(&r, p, n);
	*cpu = rbuf_u32(&r);
	*page = rbuf_blob(&r, len);
	return r.bad ? -1 : 0;
}

void msg_comm_add(struct kt_wbuf *b, int32_t pid, uint64_t ts, const char *name)
{
	wbuf_u32(b, (uint32_t)pid);
	wbuf_u64(b, ts);
	wbuf_str(b, name);
}

int msg_comms_decode(const uint8_t *p, size_t n,
		     void (*fn)(void *ctx, int32_t pid, uint64_t ts, const char *name),
		     void *ctx)
{
	struct kt_rbuf r;
	char name[64];
	int32_t pid;
	uint64_t ts;

	rbuf_init(&r, p, n);
	while (r.left && !r.bad) {
		pid = (int32_t)rbuf_u32(&r);
		ts = rbuf_u64(&r);
		rbuf_str(&r, name, sizeof(name));
		if (!r.bad)
			fn(ctx, pid, ts, name);
	}
	return r.bad ? -1 : 0;
}

/* enum kt_frame_kind's last (stacks.h, whose struct kt_frame proto.h's would clash with):
 * KT_FRAME_UNRESOLVED */
#define UNAME_KIND_MAX 4

void msg_uname_add(struct kt_wbuf *b, int32_t pid, uint64_t addr, uint8_t kind,
		   const char *name)
{
	wbuf_u32(b, (uint32_t)pid);
	wbuf_u64(b, addr);
	wbuf_u8(b, kind);
	wbuf_str(b, name);
}

int msg_unames_decode(const uint8_t *p, size_t n,
		      void (*fn)(void *ctx, int32_t pid, uint64_t addr, uint8_t kind,
				 const char *name),
		      void *ctx)
{
	struct kt_rbuf r;
	char name[256];
	uint64_t addr;
	uint8_t kind;
	int32_t pid;

	rbuf_init(&r, p, n);
	while (r.left && !r.bad) {
		pid = (int32_t)rbuf_u32(&r);
		addr = rbuf_u64(&r);
		kind = rbuf_u8(&r);
		rbuf_str(&r, name, sizeof(name));
		if (kind > UNAME_KIND_MAX)
			r.bad = true;
		if (r.bad)
			break;
		fn(ctx, pid, addr, kind, name);
	}
	return r.bad ? -1 : 0;
}

void msg_loss_encode(struct kt_wbuf *b, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		     const struct kt_backlog *bl)
{
	wbuf_u32(b, ncpus);
	for (uint32_t i = 0; i < ncpus; i++) {
		wbuf_u64(b, cpus[i].overrun);
		wbuf_u64(b, cpus[i].commit_overrun);
		wbuf_u64(b, cpus[i].dropped);
		wbuf_u64(b, cpus[i].entries);
		wbuf_u64(b, cpus[i].read);
		wbuf_u64(b, cpus[i].unread);
	}
	wbuf_u64(b, bl->queued);
	wbuf_u64(b, bl->age_ns);
}

int msg_loss_decode(const uint8_t *p, size_t n, struct kt_loss_cpu *out, uint32_t max,
		    uint32_t *ncpus, struct kt_backlog *bl)
{
	struct kt_rbuf r;
	struct kt_loss_cpu c;

	rbuf_init(&r, p, n);
	*ncpus = rbuf_u32(&r);
	if (r.bad || *ncpus > max || (size_t)*ncpus * 48 + 16 != r.left)
		return -1;
	for (uint32_t i = 0; i < *ncpus; i++) {
		c.overrun = rbuf_u64(&r);
		c.commit_overrun = rbuf_u64(&r);
		c.dropped = rbuf_u64(&r);
		c.entries = rbuf_u64(&r);
		c.read = rbuf_u64(&r);
		c.unread = rbuf_u64(&r);
		out[i] = c;
	}
	bl->queued = rbuf_u64(&r);
	bl->age_ns = rbuf_u64(&r);
	return r.bad ? -1 : 0;
}

void msg_snapshot_encode(struct kt_wbuf *b, uint8_t kind, uint32_t id, const char *text,
			 size_t len)
{
	wbuf_u8(b, kind);
	wbuf_u32(b, id);
	wbuf_blob(b, text, len);
}

int msg_snapshot_decode(const uint8_t *p, size_t n, struct kt_snapshot *s)
{
	const uint8_t *text;
	struct kt_rbuf r;
	uint32_t len;

	rbuf_init(&r, p, n);
	s->kind = rbuf_u8(&r);
	s->id = rbuf_u32(&r);
	text = rbuf_blob(&r, &len);
	if (r.bad || r.left || s->kind < KT_SNAP_HIST || s->kind > KT_SNAP_LIST)
		return -1;
	s->text = xmalloc((size_t)len + 1);
	for (uint32_t i = 0; i < len; i++)
		s->text[i] = text[i] == '\n' || (text[i] >= 0x20 && text[i] != 0x7f) ? (char)text[i]
									       : '?';
	s->text[len] = '\0';
	s->len = len;
	return 0;
}

int msg_u64_decode(const uint8_t *p, size_t n, uint64_t *v)
{
	struct kt_rbuf r;

	rbuf_init(&r, p, n);
	*v = rbuf_u64(&r);
	return r.bad || r.left ? -1 : 0;
}

void msg_pong_encode(struct kt_wbuf *b, uint64_t viewer_ns, uint64_t agent_ns)
{
	wbuf_u64(b, viewer_ns);
	wbuf_u64(b, agent_ns);
}

int msg_pong_decode(const uint8_t *p, size_t n, uint64_t *viewer_ns, uint64_t *agent_ns)
{
	struct kt_rbuf r;

	rbuf_init(&r, p, n);
	*viewer_ns = rbuf_u64(&r);
	*agent_ns = rbuf_u64(&r);
	return r.bad || r.left ? -1 : 0;
}
