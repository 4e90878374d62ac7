/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The viewer's side of the remote protocol (proto.h): spawns the command that runs the
 * agent (ssh HOST ktop --agent for -H, or --via's CMD through /bin/sh -c), says hello,
 * sends control requests and hands every frame the agent sends to the caller's callbacks.
 * The command's stderr (ssh's warnings, the agent's messages) is the caller's, or, when it
 * has a stderr_line callback, read through a pipe and handed on a line at a time.
 * Single-threaded: the caller polls remote_fd() and remote_err_fd() and calls remote_pump().
 */
#ifndef KTOP_REMOTE_CLIENT_H
#define KTOP_REMOTE_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counterrows.h"
#include "histrows.h"
#include "ovrows.h"
#include "profrows.h"
#include "proto.h"

/* What the agent sends; any callback may be NULL. Data pointers are valid during the call. */
struct kt_remote_ops {
	void (*hello)(void *ctx, const struct kt_hello *h);
	void (*header_page)(void *ctx, const uint8_t *p, size_t n);
	void (*format)(void *ctx, const char *system, const char *name, const uint8_t *text,
		       size_t n);
	void (*kallsyms)(void *ctx, const uint8_t *p, size_t n);
	void (*printk)(void *ctx, const uint8_t *p, size_t n);
	/* available_events, as the kernel lists them (asked for: KT_REQ_EVENTS) */
	void (*events)(void *ctx, const uint8_t *p, size_t n);
	void (*page)(void *ctx, uint32_t cpu, const uint8_t *page, size_t len);
	void (*comm)(void *ctx, int32_t pid, uint64_t ts, const char *name);
	/* a user frame's name, as the agent's machine names it (KT_REQ_USER_STACKS); kind
	 * enum kt_frame_kind's */
	void (*user_name)(void *ctx, int32_t pid, uint64_t addr, uint8_t kind, const char *name);
	void (*loss)(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		     const struct kt_backlog *bl);
	/* every event older than ts (the agent's clock) has come */
	void (*watermark)(void *ctx, uint64_t ts);
	/* a line the command wrote to its stderr, without its newline; set: the stderr is
	 * read through a pipe instead of shared */
	void (*stderr_line)(void *ctx, const char *line);
	/* a histogram's rendering (KT_REQ_HIST); s->text is the callee's to free */
	void (*snapshot)(void *ctx, struct kt_snapshot *s);
	/* a live histogram's rows (KT_REQ_HIST_LIVE, histrows.h); h->rows is the callee's */
	void (*hist_rows)(void *ctx, struct kt_histrows *h);
	/* live counters' figures (KT_REQ_COUNTERS_LIVE, counterrows.h); c->snap is the
	 * callee's */
	void (*counter_rows)(void *ctx, struct kt_counterrows *c);
	/* a live profile's stacks since its last such frame (KT_REQ_PROFILE_LIVE, profrows.h):
	 * checked, pointing into the frame (profrows_add adds them) */
	void (*prof_rows)(void *ctx, const struct kt_profrows *h);
	/* a live overview's tick (KT_REQ_OVERVIEW_LIVE, ovrows.h); o->snap is the callee's */
	void (*ov_rows)(void *ctx, struct kt_ovrows *o);
};

struct kt_remote_stats {
	uint64_t frames, bytes; /* received, on the wire */
	uint64_t pages, page_bytes; /* PAGE frames, and the page bytes they carried */
};

struct kt_remote;

/* Starts host's agent (ssh HOST ktop --agent) or via (/bin/sh -c VIA) with pipes on its
 * stdin and stdout (and its stderr, when ops has stderr_line), and sends the hello (compress: ask for zstd
 * frames). Returns NULL with one line in err. */
struct kt_remote *remote_spawn(const char *host, const char *via, bool compress,
			       const struct kt_remote_ops *ops, void *ctx, char *err,
			       size_t errlen);
/* A peer whose bytes the caller hands over (remote_feed) instead of a command's pipe: no
 * process, requests go nowhere (the hostile-peer fuzzer, tests/fuzz/fuzz_remote.c). name
 * names it in messages until its hello. remote_close frees it. */
struct kt_remote *remote_new(const char *name, const struct kt_remote_ops *ops, void *ctx);
/* Dispatches the frames in buf (any piece of the stream), as remote_pump does what it
 * reads. Returns as remote_pump. */
int remote_feed(struct kt_remote *r, const uint8_t *buf, size_t len, char *err, size_t errlen);
/* Waits up to timeout_ms for the agent's hello (dispatching what comes). Returns 0, or -1
 * with one line in err: the agent's own error, a version mismatch, a command that is not
 * an agent, or silence. */
int remote_handshake(struct kt_remote *r, int timeout_ms, char *err, size_t errlen);
/* Sends a request and waits for its reply, dispatching other frames meanwhile. Returns 0
 * with the agent's text in reply, or -1 with the refusal's reason (or why the pipe failed)
 * in reply. */
int remote_call(struct kt_remote *r, uint8_t op, const char *arg, const char *arg2, char *reply,
		size_t len);
/* Sends a request without waiting: its reply is dropped as it comes (a histogram's close,
 * which must not hold the screen up behind a slow link). Returns 0, or -1 (errno) when the
 * pipe is gone. */
int remote_send_request(struct kt_remote *r, uint8_t op, const char *arg, const char *arg2);
/* The id the last remote_call sent: a snapshot names the request that opened it. */
uint32_t remote_last_id(const struct kt_remote *r);
/* The fd to poll for the agent's frames. */
int remote_fd(const struct kt_remote *r);
/* The fd to poll for its stderr's lines; -1 when it is shared or has ended. */
int remote_err_fd(const struct kt_remote *r);
/* Reads what is there, its stderr's lines first, and dispatches it. Returns 1 to go on, 0
 * once the agent said END, -1 with one line in err (an output that closed before END
 * included). */
int remote_pump(struct kt_remote *r, char *err, size_t errlen);
/* The line saying how the agent broke the protocol after its hello (a corrupt page, a
 * second hello, a format not asked for...), naming its host and the way out; NULL while it
 * did not. A request that failed on such a frame reports this, not a refusal. */
const char *remote_fault(const struct kt_remote *r);
/* Sends a ping; its pong refines the clock offset. */
void remote_ping(struct kt_remote *r);
/* Pings rounds times, each time waiting up to timeout_ms for the pong: the offset known
 * before the agent's events are. Returns 0, or -1 with one line in err. */
int remote_clock_sync(struct kt_remote *r, int rounds, int timeout_ms, char *err,
		      size_t errlen);
/* The agent's clock minus ours (ns) from the round trip that was shortest, and its
 * uncertainty (half that round trip). false before any pong. */
bool remote_clock(const struct kt_remote *r, int64_t *offset, uint64_t *uncertainty);
void remote_stats(const struct kt_remote *r, struct kt_remote_stats *out);
/* The agent's name for messages: "agent at HOST" once its hello came, else the command. */
const char *remote_name(const struct kt_remote *r);
/* Between the two, this thread's writes to an agent that is gone fail with EPIPE instead
 * of raising SIGPIPE, which would end the process: block saves the mask in old, restore
 * takes the SIGPIPE a write raised meanwhile and puts the mask back. */
void remote_sigpipe_block(sigset_t *old);
void remote_sigpipe_restore(const sigset_t *old);
/* Sends the end request, once, without waiting: the agent drains, sends its last pages,
 * loss counters and END. Its stdin closes with remote_close (a relay such as socat would
 * end before END came through). */
void remote_finish(struct kt_remote *r);
/* Waits for the command (up to 3 s, then SIGTERM), hands on the last of its stderr, and
 * frees r. Returns its exit status, or 128 + the signal. Safe on NULL. */
int remote_close(struct kt_remote *r);

#endif
