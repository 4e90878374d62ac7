// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The viewer's side of the pipe (client.h): the agent's command as a child with a pipe each
 * way (and one from its stderr when the caller takes its lines), frames written whole
 * (blocking: requests are small), frames read into callbacks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/tracefs/catalog.h"
#include "backend/ingest/ringpage.h"
#include "client.h"
#include "util/clock.h"
#include "util/log.h"
#include "push.h"
#include "util/strutil.h"
#include "util/xalloc.h"

/* Formats an agent may send, at most: a kernel has about 2,300 events in 2 MB of formats,
 * the largest 6 KB; libtraceevent's parser is quadratic in a long run of blanks. */
#define REMOTE_FORMATS_MAX 16384u
#define REMOTE_FORMAT_BYTES_MAX (32u << 20)
#define REMOTE_FORMAT_MAX (64u << 10)

/* A request of the viewer's that brings formats (enable, stack, format), until its reply. */
struct remote_ask {
	uint32_t id;
	char *spec;
};

struct kt_remote {
	const struct kt_remote_ops *ops;
	void *ctx;
	pid_t pid;
	int to, from; /* the agent's stdin and stdout */
	int errfd;    /* its stderr, when ops->stderr_line takes it; -1 */
	char errline[1024]; /* the line it is writing */
	size_t errlen;
	struct kt_rstream rs;
	struct kt_wbuf out, pay;
	struct kt_hello hello;
	bool have_hello, ended;
	bool finished; /* the end request went */
	char name[160];
	char error[512]; /* the agent's ERROR frame */
	char fault[768]; /* what the agent did wrong after its hello, the way out; "" */
	uint32_t next_id;
	/* the reply remote_call waits for */
	uint32_t want_id;
	bool got_reply, reply_ok;
	char reply[1024];
	int64_t offset;
	uint64_t best_rtt;
	bool have_clock, got_pong;
	struct kt_remote_stats stats;
	struct remote_ask *asks; /* unanswered, n_asks of them */
	size_t n_asks;
	uint32_t formats; /* taken, and their bytes */
	uint64_t format_bytes;
};

struct kt_remote *remote_new(const char *name, const struct kt_remote_ops *ops, void *ctx)
{
	struct kt_remote *r = xcalloc(1, sizeof(*r));

	r->ops = ops;
	r->ctx = ctx;
	r->to = r->from = r->errfd = -1;
	r->best_rtt = UINT64_MAX;
	snprintf(r->name, sizeof(r->name), "%.150s", name ? name : "");
	return r;
}

struct kt_remote *remote_spawn(const char *host, const char *via, bool compress,
			       const struct kt_remote_ops *ops, void *ctx, char *err,
			       size_t errlen)
{
	struct kt_remote *r;
	struct kt_hello h = { .proto = KT_PROTO_VERSION, .role = 'V', .compress = compress };
	int in[2], out[2], errp[2] = { -1, -1 };
	sigset_t old;
	ssize_t w;

	if (pipe2(in, O_CLOEXEC) < 0)
		goto fail_pipe;
	if (pipe2(out, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		goto fail_pipe;
	}
	if (ops->stderr_line && pipe2(errp, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		goto fail_pipe;
	}
	r = remote_new(NULL, ops, ctx);
	if (host)
		snprintf(r->name, sizeof(r->name), "ssh %.140s ktop --agent", host);
	else
		snprintf(r->name, sizeof(r->name), "%.150s", via);
	r->pid = fork();
	if (r->pid < 0) {
		snprintf(err, errlen, "cannot start '%s': %s", r->name, strerror(errno));
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		if (errp[0] >= 0) {
			close(errp[0]);
			close(errp[1]);
		}
		free(r);
		return NULL;
	}
	if (r->pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		if (errp[1] >= 0)
			dup2(errp[1], STDERR_FILENO);
		signal(SIGPIPE, SIG_DFL);
		if (host && push_applies(true))
			execlp("ssh", "ssh", "-T", host, "sh", (char *)NULL);
		else if (host)
			execlp("ssh", "ssh", "-T", host, "ktop", "--agent", (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", via, (char *)NULL);
		fprintf(stderr, "ktop: cannot run %s: %s\n", host ? "ssh" : "/bin/sh",
			strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->to = in[1];
	r->from = out[0];
	fcntl(r->from, F_SETFL, fcntl(r->from, F_GETFL) | O_NONBLOCK);
	r->errfd = errp[0];
	if (errp[1] >= 0) {
		close(errp[1]);
		fcntl(r->errfd, F_SETFL, fcntl(r->errfd, F_GETFL) | O_NONBLOCK);
	}
	/* the host's ktop, or the agent sent through the same shell, waits for the hello */
	if (push_applies(host != NULL)) {
		remote_sigpipe_block(&old);
		w = push_agent(r->to, r->from, host ? host : r->name, err, errlen);
		remote_sigpipe_restore(&old);
		if (w < 0) {
			remote_close(r);
			return NULL;
		}
	}
	snprintf(h.version, sizeof(h.version), "%s", PACKAGE_VERSION);
	msg_hello_encode(&r->pay, &h);
	frame_append(&r->out, KT_MSG_HELLO, r->pay.data, r->pay.len, false);
	/* a command that is not an agent may never read, or be gone already: its failure
	 * shows at the handshake */
	remote_sigpipe_block(&old);
	w = write(r->to, r->out.data, r->out.len);
	remote_sigpipe_restore(&old);
	(void)w;
	return r;
fail_pipe:
	snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
	return NULL;
}

static int remote_send(struct kt_remote *r, uint8_t type)
{
	const uint8_t *p;
	size_t n;
	ssize_t w;

	r->out.len = 0;
	if (frame_append(&r->out, type, r->pay.data, r->pay.len, false) < 0)
		return -1;
	for (p = r->out.data, n = r->out.len; n; p += w, n -= (size_t)w) {
		w = write(r->to, p, n);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w < 0)
			return -1;
	}
	return 0;
}

static void remote_comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	struct kt_remote *r = ctx;

	if (r->ops->comm)
		r->ops->comm(r->ctx, pid, ts, name);
}

static void remote_user_name(void *ctx, int32_t pid, uint64_t addr, uint8_t kind,
			     const char *name)
{
	struct kt_remote *r = ctx;

	if (r->ops->user_name)
		r->ops->user_name(r->ctx, pid, addr, kind, name);
}

/* A request sent: one that brings formats is kept until its reply, for remote_format_ok. */
static void remote_ask(struct kt_remote *r, uint32_t id, uint8_t op, const char *arg)
{
	if (op != KT_REQ_ENABLE && op != KT_REQ_STACK && op != KT_REQ_FORMAT)
		return;
	r->asks = xreallocarray(r->asks, r->n_asks + 1, sizeof(*r->asks));
	r->asks[r->n_asks++] = (struct remote_ask){ .id = id, .spec = xstrdup(arg) };
}

static void remote_answered(struct kt_remote *r, uint32_t id)
{
	for (size_t i = 0; i < r->n_asks; i++) {
		if (r->asks[i].id != id)
			continue;
		free(r->asks[i].spec);
		r->asks[i] = r->asks[--r->n_asks];
		return;
	}
}

/* A name the agent gives a system or an event: one file name in the mirror (mirror.h). */
static bool remote_name_ok(const char *s)
{
	if (!strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* A format's text as kernels write it: printable ASCII, tabs and newlines. libtraceevent's
 * parser dereferences a NULL token on other bytes in a field's declaration (found by
 * fuzz_remote), so nothing else reaches it. */
static bool remote_format_text_ok(const uint8_t *blob, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = blob[i];

		if ((c < 0x20 && c != '\t' && c != '\n') || c > 0x7e)
			return false;
	}
	return true;
}

/* A format frame's name, size and text: an event the viewer asked for (the ftrace system's
 * come with the hello), within the bounds. Returns 0, or -1 with one line in err. */
static int remote_format_ok(struct kt_remote *r, char *sys, char *name, const uint8_t *blob,
			    uint32_t len, char *err, size_t errlen)
{
	struct kt_event_desc ev = { .system = sys, .name = name };
	bool asked = !strcmp(sys, "ftrace");

	if (!remote_name_ok(sys) || !remote_name_ok(name) || !*name) {
		snprintf(err, errlen, "%s sent a format named '%.80s:%.80s', not an event's name",
			 r->name, sys, name);
		return -1;
	}
	for (size_t i = 0; !asked && i < r->n_asks; i++)
		asked = catalog_spec_matches(r->asks[i].spec, &ev);
	if (!asked) {
		snprintf(err, errlen, "%s sent the format of %.80s:%.80s, which the viewer did not "
			 "ask for", r->name, sys, name);
		return -1;
	}
	if (len > REMOTE_FORMAT_MAX) {
		snprintf(err, errlen, "%s sent a format of %u bytes for %.80s:%.80s, no event's "
			 "is over %u KiB", r->name, len, sys, name, REMOTE_FORMAT_MAX >> 10);
		return -1;
	}
	if (r->formats >= REMOTE_FORMATS_MAX) {
		snprintf(err, errlen, "%s sent more formats than a kernel has: past %u of them",
			 r->name, REMOTE_FORMATS_MAX);
		return -1;
	}
	if (!remote_format_text_ok(blob, len)) {
		snprintf(err, errlen, "%s sent a format for %.80s:%.80s with bytes no kernel writes "
			 "in one (not printable ASCII)", r->name, sys, name);
		return -1;
	}
	if (r->format_bytes + len > REMOTE_FORMAT_BYTES_MAX) {
		snprintf(err, errlen, "%s sent more formats than a kernel has: past %u MiB of "
			 "them", r->name, REMOTE_FORMAT_BYTES_MAX >> 20);
		return -1;
	}
	r->formats++;
	r->format_bytes += len;
	return 0;
}

static int remote_malformed(const struct kt_remote *r, const struct kt_frame *f, char *err,
			    size_t errlen)
{
	snprintf(err, errlen, "%s sent a malformed %s frame (%u bytes)", r->name,
		 frame_type_name(f->type), f->len);
	return -1;
}

/* An overview's tick, handed on (its rows the callee's) or freed. */
static int remote_ov_rows(struct kt_remote *r, const uint8_t *p, size_t n,
			  const struct kt_frame *f, char *err, size_t errlen)
{
	struct kt_ovrows *o = xmalloc(sizeof(*o));

	if (msg_ovrows_decode(p, n, o) < 0) {
		free(o);
		return remote_malformed(r, f, err, errlen);
	}
	if (r->ops->ov_rows)
		r->ops->ov_rows(r->ctx, o);
	else
		msg_ovrows_free(o);
	free(o);
	return 0;
}

/* One frame of the agent's. Returns 0, or -1 with one line in err (-2: the agent's error
 * frame). */
static int remote_dispatch(struct kt_remote *r, const struct kt_frame *f, const uint8_t *p,
			   size_t n, char *err, size_t errlen)
{
	const struct kt_remote_ops *o = r->ops;
	struct kt_loss_cpu loss[1024];
	struct kt_snapshot snap;
	struct kt_histrows rows;
	struct kt_counterrows crows;
	struct kt_profrows prof;
	char sys[256], name[256], why[128];
	const uint8_t *blob;
	uint32_t id, len, cpu;
	uint64_t sent, agent, now;
	struct kt_backlog bl;
	struct kt_rbuf rb;
	bool ok;

	if (!r->have_hello && f->type != KT_MSG_HELLO && f->type != KT_MSG_ERROR) {
		snprintf(err, errlen, "%s sent %s before its hello", r->name,
			 frame_type_name(f->type));
		return -1;
	}
	switch (f->type) {
	case KT_MSG_HELLO:
		if (r->have_hello) { /* the per-CPU arrays are sized by the first */
			snprintf(err, errlen, "%s sent a second hello", r->name);
			return -1;
		}
		if (msg_hello_decode(p, n, &r->hello, err, errlen) < 0)
			return -1;
		if (r->hello.proto == KT_PROTO_VERSION && r->hello.role != 'A') {
			snprintf(err, errlen, "%s is not an agent (its hello says viewer)", r->name);
			return -1;
		}
		if (r->hello.proto == KT_PROTO_VERSION && r->hello.host[0])
			snprintf(r->name, sizeof(r->name), "agent at %s", r->hello.host);
		if (msg_version_mismatch(&r->hello, r->name, true, err, errlen))
			return -1;
		r->have_hello = true;
		if (o->hello)
			o->hello(r->ctx, &r->hello);
		return 0;
	case KT_MSG_ERROR:
		rbuf_init(&rb, p, n);
		rbuf_str(&rb, r->error, sizeof(r->error));
		snprintf(err, errlen, "%s: %s", r->name, r->error);
		return -2; /* its own words, not a fault */
	case KT_MSG_REPLY:
		if (msg_reply_decode(p, n, &id, &ok, r->reply, sizeof(r->reply)) < 0)
			return remote_malformed(r, f, err, errlen);
		remote_answered(r, id);
		if (id == r->want_id) {
			r->got_reply = true;
			r->reply_ok = ok;
		}
		return 0;
	case KT_MSG_HEADER_PAGE:
		if (o->header_page)
			o->header_page(r->ctx, p, n);
		return 0;
	case KT_MSG_FORMAT:
		if (msg_format_decode(p, n, sys, sizeof(sys), name, sizeof(name), &blob, &len) < 0)
			return remote_malformed(r, f, err, errlen);
		if (remote_format_ok(r, sys, name, blob, len, err, errlen) < 0)
			return -1;
		if (o->format)
			o->format(r->ctx, sys, name, blob, len);
		return 0;
	case KT_MSG_KALLSYMS:
		if (o->kallsyms)
			o->kallsyms(r->ctx, p, n);
		return 0;
	case KT_MSG_EVENTS:
		if (o->events)
			o->events(r->ctx, p, n);
		return 0;
	case KT_MSG_PRINTK:
		if (o->printk)
			o->printk(r->ctx, p, n);
		return 0;
	case KT_MSG_PAGE:
		if (msg_page_decode(p, n, &cpu, &blob, &len) < 0 || cpu >= r->hello.ncpus ||
		    len > r->hello.page_size)
			return remote_malformed(r, f, err, errlen);
		if (ringpage_check(blob, len, r->hello.long_size, r->hello.big_endian, why,
				   sizeof(why)) < 0) {
			snprintf(err, errlen, "%s sent a corrupt page for CPU %u: %s", r->name, cpu,
				 why);
			return -1;
		}
		r->stats.pages++;
		r->stats.page_bytes += len;
		if (o->page)
			o->page(r->ctx, cpu, blob, len);
		return 0;
	case KT_MSG_COMMS:
		if (msg_comms_decode(p, n, remote_comm, r) < 0)
			return remote_malformed(r, f, err, errlen);
		return 0;
	case KT_MSG_UNAMES:
		if (msg_unames_decode(p, n, remote_user_name, r) < 0)
			return remote_malformed(r, f, err, errlen);
		return 0;
	case KT_MSG_LOSS:
		if (msg_loss_decode(p, n, loss, 1024, &cpu, &bl) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->loss)
			o->loss(r->ctx, loss, cpu, &bl);
		return 0;
	case KT_MSG_PONG:
		if (msg_pong_decode(p, n, &sent, &agent) < 0)
			return remote_malformed(r, f, err, errlen);
		now = clock_mono_ns();
		r->got_pong = true;
		if (sent <= now && now - sent < r->best_rtt) {
			r->best_rtt = now - sent;
			r->offset = (int64_t)(agent - (sent + r->best_rtt / 2));
			r->have_clock = true;
		}
		return 0;
	case KT_MSG_WATERMARK:
		if (msg_u64_decode(p, n, &agent) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->watermark)
			o->watermark(r->ctx, agent);
		return 0;
	case KT_MSG_SNAPSHOT:
		if (msg_snapshot_decode(p, n, &snap) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->snapshot)
			o->snapshot(r->ctx, &snap);
		else
			free(snap.text);
		return 0;
	case KT_MSG_HISTROWS:
		if (msg_histrows_decode(p, n, &rows) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->hist_rows)
			o->hist_rows(r->ctx, &rows);
		else
			free(rows.rows);
		return 0;
	case KT_MSG_COUNTERROWS:
		if (msg_counterrows_decode(p, n, &crows) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->counter_rows)
			o->counter_rows(r->ctx, &crows);
		else
			pmu_snap_free(&crows.snap);
		return 0;
	case KT_MSG_PROFROWS:
		if (msg_profrows_decode(p, n, &prof) < 0)
			return remote_malformed(r, f, err, errlen);
		if (o->prof_rows)
			o->prof_rows(r->ctx, &prof);
		return 0;
	case KT_MSG_OVROWS:
		return remote_ov_rows(r, p, n, f, err, errlen);
	case KT_MSG_END:
		r->ended = true;
		return 0;
	default:
		snprintf(err, errlen, "%s sent a %s frame, which agents do not send", r->name,
			 frame_type_name(f->type));
		return -1;
	}
}

/* The line the command's stderr has written so far, handed on, every byte the explorer
 * would not draw shown as '?' (textout.h): the agent's bytes must not drive the
 * operator's terminal. */
static void remote_err_flush(struct kt_remote *r)
{
	for (size_t i = 0; i < r->errlen; i++)
		r->errline[i] = str_shown((unsigned char)r->errline[i]);
	r->errline[r->errlen] = '\0';
	r->ops->stderr_line(r->ctx, r->errline);
	r->errlen = 0;
}

/* Hands on the complete lines its stderr has now (a line past the buffer in pieces); at
 * its end, the last one without a newline, and the fd is closed. */
static void remote_pump_err(struct kt_remote *r)
{
	char buf[4096];
	ssize_t got;

	while (r->errfd >= 0) {
		got = read(r->errfd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			if (r->errlen)
				remote_err_flush(r);
			close(r->errfd);
			r->errfd = -1;
			return;
		}
		for (ssize_t i = 0; i < got; i++) {
			if (buf[i] == '\n') {
				remote_err_flush(r);
				continue;
			}
			r->errline[r->errlen++] = buf[i];
			if (r->errlen == sizeof(r->errline) - 1)
				remote_err_flush(r);
		}
	}
}

int remote_err_fd(const struct kt_remote *r)
{
	return r->errfd;
}

int remote_pump(struct kt_remote *r, char *err, size_t errlen)
{
	uint8_t buf[262144];
	ssize_t got;

	remote_pump_err(r);
	if (r->ended)
		return 0;
	got = read(r->from, buf, sizeof(buf));
	if (got < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (got == 0) {
		remote_pump_err(r); /* what it said as it went, before why it went */
		if (!r->have_hello)
			snprintf(err, errlen, "%s exited before its hello (its messages are above)",
				 r->name);
		else
			snprintf(err, errlen, "the pipe to %s closed before the agent's end: the "
				 "connection dropped or the agent died", r->name);
		return -1;
	}
	return remote_feed(r, buf, (size_t)got, err, errlen);
}

/* A frame that broke the protocol after the agent's hello (err says what it did): the
 * line that names the agent's host and the way out, kept for remote_fault and in err. */
static int remote_faulted(struct kt_remote *r, char *err, size_t errlen)
{
	snprintf(r->fault, sizeof(r->fault), "%.500s (is ktop on %.64s damaged or hostile? "
		 "reinstall it there, or send this ktop's own agent with --push)", err,
		 r->hello.host[0] ? r->hello.host : "that host");
	snprintf(err, errlen, "%s", r->fault);
	return -1;
}

int remote_feed(struct kt_remote *r, const uint8_t *buf, size_t len, char *err, size_t errlen)
{
	struct kt_frame f;
	const uint8_t *p;
	size_t n;
	int ret;

	r->stats.bytes += len;
	rstream_feed(&r->rs, buf, len);
	while ((ret = rstream_next(&r->rs, &f, &p, &n, err, errlen)) > 0) {
		r->stats.frames++;
		ret = remote_dispatch(r, &f, p, n, err, errlen);
		if (ret == -1 && r->have_hello)
			return remote_faulted(r, err, errlen);
		if (ret < 0)
			return -1;
		if (r->ended)
			return 0;
	}
	if (ret < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s%s: %s", r->name, r->have_hello ? " sent a bad frame" : "",
			 why);
		return r->have_hello ? remote_faulted(r, err, errlen) : -1;
	}
	return 1;
}

const char *remote_fault(const struct kt_remote *r)
{
	return r && r->fault[0] ? r->fault : NULL;
}

/* Pumps until cond holds or the time is up. Returns 0, or -1 with err. */
static int remote_wait(struct kt_remote *r, const bool *cond, int timeout_ms, const char *what,
		       char *err, size_t errlen)
{
	unsigned long long end = clock_mono_ns() + (unsigned long long)timeout_ms * 1000000ull;
	struct pollfd pfd[2];
	unsigned long long now;
	int ret;

	while (!*cond) {
		now = clock_mono_ns();
		if (now >= end) {
			snprintf(err, errlen, "%s: no %s within %d s", r->name, what,
				 timeout_ms / 1000);
			return -1;
		}
		/* its stderr too: a command that fills that pipe waits for it to be read before
		 * it answers (an agent that says much, ssh's banners) */
		pfd[0] = (struct pollfd){ .fd = r->from, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = r->errfd, .events = POLLIN };
		if (poll(pfd, 2, (int)((end - now) / 1000000) + 1) < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			return -1;
		}
		ret = remote_pump(r, err, errlen);
		if (ret < 0)
			return -1;
		if (ret == 0 && !*cond) {
			snprintf(err, errlen, "%s ended before its %s", r->name, what);
			return -1;
		}
	}
	return 0;
}

int remote_handshake(struct kt_remote *r, int timeout_ms, char *err, size_t errlen)
{
	return remote_wait(r, &r->have_hello, timeout_ms, "hello", err, errlen);
}

int remote_call(struct kt_remote *r, uint8_t op, const char *arg, const char *arg2, char *reply,
		size_t len)
{
	char err[512];

	r->want_id = ++r->next_id;
	r->got_reply = false;
	r->pay.len = 0;
	msg_request_encode(&r->pay, r->want_id, op, arg, arg2);
	remote_ask(r, r->want_id, op, arg);
	if (remote_send(r, KT_MSG_REQUEST) < 0) {
		snprintf(reply, len, "%s: cannot send: %s", r->name, strerror(errno));
		return -1;
	}
	if (remote_wait(r, &r->got_reply, 60000, "reply", err, sizeof(err)) < 0) {
		snprintf(reply, len, "%s", err);
		return -1;
	}
	snprintf(reply, len, "%s", r->reply);
	return r->reply_ok ? 0 : -1;
}

int remote_send_request(struct kt_remote *r, uint8_t op, const char *arg, const char *arg2)
{
	r->pay.len = 0;
	msg_request_encode(&r->pay, ++r->next_id, op, arg, arg2);
	remote_ask(r, r->next_id, op, arg);
	return remote_send(r, KT_MSG_REQUEST);
}

uint32_t remote_last_id(const struct kt_remote *r)
{
	return r->want_id;
}

int remote_fd(const struct kt_remote *r)
{
	return r->from;
}

void remote_ping(struct kt_remote *r)
{
	if (r->finished) /* nothing after the end request: the agent is draining */
		return;
	r->pay.len = 0;
	wbuf_u64(&r->pay, clock_mono_ns());
	remote_send(r, KT_MSG_PING);
}

int remote_clock_sync(struct kt_remote *r, int rounds, int timeout_ms, char *err,
		      size_t errlen)
{
	for (int i = 0; i < rounds; i++) {
		r->got_pong = false;
		remote_ping(r);
		if (remote_wait(r, &r->got_pong, timeout_ms, "pong", err, errlen) < 0)
			return -1;
	}
	return 0;
}

bool remote_clock(const struct kt_remote *r, int64_t *offset, uint64_t *uncertainty)
{
	*offset = r->offset;
	*uncertainty = r->have_clock ? r->best_rtt / 2 : 0;
	return r->have_clock;
}

void remote_stats(const struct kt_remote *r, struct kt_remote_stats *out)
{
	*out = r->stats;
}

const char *remote_name(const struct kt_remote *r)
{
	return r->name;
}

void remote_sigpipe_block(sigset_t *old)
{
	sigset_t pipe;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, old);
}

void remote_sigpipe_restore(const sigset_t *old)
{
	struct timespec now = { 0 };
	sigset_t pipe;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	while (sigtimedwait(&pipe, NULL, &now) > 0) /* the one a write raised */
		;
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void remote_finish(struct kt_remote *r)
{
	sigset_t old;

	if (r->to < 0 || r->finished)
		return;
	r->finished = true;
	/* the end request: a line that never closes (a serial port) carries no EOF. An agent
	 * that stopped reading, or is gone, must not hold the viewer: no waiting, no SIGPIPE.
	 * Its stdin stays open until remote_close: a relay such as socat ends soon after its
	 * input does (0.5 s by default), before the agent's last pages and END came through. */
	remote_sigpipe_block(&old);
	if (fcntl(r->to, F_SETFL, fcntl(r->to, F_GETFL) | O_NONBLOCK) == 0) {
		r->pay.len = 0;
		msg_request_encode(&r->pay, ++r->next_id, KT_REQ_END, "", "");
		if (remote_send(r, KT_MSG_REQUEST) < 0)
			log_debug("%s: %s: no end request: %s", __func__, r->name, strerror(errno));
	}
	remote_sigpipe_restore(&old);
}

int remote_close(struct kt_remote *r)
{
	unsigned long long end;
	int status = 0;
	pid_t w = -1;

	if (!r)
		return 0;
	remote_finish(r);
	if (r->to >= 0)
		close(r->to);
	if (r->from >= 0)
		close(r->from);
	end = clock_mono_ns() + 3000000000ull;
	/* its stderr read meanwhile: a command that fills that pipe cannot end */
	while (r->pid > 0 && (w = waitpid(r->pid, &status, WNOHANG)) == 0 &&
	       clock_mono_ns() < end) {
		remote_pump_err(r);
		usleep(10000);
	}
	if (r->pid > 0 && w == 0) {
		kill(r->pid, SIGTERM);
		waitpid(r->pid, &status, 0);
	}
	remote_pump_err(r); /* its last words; a process it left holding the pipe is not waited for */
	if (r->errfd >= 0) {
		if (r->errlen)
			remote_err_flush(r);
		close(r->errfd);
	}
	rstream_free(&r->rs);
	while (r->n_asks)
		remote_answered(r, r->asks[0].id);
	free(r->asks);
	wbuf_free(&r->out);
	wbuf_free(&r->pay);
	free(r);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
