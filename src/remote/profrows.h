/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PROFROWS frame (proto.h, docs/remote.md): a profile the explorer opened on an agent
 * (KT_REQ_PROFILE_LIVE), as the stacks counted since its last such frame, each with its
 * weight (samples, or ns off the CPU) and its frames root to leaf, every frame's kind and
 * name as the agent's symbolizer named it, so the viewer's flame pane adds them to its tree
 * as a local profile adds its own.
 *
 *   u32 id, str note (a line the agent says: a poll that failed; "" none), u32 stacks,
 *   then per stack: u64 weight, u16 frames, then per frame: u8 kind (stacks.h), str name
 *
 * The codec (profrows.c) is pure and knows no stack tree; profrows_tree.c turns a tree into
 * frames and frames into a tree (proto.h and stacks.h each name a struct kt_frame, so no
 * file includes both).
 */
#ifndef KTOP_REMOTE_PROFROWS_H
#define KTOP_REMOTE_PROFROWS_H

#include <stddef.h>
#include <stdint.h>

struct kt_wbuf;
struct kt_stacks;

/* Frames one stack may carry (folded.h's bound). */
#define KT_PROFROWS_MAX_DEPTH 4096

struct kt_profrows {
	uint32_t id;		/* the KT_REQ_PROFILE_LIVE request that opened it */
	char note[256];		/* control characters as '?' */
	uint32_t nstacks;
	const uint8_t *stacks;	/* into the payload: the stacks, checked */
	size_t stacks_len;
};

/* ---- the codec (profrows.c) ----------------------------------------------------------- */

/* Appends the head; returns where the count of stacks goes (profrows_end). */
size_t profrows_begin(struct kt_wbuf *b, uint32_t id, const char *note);
/* Appends one stack of n frames (1..KT_PROFROWS_MAX_DEPTH), root to leaf: kinds[i] is
 * enum kt_frame_kind's, names[i] its name. */
void profrows_put(struct kt_wbuf *b, uint64_t weight, size_t n, const uint8_t *kinds,
		  const char *const *names);
/* Writes the count of stacks put at at. */
void profrows_end(struct kt_wbuf *b, size_t at, uint32_t nstacks);
/* Returns 0 with h filled (pointing into p), or -1 when malformed: a stack of no frame or
 * of more than KT_PROFROWS_MAX_DEPTH, of weight 0, a kind stacks.h does not know, a name
 * holding a NUL, a count the payload cannot hold, bytes left over. */
int msg_profrows_decode(const uint8_t *p, size_t n, struct kt_profrows *h);
/* Calls fn for each stack of h (decoded by msg_profrows_decode), its names NUL-terminated
 * with control characters as '?', valid during the call. Stops at and returns fn's first
 * value that is not 0. */
int profrows_each(const struct kt_profrows *h,
		  int (*fn)(void *ctx, uint64_t weight, size_t n, const uint8_t *kinds,
			    const char *const *names),
		  void *ctx);

/* ---- stack trees (profrows_tree.c) ---------------------------------------------------- */

/* The payload of st's stacks (every node with self weight, in stacks_walk's order). */
void msg_profrows_encode(struct kt_wbuf *b, uint32_t id, const char *note,
			 const struct kt_stacks *st);
/* Adds h's stacks to into, each under label (a host's, one frame of kind task) when it is
 * not NULL. max_bytes (0: none) bounds into as profile.h bounds its tree: a stack that
 * would take it past is left out, its weight added to *dropped. Returns 0, or -1 out of
 * memory. */
int profrows_add(const struct kt_profrows *h, struct kt_stacks *into, const char *label,
		 size_t max_bytes, uint64_t *dropped);

#endif
