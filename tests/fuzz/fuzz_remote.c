// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the viewer's whole remote state machine as a hostile agent drives it
 * (src/remote/client.c with the pages' decoder, src/remote/pages.c, behind it as batch mode
 * and the explorer wire them): hellos, formats, header pages, pages, names, replies, loss
 * and watermarks in any order and any number, the viewer's requests (which decide which
 * formats it takes) between them. Fuzzed as frames, not bytes, so that the header's check
 * is no wall (tests/fuzz/fuzz_frame.c fuzzes the bytes): the input is records,
 *   0xf0 + (kind << 2) + spec   the viewer sends a request (enable, stack, format, tracer)
 *                               with one of four specs;
 *   TYPE LEN(u16) PAYLOAD       any other first byte: a frame of that type, LEN bytes of
 *                               payload (what is left, if less).
 * A connection the viewer ends gets one line, and nothing after it is read.
 */
#include "config.h"

#include <traceevent/event-parse.h>

#include "fuzz_parser.h"
#include "remote/client.h"
#include "remote/pages.h"

struct peer {
	struct tep_handle *tep;
	struct kt_rpages *pages;
	uint64_t sum; /* every byte of every record handed on, read */
};

static void emit(void *ctx, const struct kt_rec *r)
{
	struct peer *v = ctx;

	for (uint32_t i = 0; r->data && i < r->size; i++)
		v->sum += ((const uint8_t *)r->data)[i];
}

static void hello(void *ctx, const struct kt_hello *h)
{
	rpages_hello(((struct peer *)ctx)->pages, h);
}

static void header_page(void *ctx, const uint8_t *p, size_t n)
{
	rpages_header_page(((struct peer *)ctx)->pages, p, n);
}

static void format(void *ctx, const char *sys, const char *name, const uint8_t *text, size_t n)
{
	FUZZ_ASSERT(!strchr(sys, '/') && !strchr(name, '/') && strcmp(name, ".."),
		    "a format named %s:%s taken", sys, name);
	rpages_format(((struct peer *)ctx)->pages, sys, text, n);
}

static void page(void *ctx, uint32_t cpu, const uint8_t *p, size_t len)
{
	rpages_page(((struct peer *)ctx)->pages, cpu, p, len);
}

static void comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	(void)ts;
	tep_override_comm(((struct peer *)ctx)->tep, name, pid);
}

static void loss(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		 const struct kt_backlog *bl)
{
	rpages_loss(((struct peer *)ctx)->pages, cpus, ncpus, bl);
}

static void watermark(void *ctx, uint64_t ts)
{
	rpages_flush(((struct peer *)ctx)->pages, ts);
}

static void snapshot(void *ctx, struct kt_snapshot *s)
{
	(void)ctx;
	free(s->text);
}

static const struct kt_remote_ops ops = {
	.hello = hello, .header_page = header_page, .format = format, .page = page,
	.comm = comm, .loss = loss, .watermark = watermark, .snapshot = snapshot,
};

static const char *const specs[] = { "raw_syscalls:*", "sched:sched_switch", "*:*",
				     "ftrace:function" };
static const uint8_t kinds[] = { KT_REQ_ENABLE, KT_REQ_STACK, KT_REQ_FORMAT, KT_REQ_TRACER };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct peer v = { .tep = tep_alloc() };
	struct kt_wbuf w = { 0 };
	struct kt_remote *r;
	char err[512] = "";
	size_t at = 0, len;
	int ret = 1;

	v.pages = rpages_new(v.tep, emit, &v);
	r = remote_new("fuzzed agent", &ops, &v);
	while (at < size && ret > 0) {
		if (data[at] >= 0xf0) {
			remote_send_request(r, kinds[(data[at] >> 2) & 3], specs[data[at] & 3], "");
			at++;
			continue;
		}
		len = at + 3 <= size ? (size_t)(data[at + 1] | data[at + 2] << 8) : 0;
		if (len > size - at - 3)
			len = at + 3 <= size ? size - at - 3 : 0;
		w.len = 0;
		if (frame_append(&w, data[at], at + 3 <= size ? data + at + 3 : NULL, len, false) == 0)
			ret = remote_feed(r, w.data, w.len, err, sizeof(err));
		at += 3 + len;
	}
	if (ret < 0)
		fuzz_check_reason("a hostile agent's frames", err);
	rpages_flush(v.pages, UINT64_MAX);
	wbuf_free(&w);
	remote_close(r);
	rpages_free(v.pages);
	tep_free(v.tep);
	return 0;
}
