// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote protocol's frames and messages (src/remote/frame.c, msg.c, histrows.c): round trips,
 * compression, a peer of another version named in one line, truncated, oversized and
 * foreign input refused in one line. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "backend/tracefs/probeprint.h"
#include "remote/counterrows.h"
#include "remote/histrows.h"
#include "remote/ovrows.h"
#include "remote/profrows.h"
#include "remote/pages.h"
#include "remote/proto.h"
#include "source/source.h"

/* Parses the one frame in b with the stream reader, fed one byte at a time: every prefix
 * must ask for more, the whole must give the frame. */
static size_t one_frame(const struct kt_wbuf *b, struct kt_rstream *s, struct kt_frame *f,
			const uint8_t **p)
{
	char err[256];
	size_t n = 0;
	int ret;

	for (size_t i = 0; i < b->len; i++) {
		rstream_feed(s, b->data + i, 1);
		ret = rstream_next(s, f, p, &n, err, sizeof(err));

		ck_assert_msg(ret == (i + 1 == b->len), "byte %zu of %zu: %d (%s)", i, b->len, ret,
			      ret < 0 ? err : "");
	}
	return n;
}

START_TEST(test_hello_roundtrip)
{
	struct kt_hello h = { .proto = KT_PROTO_VERSION, .role = 'A', .ncpus = 4,
			      .page_size = 4096, .long_size = 8 }, g;
	struct kt_wbuf pay = { 0 }, b = { 0 };
	struct kt_rstream s = { 0 };
	struct kt_frame f;
	const uint8_t *p;
	char err[256], line[256];
	size_t n;

	strcpy(h.version, PACKAGE_VERSION);
	strcpy(h.host, "db-3");
	strcpy(h.kernel, "6.1.0-18-amd64");
	msg_hello_encode(&pay, &h);
	ck_assert_int_eq(frame_append(&b, KT_MSG_HELLO, pay.data, pay.len, false), 0);
	n = one_frame(&b, &s, &f, &p);
	ck_assert_uint_eq(f.type, KT_MSG_HELLO);
	ck_assert_uint_eq(f.version, KT_PROTO_VERSION);
	ck_assert_int_eq(msg_hello_decode(p, n, &g, err, sizeof(err)), 0);
	ck_assert_str_eq(g.host, "db-3");
	ck_assert_str_eq(g.kernel, "6.1.0-18-amd64");
	ck_assert_uint_eq(g.ncpus, 4);
	ck_assert_uint_eq(g.page_size, 4096);
	ck_assert(!msg_version_mismatch(&g, "agent at db-3", true, line, sizeof(line)));
	ck_assert_str_eq(line, "");
	/* the protocol decides, not the package's version */
	snprintf(g.version, sizeof(g.version), "0.0.1");
	ck_assert(!msg_version_mismatch(&g, "agent at db-3", true, line, sizeof(line)));
	rstream_free(&s);
	wbuf_free(&pay);
	wbuf_free(&b);
}
END_TEST

/* A hello of the next protocol, whose body this version cannot read, still names the
 * versions. */
START_TEST(test_version_mismatch)
{
	struct kt_wbuf pay = { 0 }, b = { 0 };
	struct kt_rstream s = { 0 };
	struct kt_frame f;
	struct kt_hello g;
	const uint8_t *p;
	char err[256], line[256];
	uint32_t c;
	size_t n;

	wbuf_u16(&pay, KT_PROTO_VERSION + 1);
	wbuf_str(&pay, "9.9");
	wbuf_u64(&pay, 0xdeadbeef); /* whatever the next version says next */
	ck_assert_int_eq(frame_append(&b, KT_MSG_HELLO, pay.data, pay.len, false), 0);
	b.data[4] = KT_PROTO_VERSION + 1;
	b.data[5] = 200; /* a type this version does not know */
	/* the header's check covers the version: seal it again as the next version would */
	c = frame_check(b.data, 12);
	memcpy(b.data + 12, &c, 4);
	n = one_frame(&b, &s, &f, &p);
	ck_assert_uint_eq(f.version, KT_PROTO_VERSION + 1);
	ck_assert_int_eq(msg_hello_decode(p, n, &g, err, sizeof(err)), 0);
	ck_assert(msg_version_mismatch(&g, "agent at db-3", true, line, sizeof(line)));
	snprintf(err, sizeof(err), "agent at db-3 runs ktop 9.9 (remote protocol %d), this is "
		 "ktop %s (protocol %d): update ktop on this machine, the viewer's",
		 KT_PROTO_VERSION + 1, PACKAGE_VERSION, KT_PROTO_VERSION);
	ck_assert_msg(strstr(line, err) && !strchr(line, '\n'), "%s", line);
	/* an older agent: its host is the side to update, or the viewer sends its own */
	g.proto = KT_PROTO_VERSION - 1;
	ck_assert(msg_version_mismatch(&g, "agent at db-3", true, line, sizeof(line)));
	ck_assert_msg(strstr(line, "update ktop on the agent's host, or send this ktop's own "
			      "agent with --push"), "%s", line);
	rstream_free(&s);
	wbuf_free(&pay);
	wbuf_free(&b);
}
END_TEST

/* A request encoded and decoded: every field back, and its op's name. */
static void request_roundtrip(uint32_t id, uint8_t op, const char *name, const char *arg,
			      const char *arg2)
{
	struct kt_wbuf pay = { 0 };
	struct kt_request req;
	char store[256], err[256];

	msg_request_encode(&pay, id, op, arg, arg2);
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len, &req, store, sizeof(store), err,
					    sizeof(err)), 0);
	ck_assert_uint_eq(req.id, id);
	ck_assert_uint_eq(req.op, op);
	ck_assert_str_eq(msg_request_name(req.op), name);
	ck_assert_str_eq(req.arg, arg);
	ck_assert_str_eq(req.arg2, arg2);
	wbuf_free(&pay);
}

START_TEST(test_messages_roundtrip)
{
	struct kt_loss_cpu loss[2] = { { 1, 2, 3, 4, 5, 11 }, { 6, 7, 8, 9, 10, 12 } }, got[4];
	struct kt_backlog bl = { 3 << 20, 1400000000 }, gotbl;
	struct kt_wbuf pay = { 0 };
	struct kt_request req;
	char store[256], err[256], text[64], sys[32], name[32];
	const uint8_t *blob;
	uint32_t id, len, cpu;
	uint64_t a, c;
	bool ok;

	request_roundtrip(7, KT_REQ_ENABLE, "enable", "syscalls:sys_enter_*", "common_pid == 1");
	request_roundtrip(9, KT_REQ_HIST, "hist", "syscall-latency,by=comm", "json");
	request_roundtrip(10, KT_REQ_COUNTERS, "counters", "cycles sched:sched_switch", "");
	request_roundtrip(11, KT_REQ_SCOPE, "scope", "pid+children", "123,456");
	request_roundtrip(12, KT_REQ_STACK, "stack", "syscalls:sys_enter_read", "fd == 3");
	request_roundtrip(13, KT_REQ_PROFILE, "profile", "199", "");
	request_roundtrip(14, KT_REQ_END, "end", "", "");
	request_roundtrip(15, KT_REQ_PROBE_COUNTS, "probe-counts", "", "");
	/* a newer viewer's op decodes: the agent refuses it in a reply and goes on */
	msg_request_encode(&pay, 8, 99, "x", "");
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len, &req, store, sizeof(store), err,
					    sizeof(err)), 0);
	ck_assert_uint_eq(req.op, 99);
	ck_assert_str_eq(msg_request_name(req.op), "unknown");
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len - 1, &req, store, sizeof(store),
					    err, sizeof(err)), -1);
	ck_assert_str_eq(err, "malformed request (13 bytes)");
	/* an argument past its half of the store is refused, never cut */
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	pay.len = 0;
	msg_request_encode(&pay, 8, KT_REQ_ENABLE, text, "");
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len, &req, store, 128, err,
					    sizeof(err)), 0);
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len, &req, store, 126, err,
					    sizeof(err)), 1);
	ck_assert_uint_eq(req.id, 8);
	ck_assert_str_eq(err, "its argument is 63 bytes, the agent takes at most 62: name less "
			 "in one request");
	pay.len = 0;
	msg_request_encode(&pay, 9, KT_REQ_ENABLE, "x", text);
	ck_assert_int_eq(msg_request_decode(pay.data, pay.len, &req, store, 126, err,
					    sizeof(err)), 1);
	ck_assert_str_eq(err, "its second argument is 63 bytes, the agent takes at most 62: name "
			 "less in one request");

	pay.len = 0;
	msg_reply_encode(&pay, 7, false, "no kprobes in this kernel (CONFIG_KPROBE_EVENTS)");
	ck_assert_int_eq(msg_reply_decode(pay.data, pay.len, &id, &ok, text, sizeof(text)), 0);
	ck_assert(!ok);
	ck_assert_str_eq(text, "no kprobes in this kernel (CONFIG_KPROBE_EVENTS)");

	pay.len = 0;
	msg_format_encode(&pay, "syscalls", "sys_enter_getppid", "name: x\n", 8);
	ck_assert_int_eq(msg_format_decode(pay.data, pay.len, sys, sizeof(sys), name,
					   sizeof(name), &blob, &len), 0);
	ck_assert_str_eq(sys, "syscalls");
	ck_assert_uint_eq(len, 8);
	ck_assert(!memcmp(blob, "name: x\n", 8));

	pay.len = 0;
	msg_loss_encode(&pay, loss, 2, &bl);
	ck_assert_uint_eq(pay.len, 4 + 2 * 48 + 16);
	ck_assert_int_eq(msg_loss_decode(pay.data, pay.len, got, 4, &cpu, &gotbl), 0);
	ck_assert_uint_eq(cpu, 2);
	ck_assert(!memcmp(got, loss, sizeof(loss)));
	ck_assert_uint_eq(gotbl.queued, 3 << 20);
	ck_assert_uint_eq(gotbl.age_ns, 1400000000);
	ck_assert_int_eq(msg_loss_decode(pay.data, pay.len, got, 1, &cpu, &gotbl), -1);
	ck_assert_int_eq(msg_loss_decode(pay.data, pay.len - 1, got, 4, &cpu, &gotbl), -1);
	/* protocol 1's frame (five counters a CPU, no backlog) is not this one's */
	ck_assert_int_eq(msg_loss_decode(pay.data, 4 + 2 * 40, got, 4, &cpu, &gotbl), -1);

	pay.len = 0;
	wbuf_u64(&pay, 0x0102030405060708ull); /* ping, watermark */
	ck_assert_int_eq(msg_u64_decode(pay.data, pay.len, &a), 0);
	ck_assert(a == 0x0102030405060708ull);
	ck_assert_int_eq(msg_u64_decode(pay.data, pay.len - 1, &a), -1);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_u64_decode(pay.data, pay.len, &a), -1);

	pay.len = 0;
	msg_pong_encode(&pay, 123, 456);
	ck_assert_int_eq(msg_pong_decode(pay.data, pay.len, &a, &c), 0);
	ck_assert(a == 123 && c == 456);
	ck_assert_int_eq(msg_pong_decode(pay.data, pay.len - 1, &a, &c), -1);
	wbuf_free(&pay);
}
END_TEST

/* A histogram's or the counters' snapshot: its rendering comes back byte for byte, lines
 * kept, a terminal's control characters made harmless; a truncated, padded or unknown one is
 * refused. */
START_TEST(test_snapshot)
{
	static const char text[] = "# hist syscall-latency: by=none unit=ns scale=log2 "
				   "via=tp_btf keys=1 missed=2\nkey all count=5 sum=10\n"
				   "  [1, 2) 5 |****|\n";
	struct kt_wbuf pay = { 0 };
	struct kt_snapshot s;

	msg_snapshot_encode(&pay, KT_SNAP_HIST, 42, text, strlen(text));
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_uint_eq(s.kind, KT_SNAP_HIST);
	ck_assert_uint_eq(s.id, 42);
	ck_assert_uint_eq(s.len, strlen(text));
	ck_assert_str_eq(s.text, text);
	free(s.text);

	pay.len = 0;
	msg_snapshot_encode(&pay, KT_SNAP_HIST, 1, "key \033]0;x\a\tz\n", 13);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_str_eq(s.text, "key ?]0;x??z\n");
	free(s.text);
	pay.len = 0;
	msg_snapshot_encode(&pay, KT_SNAP_HIST, 1, "a\0b\n", 4);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_uint_eq(s.len, 4);
	ck_assert_str_eq(s.text, "a?b\n");
	free(s.text);

	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len - 1, &s), -1);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, 4, &s), -1);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), -1);
	pay.len = 0;
	msg_snapshot_encode(&pay, KT_SNAP_COUNTERS, 7, "# pmu: system-wide, 2 CPUs, 1.000 s\n", 36);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_uint_eq(s.kind, KT_SNAP_COUNTERS);
	ck_assert_uint_eq(s.id, 7);
	ck_assert_str_eq(s.text, "# pmu: system-wide, 2 CPUs, 1.000 s\n");
	free(s.text);
	/* a function list's entries, one a line (request 26's get) */
	pay.len = 0;
	msg_snapshot_encode(&pay, KT_SNAP_LIST, 9, "vfs_read\nvfs_write\n", 19);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_uint_eq(s.kind, KT_SNAP_LIST);
	ck_assert_str_eq(s.text, "vfs_read\nvfs_write\n");
	free(s.text);
	for (unsigned kind = 0; kind < 256; kind += kind == 0 ? KT_SNAP_LIST + 1 : 100) {
		pay.len = 0;
		msg_snapshot_encode(&pay, (uint8_t)kind, 1, "x\n", 2);
		ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), -1);
	}
	wbuf_free(&pay);
}
END_TEST

static unsigned n_unames;
static void uname_seen(void *ctx, int32_t pid, uint64_t addr, uint8_t kind, const char *name)
{
	(void)ctx;
	ck_assert_int_eq(pid, 4242);
	ck_assert(addr == (n_unames ? 0x402020u : 0x401010u));
	ck_assert_uint_eq(kind, n_unames ? 4 : 2);
	/* a peer's control characters never reach a screen */
	ck_assert_str_eq(name, n_unames ? "[libc.so.6+0x2a1ca]?" : "work");
	n_unames++;
}

static unsigned n_comms;
static void comm_seen(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	(void)ctx;
	ck_assert_int_eq(pid, 40 + (int)n_comms);
	ck_assert(ts == 1000 + n_comms);
	ck_assert_str_eq(name, n_comms ? "ktop-exact" : "bash");
	n_comms++;
}

/* A page goes as it was read, compressed when asked: the bytes come back the same. */
/* The viewer keeps the backlog of each loss frame: its queue plus each CPU's unread bytes,
 * and the largest bytes and age seen, which a caught-up frame does not lower. */
START_TEST(test_backlog_kept)
{
	struct kt_loss_cpu cpus[2] = { { .unread = 4096 }, { .unread = 8192 } };
	struct kt_backlog behind = { 1 << 20, 1500000000 }, caught = { 0, 0 };
	struct tep_handle *tep = tep_alloc();
	struct kt_rpages *p = rpages_new(tep, NULL, NULL);
	struct kt_rbacklog b;
	const struct kt_cpu_stats *st;
	uint32_t n;

	rpages_backlog(p, &b);
	ck_assert(!b.bytes && !b.age_ns && !b.max_bytes && !b.max_age_ns);
	rpages_loss(p, cpus, 2, &behind);
	rpages_backlog(p, &b);
	ck_assert_uint_eq(b.bytes, (1 << 20) + 4096 + 8192);
	ck_assert_uint_eq(b.age_ns, 1500000000);
	st = rpages_cpu_stats(p, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(st[1].bytes, 8192);
	cpus[0].unread = cpus[1].unread = 0;
	rpages_loss(p, cpus, 2, &caught);
	rpages_backlog(p, &b);
	ck_assert_uint_eq(b.bytes, 0);
	ck_assert_uint_eq(b.age_ns, 0);
	ck_assert_uint_eq(b.max_bytes, (1 << 20) + 4096 + 8192);
	ck_assert_uint_eq(b.max_age_ns, 1500000000);
	rpages_free(p);
	tep_free(tep);
}
END_TEST

START_TEST(test_page_compressed)
{
	struct kt_wbuf pay = { 0 }, b = { 0 }, plain = { 0 };
	struct kt_rstream s = { 0 };
	uint8_t page[4096];
	const uint8_t *p, *back;
	struct kt_frame f;
	uint32_t cpu, len;
	size_t n;

	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i % 61 == 0 ? i : 0);
	msg_page_encode(&pay, 3, page, sizeof(page));
	ck_assert_int_eq(frame_append(&b, KT_MSG_PAGE, pay.data, pay.len, true), 0);
	ck_assert_int_eq(frame_append(&plain, KT_MSG_PAGE, pay.data, pay.len, false), 0);
	ck_assert_msg(b.len < plain.len / 4, "compressed %zu of %zu", b.len, plain.len);
	n = one_frame(&b, &s, &f, &p);
	ck_assert(f.flags & KT_FRAME_COMPRESSED);
	ck_assert_int_eq(msg_page_decode(p, n, &cpu, &back, &len), 0);
	ck_assert_uint_eq(cpu, 3);
	ck_assert_uint_eq(len, sizeof(page));
	ck_assert(!memcmp(back, page, sizeof(page)));

	pay.len = 0;
	msg_comm_add(&pay, 40, 1000, "bash");
	msg_comm_add(&pay, 41, 1001, "ktop-exact");
	ck_assert_int_eq(msg_comms_decode(pay.data, pay.len, comm_seen, NULL), 0);
	ck_assert_uint_eq(n_comms, 2);
	n_comms = 0; /* cut short: the whole entries before the cut, then refused */
	ck_assert_int_eq(msg_comms_decode(pay.data, pay.len - 2, comm_seen, NULL), -1);
	ck_assert_uint_eq(n_comms, 1);

	/* a user frame's name: whole entries, a kind stacks.h knows */
	pay.len = 0;
	msg_uname_add(&pay, 4242, 0x401010, 2, "work");
	msg_uname_add(&pay, 4242, 0x402020, 4, "[libc.so.6+0x2a1ca]\n");
	n_unames = 0;
	ck_assert_int_eq(msg_unames_decode(pay.data, pay.len, uname_seen, NULL), 0);
	ck_assert_uint_eq(n_unames, 2);
	n_unames = 0;
	ck_assert_int_eq(msg_unames_decode(pay.data, pay.len - 3, uname_seen, NULL), -1);
	ck_assert_uint_eq(n_unames, 1);
	pay.len = 0;
	msg_uname_add(&pay, 1, 0x10, 5, "past the last kind");
	ck_assert_int_eq(msg_unames_decode(pay.data, pay.len, uname_seen, NULL), -1);
	rstream_free(&s);
	wbuf_free(&pay);
	wbuf_free(&b);
	wbuf_free(&plain);
}
END_TEST

static int parse_all(const void *p, size_t n, char *err, size_t errlen)
{
	struct kt_rstream s = { 0 };
	struct kt_frame f;
	const uint8_t *q;
	size_t len;
	int ret;

	rstream_feed(&s, p, n);
	while ((ret = rstream_next(&s, &f, &q, &len, err, errlen)) > 0)
		;
	rstream_free(&s);
	return ret;
}

START_TEST(test_refusals)
{
	struct kt_wbuf b = { 0 };
	char err[256];
	uint8_t zero[8] = { 0 };
	uint32_t c;

	/* a shell's complaint instead of an agent */
	ck_assert_int_eq(parse_all("bash: ktop: command not found\n", 30, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "\"bash: ktop: command not found\"") && !strchr(err, '\n'),
		      "%s", err);
	/* truncated: asks for more, never fails or reads past the end */
	ck_assert_int_eq(frame_append(&b, KT_MSG_END, zero, sizeof(zero), false), 0);
	for (size_t i = 0; i < b.len; i++)
		ck_assert_int_eq(parse_all(b.data, i, err, sizeof(err)), 0);
	/* a flipped length bit: the check catches it */
	b.data[10] ^= 1;
	ck_assert_int_eq(parse_all(b.data, b.len, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "corrupt frame header"), "%s", err);
	/* a sealed length past the limit */
	b.data[10] ^= 1;
	b.data[8] = b.data[9] = b.data[10] = b.data[11] = 0xff;
	c = frame_check(b.data, 12);
	memcpy(b.data + 12, &c, 4);
	ck_assert_int_eq(parse_all(b.data, KT_FRAME_HDR, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "end frame of 4294967295 bytes, past the limit"), "%s", err);
	/* compressed bytes that are not zstd's */
	b.len = 0;
	ck_assert_int_eq(frame_append(&b, KT_MSG_PAGE, zero, sizeof(zero), false), 0);
	b.data[6] = KT_FRAME_COMPRESSED;
	c = frame_check(b.data, 12);
	memcpy(b.data + 12, &c, 4);
	ck_assert_int_eq(parse_all(b.data, b.len, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "compressed page frame is not a zstd frame"), "%s", err);
	wbuf_free(&b);
}
END_TEST

/* The explorer's remote source: what it offers, and one line, short enough for an
 * 80-column status line, for each thing it refuses. */
START_TEST(test_remote_source)
{
	static const unsigned int refused[] = {
		KT_CAP_WRITE, KT_CAP_SEEK, KT_CAP_HIDE,
	};
	struct kt_source s = { .ops = &source_remote_ops };
	const char *why;
	char note[128];

	ck_assert(source_can(&s, KT_CAP_EVENTS | KT_CAP_FILTER | KT_CAP_TRACER | KT_CAP_PROBES |
				     KT_CAP_HIST | KT_CAP_COUNTERS | KT_CAP_PROFILE | KT_CAP_STACKS |
				     KT_CAP_SCOPE | KT_CAP_LIVE | KT_CAP_CLEAR | KT_CAP_KBUF |
				     KT_CAP_TRIGGERS));
	/* the agent's kernel and files, not this machine's: the probe editor checks nothing
	 * of them here (the agent's kernel refuses a probe kind it lacks), and the function
	 * lists complete from none of this machine's names */
	ck_assert(source_probe_supported(&s, KT_PROBE_KPROBE, NULL, 0));
	ck_assert_ptr_null(source_tracer_functions(&s, note, sizeof(note)));
	ck_assert_str_eq(note, "the agent's kernel: type a function or a glob whole");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ck_assert(!source_can(&s, refused[i]));
		why = source_refusal(&s, refused[i]);
		ck_assert_msg(why && !strncmp(why, "remote: ", 8) && strlen(why) < 80 &&
				      !strchr(why, '\n'),
			      "cap %#x: '%s'", refused[i], why ? why : "(null)");
	}
	/* without agents (several hosts, as far as it knows): w records one host; triggers
	 * go to every host */
	ck_assert_str_eq(source_refusal(&s, KT_CAP_WRITE),
			 "remote: w and A record one host (ktop -b -o: a file a host)");
	ck_assert_ptr_null(source_refusal(&s, KT_CAP_EVENTS | KT_CAP_FILTER));
}
END_TEST

/* A live histogram's rows (HISTROWS) come back as they went: keys, both bucket sets with
 * only their non-empty slots on the wire, the total, the variant and missed=; a name of
 * the full 16 bytes keeps them, control characters do not reach the pane; a truncated,
 * padded or out-of-range payload is refused. */
START_TEST(test_histrows)
{
	struct kt_hist_row rows[2] = { 0 }, total = { 0 };
	struct kt_histrows h;
	struct kt_wbuf pay = { 0 };
	uint8_t *bad;

	rows[0].key.id = 110;
	memcpy(rows[0].key.name, "0123456789abcdef", KT_HIST_COMM); /* no NUL */
	rows[0].cum = (struct kt_hist_val){ .count = 20000, .sum = 2200000, .min = 110,
					    .max = 110 };
	rows[0].cum.slots[6] = 20000;
	rows[0].iv = rows[0].cum;
	rows[1].key.id = 7;
	memcpy(rows[1].key.name, "a]0b", 6);
	rows[1].cum = (struct kt_hist_val){ .count = 3, .sum = 9, .min = 1, .max = 5 };
	rows[1].cum.slots[0] = 1;
	rows[1].cum.slots[KT_HIST_SLOTS - 1] = 2;
	total.cum = rows[0].cum;
	hist_val_add(&total.cum, &rows[1].cum);
	total.iv = rows[0].iv;

	msg_histrows_encode(&pay, 9, "tp_btf", 4, &total, rows, 2);
	/* sparse: far less than the structs */
	ck_assert_uint_lt(pay.len, sizeof(rows) / 4);
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), 0);
	ck_assert_uint_eq(h.id, 9);
	ck_assert_str_eq(h.variant, "tp_btf");
	ck_assert_uint_eq(h.missed, 4);
	ck_assert_uint_eq(h.nrows, 2);
	ck_assert(!memcmp(&h.total, &total, sizeof(total)));
	ck_assert(!memcmp(&h.rows[0], &rows[0], sizeof(rows[0])));
	ck_assert_uint_eq(h.rows[1].key.id, 7);
	ck_assert_str_eq(h.rows[1].key.name, "a?]0b");
	ck_assert(!memcmp(&h.rows[1].cum, &rows[1].cum, sizeof(rows[1].cum)));
	free(h.rows);

	for (size_t n = 0; n < pay.len; n++)
		ck_assert_msg(msg_histrows_decode(pay.data, n, &h) == -1, "%zu of %zu bytes", n,
			      pay.len);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), -1);
	pay.len--;
	/* the total's first value's slot count (after id, "tp_btf", missed, key id, "") */
	bad = pay.data + 4 + 4 + 6 + 8 + 8 + 4 + 4 * 8;
	ck_assert_uint_eq(*bad, 3); /* slots 0, 6 and the last */
	bad[1] = KT_HIST_SLOTS; /* a slot past the last */
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), -1);
	bad[1] = bad[1 + 9]; /* the same slot twice */
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), -1);
	wbuf_free(&pay);

	/* no rows; a row count the payload cannot hold is refused before any allocation */
	msg_histrows_encode(&pay, 1, "kprobe", 0, &total, NULL, 0);
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), 0);
	ck_assert_uint_eq(h.nrows, 0);
	ck_assert_ptr_null(h.rows);
	memset(pay.data + pay.len - 4, 0xff, 4);
	ck_assert_int_eq(msg_histrows_decode(pay.data, pay.len, &h), -1);
	wbuf_free(&pay);
}
END_TEST

/* An overview's tick (OVROWS) comes back as it went: the agent's strip, why a column is
 * empty, the syscall hooks' state, every process and thread with its counts and buckets
 * (only non-empty slots on the wire); a truncated or padded payload is refused, a slot
 * out of range too, and a row count the payload cannot hold before any allocation. */
START_TEST(test_ovrows)
{
	static struct kt_ovrows in, out;
	struct kt_ov_row rows[2] = { 0 };
	struct kt_wbuf pay = { 0 };

	in.id = 5;
	snprintf(in.source, sizeof(in.source), "bpf tp_btf");
	in.syscalls = true;
	snprintf(in.missing[KT_OVC_MIGR], sizeof(in.missing[0]), "no reason at all");
	in.sys.interval_s = 1.5;
	in.sys.ncpus = 2;
	in.sys.cpu_busy[1] = 42.5;
	in.sys.psi_io_full = -1;
	in.sys.ndisks = 1;
	snprintf(in.sys.disks[0].name, sizeof(in.sys.disks[0].name), "vda");
	in.sys.disks[0].write_bytes = 8192;
	in.sys.self.rss_kb = 9000;
	rows[0] = (struct kt_ov_row){ .pid = 7, .tid = 7, .nthreads = 2, .exited = true,
				      .comm = "0123456789abcdef", .user = "root",
				      .cgroup = "docker abc", .oncpu_ns = 1000, .syscalls = 20000,
				      .top_errno = 2, .write_bytes = 1 << 20 };
	rows[0].runq_slots[3] = 9;
	rows[0].sys_slots[KT_OV_ROW_SLOTS - 1] = 1;
	rows[1] = (struct kt_ov_row){ .pid = 7, .tid = 8, .other = true, .migrations = 3 };
	in.snap.interval_s = 1.5;
	in.snap.cpu_runq_slots[0] = 4;
	in.snap.procs = rows;
	in.snap.nprocs = 1;
	in.snap.threads = rows;
	in.snap.nthreads = 2;
	msg_ovrows_encode(&pay, &in);
	ck_assert_int_eq(msg_ovrows_decode(pay.data, pay.len, &out), 0);
	ck_assert_uint_eq(out.id, 5);
	ck_assert_str_eq(out.source, "bpf tp_btf");
	ck_assert(out.syscalls);
	ck_assert_str_eq(out.missing[KT_OVC_MIGR], "no reason at all");
	ck_assert_str_eq(out.missing[KT_OVC_CPU], "");
	ck_assert(out.sys.ncpus == 2 && out.sys.cpu_busy[1] == 42.5 && out.sys.psi_io_full == -1);
	ck_assert_str_eq(out.sys.disks[0].name, "vda");
	ck_assert_uint_eq(out.sys.disks[0].write_bytes, 8192);
	ck_assert_uint_eq(out.sys.self.rss_kb, 9000);
	ck_assert_uint_eq(out.snap.cpu_runq_slots[0], 4);
	ck_assert_uint_eq(out.snap.nprocs, 1);
	ck_assert_uint_eq(out.snap.nthreads, 2);
	ck_assert(!memcmp(&out.snap.procs[0], &rows[0], sizeof(rows[0])));
	ck_assert(!memcmp(&out.snap.threads[1], &rows[1], sizeof(rows[1])));
	msg_ovrows_free(&out);

	for (size_t n = 0; n < pay.len; n++)
		ck_assert_msg(msg_ovrows_decode(pay.data, n, &out) == -1, "%zu of %zu bytes", n,
			      pay.len);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_ovrows_decode(pay.data, pay.len, &out), -1);
	pay.len--;
	/* the last thread's sys_slots, empty, its count the last byte: one slot past the last */
	pay.data[pay.len - 1] = 1;
	wbuf_u8(&pay, KT_OV_ROW_SLOTS);
	wbuf_u32(&pay, 1);
	ck_assert_int_eq(msg_ovrows_decode(pay.data, pay.len, &out), -1);
	wbuf_free(&pay);

	in.snap.nprocs = in.snap.nthreads = 0;
	msg_ovrows_encode(&pay, &in);
	memset(pay.data + pay.len - 8, 0xff, 4); /* the count of processes */
	ck_assert_int_eq(msg_ovrows_decode(pay.data, pay.len, &out), -1);
	wbuf_free(&pay);
}
END_TEST

/* A live counter set's figures (COUNTERROWS) come back exactly as they went: every figure
 * bit for bit (NAN, the rates not known, stays NAN), the slots, the refusal of a counter
 * with its reason, the ratios; control characters do not reach the pane; a truncated,
 * padded or lying payload (an unknown format, an infinite figure, counts it cannot hold)
 * is refused with nothing to free. */
START_TEST(test_counterrows)
{
	struct kt_pmu_snap_counter c[2] = { 0 };
	struct kt_pmu_snap_slot slots[2][2] = {
		{ { true, 1e9 }, { true, 2.5e8 } },
		{ { false, NAN }, { false, NAN } },
	};
	int32_t ids[2] = { 0, 3 };
	struct kt_pmu_snap s = {
		.target = "system-wide, 2 CPUs", .samples = 7, .interval = 0.1, .nslots = 2,
		.slot_ids = ids, .ncounters = 2, .counters = c,
	};
	struct kt_counterrows out;
	struct kt_wbuf pay = { 0 };
	double inf = INFINITY;
	size_t off;

	snprintf(c[0].name, sizeof(c[0].name), "task-clock");
	c[0].fmt = KT_PMU_FMT_NS;
	c[0].available = c[0].counted = true;
	c[0].raw = 123456789;
	c[0].value = 123456789.0;
	c[0].rate = 1.25e9;
	c[0].share = 1.0;
	c[0].share_total = 0.5;
	c[0].slots = slots[0];
	snprintf(c[1].name, sizeof(c[1].name), "cycles");
	c[1].user = true;
	snprintf(c[1].reason, sizeof(c[1].reason), "no PMU driver\x1b[2J here");
	c[1].rate = c[1].share = c[1].share_total = NAN;
	c[1].slots = slots[1];
	for (int i = 0; i < KT_PMU_NRATIOS; i++) {
		snprintf(s.ratios[i].name, sizeof(s.ratios[i].name), "ratio%d", i);
		snprintf(s.ratios[i].unit, sizeof(s.ratios[i].unit), "%%");
		s.ratios[i].value = i ? NAN : 1.5;
		s.ratios[i].rate_value = NAN;
		snprintf(s.ratios[i].why, sizeof(s.ratios[i].why), "%s", i ? "needs cycles" : "");
	}

	msg_counterrows_encode(&pay, 42, &s);
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), 0);
	ck_assert_uint_eq(out.id, 42);
	ck_assert_str_eq(out.snap.target, "system-wide, 2 CPUs");
	ck_assert(!out.snap.per_task);
	ck_assert_uint_eq(out.snap.samples, 7);
	ck_assert(out.snap.interval == 0.1);
	ck_assert_uint_eq(out.snap.nslots, 2);
	ck_assert_int_eq(out.snap.slot_ids[1], 3);
	ck_assert_uint_eq(out.snap.ncounters, 2);
	ck_assert_str_eq(out.snap.counters[0].name, "task-clock");
	ck_assert_uint_eq(out.snap.counters[0].fmt, KT_PMU_FMT_NS);
	ck_assert(out.snap.counters[0].available && out.snap.counters[0].counted);
	ck_assert_uint_eq(out.snap.counters[0].raw, 123456789);
	ck_assert(out.snap.counters[0].value == 123456789.0);
	ck_assert(out.snap.counters[0].rate == 1.25e9);
	ck_assert(out.snap.counters[0].share == 1.0 && out.snap.counters[0].share_total == 0.5);
	ck_assert(out.snap.counters[0].slots[0].open && out.snap.counters[0].slots[1].rate == 2.5e8);
	ck_assert(!out.snap.counters[1].available && !out.snap.counters[1].counted);
	ck_assert(out.snap.counters[1].user && !out.snap.counters[0].user);
	ck_assert_str_eq(out.snap.counters[1].reason, "no PMU driver?[2J here");
	ck_assert(isnan(out.snap.counters[1].rate) && isnan(out.snap.counters[1].slots[0].rate));
	ck_assert(!out.snap.counters[1].slots[1].open);
	ck_assert_str_eq(out.snap.ratios[1].name, "ratio1");
	ck_assert_str_eq(out.snap.ratios[1].unit, "%");
	ck_assert(out.snap.ratios[0].value == 1.5 && isnan(out.snap.ratios[1].value));
	ck_assert_str_eq(out.snap.ratios[2].why, "needs cycles");
	pmu_snap_free(&out.snap);
	ck_assert_ptr_null(out.snap.counters);

	for (size_t n = 0; n < pay.len; n++)
		ck_assert_msg(msg_counterrows_decode(pay.data, n, &out) == -1, "%zu of %zu bytes",
			      n, pay.len);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), -1);
	pay.len--;
	/* the first counter's format (after id, target, per_task, samples, interval, the
	 * slots, the count of counters, its name) */
	off = 4 + 4 + strlen(s.target) + 1 + 4 + 8 + 4 + 2 * 4 + 4 + 4 + strlen("task-clock");
	ck_assert_uint_eq(pay.data[off], KT_PMU_FMT_NS);
	pay.data[off] = KT_PMU_FMT_MAX;
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), -1);
	pay.data[off] = KT_PMU_FMT_NS;
	/* its value: an infinite figure */
	off += 1 + 4 + 1 + 4 + 8;
	memcpy(pay.data + off, &inf, sizeof(inf));
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), -1);
	wbuf_free(&pay);

	/* no counter; a count the payload cannot hold is refused before any allocation */
	s.ncounters = 0;
	s.nslots = 0;
	msg_counterrows_encode(&pay, 1, &s);
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), 0);
	ck_assert_uint_eq(out.snap.ncounters, 0);
	pmu_snap_free(&out.snap);
	off = 4 + 4 + strlen(s.target) + 1 + 4 + 8;
	memset(pay.data + off, 0xff, 4); /* the slots */
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), -1);
	memset(pay.data + off, 0, 4);
	memset(pay.data + off + 4, 0xff, 4); /* the counters */
	ck_assert_int_eq(msg_counterrows_decode(pay.data, pay.len, &out), -1);
	wbuf_free(&pay);
}
END_TEST

/* What profrows_each saw: each stack as "WEIGHT KINDS frame;frame;..." lines. */
static int profrows_seen(void *ctx, uint64_t weight, size_t n, const uint8_t *kinds,
			 const char *const *names)
{
	FILE *out = ctx;

	fprintf(out, "%llu ", (unsigned long long)weight);
	for (size_t i = 0; i < n; i++)
		fputc('0' + kinds[i], out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%c%s", i ? ';' : ' ', names[i]);
	fputc('\n', out);
	return 0;
}

static char *profrows_text(const struct kt_profrows *h)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	ck_assert_int_eq(profrows_each(h, profrows_seen, mem), 0);
	ck_assert_int_eq(fclose(mem), 0);
	return text;
}

/* A live profile's stacks (PROFROWS) come back as they went: weights, kinds and names root
 * to leaf, the note; control characters do not reach the pane; a stack of weight 0, of no
 * frame, a kind past the last, a truncated or padded payload, a count the payload cannot
 * hold are refused. */
START_TEST(test_profrows)
{
	static const uint8_t k1[] = { 0, 2, 2, 1 }, k2[] = { 0, 4 };
	static const char *const n1[] = { "profwork", "main", "hot_seventy", "asm_sysvec" },
				 *const n2[] = { "kworker/0:1", "[x\x1b]0;" };
	struct kt_wbuf pay = { 0 };
	struct kt_profrows h;
	size_t at;
	char *text;

	at = profrows_begin(&pay, 7, "off-CPU profile: a read failed");
	profrows_put(&pay, 693, 4, k1, n1);
	profrows_put(&pay, 12000000000ull, 2, k2, n2);
	profrows_end(&pay, at, 2);
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), 0);
	ck_assert_uint_eq(h.id, 7);
	ck_assert_str_eq(h.note, "off-CPU profile: a read failed");
	ck_assert_uint_eq(h.nstacks, 2);
	text = profrows_text(&h);
	ck_assert_str_eq(text, "693 0221 profwork;main;hot_seventy;asm_sysvec\n"
			       "12000000000 04 kworker/0:1;[x?]0;\n");
	free(text);
	for (size_t n = 0; n < pay.len; n++)
		ck_assert_msg(msg_profrows_decode(pay.data, n, &h) == -1, "%zu of %zu bytes", n,
			      pay.len);
	wbuf_u8(&pay, 0);
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), -1);
	pay.len--;
	/* the first stack's first kind (after id, the note, the count, weight, frames) */
	at = 4 + 4 + strlen("off-CPU profile: a read failed") + 4 + 8 + 2;
	ck_assert_uint_eq(pay.data[at], 0);
	pay.data[at] = 5; /* past KT_FRAME_UNRESOLVED */
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), -1);
	pay.data[at] = 0;
	memset(pay.data + at - 10, 0, 8); /* weight 0 */
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), -1);
	wbuf_free(&pay);

	/* none; a stack of no frame; more stacks than the payload holds */
	at = profrows_begin(&pay, 1, "");
	profrows_end(&pay, at, 0);
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), 0);
	ck_assert_uint_eq(h.nstacks, 0);
	profrows_put(&pay, 1, 0, k1, n1);
	profrows_end(&pay, at, 1);
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), -1);
	profrows_end(&pay, at, 0xffffffffu);
	ck_assert_int_eq(msg_profrows_decode(pay.data, pay.len, &h), -1);
	wbuf_free(&pay);
}
END_TEST

/* The probes' counts as an agent sends them (a snapshot of probeprint_wire's lines) come
 * back as the same reports; a line that is not one is skipped, not taken in part. */
START_TEST(test_probe_reports)
{
	struct kt_probe_report in[2] = {
		{ .event = "ktop_12:vfs_read", .kind = KT_PROBE_KRETPROBE, .maxactive = 64,
		  .health = { 10, 3 } },
		{ .event = "ktop_12:hit_2", .kind = KT_PROBE_UPROBE, .health = { 41, 0 } },
	}, *out;
	struct kt_wbuf pay = { 0 };
	struct kt_snapshot s;
	char *text = NULL;
	size_t len = 0, n;
	FILE *mem = open_memstream(&text, &len);

	probeprint_wire(in, 2, mem);
	fputs("ktop_12:x kprobe 0 5\nktop_12:y bogus 0 1 1\nktop_12:z uprobe 0 1 1 extra\n", mem);
	ck_assert_int_eq(fclose(mem), 0);
	msg_snapshot_encode(&pay, KT_SNAP_PROBES, 0, text, len);
	ck_assert_int_eq(msg_snapshot_decode(pay.data, pay.len, &s), 0);
	ck_assert_uint_eq(s.kind, KT_SNAP_PROBES);
	out = probeprint_parse_wire(s.text, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_mem_eq(out, in, sizeof(in));
	free(out);
	free(s.text);
	free(text);
	free(pay.data);
	ck_assert_ptr_null(probeprint_parse_wire("", &n));
	ck_assert_uint_eq(n, 0);
}
END_TEST

static Suite *remote_suite(void)
{
	Suite *s = suite_create("remote");
	TCase *tc = tcase_create("frames");

	tcase_add_test(tc, test_hello_roundtrip);
	tcase_add_test(tc, test_version_mismatch);
	tcase_add_test(tc, test_messages_roundtrip);
	tcase_add_test(tc, test_backlog_kept);
	tcase_add_test(tc, test_snapshot);
	tcase_add_test(tc, test_histrows);
	tcase_add_test(tc, test_ovrows);
	tcase_add_test(tc, test_counterrows);
	tcase_add_test(tc, test_profrows);
	tcase_add_test(tc, test_probe_reports);
	tcase_add_test(tc, test_page_compressed);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_remote_source);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(remote_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
