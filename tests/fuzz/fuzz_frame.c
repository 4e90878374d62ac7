// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the remote protocol's input side (src/remote/frame.c, msg.c,
 * histrows.c, counterrows.c, profrows.c): any
 * bytes from the pipe, split where the first byte says (a pipe delivers them in any
 * pieces), go through the frame reassembler, and every frame found through the decoder of
 * its type, as the agent and the viewer read them. A stream that cannot go on is refused
 * with one line; nothing is read past a frame or a field.
 */
#include "config.h"

#include <math.h>

#include "fuzz_parser.h"
#include "backend/tracefs/probeprint.h"
#include "remote/counterrows.h"
#include "remote/histrows.h"
#include "remote/profrows.h"
#include "remote/proto.h"

static void comm_seen(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	(void)pid;
	(void)ts;
	FUZZ_ASSERT(strlen(name) < 64, "a task name of %zu bytes", strlen(name));
	++*(unsigned *)ctx;
}

/* A user frame's name: bounded, a kind stacks.h knows, no control characters. */
static void uname_seen(void *ctx, int32_t pid, uint64_t addr, uint8_t kind, const char *name)
{
	(void)pid;
	(void)addr;
	FUZZ_ASSERT(kind <= 4 && strlen(name) < 256, "kind %u, a name of %zu bytes", kind,
		    strlen(name));
	for (const char *c = name; *c; c++)
		FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f, "a control character in a name");
	++*(unsigned *)ctx;
}

/* Each stack of a PROFROWS frame that decoded: its frames within bounds, their names
 * without control characters. */
static int prof_seen(void *ctx, uint64_t weight, size_t n, const uint8_t *kinds,
		     const char *const *names)
{
	FUZZ_ASSERT(weight && n && n <= KT_PROFROWS_MAX_DEPTH, "a stack of %zu frames, weight %llu",
		    n, (unsigned long long)weight);
	for (size_t i = 0; i < n; i++) {
		FUZZ_ASSERT(kinds[i] <= 4, "a frame of kind %u", kinds[i]);
		for (const char *c = names[i]; *c; c++)
			FUZZ_ASSERT((unsigned char)*c >= 0x20 && *c != 0x7f,
				    "a control character in a frame");
	}
	++*(unsigned *)ctx;
	return 0;
}

static void decode(const struct kt_frame *f, const uint8_t *p, size_t n)
{
	char err[256] = "", a[256], b[256], store[512];
	struct kt_loss_cpu loss[8];
	struct kt_backlog backlog;
	struct kt_request req;
	struct kt_snapshot snap;
	struct kt_histrows rows;
	struct kt_counterrows crows;
	struct kt_profrows prof;
	size_t nprobes;
	struct kt_hello h;
	const uint8_t *blob;
	uint32_t id, len, cpu;
	uint64_t t1, t2;
	unsigned comms = 0;
	bool ok;

	switch (f->type) {
	case KT_MSG_HELLO:
		if (msg_hello_decode(p, n, &h, err, sizeof(err)) < 0)
			fuzz_check_reason("hello", err);
		else if (msg_version_mismatch(&h, "agent at fuzz", true, a, sizeof(a)))
			fuzz_check_reason("hello", a);
		break;
	case KT_MSG_REQUEST:
		if (msg_request_decode(p, n, &req, store, sizeof(store), err, sizeof(err)) < 0)
			fuzz_check_reason("request", err);
		else
			FUZZ_ASSERT(strlen(req.arg) < 256 && strlen(req.arg2) < 256,
				    "request arguments past their store");
		break;
	case KT_MSG_REPLY:
		if (msg_reply_decode(p, n, &id, &ok, a, sizeof(a)) == 0)
			FUZZ_ASSERT(strlen(a) < sizeof(a), "reply text unterminated");
		break;
	case KT_MSG_FORMAT:
		if (msg_format_decode(p, n, a, sizeof(a), b, sizeof(b), &blob, &len) == 0)
			FUZZ_ASSERT(blob >= p && blob + len <= p + n, "format text outside");
		break;
	case KT_MSG_PAGE:
		if (msg_page_decode(p, n, &cpu, &blob, &len) == 0)
			FUZZ_ASSERT(blob >= p && blob + len <= p + n, "page outside its frame");
		break;
	case KT_MSG_COMMS:
		(void)msg_comms_decode(p, n, comm_seen, &comms);
		break;
	case KT_MSG_UNAMES:
		(void)msg_unames_decode(p, n, uname_seen, &comms);
		break;
	case KT_MSG_LOSS:
		if (msg_loss_decode(p, n, loss, 8, &cpu, &backlog) == 0)
			FUZZ_ASSERT(cpu <= 8, "%u CPUs of loss into 8", cpu);
		break;
	case KT_MSG_SNAPSHOT:
		if (msg_snapshot_decode(p, n, &snap) == 0) {
			FUZZ_ASSERT(snap.len < n && strlen(snap.text) <= snap.len,
				    "a snapshot of %zu bytes from %zu", snap.len, n);
			for (size_t i = 0; i < snap.len; i++)
				FUZZ_ASSERT(snap.text[i] == '\n' ||
						    (unsigned char)snap.text[i] >= 0x20,
					    "a control character in a snapshot");
			if (snap.kind == KT_SNAP_PROBES) /* the viewer parses these lines */
				free(probeprint_parse_wire(snap.text, &nprobes));
			free(snap.text);
		}
		break;
	case KT_MSG_HISTROWS:
		if (msg_histrows_decode(p, n, &rows) < 0)
			break;
		/* every row took its bytes: nothing was allocated past what came */
		FUZZ_ASSERT((size_t)rows.nrows * 78 <= n, "%u rows from %zu bytes", rows.nrows, n);
		FUZZ_ASSERT(strlen(rows.variant) < sizeof(rows.variant), "variant unterminated");
		for (uint32_t i = 0; i < rows.nrows; i++)
			for (size_t c = 0; c < KT_HIST_COMM && rows.rows[i].key.name[c]; c++)
				FUZZ_ASSERT((unsigned char)rows.rows[i].key.name[c] >= 0x20,
					    "a control character in a key");
		free(rows.rows);
		break;
	case KT_MSG_COUNTERROWS:
		if (msg_counterrows_decode(p, n, &crows) < 0)
			break;
		/* every counter and slot took its bytes: nothing was allocated past what came */
		FUZZ_ASSERT((size_t)crows.snap.nslots * 4 <= n &&
				    (size_t)crows.snap.ncounters * 54 <= n,
			    "%u slots, %u counters from %zu bytes", crows.snap.nslots,
			    crows.snap.ncounters, n);
		for (uint32_t i = 0; i < crows.snap.ncounters; i++) {
			const struct kt_pmu_snap_counter *c = &crows.snap.counters[i];

			FUZZ_ASSERT(c->fmt < KT_PMU_FMT_MAX, "format %u", c->fmt);
			FUZZ_ASSERT(!isinf(c->value) && !isinf(c->rate), "an infinite figure");
			for (size_t k = 0; c->reason[k]; k++)
				FUZZ_ASSERT((unsigned char)c->reason[k] >= 0x20,
					    "a control character in a reason");
		}
		pmu_snap_free(&crows.snap);
		break;
	case KT_MSG_PROFROWS:
		if (msg_profrows_decode(p, n, &prof) < 0)
			break;
		FUZZ_ASSERT(prof.stacks >= p && prof.stacks + prof.stacks_len == p + n,
			    "the stacks outside their frame");
		FUZZ_ASSERT(profrows_each(&prof, prof_seen, &comms) == 0 && comms == prof.nstacks,
			    "%u of %u stacks seen", comms, prof.nstacks);
		break;
	case KT_MSG_PONG:
		(void)msg_pong_decode(p, n, &t1, &t2);
		break;
	case KT_MSG_PING:
	case KT_MSG_WATERMARK:
		(void)msg_u64_decode(p, n, &t1);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t split = size ? data[0] % (size + 1) : 0, n;
	struct kt_rstream s = { 0 };
	struct kt_frame f;
	const uint8_t *p;
	char err[512];
	int ret = 0;

	for (int part = 0; part < 2 && ret >= 0; part++) {
		if (part == 0)
			rstream_feed(&s, data, split);
		else
			rstream_feed(&s, data + split, size - split);
		while ((ret = rstream_next(&s, &f, &p, &n, err, sizeof(err))) > 0) {
			FUZZ_ASSERT(n <= KT_FRAME_MAX, "a payload of %zu bytes", n);
			decode(&f, p, n);
		}
		if (ret < 0)
			fuzz_check_reason("stream", err);
	}
	rstream_free(&s);
	return 0;
}
