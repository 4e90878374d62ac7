// SPDX-License-Identifier: GPL-2.0-or-later
/* The agent's reading of its viewer's frames (agentreq.h). */
#include "config.h"

#include <stdio.h>

#include "agentreq.h"

int agentreq_hello(const struct kt_frame *f, const uint8_t *p, size_t n, struct kt_hello *h,
		   char *err, size_t errlen)
{
	if (f->type != KT_MSG_HELLO) {
		snprintf(err, errlen, "the viewer's first frame is %s, not hello",
			 frame_type_name(f->type));
		return -1;
	}
	if (msg_hello_decode(p, n, h, err, errlen) < 0)
		return -1;
	if (msg_version_mismatch(h, "the viewer", false, err, errlen))
		return -1;
	return 0;
}

int agentreq_decode(const struct kt_frame *f, const uint8_t *p, size_t n,
		    struct kt_agentreq *out, char *err, size_t errlen)
{
	int ret;

	switch (f->type) {
	case KT_MSG_REQUEST:
		ret = msg_request_decode(p, n, &out->q, out->store, sizeof(out->store), out->why,
					 sizeof(out->why));
		if (ret < 0) {
			snprintf(err, errlen, "%s", out->why);
			return -1;
		}
		out->kind = ret > 0 ? KT_AGENTREQ_REFUSE : KT_AGENTREQ_RUN;
		if (!ret && (out->q.op == 0 || out->q.op >= KT_REQ_OP_MAX)) { /* a newer viewer's */
			snprintf(out->why, sizeof(out->why), "request %u is not known to this agent "
				 "(ktop %s): update ktop on this host", out->q.op,
				 PACKAGE_VERSION);
			out->kind = KT_AGENTREQ_REFUSE;
		}
		return 0;
	case KT_MSG_PING:
		if (msg_u64_decode(p, n, &out->ping) < 0) {
			snprintf(err, errlen, "malformed ping (%zu bytes)", n);
			return -1;
		}
		out->kind = KT_AGENTREQ_PING;
		return 0;
	default:
		snprintf(err, errlen, "a viewer does not send %s frames", frame_type_name(f->type));
		return -1;
	}
}
