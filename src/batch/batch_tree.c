// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode --tree (batch_tree.h). The text layout is the kernel's function_graph layout
 * with funcgraph-proc: CPU, task-pid, duration with its mark, the call indented by depth;
 * a call with callees opens with "name() {" and closes with its duration on "}". Calls the
 * kernel's text could not close say why in a comment.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/callgraph/callgraph.h"
#include "backend/ingest/decode.h"
#include "backend/ingest/store.h"
#include "batch_tree.h"
#include "util/json.h"
#include "util/xalloc.h"

#define BATCH_TREE_NODES (1u << 22) /* ~400 MB at most */

struct kt_batch_tree {
	struct kt_callgraph *cg;
	batch_tree_comm_fn comm;
	void *comm_ctx;
};

static const char *app_comm(void *ctx, int pid, unsigned long long ts)
{
	return decoder_comm(((struct kt_app *)ctx)->decoder, pid, ts);
}

struct kt_batch_tree *batch_tree_new(struct kt_app *app, char *err, size_t errlen)
{
	char why[400];

	if (app_can(app, KT_CAP_TRACER) && app->tracing_dir &&
	    !callgraph_kernel_has_graph(app->tracing_dir, why, sizeof(why))) {
		snprintf(err, errlen, "--tree: %s", why);
		return NULL;
	}
	if (!app->decoder || decoder_load(app->decoder, "ftrace", "funcgraph_entry") < 0 ||
	    decoder_load(app->decoder, "ftrace", "funcgraph_exit") < 0) {
		snprintf(err, errlen, "--tree: no funcgraph_entry/funcgraph_exit event formats "
				      "(a capture with -t function_graph has them)");
		return NULL;
	}
	return batch_tree_new_tep(decoder_tep_with_symbols(app->decoder), app_comm, app, err,
				  errlen);
}

struct kt_batch_tree *batch_tree_new_tep(struct tep_handle *tep, batch_tree_comm_fn comm,
					 void *ctx, char *err, size_t errlen)
{
	struct kt_batch_tree *bt = xcalloc(1, sizeof(*bt));

	bt->comm = comm;
	bt->comm_ctx = ctx;
	bt->cg = callgraph_new(BATCH_TREE_NODES);
	if (callgraph_set_tep(bt->cg, tep) < 0) {
		snprintf(err, errlen, "--tree: no funcgraph_entry/funcgraph_exit formats with "
				      "their fields (a capture with -t function_graph has them)");
		batch_tree_free(bt);
		return NULL;
	}
	return bt;
}

void batch_tree_feed(struct kt_batch_tree *bt, const struct kt_rec *r)
{
	if (r->flags & KT_REC_LOST)
		callgraph_lost(bt->cg, r->cpu);
	else
		callgraph_feed_raw(bt->cg, r->cpu, r->ts, r->data, (int)r->size);
}

/* "! 286.888 us" in the kernel's 13 columns, or blanks. */
static const char *dur_cell(const struct kt_cg_node *n, bool show, char *buf, size_t len)
{
	char us[32];

	if (!show || (n->flags & (KT_CG_OPEN | KT_CG_BROKEN)))
		snprintf(buf, len, "%13s", "");
	else
		snprintf(buf, len, "%c %-11s", callgraph_mark(n->duration),
			 strcat(callgraph_kernel_usecs(n->duration, us, sizeof(us) - 4), " us"));
	return buf;
}

static void print_line(struct kt_batch_tree *bt, FILE *out, const struct kt_cg_node *n,
		       const char *dur, const char *text)
{
	const char *comm = bt->comm(bt->comm_ctx, n->pid, n->calltime);
	char task[64];

	snprintf(task, sizeof(task), "%s-%d", comm ? comm : "<...>", n->pid);
	fprintf(out, "%3u) %16s | %s | %*s%s\n", n->cpu, task, dur, 2 * n->depth + 1, "", text);
}

static void print_text(struct kt_batch_tree *bt, FILE *out, const struct kt_cg_node *n)
{
	char name[160], b[40], text[256], dur[48];
	const char *note = n->flags & KT_CG_NO_ENTRY ? " /* began before the capture */"
			   : n->flags & KT_CG_LOST   ? " /* events lost inside */"
						     : "";

	snprintf(name, sizeof(name), "%s", callgraph_func_name(bt->cg, n->func, b, sizeof(b)));
	if (!n->child && !(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)) && !*note) {
		snprintf(text, sizeof(text), "%s();", name);
		print_line(bt, out, n, dur_cell(n, true, dur, sizeof(dur)), text);
		return;
	}
	snprintf(text, sizeof(text), "%s() {%s", name, note);
	print_line(bt, out, n, dur_cell(n, false, dur, sizeof(dur)), text);
	for (const struct kt_cg_node *c = n->child; c; c = c->next)
		print_text(bt, out, c);
	if (n->flags & (KT_CG_OPEN | KT_CG_BROKEN))
		snprintf(text, sizeof(text), "} /* %s: exit not seen */", name);
	else
		snprintf(text, sizeof(text), "}");
	print_line(bt, out, n, dur_cell(n, true, dur, sizeof(dur)), text);
}

static void print_json(struct kt_batch_tree *bt, FILE *out, const struct kt_cg_node *n)
{
	char b[40];

	fputs("{\"func\":", out);
	json_string(out, callgraph_func_name(bt->cg, n->func, b, sizeof(b)));
	fprintf(out, ",\"pid\":%d,\"cpu\":%u,\"depth\":%d,\"calltime\":%llu", n->pid, n->cpu,
		n->depth, (unsigned long long)n->calltime);
	if (!(n->flags & (KT_CG_OPEN | KT_CG_BROKEN)))
		fprintf(out, ",\"duration_ns\":%llu,\"self_ns\":%llu",
			(unsigned long long)n->duration, (unsigned long long)kt_cg_self(n));
	if (n->flags & KT_CG_NO_ENTRY)
		fputs(",\"no_entry\":true", out);
	if (n->flags & KT_CG_NO_PARENT)
		fputs(",\"caller_unseen\":true", out);
	if (n->flags & (KT_CG_OPEN | KT_CG_BROKEN))
		fputs(",\"exit_unseen\":true", out);
	if (n->flags & KT_CG_LOST)
		fputs(",\"events_lost_inside\":true", out);
	if (n->child) {
		fputs(",\"calls\":[", out);
		for (const struct kt_cg_node *c = n->child; c; c = c->next) {
			print_json(bt, out, c);
			if (c->next)
				fputc(',', out);
		}
		fputc(']', out);
	}
	fputc('}', out);
}

unsigned long long batch_tree_print(struct kt_batch_tree *bt, FILE *out, bool json,
				    const char *host)
{
	unsigned long long trees = 0;

	callgraph_finish(bt->cg);
	if (!json && host)
		fprintf(out, "# host %s\n", host);
	if (!json)
		fprintf(out, "# CPU  TASK/PID         |   DURATION    |   FUNCTION CALLS\n");
	for (const struct kt_cg_node *r = callgraph_first_root(bt->cg); r; r = r->next) {
		trees++;
		if (json) {
			if (host) {
				fputs("{\"host\":", out);
				json_string(out, host);
				fputs(",\"tree\":", out);
			} else {
				fputs("{\"tree\":", out);
			}
			print_json(bt, out, r);
			fputs("}\n", out);
		} else {
			print_text(bt, out, r);
		}
	}
	return trees;
}

void batch_tree_free(struct kt_batch_tree *bt)
{
	if (!bt)
		return;
	callgraph_free(bt->cg);
	free(bt);
}
