// SPDX-License-Identifier: GPL-2.0-or-later
/* The agent's names for the user frames of event stacks (agentustack.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "agentustack.h"
#include "app/app.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "backend/symbols/symbolize.h"
#include "util/xalloc.h"

/* Frames sent lately, direct-mapped: a frame comes again in every event of its stack. */
#define SENT 16384
/* Frames waiting for a mapping, and how many passes each may wait. */
#define PENDING 512
#define PENDING_PASSES 3

struct frame_key {
	uint64_t addr;
	int pid;
};

struct kt_agentustack {
	struct kt_symbolizer *sym;
	int id;			    /* user_stack's common_type */
	unsigned tgid_off, tgid_size; /* its fields */
	unsigned caller_off, ncallers;
	struct frame_key sent[SENT];
	struct {
		struct frame_key k;
		unsigned passes;
	} pending[PENDING];
	size_t npending;
};

static unsigned slot_of(int pid, uint64_t addr)
{
	return (unsigned)(((addr ^ (uint64_t)(unsigned)pid) * 0x9e3779b97f4a7c15ull) >> 50) % SENT;
}

struct kt_agentustack *agentustack_new(struct kt_session *s, struct kt_decoder *d, char *err,
				       size_t errlen)
{
	struct tep_format_field *tgid, *caller;
	struct kt_agentustack *u;
	struct tep_event *ev;
	char off[64];

	if (evstack_user(s, true, err, errlen) < 0)
		return NULL;
	decoder_load(d, "ftrace", "user_stack");
	ev = tep_find_event_by_name(decoder_tep(d), "ftrace", "user_stack");
	tgid = ev ? tep_find_field(ev, "tgid") : NULL;
	caller = ev ? tep_find_field(ev, "caller") : NULL;
	if (!tgid || !caller || (tgid->size != 4 && tgid->size != 8) || caller->size < 8) {
		snprintf(err, errlen, "this kernel's ftrace:user_stack has no tgid and caller "
			 "fields ktop can read: its user stacks stay unnamed");
		evstack_user(s, false, off, sizeof(off));
		return NULL;
	}
	u = xcalloc(1, sizeof(*u));
	u->sym = symbolizer_new(err, errlen);
	if (!u->sym) {
		evstack_user(s, false, off, sizeof(off));
		free(u);
		return NULL;
	}
	/* as perf synthesizes them: named even if they exit before the side band says */
	symbolizer_preload_all(u->sym);
	u->id = ev->id;
	u->tgid_off = (unsigned)tgid->offset;
	u->tgid_size = (unsigned)tgid->size;
	u->caller_off = (unsigned)caller->offset;
	u->ncallers = (unsigned)caller->size / 8;
	return u;
}

struct kt_symbolizer *agentustack_symbolizer(struct kt_agentustack *u)
{
	return u->sym;
}

/* Names the frame and hands it to fn; false when no mapping holds it yet. */
static bool name_frame(struct kt_agentustack *u, int pid, uint64_t addr, kt_uname_fn fn,
		       void *ctx)
{
	struct frame_key *s = &u->sent[slot_of(pid, addr)];
	struct kt_frame f;
	char name[256];

	symbolizer_user(u->sym, pid, addr, &f, name, sizeof(name));
	/* the bare address the viewer shows anyway: no mapping known yet */
	if (f.kind == KT_FRAME_UNRESOLVED && name[0] == '0')
		return false;
	fn(ctx, pid, addr, (uint8_t)f.kind, name);
	s->pid = pid;
	s->addr = addr;
	return true;
}

static void pend(struct kt_agentustack *u, int pid, uint64_t addr)
{
	for (size_t i = 0; i < u->npending; i++)
		if (u->pending[i].k.pid == pid && u->pending[i].k.addr == addr)
			return;
	if (u->npending < PENDING)
		u->pending[u->npending++].k = (struct frame_key){ addr, pid };
}

void agentustack_record(struct kt_agentustack *u, const void *rec, size_t size, kt_uname_fn fn,
			void *ctx)
{
	const uint8_t *p = rec;
	uint16_t type;
	uint32_t tgid32;
	uint64_t addr, tgid = 0;
	const struct frame_key *s;

	if (size < 2)
		return;
	memcpy(&type, p, sizeof(type));
	if (type != u->id || u->tgid_off + u->tgid_size > size)
		return;
	if (u->tgid_size == 4) {
		memcpy(&tgid32, p + u->tgid_off, sizeof(tgid32));
		tgid = tgid32;
	} else {
		memcpy(&tgid, p + u->tgid_off, sizeof(tgid));
	}
	/* zero-terminated, or ULONG_MAX on older kernels (evstack.c) */
	for (unsigned i = 0; i < u->ncallers && u->caller_off + (i + 1) * 8 <= size; i++) {
		memcpy(&addr, p + u->caller_off + i * 8, sizeof(addr));
		if (!addr || addr == UINT64_MAX)
			break;
		s = &u->sent[slot_of((int)tgid, addr)];
		if (s->pid == (int)tgid && s->addr == addr)
			continue;
		if (!name_frame(u, (int)tgid, addr, fn, ctx))
			pend(u, (int)tgid, addr);
	}
}

void agentustack_pass(struct kt_agentustack *u, kt_uname_fn fn, void *ctx)
{
	size_t kept = 0;

	/* an address no mapping held may look in /proc again */
	symbolizer_next_pass(u->sym);
	for (size_t i = 0; i < u->npending; i++) {
		if (name_frame(u, u->pending[i].k.pid, u->pending[i].k.addr, fn, ctx) ||
		    ++u->pending[i].passes >= PENDING_PASSES)
			continue;
		u->pending[kept++] = u->pending[i];
	}
	u->npending = kept;
	symbolizer_forget_exited(u->sym, KT_APP_EXITED_KEPT);
}

void agentustack_free(struct kt_agentustack *u)
{
	if (!u)
		return;
	symbolizer_free(u->sym);
	free(u);
}
