// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Call-tree builder for funcgraph_entry / funcgraph_exit records (callgraph.h says what it
 * guarantees). Per task a stack of open frames; nodes from a chunked pool with a free list;
 * eviction of the oldest finished root tree when the pool is full.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "callgraph.h"
#include "backend/tracefs/tracers.h"
#include "util/fileio.h"
#include "util/strutil.h"
#include "util/xalloc.h"

#define CG_CHUNK 4096	     /* nodes per pool allocation */
#define CG_MAX_DEPTH 512     /* deeper records are dropped (the kernel stops far earlier) */
#define CG_ADOPT_SCAN 4096   /* roots looked at, newest first, for a caller's children */

struct frame {
	struct kt_cg_node *node; /* NULL: the call was dropped, only its depth is kept */
	uint64_t func;
	int depth;
	bool late; /* its entry record came after an interrupt's calls (see await) */
};

/* One task's open calls (the idle task: one per CPU). */
struct context {
	int key; /* pid, or -1 - cpu for pid 0 */
	unsigned last_cpu;
	int n, cap;
	struct frame *stack;
	/* The last frame an entry at its own depth closed as broken, for its late exit (see
	 * reunite); checked against the node's own fields, since the node may be reused. */
	struct kt_cg_node *pending;
	uint64_t pending_func, pending_ts;
	int pending_depth;
	/* The kernel counts a call's depth before it records its entry, and interrupts stay
	 * on in between: an interrupt taken there records its calls at the call's depth + 1
	 * before the call's own entry. await is that depth + 1 while the call's late entry
	 * is awaited (0: none); the call then claims the interrupt's calls. */
	int await;
};

struct field {
	int offset, size;
};

struct kt_callgraph {
	struct tep_handle *tep;
	int entry_id, exit_id;
	struct field type, pid, func, depth, e_func, e_depth, calltime, rettime;

	struct kt_cg_node **chunks;
	size_t nchunks, max_nodes, allocated;
	uint32_t serial; /* the next node's */
	struct kt_cg_node *free_list; /* linked through ->next */
	struct kt_cg_node *roots, *last_root;

	struct context *ctx; /* open addressing on key */
	size_t nctx, ctx_cap;

	bool clock_checked; /* exit calltimes compare with entry timestamps */
	struct kt_cg_stats st;
};

struct kt_callgraph *callgraph_new(size_t max_nodes)
{
	struct kt_callgraph *cg = xcalloc(1, sizeof(*cg));

	cg->max_nodes = max_nodes < 16 ? 16 : max_nodes;
	cg->ctx_cap = 256;
	cg->ctx = xcalloc(cg->ctx_cap, sizeof(*cg->ctx));
	for (size_t i = 0; i < cg->ctx_cap; i++)
		cg->ctx[i].key = INT32_MIN;
	cg->entry_id = cg->exit_id = -1;
	return cg;
}

void callgraph_free(struct kt_callgraph *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->nchunks; i++)
		free(cg->chunks[i]);
	free(cg->chunks);
	for (size_t i = 0; i < cg->ctx_cap; i++)
		free(cg->ctx[i].stack);
	free(cg->ctx);
	free(cg);
}

/* ---- fields ---------------------------------------------------------------------------- */

static int field_of(struct tep_event *ev, const char *name, bool common, struct field *f)
{
	struct tep_format_field *ff = common ? tep_find_common_field(ev, name)
					     : tep_find_field(ev, name);

	if (!ff)
		return -1;
	f->offset = ff->offset;
	f->size = ff->size;
	return 0;
}

int callgraph_set_tep(struct kt_callgraph *cg, struct tep_handle *tep)
{
	struct tep_event *en = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	struct tep_event *ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");

	if (!en || !ex)
		return -1;
	if (field_of(en, "common_type", true, &cg->type) ||
	    field_of(en, "common_pid", true, &cg->pid) || field_of(en, "func", false, &cg->func) ||
	    field_of(en, "depth", false, &cg->depth) ||
	    field_of(ex, "func", false, &cg->e_func) ||
	    field_of(ex, "depth", false, &cg->e_depth) ||
	    field_of(ex, "calltime", false, &cg->calltime) ||
	    field_of(ex, "rettime", false, &cg->rettime))
		return -1;
	cg->tep = tep;
	cg->entry_id = en->id;
	cg->exit_id = ex->id;
	return 0;
}

static uint64_t rd(const struct kt_callgraph *cg, const void *data, int size, struct field f)
{
	if (f.offset + f.size > size)
		return 0;
	return tep_read_number(cg->tep, (const char *)data + f.offset, f.size);
}

/* ---- pool ------------------------------------------------------------------------------ */

static void tree_release(struct kt_callgraph *cg, struct kt_cg_node *n)
{
	struct kt_cg_node *c = n->child, *next;

	for (; c; c = next) {
		next = c->next;
		tree_release(cg, c);
	}
	n->next = cg->free_list;
	cg->free_list = n;
	cg->st.nodes--;
	cg->st.evicted_nodes++;
}

static void root_unlink(struct kt_callgraph *cg, struct kt_cg_node *n)
{
	if (n->prev)
		n->prev->next = n->next;
	else
		cg->roots = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		cg->last_root = n->prev;
	n->prev = n->next = NULL;
}

/* Evicts the oldest finished root tree. Returns false when every root is still open. */
static bool evict_one(struct kt_callgraph *cg)
{
	struct kt_cg_node *r;

	for (r = cg->roots; r; r = r->next)
		if (!(r->flags & KT_CG_OPEN))
			break;
	if (!r)
		return false;
	root_unlink(cg, r);
	tree_release(cg, r);
	cg->st.evicted_trees++;
	cg->st.trees--;
	return true;
}

static struct kt_cg_node *node_alloc(struct kt_callgraph *cg)
{
	struct kt_cg_node *n;

	if (!cg->free_list && cg->allocated < cg->max_nodes) {
		size_t k = cg->max_nodes - cg->allocated < CG_CHUNK ? cg->max_nodes - cg->allocated
								     : CG_CHUNK;
		struct kt_cg_node *chunk = xcalloc(k, sizeof(*chunk));

		cg->chunks = xrealloc(cg->chunks, (cg->nchunks + 1) * sizeof(*cg->chunks));
		cg->chunks[cg->nchunks++] = chunk;
		for (size_t i = k; i-- > 0;) {
			chunk[i].next = cg->free_list;
			cg->free_list = &chunk[i];
		}
		cg->allocated += k;
	}
	if (!cg->free_list && !evict_one(cg))
		return NULL;
	n = cg->free_list;
	cg->free_list = n->next;
	memset(n, 0, sizeof(*n));
	n->serial = cg->serial++;
	cg->st.nodes++;
	return n;
}

/* ---- tree links ------------------------------------------------------------------------ */

/* Links n into the list from *first to *last, before before (NULL: at the end), under
 * parent (NULL: the roots). */
static void list_insert(struct kt_cg_node **first, struct kt_cg_node **last,
			struct kt_cg_node *parent, struct kt_cg_node *n, struct kt_cg_node *before)
{
	n->parent = parent;
	n->next = before;
	n->prev = before ? before->prev : *last;
	if (n->prev)
		n->prev->next = n;
	else
		*first = n;
	if (before)
		before->prev = n;
	else
		*last = n;
}

static void child_append(struct kt_cg_node *parent, struct kt_cg_node *n)
{
	list_insert(&parent->child, &parent->last_child, parent, n, NULL);
}

/* Puts n among parent's children just before before (NULL: at the end). */
static void child_insert_before(struct kt_cg_node *parent, struct kt_cg_node *n,
				struct kt_cg_node *before)
{
	list_insert(&parent->child, &parent->last_child, parent, n, before);
}

static void root_append(struct kt_callgraph *cg, struct kt_cg_node *n)
{
	list_insert(&cg->roots, &cg->last_root, NULL, n, NULL);
}

/* Puts n in the roots list just before before (NULL: at the end). */
static void root_insert_before(struct kt_callgraph *cg, struct kt_cg_node *n,
			       struct kt_cg_node *before)
{
	list_insert(&cg->roots, &cg->last_root, NULL, n, before);
}

/* ---- contexts -------------------------------------------------------------------------- */

static struct context *context_get(struct kt_callgraph *cg, unsigned cpu, int pid)
{
	int key = pid ? pid : -1 - (int)cpu;
	size_t i, mask;

	if ((cg->nctx + 1) * 2 > cg->ctx_cap) {
		struct context *old = cg->ctx;
		size_t old_cap = cg->ctx_cap;

		cg->ctx_cap *= 2;
		cg->ctx = xcalloc(cg->ctx_cap, sizeof(*cg->ctx));
		for (i = 0; i < cg->ctx_cap; i++)
			cg->ctx[i].key = INT32_MIN;
		mask = cg->ctx_cap - 1;
		for (size_t j = 0; j < old_cap; j++) {
			if (old[j].key == INT32_MIN)
				continue;
			for (i = (size_t)(unsigned)old[j].key * 2654435761u & mask;
			     cg->ctx[i].key != INT32_MIN; i = (i + 1) & mask)
				;
			cg->ctx[i] = old[j];
		}
		free(old);
	}
	mask = cg->ctx_cap - 1;
	for (i = (size_t)(unsigned)key * 2654435761u & mask; cg->ctx[i].key != key;
	     i = (i + 1) & mask) {
		if (cg->ctx[i].key == INT32_MIN) {
			cg->ctx[i].key = key;
			cg->nctx++;
			break;
		}
	}
	cg->ctx[i].last_cpu = cpu;
	return &cg->ctx[i];
}

static void mark_lost(struct context *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->stack[i].node)
			c->stack[i].node->flags |= KT_CG_LOST;
}

/* Pops the top frame as one whose exit never came (yet). */
static struct kt_cg_node *pop_broken_quiet(struct kt_callgraph *cg, struct context *c)
{
	struct kt_cg_node *n = c->stack[--c->n].node;

	if (n) {
		n->flags = (n->flags & ~KT_CG_OPEN) | KT_CG_BROKEN;
		cg->st.broken++;
	}
	return n;
}

/* The same, when the records prove something is missing: whatever happened in between is
 * unknown to the frames still open. */
static void pop_broken(struct kt_callgraph *cg, struct context *c)
{
	pop_broken_quiet(cg, c);
	mark_lost(c);
}

void callgraph_lost(struct kt_callgraph *cg, unsigned cpu)
{
	cg->st.lost_marks++;
	for (size_t i = 0; i < cg->ctx_cap; i++)
		if (cg->ctx[i].key != INT32_MIN && cg->ctx[i].last_cpu == cpu)
			mark_lost(&cg->ctx[i]);
}

/* ---- the two records ------------------------------------------------------------------- */

/* The awaited entry did not come: the gap in the depths was a loss after all. */
static void await_failed(struct context *c)
{
	c->await = 0;
	mark_lost(c);
}

/* An entry at depth: true when it is the late entry awaited (see struct context). Starts
 * the wait at an entry just one level too deep; ends it with a loss at anything else that
 * is not the interrupt's. */
static bool await_entry(struct context *c, int depth, bool parent_known)
{
	int top = c->n ? c->stack[c->n - 1].depth : -1;

	if (c->await) {
		if (depth == c->await - 1 && parent_known) {
			c->await = 0;
			return true;
		}
		if (depth >= c->await && top >= c->await - 2)
			return false; /* the interrupt's calls */
		await_failed(c);
	}
	if (!parent_known && depth == top + 2)
		c->await = depth; /* waiting for depth - 1 */
	return false;
}

void callgraph_entry(struct kt_callgraph *cg, unsigned cpu, int pid, uint64_t ts, uint64_t func,
		     int depth)
{
	struct context *c = context_get(cg, cpu, pid);
	struct kt_cg_node *parent = NULL, *n;
	bool parent_known, late;

	cg->st.entries++;
	if (depth < 0 || depth >= CG_MAX_DEPTH) {
		cg->st.dropped++;
		return;
	}
	/* Frames at this depth or deeper have not seen their exits. An interrupt taken while
	 * the kernel returns from a function (after it popped the return stack, before it
	 * took rettime) records its calls at that function's depth, and the function's exit
	 * after them: remember the frame for that exit (reunite). A lost exit shows as a loss
	 * marker besides. */
	while (c->n && c->stack[c->n - 1].depth >= depth) {
		struct kt_cg_node *b = pop_broken_quiet(cg, c);

		if (b && c->stack[c->n].depth == depth) {
			c->pending = b;
			c->pending_func = b->func;
			c->pending_ts = b->calltime;
			c->pending_depth = depth;
		}
	}
	parent_known = depth == 0 || (c->n && c->stack[c->n - 1].depth == depth - 1);
	late = await_entry(c, depth, parent_known);
	if (parent_known && depth > 0) {
		parent = c->stack[c->n - 1].node;
		if (!parent) { /* a dropped caller: its callees go with it */
			cg->st.dropped++;
			n = NULL;
			goto push;
		}
		/* Events were lost since the caller began: the open frame may stand for a
		 * call that ended unseen. Its exit decides (claim_orphans). */
		if (parent->flags & KT_CG_LOST) {
			parent = NULL;
			parent_known = false;
		}
	} else if (!parent_known && c->n && !c->await) {
		mark_lost(c); /* a gap in the depths: entries were lost */
	}
	n = node_alloc(cg);
	if (!n) {
		cg->st.dropped++;
		if (parent)
			parent->flags |= KT_CG_LOST;
		goto push;
	}
	n->func = func;
	n->calltime = ts;
	n->pid = pid;
	n->depth = depth;
	n->cpu = cpu;
	n->flags = KT_CG_OPEN;
	if (parent) {
		child_append(parent, n);
	} else {
		if (!parent_known) {
			n->flags |= KT_CG_NO_PARENT;
			cg->st.no_parent++;
		}
		root_append(cg, n);
	}
push:
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->stack = xrealloc(c->stack, (size_t)c->cap * sizeof(*c->stack));
	}
	c->stack[c->n++] = (struct frame){ .node = n, .func = func, .depth = depth, .late = late };
}

static void close_node(struct kt_callgraph *cg, struct kt_cg_node *n, uint64_t calltime,
		       uint64_t rettime)
{
	n->flags &= ~KT_CG_OPEN;
	n->calltime = calltime;
	n->duration = rettime > calltime ? rettime - calltime : 0;
	if (n->parent) {
		n->parent->child_time += n->duration;
		n->parent->calls += 1 + n->calls;
	} else
		cg->st.trees++;
}

/* n (closed, at depth d) claims, as children, the callerless roots of its task at depth d + 1
 * that lie within it in time: calls whose caller was not known when they began (before an
 * exit without entry, after events were lost, or an interrupt's before a late entry). They
 * go among its other children in the order all of them began. */
static void claim_orphans(struct kt_callgraph *cg, struct kt_cg_node *n, uint64_t rettime)
{
	struct kt_cg_node *r, *prev, *claimed = NULL;
	int scanned = 0;

	for (r = cg->last_root; r && scanned < CG_ADOPT_SCAN && r->calltime >= n->calltime;
	     r = prev, scanned++) {
		prev = r->prev;
		if (r == n || r->pid != n->pid || r->depth != n->depth + 1 ||
		    !(r->flags & KT_CG_NO_PARENT) || (r->flags & KT_CG_OPEN) ||
		    r->calltime + r->duration > rettime)
			continue;
		root_unlink(cg, r);
		cg->st.trees--;
		cg->st.no_parent--;
		r->flags &= ~KT_CG_NO_PARENT;
		/* scanned newest first: put in front, they end up oldest first */
		r->next = claimed;
		claimed = r;
	}
	for (struct kt_cg_node *at = n->child; claimed; claimed = r) {
		r = claimed->next;
		while (at && at->calltime <= claimed->calltime)
			at = at->next;
		child_insert_before(n, claimed, at);
		n->child_time += claimed->duration;
		n->calls += 1 + claimed->calls;
	}
}

/* An exit with no entry: a call that began before what was seen. */
static void exit_without_entry(struct kt_callgraph *cg, unsigned cpu, int pid, uint64_t func,
			       int depth, uint64_t calltime, uint64_t rettime)
{
	struct kt_cg_node *n = node_alloc(cg), *r;

	cg->st.no_entry++;
	if (!n) {
		cg->st.dropped++;
		return;
	}
	n->func = func;
	n->pid = pid;
	n->depth = depth;
	n->cpu = cpu;
	n->calltime = calltime;
	n->flags = KT_CG_NO_ENTRY | (depth > 0 ? KT_CG_NO_PARENT : 0);
	if (depth > 0)
		cg->st.no_parent++;
	claim_orphans(cg, n, rettime);
	/* In time order among the roots: before the first root that began after it. */
	for (r = cg->last_root; r && r->prev && r->prev->calltime > calltime; r = r->prev)
		;
	root_insert_before(cg, n, r && r->calltime > calltime ? r : NULL);
	close_node(cg, n, calltime, rettime);
}

/* The late exit of the frame an interrupt's calls closed (callgraph_entry): the same
 * function and depth, and a calltime that matches its entry record. */
static bool reunite(struct kt_callgraph *cg, struct context *c, uint64_t func, int depth,
		    uint64_t calltime, uint64_t rettime)
{
	struct kt_cg_node *n = c->pending;

	c->pending = NULL;
	if (!n || !cg->clock_checked || c->pending_func != func || c->pending_depth != depth ||
	    n->func != func || n->depth != depth || n->calltime != c->pending_ts ||
	    !(n->flags & KT_CG_BROKEN) || calltime > n->calltime ||
	    n->calltime - calltime > 1000000)
		return false;
	n->flags &= ~KT_CG_BROKEN;
	cg->st.broken--;
	close_node(cg, n, calltime, rettime);
	return true;
}

void callgraph_exit(struct kt_callgraph *cg, unsigned cpu, int pid, uint64_t func, int depth,
		    uint64_t calltime, uint64_t rettime)
{
	struct context *c = context_get(cg, cpu, pid);
	struct kt_cg_node *n;
	struct frame *top;
	bool late;

	cg->st.exits++;
	if (depth < 0 || depth >= CG_MAX_DEPTH) {
		cg->st.dropped++;
		return;
	}
	if (c->await && depth < c->await)
		await_failed(c); /* an exit at or above the awaited depth came first */
	while (c->n && c->stack[c->n - 1].depth > depth)
		pop_broken(cg, c);
	top = c->n ? &c->stack[c->n - 1] : NULL;
	/* The same depth but another function, or the same function but a later call (the
	 * kernel takes calltime before it records the entry, so a call's own exit never says it
	 * began after its entry record): the exit of the one seen was lost. */
	if (top && top->depth == depth &&
	    (top->func != func ||
	     (top->node && cg->clock_checked && calltime > top->node->calltime))) {
		pop_broken(cg, c);
		top = NULL;
	}
	if (!top || top->depth != depth) {
		if (!reunite(cg, c, func, depth, calltime, rettime))
			exit_without_entry(cg, cpu, pid, func, depth, calltime, rettime);
		return;
	}
	c->n--;
	n = top->node;
	if (!n)
		return;
	late = top->late;
	/* The record and calltime clocks agree (the default local trace clock) when a first
	 * clean pair says so; only then is the time check above made. */
	if (!cg->clock_checked && !(n->flags & KT_CG_LOST) && calltime <= n->calltime &&
	    n->calltime - calltime < 1000000)
		cg->clock_checked = true;
	close_node(cg, n, calltime, rettime);
	if ((n->flags & KT_CG_LOST) || late)
		claim_orphans(cg, n, rettime);
}

bool callgraph_feed_raw(struct kt_callgraph *cg, unsigned cpu, uint64_t ts, const void *data,
			int size)
{
	int type, pid;

	if (!cg->tep || size < cg->type.offset + cg->type.size)
		return false;
	type = (int)rd(cg, data, size, cg->type);
	if (type != cg->entry_id && type != cg->exit_id)
		return false;
	pid = (int)rd(cg, data, size, cg->pid);
	if (type == cg->entry_id)
		callgraph_entry(cg, cpu, pid, ts, rd(cg, data, size, cg->func),
				(int)rd(cg, data, size, cg->depth));
	else
		callgraph_exit(cg, cpu, pid, rd(cg, data, size, cg->e_func),
			       (int)rd(cg, data, size, cg->e_depth),
			       rd(cg, data, size, cg->calltime), rd(cg, data, size, cg->rettime));
	return true;
}

bool callgraph_feed(struct kt_callgraph *cg, const struct tep_record *rec)
{
	if (rec->missed_events)
		callgraph_lost(cg, (unsigned)rec->cpu);
	return callgraph_feed_raw(cg, (unsigned)rec->cpu, rec->ts, rec->data, rec->size);
}

void callgraph_finish(struct kt_callgraph *cg)
{
	for (size_t i = 0; i < cg->ctx_cap; i++) {
		struct context *c = &cg->ctx[i];

		if (c->key == INT32_MIN)
			continue;
		while (c->n) {
			struct kt_cg_node *n = c->stack[--c->n].node;

			if (!n)
				continue;
			n->flags = (n->flags & ~KT_CG_OPEN) | KT_CG_BROKEN;
			cg->st.broken++;
			if (!n->parent)
				cg->st.trees++;
		}
	}
}

struct kt_cg_node *callgraph_first_root(const struct kt_callgraph *cg)
{
	return cg->roots;
}

void callgraph_stats(const struct kt_callgraph *cg, struct kt_cg_stats *out)
{
	*out = cg->st;
}

const char *callgraph_func_name(struct kt_callgraph *cg, uint64_t func, char *buf, size_t len)
{
	const char *name = cg->tep ? tep_find_function(cg->tep, func) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "0x%llx", (unsigned long long)func);
	return buf;
}

char *callgraph_kernel_usecs(uint64_t ns, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000));
	int digits = 7 - n < 3 ? 7 - n : 3;
	unsigned rem = (unsigned)(ns % 1000);

	if (n > 0 && n < 7 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ".%0*u", digits,
			 digits == 3 ? rem : digits == 2 ? rem / 10 : rem / 100);
	return buf;
}

char callgraph_mark(uint64_t ns)
{
	static const struct {
		uint64_t over;
		char mark;
	} marks[] = {
		{ 1000000000ull, '$' }, { 100000000ull, '@' }, { 10000000ull, '*' },
		{ 1000000ull, '#' },	{ 100000ull, '!' },    { 10000ull, '+' },
	};

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over)
			return marks[i].mark;
	return ' ';
}

bool callgraph_kernel_has_graph(const char *tracing_dir, char *why, size_t len)
{
	char *tracers = tracers_read_available(tracing_dir);
	bool has = !tracers || str_has_word(tracers, "function_graph");

	free(tracers);
	if (has)
		return true;
	snprintf(why, len,
		 "this kernel has no function_graph tracer (it is not in available_tracers: built "
		 "without CONFIG_FUNCTION_GRAPH_TRACER); record on a kernel that has it, e.g. "
		 "trace-cmd record -p function_graph -g vfs_read, and open the file: ktop -i "
		 "trace.dat");
	return false;
}

/* ---- aggregations ---------------------------------------------------------------------- */

static struct kt_cg_agg *agg_child(struct kt_cg_agg *parent, uint64_t func)
{
	struct kt_cg_agg *a, *last = NULL;

	for (a = parent->child; a; last = a, a = a->next)
		if (a->func == func)
			return a;
	a = xcalloc(1, sizeof(*a));
	a->func = func;
	a->parent = parent;
	a->min = UINT64_MAX;
	if (last)
		last->next = a;
	else
		parent->child = a;
	return a;
}

static void agg_add(struct kt_cg_agg *a, const struct kt_cg_node *n)
{
	a->count++;
	a->total += n->duration;
	a->self += kt_cg_self(n);
	if (n->duration < a->min)
		a->min = n->duration;
	if (n->duration > a->max)
		a->max = n->duration;
}

static void merge_tree(struct kt_cg_agg *parent, const struct kt_cg_node *n)
{
	for (; n; n = n->next) {
		struct kt_cg_agg *a = agg_child(parent, n->func);

		if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)))
			agg_add(a, n);
		merge_tree(a, n->child);
	}
}

struct kt_cg_agg *callgraph_merge_paths(const struct kt_callgraph *cg)
{
	struct kt_cg_agg *root = xcalloc(1, sizeof(*root));

	merge_tree(root, cg->roots);
	return root;
}

void callgraph_agg_free(struct kt_cg_agg *a)
{
	struct kt_cg_agg *c, *next;

	if (!a)
		return;
	for (c = a->child; c; c = next) {
		next = c->next;
		callgraph_agg_free(c);
	}
	free(a);
}

struct rank {
	struct kt_cg_agg *v;
	size_t n, cap; /* open addressing on func; cap a power of two */
};

static void rank_add(struct rank *rk, const struct kt_cg_node *n)
{
	size_t i, mask;

	if ((rk->n + 1) * 2 > rk->cap) {
		struct kt_cg_agg *old = rk->v;
		size_t old_cap = rk->cap;

		rk->cap = rk->cap ? rk->cap * 2 : 256;
		rk->v = xcalloc(rk->cap, sizeof(*rk->v));
		mask = rk->cap - 1;
		for (size_t j = 0; j < old_cap; j++) {
			if (!old[j].count)
				continue;
			for (i = (size_t)(old[j].func >> 4) * 2654435761u & mask; rk->v[i].count;
			     i = (i + 1) & mask)
				;
			rk->v[i] = old[j];
		}
		free(old);
	}
	mask = rk->cap - 1;
	for (i = (size_t)(n->func >> 4) * 2654435761u & mask;
	     rk->v[i].count && rk->v[i].func != n->func; i = (i + 1) & mask)
		;
	if (!rk->v[i].count) {
		rk->v[i].func = n->func;
		rk->v[i].min = UINT64_MAX;
		rk->n++;
	}
	agg_add(&rk->v[i], n);
}

static void rank_tree(struct rank *rk, const struct kt_cg_node *n)
{
	for (; n; n = n->next) {
		if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)))
			rank_add(rk, n);
		rank_tree(rk, n->child);
	}
}

static int by_self_desc(const void *a, const void *b)
{
	const struct kt_cg_agg *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return x->func < y->func ? -1 : x->func > y->func;
}

struct kt_cg_agg *callgraph_rank_self(const struct kt_callgraph *cg, size_t *n)
{
	struct rank rk = { 0 };
	size_t k = 0;

	rank_tree(&rk, cg->roots);
	for (size_t i = 0; i < rk.cap; i++)
		if (rk.v[i].count)
			rk.v[k++] = rk.v[i];
	if (k)
		qsort(rk.v, k, sizeof(*rk.v), by_self_desc);
	*n = k;
	return rk.v;
}
