// SPDX-License-Identifier: GPL-2.0-or-later
/* The PROFROWS frame's codec (profrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profrows.h"
#include "proto.h"
#include "util/xalloc.h"

/* The fewest bytes a stack takes: its weight, its count of frames, one frame (kind, an
 * empty name). */
#define STACK_MIN (8 + 2 + 1 + 4)
/* enum kt_frame_kind's last (stacks.h): KT_FRAME_UNRESOLVED */
#define KIND_MAX 4

size_t profrows_begin(struct kt_wbuf *b, uint32_t id, const char *note)
{
	size_t at;

	wbuf_u32(b, id);
	wbuf_str(b, note);
	at = b->len;
	wbuf_u32(b, 0);
	return at;
}

void profrows_put(struct kt_wbuf *b, uint64_t weight, size_t n, const uint8_t *kinds,
		  const char *const *names)
{
	wbuf_u64(b, weight);
	wbuf_u16(b, (uint16_t)n);
	for (size_t i = 0; i < n; i++) {
		wbuf_u8(b, kinds[i]);
		wbuf_str(b, names[i]);
	}
}

void profrows_end(struct kt_wbuf *b, size_t at, uint32_t nstacks)
{
	for (int i = 0; i < 4; i++)
		b->data[at + (size_t)i] = (uint8_t)(nstacks >> (8 * i));
}

/* One stack: its kinds and names (copied into buf, NUL-terminated, control characters as
 * '?') when kinds is not NULL. Returns its count of frames; 0 with r->bad when malformed. */
static size_t get_stack(struct kt_rbuf *r, uint64_t *weight, uint8_t *kinds, char **names,
			char *buf)
{
	const uint8_t *s;
	uint32_t len;
	size_t n;
	uint8_t kind;

	*weight = rbuf_u64(r);
	n = rbuf_u16(r);
	if (!*weight || !n || n > KT_PROFROWS_MAX_DEPTH)
		r->bad = true;
	for (size_t i = 0; i < n && !r->bad; i++) {
		kind = rbuf_u8(r);
		s = rbuf_blob(r, &len);
		if (kind > KIND_MAX || !s || memchr(s, '\0', len)) {
			r->bad = true;
			break;
		}
		if (!kinds)
			continue;
		for (uint32_t c = 0; c < len; c++)
			buf[c] = s[c] < 0x20 || s[c] == 0x7f ? '?' : (char)s[c];
		buf[len] = '\0';
		kinds[i] = kind;
		names[i] = buf;
		buf += len + 1;
	}
	return r->bad ? 0 : n;
}

int msg_profrows_decode(const uint8_t *p, size_t n, struct kt_profrows *h)
{
	struct kt_rbuf r;
	uint64_t w;

	memset(h, 0, sizeof(*h));
	rbuf_init(&r, p, n);
	h->id = rbuf_u32(&r);
	rbuf_str(&r, h->note, sizeof(h->note));
	h->nstacks = rbuf_u32(&r);
	if (r.bad || h->nstacks > r.left / STACK_MIN)
		return -1;
	h->stacks = r.p;
	h->stacks_len = r.left;
	for (uint32_t i = 0; i < h->nstacks && !r.bad; i++)
		get_stack(&r, &w, NULL, NULL, NULL);
	return r.bad || r.left ? -1 : 0;
}

int profrows_each(const struct kt_profrows *h,
		  int (*fn)(void *ctx, uint64_t weight, size_t n, const uint8_t *kinds,
			    const char *const *names),
		  void *ctx)
{
	uint8_t *kinds = xmalloc(KT_PROFROWS_MAX_DEPTH);
	char **names = xcalloc(KT_PROFROWS_MAX_DEPTH, sizeof(*names));
	/* any one stack's names and their NULs fit in the bytes of all (each name's length
	 * word is 4 bytes) */
	char *buf = xmalloc(h->stacks_len + 1);
	struct kt_rbuf r;
	uint64_t w;
	size_t n;
	int ret = 0;

	rbuf_init(&r, h->stacks, h->stacks_len);
	for (uint32_t i = 0; i < h->nstacks && !ret; i++) {
		n = get_stack(&r, &w, kinds, names, buf);
		if (!n)
			break; /* checked by msg_profrows_decode: not reached */
		ret = fn(ctx, w, n, kinds, (const char *const *)names);
	}
	free(buf);
	free(names);
	free(kinds);
	return ret;
}
