/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's reading of its viewer's frames, up to the kernel calls: the first frame must be
 * a hello of this protocol, then each frame is a request whose arguments are whole and
 * whose op this agent knows (else it is refused in the reply and the agent goes on), a
 * ping, or the end of the connection. No kernel state is touched here, so the whole of it
 * is fuzzed (tests/fuzz/fuzz_agent.c); agent.c runs what it lets through.
 */
#ifndef KTOP_REMOTE_AGENTREQ_H
#define KTOP_REMOTE_AGENTREQ_H

#include <stddef.h>
#include <stdint.h>

#include "remote/proto.h"

enum kt_agentreq_kind {
	KT_AGENTREQ_RUN,    /* q: a request to run */
	KT_AGENTREQ_REFUSE, /* q.id: a request refused in its reply, why says why */
	KT_AGENTREQ_PING,   /* ping: the viewer's time, for the pong */
};

struct kt_agentreq {
	enum kt_agentreq_kind kind;
	struct kt_request q; /* its strings in store */
	uint64_t ping;
	char why[512];
	char store[8192]; /* half for each argument: 4095 bytes each at most */
};

/* The viewer's first frame: its hello, of this protocol. Returns 0, or -1 with the line
 * the agent says before it ends. */
int agentreq_hello(const struct kt_frame *f, const uint8_t *p, size_t n, struct kt_hello *h,
		   char *err, size_t errlen);
/* Any later frame into *out. Returns 0, or -1 with one line in err: a frame the agent
 * cannot go on after (malformed, or of a type viewers do not send). */
int agentreq_decode(const struct kt_frame *f, const uint8_t *p, size_t n,
		    struct kt_agentreq *out, char *err, size_t errlen);

#endif
