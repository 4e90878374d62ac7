/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote protocol (docs/remote.md): what `ktop --agent` and a viewer say to each other
 * over a byte pipe (ssh, kubectl exec, a serial line). Every message is one frame:
 *
 *   0  magic "KTOP"   4  version u8   5  type u8   6  flags u16   8  length u32
 *   12 check u32 (FNV-1a of bytes 0..11)           16 payload (length bytes)
 *
 * little-endian throughout. The header never changes between versions, so a peer of
 * another version is always recognised and named (frame_parse, msg_hello_decode) instead of
 * misread. A payload is a sequence of fields: u8/u16/u32/u64 little-endian, strings and
 * blobs as a u32 length then the bytes. Pages travel exactly as the kernel wrote them.
 *
 * No curses, no tracefs here: the codec is pure, so the fuzzer and the unit tests drive it.
 */
#ifndef KTOP_REMOTE_PROTO_H
#define KTOP_REMOTE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KT_PROTO_MAGIC "KTOP"
/* 2: the loss frame carries the backlog (each CPU's unread bytes, the agent's queue and the
 * age of its oldest unsent event) */
#define KT_PROTO_VERSION 2
#define KT_FRAME_HDR 16
/* No frame is larger, compressed or not: a length past it is a misframed stream. */
#define KT_FRAME_MAX (32u << 20)
#define KT_FRAME_COMPRESSED 0x0001 /* the payload is one zstd frame */

enum kt_frame_type {
	KT_MSG_HELLO = 1,	/* both ways, first: versions, host, the agent's layout */
	KT_MSG_REQUEST,		/* viewer: a control request with an id */
	KT_MSG_REPLY,		/* agent: ok or the refusal's one-line reason, by id */
	KT_MSG_HEADER_PAGE,	/* agent: events/header_page, the ring buffer's page layout */
	KT_MSG_FORMAT,		/* agent: one event's format file */
	KT_MSG_KALLSYMS,	/* agent: /proc/kallsyms (asked for) */
	KT_MSG_PRINTK,		/* agent: printk_formats (asked for) */
	KT_MSG_PAGE,		/* agent: one ring-buffer page of one CPU, as read */
	KT_MSG_COMMS,		/* agent: task names of the pids in the pages that follow */
	KT_MSG_LOSS,		/* agent: the kernel's per-CPU loss counters */
	KT_MSG_SNAPSHOT,	/* agent: histograms, counters, as batch mode prints them */
	KT_MSG_PING,		/* viewer: its clock */
	KT_MSG_PONG,		/* agent: the viewer's clock back, and its own */
	KT_MSG_ERROR,		/* agent: a fatal one-line error; it exits after */
	KT_MSG_END,		/* agent: capture drained, nothing follows */
	KT_MSG_WATERMARK,	/* agent: every event before this time has been sent */
	KT_MSG_EVENTS,		/* agent: available_events (asked for) */
	KT_MSG_HISTROWS,	/* agent: a live histogram's rows on each tick (histrows.h) */
	KT_MSG_COUNTERROWS = 19, /* agent: live counters' figures on each tick
				  * (counterrows.h) */
	KT_MSG_PROFROWS = 20,	/* agent: a live profile's stacks counted since its last such
				 * frame, named on the agent's machine (profrows.h) */
	KT_MSG_UNAMES = 21,	/* agent: names of user frames in the pages that follow
				 * (KT_REQ_USER_STACKS), named on the agent's machine */
	KT_MSG_OVROWS = 22,	/* agent: a live overview's tick, its tasks and the system
				 * strip of the agent's machine (ovrows.h) */
	KT_MSG_TYPE_MAX
};

enum kt_request_op {
	KT_REQ_ENABLE = 1,	/* arg: SYS:EV glob, arg2: filter ("" none) */
	KT_REQ_DISABLE,		/* arg: SYS:EV glob */
	KT_REQ_TRACER,		/* arg: tracer name */
	KT_REQ_PROBE_ADD,	/* arg: kind (kprobe, kretprobe, uprobe, uretprobe, usdt),
				 * arg2: def */
	KT_REQ_PROBE_DEL,	/* arg: probe name */
	KT_REQ_KALLSYMS,	/* no args: send kallsyms and printk formats */
	KT_REQ_EVENTS,		/* no args: send available_events */
	KT_REQ_FORMAT,		/* arg: SYS:EV glob: send their formats (nothing enabled) */
	KT_REQ_TRACERS,		/* no args: the reply is the instance's available tracers */
	KT_REQ_HIST,		/* arg: a --hist spec, arg2: "json" or "" (text): how its
				 * snapshots are rendered */
	KT_REQ_COUNTERS,	/* arg: the --pmu-event specs, space-separated ("" the default
				 * set alone), arg2: as KT_REQ_HIST's */
	KT_REQ_SCOPE,		/* arg: "pid", "pid+children", "comm" or "cgroup", arg2: the
				 * pids (comma-separated), the name or the cgroup path, on the
				 * agent's machine; before the requests it scopes */
	KT_REQ_STACK,		/* arg: SYS:EV glob, arg2: filter ("" none): the events on, each
				 * with its kernel stack (a stacktrace trigger), as --stack */
	KT_REQ_PROFILE,		/* arg: -F's frequency ("" the default): --profile's sampling
				 * on the agent's machine, scoped as the scope request says;
				 * or "off-cpu[+wakers][=VIA]" (agentprof.h) */
	KT_REQ_HIST_LIVE,	/* arg: a --hist spec, arg2: the viewer's tick in ms ("": the
				 * agent's -d): opened as KT_REQ_HIST, read and its rows sent in
				 * a HISTROWS frame every tick (the explorer's pane) */
	KT_REQ_HIST_CLOSE,	/* arg: the id of the KT_REQ_HIST_LIVE that opened it */
	KT_REQ_END,		/* no args: the viewer is done; the agent ends as when its stdin
				 * closes (a serial line never closes) */
	KT_REQ_COUNTERS_LIVE = 18, /* arg: as KT_REQ_COUNTERS's, arg2: the viewer's tick in
				    * ms ("": the agent's -d): opened as KT_REQ_COUNTERS, read
				    * and their figures sent in a COUNTERROWS frame every tick
				    * (the explorer's counters pane) */
	KT_REQ_COUNTERS_CLOSE = 19, /* arg: the id of the KT_REQ_COUNTERS_LIVE that opened
				     * them */
	KT_REQ_PROFILE_LIVE = 20, /* arg: -F's frequency ("" the default) or "off-cpu", arg2:
				 * the viewer's tick in ms ("": the agent's -d): sampled as
				 * KT_REQ_PROFILE (or off-CPU), the stacks counted since the
				 * last tick sent in a PROFROWS frame every tick (the flame
				 * pane); the reply is its title ("cpu-clock", "off-CPU, tp_btf") */
	KT_REQ_PROFILE_CLOSE = 21, /* arg: the id of the KT_REQ_PROFILE_LIVE that opened
				    * it */
	KT_REQ_SCOPE_SET = 22,	/* the explorer's scope key, replacing the scope in force: arg
				 * "pid", "pid+children", "comm", "comm+children", "cgroup",
				 * "none" (no process: another host's scope runs nowhere here)
				 * or "" (all processes), arg2 as KT_REQ_SCOPE's; the pids must
				 * run there, a command's running processes are its pids; the
				 * reply is the scope as the header says it */
	KT_REQ_STACK_OFF = 23,	/* arg: SYS:EV glob: their stacks off (the events stay on) */
	KT_REQ_PROBE_COUNTS = 24, /* no args: each probe's hits and misses now, in a snapshot
				 * of KT_SNAP_PROBES naming this request, before the reply
				 * (the explorer's probe editor, on its tick) */
	KT_REQ_TRIGGER = 25,	/* the explorer's triggers (triggers.h), arg the operation:
				 * "add" arg2 SYS:EV:TRIGGER[:COUNT] [if FILTER]; "remove" arg2
				 * SYS:EV (every trigger of it; the reply is how many); "list"
				 * arg2 SYS:EV (the reply its triggers as the kernel lists
				 * them, each ended by 0x1f); "spent" arg2 SYS:EV:CMD (the
				 * reply 1 when CMD's count reached 0, else 0); "tracing" arg2
				 * "on" or "off" (the instance's tracing_on) */
	KT_REQ_FTRACE_LIST = 26, /* the tracer pane's function lists (tracers.h), arg the
				 * operation, arg2 the list's file (set_ftrace_filter ...) and
				 * for "add" and "remove" a space and the entry: "exists" (the
				 * reply 1 or 0), "get" (a snapshot of KT_SNAP_LIST naming
				 * this request, then the reply), "add" (the reply the
				 * functions the list now holds), "remove", "clear" */
	KT_REQ_USER_STACKS = 27, /* no args: --user-stacks, the instance's userstacktrace
				 * option on; the agent names the user frames of the stacks
				 * in its pages from its own machine's mappings and binaries
				 * (KT_MSG_UNAMES before the pages) */
	KT_REQ_FILTER = 28,	/* arg: SYS:EV, arg2: its filter, "" clears it: an event that
				 * is on takes it as it is (the picker's filter prompt) */
	KT_REQ_NAMES = 29,	/* the probe editor's completions, read on the agent's
				 * machine, arg what: "ksyms" (the kernel functions a kprobe
				 * takes), "dir" arg2 a directory (its entries, a directory's
				 * with '/'), "elf" and "usdt" arg2 a path or a name (the file's
				 * functions, its PROVIDER:PROBE notes; the reply is its
				 * canonical path), "usdt" arg2 a pid (PATH:PROVIDER:PROBE of the
				 * files it maps): a snapshot of KT_SNAP_LIST naming this request,
				 * then the reply */
	KT_REQ_OVERVIEW_LIVE = 30, /* arg: --top's VIA ("" the first the kernel takes: tp_btf,
				    * raw_tp, then /proc), arg2: the viewer's tick in ms ("": the
				    * agent's -d): the overview opened as local --top opens it,
				    * its syscall hooks on, and an OVROWS frame sent every tick;
				    * the reply says where its figures come from */
	KT_REQ_OVERVIEW_CLOSE = 31, /* arg: the id of the KT_REQ_OVERVIEW_LIVE that opened it */
	KT_REQ_OVERVIEW_SYSCALLS = 32, /* arg: "on" or "off": the open overview's syscall
					* hooks (the pane shows no syscall column) */
	KT_REQ_OP_MAX
};

struct kt_frame {
	uint8_t version;
	uint8_t type;
	uint16_t flags;
	uint32_t len;		/* payload bytes on the wire */
	const uint8_t *payload; /* into the parsed buffer */
};

/* A growing output buffer (frame and payload encoders append to it). */
struct kt_wbuf {
	uint8_t *data;
	size_t len, cap;
};

/* A payload being decoded: every get checks bounds; the first failure sticks in bad. */
struct kt_rbuf {
	const uint8_t *p;
	size_t left;
	bool bad;
};

struct kt_hello {
	uint16_t proto;		/* KT_PROTO_VERSION of the sender */
	char version[32];	/* ktop's PACKAGE_VERSION */
	uint8_t role;		/* 'A' agent, 'V' viewer */
	uint8_t compress;	/* viewer: wants pages compressed */
	/* agent only */
	char host[64];
	char kernel[64];	/* uname -r */
	uint32_t ncpus;
	uint32_t page_size;	/* the ring buffer's sub-buffer size */
	uint8_t long_size;	/* the kernel's long: 4 or 8 */
	uint8_t big_endian;
};

struct kt_request {
	uint32_t id;
	uint8_t op;
	const char *arg, *arg2;	/* into the payload, NUL-terminated by the decoder */
};

/* What a snapshot holds (its first field). */
enum kt_snapshot_kind {
	KT_SNAP_HIST = 1,	/* a --hist histogram, as histprint renders it */
	KT_SNAP_COUNTERS,	/* the --pmu counters, as pmu_print renders them */
	KT_SNAP_PROBES,		/* each probe's hits and misses, in probeprint_wire's lines:
				 * as the capture ended (request id 0), or now, asked for by
				 * KT_REQ_PROBE_COUNTS (its id) */
	KT_SNAP_PROFILE,	/* --profile's stacks as the capture ended, in
				 * batch_profile_text's form, named on the agent's machine */
	KT_SNAP_OFFCPU = 5,	/* --off-cpu's profile as the capture ended (KT_REQ_PROFILE with
				 * "off-cpu"), as local -b --off-cpu prints it (text or JSON) */
	KT_SNAP_LIST = 6,	/* a function list's entries, one a line (KT_REQ_FTRACE_LIST
				 * "get", before its reply), or names (KT_REQ_NAMES) */
};

struct kt_snapshot {
	uint8_t kind;
	uint32_t id;		/* the request that opened it */
	char *text;		/* NUL-terminated, malloc'd; control chars but '\n' as '?' */
	size_t len;
};

struct kt_loss_cpu {
	uint64_t overrun, commit_overrun, dropped, entries, read;
	uint64_t unread; /* bytes the kernel holds that the agent has not read (stats' bytes) */
};

/* How far behind the agent is as it sends a loss frame, beside each CPU's unread bytes. */
struct kt_backlog {
	uint64_t queued; /* bytes of frames ahead of this one in the agent's queue */
	uint64_t age_ns; /* how long the oldest event not sent yet has waited; 0: none waits */
};

/* ---- frames (frame.c) ---------------------------------------------------------------- */

/* FNV-1a over n bytes: the header's check. */
uint32_t frame_check(const uint8_t *p, size_t n);
/*
 * Parses the frame at the start of buf. Returns the bytes it takes (header and payload)
 * with f filled, 0 when buf holds only part of it (read more), or -1 with one line in err:
 * not a ktop frame (with the bytes shown, such as a shell's "command not found"), a bad
 * check, an unknown type, a length past KT_FRAME_MAX. A frame of another protocol version
 * parses (its hello says which): the caller compares f->version.
 */
long frame_parse(const uint8_t *buf, size_t len, struct kt_frame *f, char *err, size_t errlen);
/* Appends a frame of type with payload p (n bytes) to out, compressed with zstd when
 * compress is set and that makes it smaller. Returns 0, or -1 (out of memory, too big). */
int frame_append(struct kt_wbuf *out, uint8_t type, const void *p, size_t n, bool compress);
/*
 * The payload of f, decompressed when it is: *p points into f or into *scratch (grown with
 * realloc, the caller frees it). Returns its length, or -1 with one line in err (a corrupt
 * or oversized zstd frame).
 */
long frame_payload(const struct kt_frame *f, const uint8_t **p, uint8_t **scratch,
		   size_t *scratch_cap, char *err, size_t errlen);
const char *frame_type_name(uint8_t type);

/* Bytes read from a pipe, reassembled into frames (either side's input). */
struct kt_rstream {
	uint8_t *buf;
	size_t len, cap, off;	/* off: the first byte not parsed yet */
	uint8_t *scratch;	/* decompressed payloads */
	size_t scratch_cap;
};

/* Appends n bytes as they came (any split); a failed allocation aborts. */
void rstream_feed(struct kt_rstream *s, const void *p, size_t n);
/* The next whole frame: 1 with f and its payload (decompressed; valid until the next call),
 * 0 when more bytes are needed, -1 with one line in err (the stream cannot go on). */
int rstream_next(struct kt_rstream *s, struct kt_frame *f, const uint8_t **p, size_t *n,
		 char *err, size_t errlen);
void rstream_free(struct kt_rstream *s);

/* ---- payload fields (msg.c) ----------------------------------------------------------- */

void wbuf_free(struct kt_wbuf *b);
/* Appends; a failed allocation aborts (xalloc), like the UI's. */
void wbuf_put(struct kt_wbuf *b, const void *p, size_t n);
void wbuf_u8(struct kt_wbuf *b, uint8_t v);
void wbuf_u16(struct kt_wbuf *b, uint16_t v);
void wbuf_u32(struct kt_wbuf *b, uint32_t v);
void wbuf_u64(struct kt_wbuf *b, uint64_t v);
/* A double as its IEEE 754 bits, so NAN (a figure not known) comes back as NAN. */
void wbuf_f64(struct kt_wbuf *b, double v);
void wbuf_str(struct kt_wbuf *b, const char *s);
void wbuf_blob(struct kt_wbuf *b, const void *p, size_t n);

void rbuf_init(struct kt_rbuf *r, const void *p, size_t n);
uint8_t rbuf_u8(struct kt_rbuf *r);
uint16_t rbuf_u16(struct kt_rbuf *r);
uint32_t rbuf_u32(struct kt_rbuf *r);
uint64_t rbuf_u64(struct kt_rbuf *r);
/* An infinite one is bad: nothing ktop measures is. */
double rbuf_f64(struct kt_rbuf *r);
/* A blob: its bytes in place (NULL when bad), length in *n. */
const uint8_t *rbuf_blob(struct kt_rbuf *r, uint32_t *n);
/* A string copied into buf (truncated to fit, NUL-terminated, control characters as '?');
 * a NUL inside is bad. */
void rbuf_str(struct kt_rbuf *r, char *buf, size_t len);

/* ---- messages (msg.c) ----------------------------------------------------------------- */

void msg_hello_encode(struct kt_wbuf *b, const struct kt_hello *h);
/* Decodes a hello of any protocol version: proto and version always come first. Returns 0,
 * or -1 with one line in err. */
int msg_hello_decode(const uint8_t *p, size_t n, struct kt_hello *h, char *err, size_t errlen);
/* The one line two peers of different protocols print, naming the side to update, or ""
 * when their protocols match, whatever their package versions (returns false then). who:
 * "agent at HOST" or "the viewer"; viewer: this side is the viewer. */
bool msg_version_mismatch(const struct kt_hello *peer, const char *who, bool viewer, char *line,
			  size_t len);

void msg_request_encode(struct kt_wbuf *b, uint32_t id, uint8_t op, const char *arg,
			const char *arg2);
/* Decodes into req, its strings copied into store (storelen bytes, half for each). Returns
 * 0; 1 with one line in err when a string does not fit (req->id is good: the agent refuses
 * it in its reply); or -1 with one line in err (truncated). An op this version does not
 * know decodes (op as sent): the agent refuses it in its reply and goes on. */
int msg_request_decode(const uint8_t *p, size_t n, struct kt_request *req, char *store,
		       size_t storelen, char *err, size_t errlen);
const char *msg_request_name(uint8_t op);

void msg_reply_encode(struct kt_wbuf *b, uint32_t id, bool ok, const char *text);
int msg_reply_decode(const uint8_t *p, size_t n, uint32_t *id, bool *ok, char *text,
		     size_t textlen);

/* FORMAT: system, event name, the format file's text. */
void msg_format_encode(struct kt_wbuf *b, const char *system, const char *name,
		       const char *text, size_t len);
int msg_format_decode(const uint8_t *p, size_t n, char *system, size_t syslen, char *name,
		      size_t namelen, const uint8_t **text, uint32_t *textlen);

/* PAGE: cpu, then the page's bytes as the kernel wrote them (its used part). */
void msg_page_encode(struct kt_wbuf *b, uint32_t cpu, const void *page, size_t len);
int msg_page_decode(const uint8_t *p, size_t n, uint32_t *cpu, const uint8_t **page,
		    uint32_t *len);

/* COMMS: n entries of (pid, ts, name). The decoder calls fn for each; -1 when malformed. */
void msg_comm_add(struct kt_wbuf *b, int32_t pid, uint64_t ts, const char *name);
int msg_comms_decode(const uint8_t *p, size_t n,
		     void (*fn)(void *ctx, int32_t pid, uint64_t ts, const char *name),
		     void *ctx);

/* UNAMES: n entries of (pid, addr, kind, name): a user frame's name as the agent's
 * symbolizer gave it, kind enum kt_frame_kind's (stacks.h). The decoder calls fn for each
 * (control characters as '?', as in every string a peer sends); -1 when malformed (a kind
 * stacks.h does not know, a cut entry). */
void msg_uname_add(struct kt_wbuf *b, int32_t pid, uint64_t addr, uint8_t kind,
		   const char *name);
int msg_unames_decode(const uint8_t *p, size_t n,
		      void (*fn)(void *ctx, int32_t pid, uint64_t addr, uint8_t kind,
				 const char *name),
		      void *ctx);

/* LOSS: the kernel's counters of each CPU, then the agent's backlog. decode: at most max
 * CPUs into out, the count in *ncpus; -1 when malformed. */
void msg_loss_encode(struct kt_wbuf *b, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		     const struct kt_backlog *bl);
int msg_loss_decode(const uint8_t *p, size_t n, struct kt_loss_cpu *out, uint32_t max,
		    uint32_t *ncpus, struct kt_backlog *bl);

/* SNAPSHOT: kind, the id of the request that opened it, the rendering (text bytes). decode:
 * s->text is the caller's to free; -1 when malformed or of an unknown kind (nothing to
 * free then). */
void msg_snapshot_encode(struct kt_wbuf *b, uint8_t kind, uint32_t id, const char *text,
			 size_t len);
int msg_snapshot_decode(const uint8_t *p, size_t n, struct kt_snapshot *s);

/* PING (the viewer's send time) and WATERMARK (the agent's trace clock): one u64. Returns
 * 0, or -1 when the payload is not exactly that. */
int msg_u64_decode(const uint8_t *p, size_t n, uint64_t *v);

/* PONG: the viewer's ping time back, and the agent's clock when it answered. */
void msg_pong_encode(struct kt_wbuf *b, uint64_t viewer_ns, uint64_t agent_ns);
int msg_pong_decode(const uint8_t *p, size_t n, uint64_t *viewer_ns, uint64_t *agent_ns);

#endif
