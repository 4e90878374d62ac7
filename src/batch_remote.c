// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode over a remote agent (-b with -H or --via): the requests the options name, then
 * the pages the agent sends decoded here with libtraceevent through the formats it sent,
 * merged in time order across CPUs up to each watermark of the agent's (every event older
 * has come), printed as local batch mode prints events, and the summary with the remote
 * kernel's loss counters, the clock offset and the bytes on the wire (the decoding and the
 * merge are remote/pages.c's, which the explorer's remote source shares). With -o, the
 * records also go to a trace.dat through the local writer, which reads the agent's files
 * from a mirror of its tracing directory (mirror.h).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "backend/decode.h"
#include "backend/loss.h"
#include "backend/probes.h"
#include "backend/store.h"
#include "batch_remote.h"
#include "clock.h"
#include "record/tdat_write.h"
#include "remote/client.h"
#include "remote/mirror.h"
#include "remote/pages.h"
#include "signals.h"
#include "xalloc.h"

#define REMOTE_HELLO_MS 30000
/* After the agent's stdin closes, its tail and END come within its own 30 s bound (a slow
 * link); an agent that dies closes the pipe sooner. */
#define REMOTE_END_MS 40000
#define REMOTE_PING_NS 1000000000ull
struct batch_remote {
	const struct kt_options *opts;
	FILE *out;
	struct tep_handle *tep;
	struct kt_decoder *dec;
	struct kt_rpages *pages; /* decoded and merged by time (remote/pages.h) */
	struct kt_hello hello;
	uint64_t printed;
	bool out_closed;
	char err[512]; /* the first format or page the decoder refused */
	/* -o */
	struct kt_mirror *mirror;
	struct kt_tdat_writer *rec;
	bool rec_failed;
	char rec_err[512];
	char uname[200], kallsyms[4200]; /* the writer's meta points here until it closes */
};

/* -o: a file the agent sent, kept where the trace.dat writer looks for it. */
static void br_keep(struct batch_remote *b, const char *rel, const void *p, size_t n)
{
	if (b->mirror && mirror_put(b->mirror, rel, p, n) < 0 && !b->err[0])
		snprintf(b->err, sizeof(b->err), "cannot keep %s for -o: %s", rel,
			 strerror(errno));
}

static void br_hello(void *ctx, const struct kt_hello *h)
{
	struct batch_remote *b = ctx;

	b->hello = *h;
	rpages_hello(b->pages, h);
}

static void br_header_page(void *ctx, const uint8_t *p, size_t n)
{
	struct batch_remote *b = ctx;

	rpages_header_page(b->pages, p, n);
	br_keep(b, "events/header_page", p, n);
}

static void br_kallsyms(void *ctx, const uint8_t *p, size_t n)
{
	br_keep(ctx, "kallsyms", p, n);
}

static void br_printk(void *ctx, const uint8_t *p, size_t n)
{
	br_keep(ctx, "printk_formats", p, n);
}

static void br_format(void *ctx, const char *sys, const char *name, const uint8_t *text,
		      size_t n)
{
	struct batch_remote *b = ctx;
	char rel[600], id[32];
	const uint8_t *line;

	/* the tracers' formats come unasked: only a refused one of the user's events matters */
	if (rpages_format(b->pages, sys, text, n) < 0 && strcmp(sys, "ftrace") && !b->err[0])
		snprintf(b->err, sizeof(b->err), "the format of %s:%s does not parse", sys, name);
	if (!b->mirror)
		return;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, name);
	br_keep(b, rel, text, n);
	line = memmem(text, n, "\nID: ", 5);
	if (line) {
		snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name);
		snprintf(id, sizeof(id), "%d\n", atoi((const char *)line + 5));
		br_keep(b, rel, id, strlen(id));
	}
}

static void br_comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	struct batch_remote *b = ctx;

	(void)ts;
	tep_override_comm(b->tep, name, pid);
}

static void br_loss(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus)
{
	struct batch_remote *b = ctx;

	rpages_loss(b->pages, cpus, ncpus);
}

/* A record (or a loss marker) for -o's file. */
static void br_record(struct batch_remote *b, const struct kt_rec *r)
{
	if (b->rec && !b->rec_failed &&
	    tdat_writer_add(b->rec, r, b->rec_err, sizeof(b->rec_err)) < 0)
		b->rec_failed = true;
}

static void br_print(struct batch_remote *b, const struct kt_rec *r)
{
	char line[8192], name[128], ts[32];
	int pid;

	if (b->opts->quiet || b->out_closed)
		return;
	decoder_format_ts(r->ts, 0, ts, sizeof(ts));
	decoder_format_info(b->dec, r, line, sizeof(line));
	if (r->flags & KT_REC_LOST) {
		fprintf(b->out, "%s [%03u] %s\n", ts, r->cpu, line);
	} else {
		pid = decoder_rec_pid(r);
		fprintf(b->out, "%s [%03u] %16s-%-7d %s: %s\n", ts, r->cpu,
			tep_data_comm_from_pid(b->tep, pid), pid,
			decoder_format_name(b->dec, r, name, sizeof(name)), line);
		b->printed++;
	}
	if (ferror(b->out))
		b->out_closed = true;
}

/* A record in time order: printed, and recorded with -o. */
static void br_emit(void *ctx, const struct kt_rec *r)
{
	struct batch_remote *b = ctx;

	br_print(b, r);
	br_record(b, r);
}

static void br_watermark(void *ctx, uint64_t ts)
{
	struct batch_remote *b = ctx;

	rpages_flush(b->pages, ts);
}

static void br_page(void *ctx, uint32_t cpu, const uint8_t *page, size_t len)
{
	struct batch_remote *b = ctx;

	rpages_page(b->pages, cpu, page, len);
}

static const struct kt_remote_ops br_ops = {
	.hello = br_hello,
	.header_page = br_header_page,
	.format = br_format,
	.kallsyms = br_kallsyms,
	.printk = br_printk,
	.page = br_page,
	.comm = br_comm,
	.loss = br_loss,
	.watermark = br_watermark,
};

/* The options' probes, tracer and events, as requests. Returns 0, or -1 with err. */
static int br_requests(struct batch_remote *b, struct kt_remote *r, char *err, size_t errlen)
{
	const struct kt_options *o = b->opts;
	char reply[1024];

	for (size_t i = 0; i < o->n_probes; i++) {
		if (o->probes[i].usdt) {
			snprintf(err, errlen, "--usdt over a remote agent is not done yet");
			return -1;
		}
		if (remote_call(r, KT_REQ_PROBE_ADD,
				probe_kind_name((enum kt_probe_kind)o->probes[i].kind),
				o->probes[i].def, reply, sizeof(reply)) < 0 ||
		    remote_call(r, KT_REQ_ENABLE, reply, o->filter, reply, sizeof(reply)) < 0) {
			snprintf(err, errlen, "%s refused the probe %.200s: %.500s", remote_name(r),
				 o->probes[i].def, reply);
			return -1;
		}
	}
	if (o->tracer && remote_call(r, KT_REQ_TRACER, o->tracer, "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s refused -t %.100s: %.500s", remote_name(r), o->tracer, reply);
		return -1;
	}
	for (size_t i = 0; i < o->n_events; i++) {
		if (remote_call(r, KT_REQ_ENABLE, o->events[i], o->filter, reply, sizeof(reply)) <
		    0) {
			snprintf(err, errlen, "%s refused -e %.200s: %.500s", remote_name(r), o->events[i],
				 reply);
			return -1;
		}
	}
	return 0;
}

/* The name the agent gave pid, for the file's task list; NULL when none came. */
static const char *br_comm_name(void *ctx, int pid)
{
	struct batch_remote *b = ctx;

	return tep_is_pid_registered(b->tep, pid) ? tep_data_comm_from_pid(b->tep, pid) : NULL;
}

/* -o, after the hello (whose header_page the mirror kept): the agent's kallsyms and printk
 * formats mirrored, then the writer, before any event is enabled. Returns 0, or -1 with
 * err. */
static int br_record_start(struct batch_remote *b, struct kt_remote *r, char *err,
			   size_t errlen)
{
	struct kt_tdat_meta meta = { .ncpus = (int)b->hello.ncpus, .clock = "mono",
				     .comm = br_comm_name, .comm_ctx = b, .uname = b->uname,
				     .kallsyms = b->kallsyms };
	char reply[1024];

	if (remote_call(r, KT_REQ_KALLSYMS, "", "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s: no kallsyms for -o: %.500s", remote_name(r), reply);
		return -1;
	}
	snprintf(b->uname, sizeof(b->uname), "Linux %s %s", b->hello.host, b->hello.kernel);
	snprintf(b->kallsyms, sizeof(b->kallsyms), "%s/kallsyms", mirror_dir(b->mirror));
	meta.tracing_dir = mirror_dir(b->mirror);
	b->rec = tdat_writer_open(b->opts->record_path, &meta, err, errlen);
	return b->rec ? 0 : -1;
}

/* -o: the file written with the agent's last loss counters. Returns the exit code. */
static int br_record_finish(struct batch_remote *b)
{
	unsigned long long events = tdat_writer_events(b->rec);
	const struct kt_cpu_stats *st;
	uint32_t n;
	int ret;

	st = rpages_cpu_stats(b->pages, &n);

	/* no counters came: none in the file */
	ret = tdat_writer_close(b->rec, n == b->hello.ncpus ? st : NULL, b->rec_err,
				sizeof(b->rec_err));
	b->rec = NULL;
	if (ret) {
		fprintf(stderr, "ktop: %s\n", b->rec_err);
		return KT_EXIT_RECORDING;
	}
	fprintf(stderr, "ktop: recorded %llu events to %s\n", events, b->opts->record_path);
	return KT_EXIT_OK;
}

/* Until --duration, a signal, or the agent's end. Returns 0 at END, 1 to finish, -1. */
static int br_capture(struct kt_remote *r, const struct kt_options *o, int wake, char *err,
		      size_t errlen)
{
	struct pollfd pfd[2] = { { .fd = remote_fd(r), .events = POLLIN },
				 { .fd = wake, .events = POLLIN } };
	unsigned long long start = clock_mono_ns(), ping = 0, now, end;
	int ret, timeout;

	end = o->duration > 0 ? start + (unsigned long long)(o->duration * 1e9) : 0;
	while (!signals_pending()) {
		now = clock_mono_ns();
		if (end && now >= end)
			return 1;
		if (now - ping >= REMOTE_PING_NS) {
			remote_ping(r);
			ping = now;
		}
		timeout = (int)((ping + REMOTE_PING_NS - now) / 1000000) + 1;
		if (end && (int)((end - now) / 1000000) + 1 < timeout)
			timeout = (int)((end - now) / 1000000) + 1;
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll: %s", strerror(errno));
			return -1;
		}
		if (pfd[0].revents) {
			ret = remote_pump(r, err, errlen);
			if (ret <= 0)
				return ret;
		}
	}
	return 1;
}

/* The agent drains, sends its final counters and END. */
static int br_drain(struct kt_remote *r, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = remote_fd(r), .events = POLLIN };
	unsigned long long end = clock_mono_ns() + REMOTE_END_MS * 1000000ull;
	int ret = 1;

	remote_finish(r);
	while (ret > 0 && clock_mono_ns() < end) {
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			break;
		ret = remote_pump(r, err, errlen);
	}
	if (ret > 0) {
		snprintf(err, errlen, "%s did not finish within %d s", remote_name(r),
			 REMOTE_END_MS / 1000);
		return -1;
	}
	return ret;
}

static void br_summary(struct batch_remote *b, struct kt_remote *r, double secs)
{
	struct kt_remote_stats st;
	struct kt_reader_stats rs;
	uint64_t unc, lost;
	int64_t off;

	if (b->out_closed)
		return;
	remote_stats(r, &st);
	fprintf(b->out, "# ktop: %s (kernel %s, %u CPUs): %llu bytes received in %llu frames, "
		"%llu pages (%llu bytes)", remote_name(r), b->hello.kernel, b->hello.ncpus,
		(unsigned long long)st.bytes, (unsigned long long)st.frames,
		(unsigned long long)st.pages, (unsigned long long)st.page_bytes);
	if (remote_clock(r, &off, &unc))
		fprintf(b->out, ", clock offset %+lld ns +/- %llu ns", (long long)off,
			(unsigned long long)unc);
	fputc('\n', b->out);
	rpages_stats(b->pages, &rs, NULL, 0, &lost);
	fprintf(b->out,
		"# ktop: events=%llu lost=%llu lost_marked=%llu lost_unknown_pages=%llu "
		"evicted=0 duration=%.3fs rate=%.0f/s\n",
		(unsigned long long)rs.events, (unsigned long long)lost,
		(unsigned long long)rs.missed, (unsigned long long)rs.missed_unknown, secs,
		secs > 0 ? (double)rs.events / secs : 0);
	fflush(b->out);
}

int batch_remote_run(const struct kt_options *opts, FILE *out)
{
	struct batch_remote b = { .opts = opts, .out = out };
	unsigned long long start;
	struct kt_remote *r = NULL;
	char err[1024] = "";
	int wake[2], ret = KT_EXIT_FAILURE, cap;

	if (pipe(wake) < 0) {
		fprintf(stderr, "ktop: cannot create a pipe: %s\n", strerror(errno));
		return KT_EXIT_FAILURE;
	}
	signals_install(wake[1]);
	b.tep = tep_alloc();
	b.dec = b.tep ? decoder_new_offline(b.tep) : NULL;
	b.pages = b.dec ? rpages_new(b.tep, br_emit, &b) : NULL;
	if (!b.pages) {
		fprintf(stderr, "ktop: out of memory\n");
		goto out;
	}
	if (opts->record_path && !(b.mirror = mirror_new(err, sizeof(err))))
		goto fail;
	r = remote_spawn(opts->remotes[0].host, opts->remotes[0].via, opts->compress, &br_ops, &b, err,
			 sizeof(err));
	if (!r || remote_handshake(r, REMOTE_HELLO_MS, err, sizeof(err)) < 0 ||
	    (opts->record_path && br_record_start(&b, r, err, sizeof(err)) < 0) ||
	    br_requests(&b, r, err, sizeof(err)) < 0)
		goto fail;
	start = clock_mono_ns();
	cap = br_capture(r, opts, wake[0], err, sizeof(err));
	if (cap > 0)
		cap = br_drain(r, err, sizeof(err));
	rpages_flush(b.pages, UINT64_MAX); /* all that came, a cut-short capture's too */
	if (cap < 0)
		goto fail;
	if (b.err[0])
		fprintf(stderr, "ktop: %s: %s\n", remote_name(r), b.err);
	br_summary(&b, r, (double)(clock_mono_ns() - start) / 1e9);
	ret = b.rec ? br_record_finish(&b) : KT_EXIT_OK;
	goto out;
fail:
	fprintf(stderr, "ktop: %s\n", err);
out:
	tdat_writer_abort(b.rec);
	mirror_free(b.mirror);
	rpages_free(b.pages);
	remote_close(r);
	decoder_free(b.dec);
	if (b.tep)
		tep_free(b.tep);
	close(wake[0]);
	close(wake[1]);
	return ret;
}
