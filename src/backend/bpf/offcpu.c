// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The off-CPU profile (offcpu.h): its variants tried in order of cost through the loader of
 * ktop's BPF objects (bpfobj.h), and the counts map read on each poll. The kernel only adds
 * to the counts; a poll reads every entry, sorts them by key and subtracts the previous
 * poll's, so nothing is deleted under the program. Stack ids point into one stack map that
 * is never cleared either: an id means the same stack for as long as the profile runs.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfobj.h"
#include "backend/perf/comms.h"
#include "histkind.h"
#include "offcpu.h"
#include "backend/stacks/stacks.h"
#include "backend/symbols/symbolize.h"
#include "backend/perf/taskwatch.h"
#include "backend/stacks/wakers.h"
#include "util/log.h"
#include "src/probes/hist.h"
#include "src/probes/offcpu.h"
#include "util/xalloc.h"

#define FRAME_NAME 256
/* the task, then up to a full user and a full kernel stack; with wakers, the separator, the
 * waker's two stacks and its name */
#define MAX_FRAMES (3 + 4 * KT_OFFCPU_MAX_DEPTH)

/* Cheapest first: each later one works on more kernels. */
static const struct variant {
	const char *via, *object, *prog, *waking;
} variants[] = {
	{ "tp_btf", "offcpustack", "btf_switch", "btf_waking" },
	{ "raw_tp", "offcpustack", "raw_switch", "raw_waking" },
	{ "tracepoint", "offcpustack_tp", "tp_switch", "tp_waking" },
};

struct entry {
	struct kt_offcpu_key key;
	struct kt_offcpu_val val;
};

struct kt_offcpu {
	const char *variant;
	char refused[1024];
	struct bpf_object *obj;
	struct bpf_link *link, *wlink; /* wlink: sched_waking's, with wakers */
	bool wakers;
	int counts_fd, stacks_fd;
	struct entry *cur, *prev; /* this poll's entries and the previous one's, by key */
	size_t ncur, nprev, cap;
	struct kt_offcpu_stats stats;
	struct kt_symbolizer *sym;
	/* wakers: perf's side band, so a waker gone before the poll that names it is named */
	struct kt_comms *comms;
	struct kt_taskwatch *tw;
	/* one stack being named */
	unsigned long long ips[KT_OFFCPU_MAX_DEPTH];
	struct kt_frame frames[MAX_FRAMES];
	char names[MAX_FRAMES][FRAME_NAME];
};

static int set_scope(struct bpf_object *obj, const struct kt_offcpu_scope *s, char *err,
		     size_t errlen)
{
	char comm[KT_OFFCPU_COMM] = "";

	if (s->comm)
		snprintf(comm, sizeof(comm), "%s", s->comm);
	return bpfobj_set_int(obj, "filter_tgid", s->tgid, err, errlen) < 0 ||
			       bpfobj_set_int(obj, "filter_cgroup", s->cgroup_id, err, errlen) < 0 ||
			       bpfobj_set_int(obj, "filter_cgroup_level",
					      (unsigned long long)s->cgroup_level, err, errlen) < 0 ||
			       bpfobj_set_bytes(obj, "filter_comm", comm, sizeof(comm), err,
						errlen) < 0 ?
		       -1 :
		       0;
}

/* The plain tracepoint reads the record at the offsets its format file gives; sched_waking's
 * only with wakers. */
static int set_fields(struct bpf_object *obj, bool wakers, char *err, size_t errlen)
{
	static const char *const fields[][3] = {
		{ "sched_switch", "next_pid", "next_pid_field" },
		{ "sched_switch", "prev_state", "prev_state_field" },
		{ "sched_waking", "pid", "waking_pid_field" },
	};
	struct kt_hist_field f;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]) - !wakers; i++)
		if (histkind_tp_field("sched", fields[i][0], fields[i][1], true, &f, err,
				      errlen) < 0 ||
		    bpfobj_set_bytes(obj, fields[i][2], &f, sizeof(f), err, errlen) < 0)
			return -1;
	return 0;
}

static void unload(struct kt_offcpu *oc)
{
	bpf_link__destroy(oc->wlink);
	oc->wlink = NULL;
	bpf_link__destroy(oc->link);
	oc->link = NULL;
	bpf_object__close(oc->obj);
	oc->obj = NULL;
}

/* Opens, tunes, loads and attaches v. 0, or -1 with why in err. */
static int try_variant(struct kt_offcpu *oc, const struct variant *v,
		       const struct kt_offcpu_scope *scope, char *err, size_t errlen)
{
	const char *const want[] = { v->prog, scope->wakers ? v->waking : NULL, NULL };
	int r;

	oc->obj = bpfobj_open(v->object);
	if (!oc->obj) {
		snprintf(err, errlen, "cannot open the BPF object %s: %s", v->object,
			 strerror(errno));
		return -1;
	}
	if (set_scope(oc->obj, scope, err, errlen) < 0 ||
	    (!strcmp(v->via, "tracepoint") && set_fields(oc->obj, scope->wakers, err, errlen) < 0))
		return -1;
	bpfobj_autoload_only(oc->obj, want);
	bpfobj_log_capture();
	r = bpf_object__load(oc->obj);
	if (!r) {
		oc->link = bpf_program__attach(bpfobj_program(oc->obj, v->prog));
		r = oc->link ? 0 : -errno;
	}
	if (!r && scope->wakers) {
		oc->wlink = bpf_program__attach(bpfobj_program(oc->obj, v->waking));
		r = oc->wlink ? 0 : -errno;
	}
	if (r) {
		bpfobj_failure_reason(-r, err, errlen);
		return -1;
	}
	bpfobj_log_release();
	oc->counts_fd = bpf_object__find_map_fd_by_name(oc->obj, "counts");
	oc->stacks_fd = bpf_object__find_map_fd_by_name(oc->obj, "stacks");
	if (oc->counts_fd < 0 || oc->stacks_fd < 0) {
		snprintf(err, errlen, "the BPF object %s has no counts or stacks map", v->object);
		return -1;
	}
	return 0;
}

/* A waker may be any process, and gone before the poll that names its stacks: as the on-CPU
 * profile does, mappings come from perf's side band from now on, and those of every process
 * already running are read now. 0, or -1 with why in err. */
static int open_sideband(struct kt_offcpu *oc, char *err, size_t errlen)
{
	char why[256];

	oc->comms = comms_new();
	oc->tw = taskwatch_open(oc->comms, "mono", true, why, sizeof(why));
	if (!oc->tw) {
		snprintf(err, errlen, "off-CPU profile: wakers: %s", why);
		return -1;
	}
	symbolizer_preload_all(oc->sym);
	return 0;
}

struct kt_offcpu *offcpu_open(const struct kt_offcpu_scope *scope, char *err, size_t errlen)
{
	struct kt_offcpu *oc = xcalloc(1, sizeof(*oc));
	size_t i, used = 0;
	char why[512];

	oc->wakers = scope->wakers;
	oc->sym = symbolizer_new(why, sizeof(why));
	if (!oc->sym) {
		snprintf(err, errlen, "off-CPU profile: %s", why);
		offcpu_free(oc);
		return NULL;
	}
	if (oc->wakers && open_sideband(oc, err, errlen) < 0) {
		offcpu_free(oc);
		return NULL;
	}
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		if (scope->via && strcmp(scope->via, variants[i].via))
			continue;
		if (try_variant(oc, &variants[i], scope, why, sizeof(why)) == 0) {
			oc->variant = variants[i].via;
			log_debug("%s: attached via %s%s%s", __func__, oc->variant,
				  used ? " after " : "", oc->refused);
			return oc;
		}
		log_debug("%s: %s: %s", __func__, variants[i].via, why);
		used += (size_t)snprintf(oc->refused + used,
					 used < sizeof(oc->refused) ? sizeof(oc->refused) - used : 0,
					 "%s%s: %s", used ? "; " : "", variants[i].via, why);
		unload(oc);
	}
	if (!used)
		snprintf(oc->refused, sizeof(oc->refused), "no variant named %s (tp_btf, raw_tp, "
			 "tracepoint)", scope->via);
	snprintf(err, errlen, "off-CPU profile: %s", oc->refused);
	offcpu_free(oc);
	return NULL;
}

void offcpu_free(struct kt_offcpu *oc)
{
	if (!oc)
		return;
	unload(oc);
	taskwatch_close(oc->tw);
	comms_free(oc->comms);
	symbolizer_free(oc->sym);
	free(oc->cur);
	free(oc->prev);
	free(oc);
}

const char *offcpu_variant(const struct kt_offcpu *oc)
{
	return oc->variant;
}

const struct kt_symbolizer *offcpu_symbolizer(const struct kt_offcpu *oc)
{
	return oc->sym;
}

bool offcpu_wakers(const struct kt_offcpu *oc)
{
	return oc->wakers;
}

const char *offcpu_refused(const struct kt_offcpu *oc)
{
	return oc->refused;
}

void offcpu_stats(const struct kt_offcpu *oc, struct kt_offcpu_stats *out)
{
	*out = oc->stats;
}

static int key_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct entry *)a)->key, &((const struct entry *)b)->key,
		      sizeof(struct kt_offcpu_key));
}

/* Every entry of the counts map into oc->cur, sorted by key. 0 or -errno. */
static int read_counts(struct kt_offcpu *oc)
{
	struct kt_offcpu_key key, next;
	bool first = true;
	struct entry *e;

	oc->ncur = 0;
	while (bpf_map_get_next_key(oc->counts_fd, first ? NULL : &key, &next) == 0) {
		first = false;
		key = next;
		if (oc->ncur == oc->cap) {
			oc->cap = oc->cap ? oc->cap * 2 : 256;
			oc->cur = xreallocarray(oc->cur, oc->cap, sizeof(*oc->cur));
			oc->prev = xreallocarray(oc->prev, oc->cap, sizeof(*oc->prev));
		}
		e = &oc->cur[oc->ncur];
		e->key = next;
		if (bpf_map_lookup_elem(oc->counts_fd, &next, &e->val) == 0)
			oc->ncur++;
	}
	if (errno != ENOENT)
		return -errno;
	if (oc->ncur)
		qsort(oc->cur, oc->ncur, sizeof(*oc->cur), key_cmp);
	return 0;
}

/* A frame that names no function: a stack that was lost or could not be read. */
static void marker(struct kt_offcpu *oc, size_t i, const char *what)
{
	snprintf(oc->names[i], FRAME_NAME, "%s", what);
	oc->frames[i].name = oc->names[i];
	oc->frames[i].kind = KT_FRAME_UNRESOLVED;
}

/*
 * Where the kernel stacks end: sched_switch fires in __schedule (sched_waking in
 * try_to_wake_up, leaf), and whatever ran the program above it (tp_btf and raw_tp: the
 * program itself, bpf_trace_run, __bpf_trace_sched_switch; the plain tracepoint: nothing)
 * is cut, so every variant gives the same stacks. The index of leaf among the few innermost
 * of oc->ips, or 0 when it is not there.
 */
static size_t sched_leaf(struct kt_offcpu *oc, size_t depth, const char *leaf)
{
	char name[FRAME_NAME];
	struct kt_frame f;
	size_t i;

	for (i = 0; i < depth && i < 8; i++) {
		symbolizer_kernel(oc->sym, oc->ips[i], &f, name, sizeof(name));
		if (!strcmp(f.name, leaf))
			return i;
	}
	return 0;
}

/* Appends stack id's frames at *n, outermost first (inward false: innermost first, a
 * waker's), kernel ones from leaf_name's frame on; user ones named in tgid's space. */
static void add_stack(struct kt_offcpu *oc, int id, bool user, unsigned int tgid,
		      const char *leaf_name, bool inward, size_t *n)
{
	size_t depth = 0, leaf;
	int i, step;

	if (id == KT_OFFCPU_NO_STACK)
		return;
	if (id == KT_OFFCPU_LOST_STACK) {
		marker(oc, (*n)++, user ? "[lost user stack]" : "[lost kernel stack]");
		return;
	}
	memset(oc->ips, 0, sizeof(oc->ips));
	if (bpf_map_lookup_elem(oc->stacks_fd, &id, oc->ips) < 0) {
		marker(oc, (*n)++, user ? "[unreadable user stack]" : "[unreadable kernel stack]");
		return;
	}
	while (depth < KT_OFFCPU_MAX_DEPTH && oc->ips[depth])
		depth++;
	leaf = user ? 0 : sched_leaf(oc, depth, leaf_name);
	step = inward ? -1 : 1;
	for (i = inward ? (int)depth - 1 : (int)leaf; i >= (int)leaf && i < (int)depth;
	     i += step, (*n)++) {
		if (user)
			symbolizer_user(oc->sym, (int)tgid, oc->ips[i], &oc->frames[*n], oc->names[*n],
					FRAME_NAME);
		else
			symbolizer_kernel(oc->sym, oc->ips[i], &oc->frames[*n], oc->names[*n],
					  FRAME_NAME);
	}
}

/* A frame naming a task (or the separator before its waker's). */
static void task_frame(struct kt_offcpu *oc, size_t i, const char *comm)
{
	snprintf(oc->names[i], FRAME_NAME, "%.*s", KT_OFFCPU_COMM, comm);
	oc->frames[i].name = oc->names[i];
	oc->frames[i].kind = KT_FRAME_TASK;
}

/* With wakers: the separator, then the waker's stacks innermost first and its name last,
 * so a flame graph draws the waker upside down above the blocked stack (offwaketime). */
static void add_waker(struct kt_offcpu *oc, const struct kt_offcpu_waker *w, size_t *n)
{
	task_frame(oc, (*n)++, KT_WAKERS_SEPARATOR);
	if (!w->comm[0]) {
		marker(oc, (*n)++, "[no waker]");
		return;
	}
	add_stack(oc, w->kstack, false, w->tgid, "try_to_wake_up", false, n);
	add_stack(oc, w->ustack, true, w->tgid, NULL, false, n);
	task_frame(oc, (*n)++, w->comm);
}

/* One key's stack into the tree, weighing ns. */
static int add_key(struct kt_offcpu *oc, struct kt_stacks *st, const struct kt_offcpu_key *k,
		   uint64_t ns)
{
	size_t n = 1;

	task_frame(oc, 0, k->comm);
	add_stack(oc, k->ustack, true, k->tgid, NULL, true, &n);
	add_stack(oc, k->kstack, false, k->tgid, "__schedule", true, &n);
	if (oc->wakers)
		add_waker(oc, &k->waker, &n);
	return stacks_add(st, oc->frames, n, ns);
}

static void read_counters(struct kt_offcpu *oc)
{
	const struct {
		const char *var;
		uint64_t *to;
	} bss[] = {
		{ "lost_kstacks", &oc->stats.lost_kstacks },
		{ "lost_ustacks", &oc->stats.lost_ustacks },
		{ "dropped", &oc->stats.dropped },
		{ "dropped_ns", &oc->stats.dropped_ns },
		{ "starts_dropped", &oc->stats.starts_dropped },
		{ "unended", &oc->stats.unended },
	};
	unsigned long long v;
	size_t i;

	for (i = 0; i < sizeof(bss) / sizeof(bss[0]); i++)
		if (bpfobj_read_bss(oc->obj, bss[i].var, &v) == 0)
			*bss[i].to = v;
	oc->stats.missed = bpfobj_recursion_misses(oc->obj);
}

int offcpu_poll(struct kt_offcpu *oc, struct kt_stacks *st, char *err, size_t errlen)
{
	const struct entry *p;
	struct entry *tmp;
	uint64_t ns, count;
	size_t i, j = 0;
	int r;

	symbolizer_next_pass(oc->sym);
	if (oc->tw) {
		taskwatch_drain(oc->tw);
		taskwatch_feed(oc->tw, oc->sym);
	}
	r = read_counts(oc);
	if (r < 0) {
		snprintf(err, errlen, "off-CPU profile: reading its counts: %s", strerror(-r));
		return -1;
	}
	read_counters(oc);
	for (i = 0; i < oc->ncur && !r; i++) {
		while (j < oc->nprev && key_cmp(&oc->prev[j], &oc->cur[i]) < 0)
			j++;
		p = j < oc->nprev && !key_cmp(&oc->prev[j], &oc->cur[i]) ? &oc->prev[j] : NULL;
		ns = oc->cur[i].val.ns - (p ? p->val.ns : 0);
		count = oc->cur[i].val.count - (p ? p->val.count : 0);
		/* the program adds ns before count: a read between the two sees ns alone */
		if (!count && !ns)
			continue;
		oc->stats.ns += ns;
		oc->stats.stretches += count;
		r = add_key(oc, st, &oc->cur[i].key, ns);
	}
	/* the next poll starts from this one even when the tree could not take it all */
	tmp = oc->prev;
	oc->prev = oc->cur;
	oc->cur = tmp;
	oc->nprev = oc->ncur;
	if (r < 0)
		snprintf(err, errlen, "off-CPU profile: out of memory for its stacks");
	return r < 0 ? -1 : 0;
}
