// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the agent's reading of its viewer (src/agent/agentreq.c), everything
 * ktop --agent does with a viewer's bytes before a kernel call: the frame reassembler, the
 * hello that must come first, then requests, pings and anything else in any order. Fuzzed as
 * frames so that the header's check is no wall: the input is records,
 *   0xff LEN(u16) BYTES     LEN raw bytes into the stream (torn and corrupt frames);
 *   TYPE LEN(u16) PAYLOAD   any other first byte: a frame of that type and payload.
 * What it lets through is checked as agent.c relies on it: a request to run has an op this
 * agent knows and both arguments whole inside its store; a refusal and an end have a
 * one-line reason.
 */
#include "config.h"

#include "fuzz_parser.h"
#include "agent/agentreq.h"

static void check_request(const struct kt_agentreq *in)
{
	size_t half = sizeof(in->store) / 2;

	switch (in->kind) {
	case KT_AGENTREQ_RUN:
		FUZZ_ASSERT(in->q.op > 0 && in->q.op < KT_REQ_OP_MAX && msg_request_name(in->q.op),
			    "request op %u let through", in->q.op);
		FUZZ_ASSERT(in->q.arg == in->store && memchr(in->q.arg, '\0', half) &&
				    in->q.arg2 == in->store + half &&
				    memchr(in->q.arg2, '\0', sizeof(in->store) - half),
			    "a request's arguments outside its store");
		break;
	case KT_AGENTREQ_REFUSE:
		fuzz_check_reason("a refused request", in->why);
		break;
	case KT_AGENTREQ_PING:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kt_agentreq in;
	struct kt_rstream rs = { 0 };
	struct kt_wbuf w = { 0 };
	struct kt_hello h;
	struct kt_frame f;
	const uint8_t *p;
	char err[512] = "";
	size_t at = 0, len, n;
	bool hello = false;
	int ret = 1;

	while (at + 3 <= size && ret > 0) {
		len = (size_t)(data[at + 1] | data[at + 2] << 8);
		if (len > size - at - 3)
			len = size - at - 3;
		w.len = 0;
		if (data[at] == 0xff)
			wbuf_put(&w, data + at + 3, len);
		else if (frame_append(&w, data[at], data + at + 3, len, false) < 0)
			w.len = 0;
		at += 3 + len;
		if (w.len)
			rstream_feed(&rs, w.data, w.len);
		while (ret > 0 && (ret = rstream_next(&rs, &f, &p, &n, err, sizeof(err))) > 0) {
			if (!hello) {
				if (agentreq_hello(&f, p, n, &h, err, sizeof(err)) < 0)
					ret = -1;
				hello = true;
			} else if (agentreq_decode(&f, p, n, &in, err, sizeof(err)) < 0) {
				ret = -1;
			} else {
				check_request(&in);
			}
		}
		if (ret == 0)
			ret = 1; /* the stream wants more */
	}
	if (ret < 0)
		fuzz_check_reason("a viewer's frames", err);
	rstream_free(&rs);
	wbuf_free(&w);
	return 0;
}
