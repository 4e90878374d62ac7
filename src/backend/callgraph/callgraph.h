/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call trees from the function_graph tracer's funcgraph_entry / funcgraph_exit records.
 *
 * Each task has its own stack of open calls (the idle task, pid 0, one per CPU), so a task
 * that migrates keeps its tree. Durations are the exit record's rettime - calltime, as the
 * kernel prints them. A call's place in the tree comes from the depth the kernel recorded,
 * never from guessing: an interrupt taken inside a task's call is nested in it as the kernel
 * nests it (one taken while the kernel entered a call, recorded before that call's entry,
 * is nested in that call once its entry and exit show it lies within); a call whose parent was never seen (the capture started in the middle of it, or
 * events were lost) becomes a root marked KT_CG_NO_PARENT, until an exit at the depth above
 * that contains it in time claims it; an exit with no entry becomes a call marked
 * KT_CG_NO_ENTRY; a frame whose exit never came (lost, or the depth says the stack moved on)
 * is closed as KT_CG_BROKEN; calls that were open while a CPU lost events are KT_CG_LOST
 * (their children may be incomplete).
 *
 * Memory is bounded: nodes come from a pool of a fixed size; when it is full the oldest
 * finished trees are evicted (counted), and when nothing can be evicted new calls are
 * dropped (counted). Single-threaded. */
#ifndef KTOP_CALLGRAPH_H
#define KTOP_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct tep_record;

enum {
	KT_CG_OPEN = 1 << 0,	  /* no exit yet */
	KT_CG_NO_ENTRY = 1 << 1,  /* exit without entry: the call began before the capture */
	KT_CG_NO_PARENT = 1 << 2, /* a root only because its caller was not seen */
	KT_CG_BROKEN = 1 << 3,	  /* its exit never came; duration unknown */
	KT_CG_LOST = 1 << 4,	  /* events were lost while it was open */
};

struct kt_cg_node {
	uint64_t func;	       /* the function's address (kt_cg_func_name for its name) */
	uint64_t calltime;     /* ns, trace clock */
	uint64_t duration;     /* ns; 0 while open or broken */
	uint64_t child_time;   /* sum of the children's durations, for self time */
	/* Roots are siblings too: the list of roots in the order they began. */
	struct kt_cg_node *parent, *child, *last_child, *next, *prev;
	int pid;
	int depth;	       /* the kernel's depth */
	unsigned cpu;	       /* where it was entered (exited, for NO_ENTRY) */
	unsigned flags;	       /* KT_CG_* */
	uint32_t calls;	       /* finished calls below it */
	uint32_t serial;       /* nodes allocated before it (wraps): with its address, which
				* call this is, as the pool reuses evicted calls' nodes */
};

struct kt_cg_stats {
	uint64_t entries, exits;	 /* records fed */
	uint64_t nodes;			 /* in use now */
	uint64_t trees;			 /* finished roots kept */
	uint64_t evicted_trees, evicted_nodes;
	uint64_t dropped;		 /* calls not kept: pool full of open calls, or too deep */
	uint64_t no_entry, no_parent, broken, lost_marks;
};

struct kt_callgraph;

/* max_nodes: the pool size (each node is ~100 bytes). */
struct kt_callgraph *callgraph_new(size_t max_nodes);
void callgraph_free(struct kt_callgraph *cg);

/* Looks up the funcgraph event ids and field offsets in tep. Returns 0, or -1 when tep has no
 * ftrace:funcgraph_entry / funcgraph_exit format. */
int callgraph_set_tep(struct kt_callgraph *cg, struct tep_handle *tep);
/* Feeds one record (others are ignored); a record with missed_events set marks the loss on
 * its CPU first. Returns true when it was a funcgraph record. */
bool callgraph_feed(struct kt_callgraph *cg, const struct tep_record *rec);
/* The same for a raw event payload (common fields first), as the store keeps them. */
bool callgraph_feed_raw(struct kt_callgraph *cg, unsigned cpu, uint64_t ts, const void *data,
			int size);
/* Events were lost on cpu (a loss marker): every call open on a task last seen there is
 * marked KT_CG_LOST. */
void callgraph_lost(struct kt_callgraph *cg, unsigned cpu);

/* The decoded forms, for sources that decode themselves (and the benchmark). */
void callgraph_entry(struct kt_callgraph *cg, unsigned cpu, int pid, uint64_t ts, uint64_t func,
		     int depth);
void callgraph_exit(struct kt_callgraph *cg, unsigned cpu, int pid, uint64_t func, int depth,
		    uint64_t calltime, uint64_t rettime);

/* Roots in the order they began: finished ones and still open ones alike. */
struct kt_cg_node *callgraph_first_root(const struct kt_callgraph *cg);
void callgraph_stats(const struct kt_callgraph *cg, struct kt_cg_stats *out);
/* Closes every open call as KT_CG_BROKEN (the end of a recording). */
void callgraph_finish(struct kt_callgraph *cg);

/* The function's name from the tep's kallsyms, or "0x..." in buf. */
const char *callgraph_func_name(struct kt_callgraph *cg, uint64_t func, char *buf, size_t len);

/* A duration as the kernel prints it (print_graph_duration): microseconds and as many
 * digits of the rest as fit in eight characters, truncated ("286.888", "41276.65"). */
char *callgraph_kernel_usecs(uint64_t ns, char *buf, size_t len);
/* The kernel's mark for a duration (trace_find_mark): '$' over 1 s, '@' 100 ms, '*' 10 ms,
 * '#' 1 ms, '!' 100 us, '+' 10 us, else ' '. */
char callgraph_mark(uint64_t ns);

/* Whether the kernel behind tracing_dir has the function_graph tracer; when not, the reason
 * and the way out in why. */
bool callgraph_kernel_has_graph(const char *tracing_dir, char *why, size_t len);

/* Self time: duration minus the children's. */
static inline uint64_t kt_cg_self(const struct kt_cg_node *n)
{
	return n->duration > n->child_time ? n->duration - n->child_time : 0;
}

/* Aggregations over the kept trees. */
struct kt_cg_agg {
	uint64_t func;
	uint64_t count, total, self, min, max;
	struct kt_cg_agg *parent, *child, *next; /* graph view: the call-path tree */
};

/* Graph view: identical call paths (from a root) merged; returns a fake root whose children
 * are the root functions. Free with callgraph_agg_free. */
struct kt_cg_agg *callgraph_merge_paths(const struct kt_callgraph *cg);
/* Report view: one entry per function, sorted by self time, largest first; *n gets the
 * count. Free with free(). */
struct kt_cg_agg *callgraph_rank_self(const struct kt_callgraph *cg, size_t *n);
void callgraph_agg_free(struct kt_cg_agg *root);

#endif
