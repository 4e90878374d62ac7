// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The call-tree builder on real function_graph captures recorded in the kernel lab
 * (tests/fixtures/lab/README.md): each NAME.dat is fed to the builder and the trees are
 * compared with NAME.trace, the kernel's own text of the same events: every call with its
 * depth, its caller and its duration to the nanosecond digit the kernel prints. And the
 * tree pane's fold state, which the builder's nodes do not carry.
 */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "backend/callgraph/callgraph.h"
#include "fixture_dat.h"
#include "ui/panes/foldset.h"
#include "util/xalloc.h"
#include "check_main.h"

#ifndef LAB_FIXTURES
#define LAB_FIXTURES "tests/fixtures/lab"
#endif

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = s;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static void kernel_usecs(uint64_t ns, char *buf, size_t len)
{
	callgraph_kernel_usecs(ns, buf, len);
}

struct open_call {
	char name[128];
	size_t line; /* index in the output, to fill its duration at "}" */
	int depth;
};

/* Pops a "name() {" the text never closed with "}", remembered by depth. */
static void close_unseen(struct open_call *stack, int *sp, struct open_call *unclosed)
{
	struct open_call *o = &stack[--*sp];

	if (o->depth >= 0 && o->depth < 256)
		unclosed[o->depth] = *o;
}

/* The caller of the calls at depth in out's lines from, whose caller the text did not show:
 * name. Returns how many it names. */
static int name_callers(struct lines *out, size_t from, int depth, const char *name)
{
	int named = 0;

	for (size_t i = from; i < out->n; i++) {
		char *l = out->v[i], *caller = strrchr(l, ' ');

		if (strtol(l, NULL, 10) != depth || strcmp(caller, " ?"))
			continue;
		*caller = '\0';
		out->v[i] = xasprintf("%s %s", l, name);
		free(l);
		named++;
	}
	return named;
}

/* One line per call of the kernel's text: "depth name duration caller", duration "-" for a
 * call whose end the text never shows, caller "?" when the text does not show it. An
 * interrupt taken while the kernel entered a call prints its calls one level deeper than
 * that call and before it: they are the call's (the builder nests them once its times show
 * they lie within it). Returns how many such interrupts the text has. */
static int text_calls(const char *path, struct lines *out)
{
	struct open_call stack[256], unclosed[256];
	int sp = 0, early_depth = -1, late_entries = 0;
	size_t early_from = 0;
	char buf[1024];
	FILE *f = fopen(path, "r");

	memset(unclosed, 0, sizeof(unclosed));
	ck_assert_msg(f != NULL, "%s missing (make lab-fixtures)", path);
	while (fgets(buf, sizeof(buf), f)) {
		char *bar, *p, name[128] = "", dur[32] = "-", *d;
		int spaces = 0, depth;
		size_t nlen;

		if (buf[0] == '#' || (!strstr(buf, "()") && !strstr(buf, "}")))
			continue;
		bar = strrchr(buf, '|');
		if (!bar)
			continue;
		/* The duration column sits between the last two bars. */
		*bar = '\0';
		d = strrchr(buf, '|');
		if (d) {
			while (*++d && !isdigit((unsigned char)*d))
				;
			if (isdigit((unsigned char)*d))
				sscanf(d, "%31[0-9.]", dur);
		}
		for (p = bar + 1; *p == ' '; p++)
			spaces++;
		depth = (spaces - 2) / 2;
		p[strcspn(p, "\n")] = '\0';
		if (*p == '}' && depth < early_depth)
			early_depth = -1; /* an exit at the depth awaited came first */
		if (!strncmp(p, "} /* ", 5)) { /* the printer lost track of the entry */
			sscanf(p + 5, "%127[^ *]", name);
			while (sp && stack[sp - 1].depth >= depth)
				close_unseen(stack, &sp, unclosed);
			/* An interrupt's calls printed at the function's own depth after its
			 * entry (taken as the function returned): the same call. */
			if (depth >= 0 && depth < 256 && unclosed[depth].name[0] &&
			    !strcmp(unclosed[depth].name, name)) {
				char *l = out->v[unclosed[depth].line];

				out->v[unclosed[depth].line] =
					xasprintf("%d %s %s %s", depth, name, dur, strrchr(l, ' ') + 1);
				free(l);
				unclosed[depth].name[0] = '\0';
				continue;
			}
			lines_add(out, xasprintf("%d %s %s ?", depth, name, dur));
			continue;
		}
		if (*p == '}') {
			while (sp && stack[sp - 1].depth > depth)
				close_unseen(stack, &sp, unclosed);
			if (sp && stack[sp - 1].depth == depth) {
				char *l = out->v[stack[sp - 1].line];

				out->v[stack[sp - 1].line] =
					xasprintf("%d %s %s %s", depth, stack[sp - 1].name, dur,
						  strrchr(l, ' ') + 1);
				free(l);
				sp--;
			}
			continue;
		}
		nlen = strcspn(p, "(");
		if (nlen == 0 || nlen >= sizeof(name) || strncmp(p + nlen, "()", 2))
			continue;
		memcpy(name, p, nlen);
		name[nlen] = '\0';
		while (sp && stack[sp - 1].depth >= depth)
			close_unseen(stack, &sp, unclosed);
		/* calls one level too deep for the open caller: an interrupt's before a late
		 * entry at the depth between, or entries lost */
		if (early_depth >= 0 && depth == early_depth - 1)
			late_entries += name_callers(out, early_from, early_depth, name) > 0;
		if (early_depth >= 0 && depth < early_depth)
			early_depth = -1;
		if (early_depth < 0 && depth == (sp ? stack[sp - 1].depth : -1) + 2) {
			early_depth = depth;
			early_from = out->n;
		}
		lines_add(out, xasprintf("%d %s %s %s", depth, name, strstr(p, "{") ? "-" : dur,
					 sp && stack[sp - 1].depth == depth - 1 ? stack[sp - 1].name
										: "?"));
		if (strstr(p, "{") && sp < 256) {
			snprintf(stack[sp].name, sizeof(stack[sp].name), "%s", name);
			stack[sp].line = out->n - 1;
			stack[sp].depth = depth;
			sp++;
		}
	}
	fclose(f);
	return late_entries;
}

/* The same lines from the builder's trees. A caller the builder knows only from an exit
 * without entry is one the text cannot show: "?". */
static void tree_calls(struct kt_callgraph *cg, const struct kt_cg_node *n, struct lines *out)
{
	char b1[32], b2[32], dur[32] = "-";

	for (; n; n = n->next) {
		if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)))
			kernel_usecs(n->duration, dur, sizeof(dur));
		else
			strcpy(dur, "-");
		lines_add(out, xasprintf("%d %s %s %s", n->depth,
					 callgraph_func_name(cg, n->func, b1, sizeof(b1)), dur,
					 n->parent && !(n->parent->flags & KT_CG_NO_ENTRY)
						 ? callgraph_func_name(cg, n->parent->func, b2,
								       sizeof(b2))
						 : "?"));
		tree_calls(cg, n->child, out);
	}
}

/* Never glued to the wrong parent: one level deeper, same task, within it in time. */
static void check_nesting(const struct kt_cg_node *n, int *claimed)
{
	for (; n; n = n->next) {
		const struct kt_cg_node *p = n->parent;

		if (p) {
			ck_assert_int_eq(n->depth, p->depth + 1);
			ck_assert_int_eq(n->pid, p->pid);
			if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)) &&
			    !(p->flags & (KT_CG_OPEN | KT_CG_BROKEN))) {
				ck_assert_msg(n->calltime >= p->calltime,
					      "call at depth %d (flags %#x) began at %llu, before "
					      "its caller (flags %#x) at %llu",
					      n->depth, n->flags, (unsigned long long)n->calltime,
					      p->flags, (unsigned long long)p->calltime);
				ck_assert_uint_le(n->calltime + n->duration,
						  p->calltime + p->duration);
			}
			if (p->flags & KT_CG_NO_ENTRY)
				(*claimed)++;
		} else {
			ck_assert(n->depth == 0 || (n->flags & KT_CG_NO_PARENT));
		}
		check_nesting(n->child, claimed);
	}
}

struct loaded {
	struct fixture_dat dat;
	struct kt_callgraph *cg;
	int claimed; /* children an exit without entry claimed */
};

static void load(struct loaded *l, const char *name, size_t max_nodes)
{
	char path[512];

	snprintf(path, sizeof(path), LAB_FIXTURES "/%s.dat", name);
	ck_assert_int_eq(fixture_dat_open(&l->dat, path), 0);
	l->cg = callgraph_new(max_nodes);
	ck_assert_int_eq(callgraph_set_tep(l->cg, l->dat.tep), 0);
	for (size_t i = 0; i < l->dat.n; i++)
		callgraph_feed(l->cg, l->dat.recs[i]);
	l->claimed = 0;
	check_nesting(callgraph_first_root(l->cg), &l->claimed);
}

static void unload(struct loaded *l)
{
	callgraph_free(l->cg);
	fixture_dat_close(&l->dat);
}

/* The builder's calls equal the kernel text's, as sorted lists. Returns the text's count of
 * interrupts taken while a call was entered (text_calls). */
static int compare_with_kernel_text(struct loaded *l, const char *name)
{
	struct lines text = { 0 }, tree = { 0 };
	char path[512];
	int late_entries;

	snprintf(path, sizeof(path), LAB_FIXTURES "/%s.trace", name);
	late_entries = text_calls(path, &text);
	tree_calls(l->cg, callgraph_first_root(l->cg), &tree);
	ck_assert_uint_gt(text.n, 0);
	qsort(text.v, text.n, sizeof(*text.v), cmp_str);
	qsort(tree.v, tree.n, sizeof(*tree.v), cmp_str);
	for (size_t i = 0; i < text.n && i < tree.n; i++)
		ck_assert_msg(!strcmp(text.v[i], tree.v[i]), "%s: call %zu: kernel '%s', ktop '%s'",
			      name, i, text.v[i], tree.v[i]);
	ck_assert_uint_eq(tree.n, text.n);
	lines_free(&text);
	lines_free(&tree);
	return late_entries;
}

START_TEST(test_normal)
{
	struct loaded l;
	struct kt_cg_stats st;
	const struct kt_cg_node *r;
	char b[32];

	load(&l, "normal", 1 << 16);
	compare_with_kernel_text(&l, "normal");
	callgraph_stats(l.cg, &st);
	ck_assert_uint_eq(st.entries + st.exits, l.dat.n);
	ck_assert_uint_eq(st.no_entry + st.no_parent + st.broken + st.evicted_trees, 0);
	/* Every root is a whole vfs_read, self time plus the children's is its total. */
	for (r = callgraph_first_root(l.cg); r; r = r->next) {
		ck_assert_str_eq(callgraph_func_name(l.cg, r->func, b, sizeof(b)), "vfs_read");
		ck_assert_uint_eq(kt_cg_self(r) + r->child_time, r->duration);
	}
	unload(&l);
}
END_TEST

START_TEST(test_depth_limit)
{
	struct loaded l;
	const struct kt_cg_node *r;

	load(&l, "depth", 1 << 16);
	compare_with_kernel_text(&l, "depth");
	for (r = callgraph_first_root(l.cg); r; r = r->next)
		for (const struct kt_cg_node *c = r->child; c; c = c->next)
			ck_assert_ptr_null(c->child); /* --max-graph-depth 2 */
	unload(&l);
}
END_TEST

/* Timer interrupts taken inside a task's call nest in it, as the kernel nests them. */
START_TEST(test_irq)
{
	struct loaded l;
	struct lines tree = { 0 };
	bool irq = false;

	load(&l, "irq", 1 << 16);
	compare_with_kernel_text(&l, "irq");
	tree_calls(l.cg, callgraph_first_root(l.cg), &tree);
	for (size_t i = 0; i < tree.n; i++)
		if (strstr(tree.v[i], "sysvec_apic_timer_interrupt") &&
		    strtol(tree.v[i], NULL, 10) > 0)
			irq = true;
	ck_assert_msg(irq, "no timer interrupt nested in a call of the irq fixture");
	lines_free(&tree);
	unload(&l);
}
END_TEST

/* The calls in n's trees (n and its siblings) whose flags have any of mask. */
static int count_flagged(const struct kt_cg_node *n, unsigned mask)
{
	int count = 0;

	for (; n; n = n->next)
		count += ((n->flags & mask) != 0) + count_flagged(n->child, mask);
	return count;
}

/* A timer interrupt taken while the kernel entered a call (it counts the depth, then records
 * the entry): the interrupt's calls come first, one level deeper than the call. They are
 * nested in the call, never taken for lost entries. */
START_TEST(test_irq_entry)
{
	struct loaded l;
	struct kt_cg_stats st;

	load(&l, "irqentry", 1 << 16);
	ck_assert_int_gt(compare_with_kernel_text(&l, "irqentry"), 0);
	callgraph_stats(l.cg, &st);
	ck_assert_uint_eq(st.no_parent + st.no_entry, 0);
	ck_assert_int_eq(count_flagged(callgraph_first_root(l.cg), KT_CG_LOST | KT_CG_NO_PARENT),
			 0);
	unload(&l);
}
END_TEST

/* What is left of a buffer far too small starts in the middle of calls: exits without
 * entries, which claim the calls made inside them. */
START_TEST(test_midcall)
{
	struct loaded l;
	struct kt_cg_stats st;

	load(&l, "midcall", 1 << 16);
	compare_with_kernel_text(&l, "midcall");
	callgraph_stats(l.cg, &st);
	ck_assert_uint_gt(st.no_entry, 0);
	ck_assert_int_gt(l.claimed, 0);
	unload(&l);
}
END_TEST

/* The duration the kernel's text gives the exit line of name that carries the name in a
 * comment (the kernel prints one where the entry was printed on another CPU), in buf; false
 * when none. */
static bool text_exit_duration(const char *path, const char *name, char *buf, size_t len)
{
	char line[1024], want[160];
	bool found = false;
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "%s missing (make lab-fixtures)", path);
	snprintf(want, sizeof(want), "} /* %s */", name);
	while (!found && fgets(line, sizeof(line), f)) {
		char *bar = strrchr(line, '|'), *d;

		if (!bar || !strstr(bar, want))
			continue;
		*bar = '\0';
		d = strrchr(line, '|');
		while (d && *++d && !isdigit((unsigned char)*d))
			;
		found = d && sscanf(d, "%31[0-9.]", buf) == 1 && len > 31;
	}
	fclose(f);
	return found;
}

/* A call that went to sleep on CPU 0 and returned on CPU 1 (dd blocked in pipe_read while
 * its affinity moved): the entry on one CPU and the exit on the other are one call, entered
 * on CPU 0, with the exit record's rettime - calltime, as the kernel's text prints it. */
START_TEST(test_migrate)
{
	struct loaded l;
	struct kt_cg_stats st;
	struct tep_event *ev;
	struct tep_format_field *f_func, *f_call, *f_ret;
	unsigned long long func, calltime, rettime, dur = 0;
	const struct kt_cg_node *r, *found = NULL;
	char b[32], text_dur[32], ours[32];
	int migrated = 0;

	load(&l, "migrate", 1 << 16);
	compare_with_kernel_text(&l, "migrate");
	callgraph_stats(l.cg, &st);
	ck_assert_uint_eq(st.no_entry + st.no_parent + st.broken + st.lost_marks, 0);

	/* vfs_read's exit on CPU 1, from the records themselves */
	ev = tep_find_event_by_name(l.dat.tep, "ftrace", "funcgraph_exit");
	ck_assert_ptr_nonnull(ev);
	f_func = tep_find_field(ev, "func");
	f_call = tep_find_field(ev, "calltime");
	f_ret = tep_find_field(ev, "rettime");
	ck_assert(f_func && f_call && f_ret);
	for (size_t i = 0; i < l.dat.n; i++) {
		struct tep_record *rec = l.dat.recs[i];

		if (tep_data_type(l.dat.tep, rec) != ev->id || rec->cpu != 1 ||
		    tep_read_number_field(f_func, rec->data, &func) < 0 ||
		    strcmp(callgraph_func_name(l.cg, func, b, sizeof(b)), "vfs_read"))
			continue;
		tep_read_number_field(f_call, rec->data, &calltime);
		tep_read_number_field(f_ret, rec->data, &rettime);
		dur = rettime - calltime;
		migrated++;
	}
	ck_assert_int_eq(migrated, 1);
	for (r = callgraph_first_root(l.cg); r; r = r->next)
		if (r->duration == dur)
			found = r;
	ck_assert_msg(found != NULL, "no call of %llu ns: the entry and exit were not joined", dur);
	ck_assert_str_eq(callgraph_func_name(l.cg, found->func, b, sizeof(b)), "vfs_read");
	ck_assert_uint_eq(found->cpu, 0);
	ck_assert_uint_eq(found->flags, 0);
	ck_assert_ptr_nonnull(found->child);
	/* the kernel printed its exit on CPU 1, with this duration and vfs_read's name */
	ck_assert(text_exit_duration(LAB_FIXTURES "/migrate.trace", "vfs_read", text_dur,
				     sizeof(text_dur)));
	ck_assert_str_eq(callgraph_kernel_usecs(found->duration, ours, sizeof(ours)), text_dur);
	unload(&l);
}
END_TEST

/* Every duration trace-cmd report prints (one per exit record), as the kernel prints it. */
static void report_durations(const char *path, struct lines *out)
{
	char buf[1024], num[32];
	FILE *f = fopen(path, "r");

	ck_assert_msg(f != NULL, "%s missing (make lab-fixtures)", path);
	while (fgets(buf, sizeof(buf), f)) {
		char *us = strstr(buf, " us "), *p;

		if (!strstr(buf, "funcgraph_") || !us)
			continue;
		for (p = us; p > buf && (isdigit((unsigned char)p[-1]) || p[-1] == '.'); p--)
			;
		snprintf(num, sizeof(num), "%.*s", (int)(us - p), p);
		lines_add(out, xstrdup(num));
	}
	fclose(f);
}

static void tree_durations(const struct kt_cg_node *n, struct lines *out)
{
	char b[32];

	for (; n; n = n->next) {
		if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN))) {
			kernel_usecs(n->duration, b, sizeof(b));
			lines_add(out, xstrdup(b));
		}
		tree_durations(n->child, out);
	}
}

/* Pages lost between the ones trace-cmd read: the calls open across a loss are marked, and
 * nothing is nested where it does not belong (load checks every parent against the time
 * and depth the kernel recorded); every exit still gives its call the kernel's duration. */
START_TEST(test_lost)
{
	struct loaded l;
	struct kt_cg_stats st;
	struct lines report = { 0 }, tree = { 0 };

	load(&l, "lost", 1 << 16);
	callgraph_stats(l.cg, &st);
	ck_assert_uint_gt(st.lost_marks, 0);
	ck_assert_uint_gt(st.no_entry + st.no_parent + st.broken, 0);
	report_durations(LAB_FIXTURES "/lost.report", &report);
	tree_durations(callgraph_first_root(l.cg), &tree);
	ck_assert_uint_eq(tree.n, st.exits);
	qsort(report.v, report.n, sizeof(*report.v), cmp_str);
	qsort(tree.v, tree.n, sizeof(*tree.v), cmp_str);
	for (size_t i = 0; i < report.n && i < tree.n; i++)
		ck_assert_msg(!strcmp(report.v[i], tree.v[i]), "lost: duration %zu: %s vs %s", i,
			      report.v[i], tree.v[i]);
	ck_assert_uint_eq(tree.n, report.n);
	lines_free(&report);
	lines_free(&tree);
	unload(&l);
}
END_TEST

/* A pool of 64 nodes: the oldest finished trees go, the counts say so, the rest is whole. */
START_TEST(test_bounded)
{
	struct loaded l;
	struct kt_cg_stats st;

	load(&l, "normal", 64);
	callgraph_stats(l.cg, &st);
	ck_assert_uint_le(st.nodes, 64);
	ck_assert_uint_gt(st.evicted_trees, 0);
	ck_assert_uint_gt(st.evicted_nodes, 0);
	ck_assert_uint_gt(st.trees, 0);
	unload(&l);
}
END_TEST

/* Graph view: paths merged; report view: functions by self time. */
START_TEST(test_aggregations)
{
	struct loaded l;
	struct kt_cg_agg *root, *rank;
	size_t n, roots = 0;
	uint64_t total = 0, self = 0;
	const struct kt_cg_node *r;
	char b[32];

	load(&l, "normal", 1 << 16);
	for (r = callgraph_first_root(l.cg); r; r = r->next) {
		roots++;
		total += r->duration;
	}
	root = callgraph_merge_paths(l.cg);
	ck_assert_ptr_nonnull(root->child);
	ck_assert_ptr_null(root->child->next); /* one path: vfs_read */
	ck_assert_uint_eq(root->child->count, roots);
	ck_assert_uint_eq(root->child->total, total);
	ck_assert_uint_le(root->child->min, root->child->max);
	ck_assert_uint_le(root->child->min * roots, total);
	callgraph_agg_free(root);

	rank = callgraph_rank_self(l.cg, &n);
	ck_assert_uint_gt(n, 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			ck_assert_uint_ge(rank[i - 1].self, rank[i].self);
		self += rank[i].self;
	}
	/* Self times add up to the roots' totals. */
	ck_assert_uint_eq(self, total);
	ck_assert_str_ne(callgraph_func_name(l.cg, rank[0].func, b, sizeof(b)), "");
	free(rank);
	unload(&l);
}
END_TEST

/* ---- the tree pane's fold state (src/ui/panes/foldset.c): against a plain array through
 * thousands of unfolds and folds (the set grows and deletes by backward shift), a reused
 * address told apart by its tag, pruning, clearing. */

#define NFOLD 5000

START_TEST(test_against_array)
{
	static char items[NFOLD];
	static bool open[NFOLD];
	struct kt_foldset s = { 0 };
	unsigned seed = 7;
	size_t n = 0;
	int i, k;

	for (k = 0; k < 40000; k++) {
		bool on;

		seed = seed * 1103515245u + 12345u;
		i = (int)((seed >> 8) % NFOLD);
		on = (seed >> 4) & 1;
		foldset_set(&s, &items[i], 0, on);
		if (on != open[i])
			n += on ? 1 : (size_t)-1;
		open[i] = on;
		ck_assert_uint_eq(s.n, n);
	}
	for (i = 0; i < NFOLD; i++)
		ck_assert_msg(foldset_open(&s, &items[i], 0) == open[i], "item %d", i);
	foldset_free(&s);
}
END_TEST

static bool keep_even(const void *item, uint64_t tag)
{
	return tag % 2 == 0;
}

START_TEST(test_tags_prune_clear)
{
	static char items[NFOLD];
	struct kt_foldset s = { 0 };
	int i;

	ck_assert(!foldset_open(&s, &items[0], 1));
	foldset_set(&s, &items[0], 1, true);
	/* the same address, another call */
	ck_assert(!foldset_open(&s, &items[0], 2));
	ck_assert(foldset_open(&s, &items[0], 1));
	foldset_set(&s, &items[0], 1, true);
	ck_assert_uint_eq(s.n, 1);
	foldset_set(&s, &items[0], 1, false);
	ck_assert_uint_eq(s.n, 0);

	for (i = 0; i < NFOLD; i++)
		foldset_set(&s, &items[i], (uint64_t)i, true);
	foldset_prune(&s, keep_even);
	ck_assert_uint_eq(s.n, NFOLD / 2);
	for (i = 0; i < NFOLD; i++)
		ck_assert_msg(foldset_open(&s, &items[i], (uint64_t)i) == (i % 2 == 0), "%d", i);
	foldset_clear(&s);
	ck_assert_uint_eq(s.n, 0);
	for (i = 0; i < NFOLD; i++)
		ck_assert(!foldset_open(&s, &items[i], (uint64_t)i));
	foldset_free(&s);
}
END_TEST

static Suite *callgraph_suite(void)
{
	Suite *s = suite_create("callgraph");
	TCase *tc = tcase_create("lab fixtures");

	tcase_set_timeout(tc, 120); /* the irq fixture, under ASan, on a shared machine */

	tcase_add_test(tc, test_normal);
	tcase_add_test(tc, test_depth_limit);
	tcase_add_test(tc, test_irq);
	tcase_add_test(tc, test_irq_entry);
	tcase_add_test(tc, test_midcall);
	tcase_add_test(tc, test_migrate);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_aggregations);
	suite_add_tcase(s, tc);
	tc = tcase_create("fold state");
	tcase_add_test(tc, test_against_array);
	tcase_add_test(tc, test_tags_prune_clear);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(callgraph_suite());
}
