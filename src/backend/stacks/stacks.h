/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stacks aggregated into a tree of frames, for profiles and flame graphs. A stack is added
 * root to leaf, the way stackcollapse-perf folds them: the task's name first, then the
 * outermost caller down to the sampled (or blocked) function. Every node keeps its own
 * weight (self: stacks that ended there) and its subtree's (total). Weights are samples for
 * on-CPU profiles, nanoseconds blocked for off-CPU ones, events for event stacks; the tree
 * says which. Names are interned: a node's name pointer lives as long as the tree, and two
 * nodes with equal names share one pointer. Not thread-safe: one owner adds and reads.
 */
#ifndef KTOP_STACKS_H
#define KTOP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum kt_stack_unit {
	KT_STACK_SAMPLES, /* on-CPU samples */
	KT_STACK_NSEC,	  /* time blocked, nanoseconds */
	KT_STACK_EVENTS,  /* events that carried the stack */
};

/* What a frame is; kept per node, so the pane can colour kernel and user apart and count
 * the frames that could not be named. */
enum kt_frame_kind {
	KT_FRAME_TASK,	     /* the first frame: the task's name */
	KT_FRAME_KERNEL,
	KT_FRAME_USER,
	KT_FRAME_JIT,	     /* named by /tmp/perf-PID.map */
	KT_FRAME_UNRESOLVED, /* shown as its address or [module]; never dropped */
};

struct kt_frame {
	const char *name;
	enum kt_frame_kind kind;
};

struct kt_stack_node {
	const char *name; /* interned */
	uint64_t self, total;
	struct kt_stack_node *parent;
	struct kt_stack_node *child; /* first child; order of first appearance */
	struct kt_stack_node *next;  /* next sibling */
	struct kt_stack_node *last;  /* last child: where the next new one is appended */
	enum kt_frame_kind kind;     /* (the small fields last: no padding between) */
	unsigned depth;		     /* 0 for the root, 1 for task names */
	unsigned nchild;
};

struct kt_stacks;

/* An empty tree; NULL when out of memory. */
struct kt_stacks *stacks_new(enum kt_stack_unit unit);
void stacks_free(struct kt_stacks *st);
/* Forgets every stack; the unit stays. */
void stacks_clear(struct kt_stacks *st);

enum kt_stack_unit stacks_unit(const struct kt_stacks *st);
/* The unit's name as folded output and the pane print it: "samples", "ns", "events". */
const char *stacks_unit_name(enum kt_stack_unit unit);

/* ns as the pane shows a time: "1.234 s", "5.000 ms" or "7.500 us". */
void stacks_format_ns(uint64_t ns, char *buf, size_t len);

/* Adds weight to the path frames[0..n-1] (n >= 1). Returns 0, or -1 when out of memory
 * (the tree is unchanged). */
int stacks_add(struct kt_stacks *st, const struct kt_frame *frames, size_t n, uint64_t weight);

/* The root: name "all", total the sum of every weight added. */
const struct kt_stack_node *stacks_root(const struct kt_stacks *st);
/* The child of parent named name, or NULL. */
const struct kt_stack_node *stacks_child(const struct kt_stacks *st,
					 const struct kt_stack_node *parent, const char *name);
/* The node at the same path as node of another tree (a diff's baseline), or NULL. */
const struct kt_stack_node *stacks_same_path(const struct kt_stacks *other,
					     const struct kt_stack_node *node);

/* How many distinct stacks (nodes with self > 0) and nodes the tree holds, and the bytes it
 * uses, for --memory and the pane's footer. */
size_t stacks_leaves(const struct kt_stacks *st);
size_t stacks_nodes(const struct kt_stacks *st);
size_t stacks_bytes(const struct kt_stacks *st);
/* The most stacks_bytes could be once frames[0..n-1] are added: every frame a new node with
 * a new name, and the tables grown to hold them, so a caller bounding the tree checks
 * before adding rather than finding it past the bound after. */
size_t stacks_bytes_adding(const struct kt_stacks *st, const struct kt_frame *frames, size_t n);
/* Whether the tree holds frames[0..n) already (so adding it past a bound costs nothing). */
bool stacks_has_path(const struct kt_stacks *st, const struct kt_frame *frames, size_t n);

/* Calls fn once per node with self > 0, with its path root-excluded (path[0] is the task),
 * children in name order, so the output is the same whatever order stacks came in. Stops
 * and returns fn's value when it is not 0. */
int stacks_walk(const struct kt_stacks *st,
		int (*fn)(void *arg, const struct kt_stack_node *const *path, size_t n,
			  uint64_t self),
		void *arg);

/* A copy of st, same unit (a diff's baseline taken "now"); NULL when out of memory. */
struct kt_stacks *stacks_dup(const struct kt_stacks *st);

/* Adds every stack of from to to, with its weight, node by node (no stack is walked from
 * the root again). max_bytes (0: none) bounds to: once stacks_bytes(to) reaches it, the
 * stacks that need a new node are left out, their weight added to *dropped (when not
 * NULL). Returns 0, or -1 when out of memory (to then holds some of from's stacks). */
int stacks_merge(struct kt_stacks *to, const struct kt_stacks *from, size_t max_bytes,
		 uint64_t *dropped);
/* Takes the weights of sub's stacks (added to st before) out of st again: a sliding
 * window's second that left it. Nodes left with no weight stay, so the node pointers a
 * caller holds stay valid; a tree that carries too many of them is made again. */
void stacks_subtract(struct kt_stacks *st, const struct kt_stacks *sub);

/* Writes the folded form ("task;outer;...;leaf COUNT\n" per stack, sorted by path), the
 * format FlameGraph, inferno, speedscope and flamelens read. Returns 0, or -1 on a write
 * error. */
int stacks_write_folded(const struct kt_stacks *st, FILE *out);

/* The same stacks as a JSON array, [{"frames":["task",...,"leaf"],"count":N},...], in the
 * same order. Returns 0, or -1 on a write error. */
int stacks_write_json(const struct kt_stacks *st, FILE *out);

#endif
