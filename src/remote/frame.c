// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frames of the remote protocol: the 16-byte header with its check, the parser that takes
 * any bytes and either finds a whole frame, asks for more or names what is wrong in one line,
 * and zstd compression of a payload when the viewer asked for it (a slow link).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "proto.h"
#include "util/xalloc.h"

static const char *const type_names[KT_MSG_TYPE_MAX] = {
	[KT_MSG_HELLO] = "hello",	  [KT_MSG_REQUEST] = "request",
	[KT_MSG_REPLY] = "reply",	  [KT_MSG_HEADER_PAGE] = "header_page",
	[KT_MSG_FORMAT] = "format",	  [KT_MSG_KALLSYMS] = "kallsyms",
	[KT_MSG_PRINTK] = "printk",	  [KT_MSG_PAGE] = "page",
	[KT_MSG_COMMS] = "comms",	  [KT_MSG_LOSS] = "loss",
	[KT_MSG_SNAPSHOT] = "snapshot",	  [KT_MSG_PING] = "ping",
	[KT_MSG_PONG] = "pong",		  [KT_MSG_ERROR] = "error",
	[KT_MSG_END] = "end",		  [KT_MSG_WATERMARK] = "watermark",
	[KT_MSG_EVENTS] = "events",	  [KT_MSG_HISTROWS] = "histrows",
	[KT_MSG_COUNTERROWS] = "counterrows",
	[KT_MSG_PROFROWS] = "profrows",	  [KT_MSG_UNAMES] = "unames",
	[KT_MSG_OVROWS] = "ovrows",
};

const char *frame_type_name(uint8_t type)
{
	/* the numbers left free between the types (other versions' own) are unknown too */
	return type < KT_MSG_TYPE_MAX && type_names[type] ? type_names[type] : "unknown";
}

uint32_t frame_check(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* What came instead of a frame, printable: a remote shell's message is the usual case. */
static void show_bytes(const uint8_t *buf, size_t len, char *out, size_t outlen)
{
	size_t i, o = 0;

	for (i = 0; i < len && i < 60 && o + 5 < outlen; i++) {
		if (buf[i] == '\n' && i > 0)
			break;
		if (isprint(buf[i]))
			out[o++] = (char)buf[i];
		else
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", buf[i]);
	}
	out[o < outlen ? o : outlen - 1] = '\0';
}

long frame_parse(const uint8_t *buf, size_t len, struct kt_frame *f, char *err, size_t errlen)
{
	size_t magic = len < 4 ? len : 4;
	char seen[256];

	if (!len)
		return 0;
	if (memcmp(buf, KT_PROTO_MAGIC, magic)) {
		show_bytes(buf, len, seen, sizeof(seen));
		snprintf(err, errlen, "not a ktop agent's frame: the stream starts with \"%s\" "
			 "(is ktop --agent installed and on the remote PATH?)", seen);
		return -1;
	}
	if (len < KT_FRAME_HDR)
		return 0;
	if (get_le32(buf + 12) != frame_check(buf, 12)) {
		snprintf(err, errlen, "corrupt frame header (check %08x, computed %08x): the "
			 "stream lost bytes or something else writes to it", get_le32(buf + 12),
			 frame_check(buf, 12));
		return -1;
	}
	f->version = buf[4];
	f->type = buf[5];
	f->flags = (uint16_t)(buf[6] | buf[7] << 8);
	f->len = get_le32(buf + 8);
	f->payload = buf + KT_FRAME_HDR;
	if (f->len > KT_FRAME_MAX) {
		snprintf(err, errlen, "%s frame of %u bytes, past the limit of %u",
			 frame_type_name(f->type), f->len, KT_FRAME_MAX);
		return -1;
	}
	/* another version's types are its own business: its hello says which version */
	if (f->version == KT_PROTO_VERSION &&
	    (f->type >= KT_MSG_TYPE_MAX || !type_names[f->type])) {
		snprintf(err, errlen, "unknown frame type %u", f->type);
		return -1;
	}
	if (f->flags & ~KT_FRAME_COMPRESSED && f->version == KT_PROTO_VERSION) {
		snprintf(err, errlen, "%s frame with unknown flags 0x%04x", frame_type_name(f->type),
			 f->flags);
		return -1;
	}
	if (len - KT_FRAME_HDR < f->len)
		return 0;
	return (long)(KT_FRAME_HDR + f->len);
}

static size_t frame_header(struct kt_wbuf *out, uint8_t type, uint16_t flags)
{
	uint8_t h[KT_FRAME_HDR] = { 'K', 'T', 'O', 'P', KT_PROTO_VERSION, type,
				    (uint8_t)flags, (uint8_t)(flags >> 8) };
	size_t at = out->len;

	wbuf_put(out, h, sizeof(h));
	return at;
}

static void frame_seal(struct kt_wbuf *out, size_t at)
{
	uint8_t *h = out->data + at;

	put_le32(h + 8, (uint32_t)(out->len - at - KT_FRAME_HDR));
	put_le32(h + 12, frame_check(h, 12));
}

/* Level 1: a slow link wants bytes saved, but the agent must keep up with the kernel. */
static int frame_compress(struct kt_wbuf *out, uint8_t type, const void *p, size_t n)
{
	size_t bound = ZSTD_compressBound(n), at, z;

	at = frame_header(out, type, KT_FRAME_COMPRESSED);
	if (out->cap - out->len < bound)
		wbuf_put(out, NULL, bound); /* grows; len is set back below */
	else
		out->len += bound;
	z = ZSTD_compress(out->data + at + KT_FRAME_HDR, bound, p, n, 1);
	if (ZSTD_isError(z) || z >= n) {
		out->len = at;
		return -1;
	}
	out->len = at + KT_FRAME_HDR + z;
	frame_seal(out, at);
	return 0;
}

int frame_append(struct kt_wbuf *out, uint8_t type, const void *p, size_t n, bool compress)
{
	size_t at;

	if (n > KT_FRAME_MAX)
		return -1;
	if (compress && n >= 64 && frame_compress(out, type, p, n) == 0)
		return 0;
	at = frame_header(out, type, 0);
	wbuf_put(out, p, n);
	frame_seal(out, at);
	return 0;
}

long frame_payload(const struct kt_frame *f, const uint8_t **p, uint8_t **scratch,
		   size_t *scratch_cap, char *err, size_t errlen)
{
	unsigned long long size;
	size_t got;

	if (!(f->flags & KT_FRAME_COMPRESSED)) {
		*p = f->payload;
		return f->len;
	}
	size = ZSTD_getFrameContentSize(f->payload, f->len);

	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
		snprintf(err, errlen, "compressed %s frame is not a zstd frame",
			 frame_type_name(f->type));
		return -1;
	}
	if (size > KT_FRAME_MAX) {
		snprintf(err, errlen, "compressed %s frame expands to %llu bytes, past the limit "
			 "of %u", frame_type_name(f->type), size, KT_FRAME_MAX);
		return -1;
	}
	if (*scratch_cap < size || !*scratch) {
		uint8_t *n = realloc(*scratch, size ? size : 1);

		if (!n) {
			snprintf(err, errlen, "out of memory for a %llu-byte frame", size);
			return -1;
		}
		*scratch = n;
		*scratch_cap = size ? size : 1;
	}
	got = ZSTD_decompress(*scratch, size, f->payload, f->len);
	if (ZSTD_isError(got) || got != size) {
		snprintf(err, errlen, "compressed %s frame does not decompress: %s",
			 frame_type_name(f->type),
			 ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
		return -1;
	}
	*p = *scratch;
	return (long)size;
}

void rstream_free(struct kt_rstream *s)
{
	free(s->buf);
	free(s->scratch);
	memset(s, 0, sizeof(*s));
}

void rstream_feed(struct kt_rstream *s, const void *p, size_t n)
{
	if (!n)
		return;
	if (s->off && s->off == s->len)
		s->off = s->len = 0;
	if (s->cap - s->len < n && s->off) { /* move what is left to the front */
		memmove(s->buf, s->buf + s->off, s->len - s->off);
		s->len -= s->off;
		s->off = 0;
	}
	if (s->cap - s->len < n) {
		size_t cap = s->cap ? s->cap : 65536;

		while (cap - s->len < n)
			cap *= 2;
		s->buf = xrealloc(s->buf, cap);
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

int rstream_next(struct kt_rstream *s, struct kt_frame *f, const uint8_t **p, size_t *n,
		 char *err, size_t errlen)
{
	long used, plen;

	if (s->off == s->len)
		return 0;
	used = frame_parse(s->buf + s->off, s->len - s->off, f, err, errlen);
	if (used <= 0)
		return (int)used;
	s->off += (size_t)used;
	plen = frame_payload(f, p, &s->scratch, &s->scratch_cap, err, errlen);
	if (plen < 0)
		return -1;
	*n = (size_t)plen;
	return 1;
}
