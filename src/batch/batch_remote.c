// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode over a remote agent (-b with -H or --via): the requests the options name, then
 * the pages the agent sends decoded here with libtraceevent through the formats it sent,
 * merged in time order across CPUs up to each watermark of the agent's (every event older
 * has come), printed as local batch mode prints events, and the summary with the remote
 * kernel's loss counters, the clock offset and the bytes on the wire (the decoding and the
 * merge are remote/pages.c's, which the explorer's remote source shares). With -o, the
 * records also go to a trace.dat through the local writer, which reads the agent's files
 * from a mirror of its tracing directory (mirror.h).
 *
 * Several remotes (-H and --via more than once): one agent each, each with its own
 * libtraceevent handle and pages, their records merged into one stream by this machine's
 * clock (remote/hostmerge.h: each host's offset from pings, its watermarks); every line
 * carries the host's label, and the summary has a line per host. An agent that dies during
 * the capture is named on stderr and holds the others back no longer; the run goes on.
 * The agents' own stderr (ssh's warnings) is ours with one remote; with several, each line
 * goes on with its host's label in front.
 *
 * --hist and --pmu: each agent opens the histograms and the counters as local batch mode
 * would (KT_REQ_HIST, KT_REQ_COUNTERS) and sends them rendered as local batch mode prints
 * them when its capture stops; they are printed before the summary, each histogram's hosts
 * in host order, then the counters', labelled with several remotes (batch_snaps.c, which
 * keeps and prints them, the probes' counts and the profiles too; batch_hostsum.c the
 * summary's per-host figures).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack_record.h"
#include "backend/ingest/loss.h"
#include "backend/ingest/store.h"
#include "backend/tracefs/tracers.h"
#include "backend/symbols/usernames.h"
#include "batch_hostsum.h"
#include "batch_print.h"
#include "batch_remote.h"
#include "batch_snaps.h"
#include "batch_tree.h"
#include "util/clock.h"
#include "util/json.h"
#include "record/tdat_write.h"
#include "remote/client.h"
#include "remote/hostclock.h"
#include "remote/hostmerge.h"
#include "remote/mirror.h"
#include "remote/pages.h"
#include "app/scopereq.h"
#include "app/signals.h"
#include "util/strutil.h"
#include "util/xalloc.h"

#define REMOTE_HELLO_MS 30000
/* After the agent's stdin closes, its tail and END come within its own 30 s bound (a slow
 * link); an agent that dies closes the pipe sooner. */
#define REMOTE_END_MS 40000
#define REMOTE_PING_NS 1000000000ull

struct batch_remote;

/* One remote: its agent, and its events decoded with its own formats. */
struct br_host {
	struct batch_remote *b;
	unsigned idx;
	const struct kt_remote_opt *opt;
	struct kt_remote *r;
	struct tep_handle *tep;
	struct kt_decoder *dec;
	struct kt_rpages *pages; /* decoded and merged by time (remote/pages.h) */
	struct kt_hello hello;
	bool ended;	/* its END came, or (several remotes) it failed */
	bool failed;
	char err[512]; /* the first format or page the decoder refused */
	struct batch_snaps snaps; /* what its agent rendered for the end of the run */
	/* -o: its trace.dat (with several remotes, one a host: br_record_path) */
	struct kt_mirror *mirror;
	struct kt_tdat_writer *rec;
	char *rec_path;
	bool rec_failed;
	char rec_err[512];
	char uname[200], kallsyms[4200]; /* the writer's meta points here until it closes */
	struct kt_batch_tree *tree; /* --tree: its function_graph records as call trees */
	struct kt_usernames *unames; /* --user-stacks: its agent's names of user frames */
};

struct batch_remote {
	const struct kt_options *opts;
	FILE *out;
	struct kt_remote_ops ops; /* br_ops, with several remotes their stderr's lines too */
	struct br_host hosts[KT_REMOTES_MAX];
	unsigned n;
	struct kt_hostmerge *merge; /* several remotes; NULL with one */
	int label_width;
	uint64_t printed;
	bool out_closed;
	/* the last line printed was an event of this host and CPU (--stack: its stack goes
	 * right under it) */
	bool last_event;
	unsigned last_host, last_cpu;
	uint64_t stacks; /* --stack: stack records printed */
	/* an event's user stack, held until its kernel stack is printed under the event (the
	 * kernel writes the user stack first; frames go innermost first, as locally): a copy
	 * of the record, its host's, its data in held_data (NULL: none held) */
	struct kt_rec held;
	uint8_t *held_data;
	size_t held_cap;
	unsigned held_host;
};

/* -o: a file the agent sent, kept where the trace.dat writer looks for it. */
static void br_keep(struct br_host *h, const char *rel, const void *p, size_t n)
{
	if (h->mirror && mirror_put(h->mirror, rel, p, n) < 0 && !h->err[0])
		snprintf(h->err, sizeof(h->err), "cannot keep %s for -o: %s", rel,
			 strerror(errno));
}

static void br_hello(void *ctx, const struct kt_hello *hello)
{
	struct br_host *h = ctx;

	h->hello = *hello;
	rpages_hello(h->pages, hello);
}

static void br_header_page(void *ctx, const uint8_t *p, size_t n)
{
	struct br_host *h = ctx;

	rpages_header_page(h->pages, p, n);
	br_keep(h, "events/header_page", p, n);
}

static void br_kallsyms(void *ctx, const uint8_t *p, size_t n)
{
	struct br_host *h = ctx;
	char *text;

	br_keep(h, "kallsyms", p, n);
	if (!h->b->opts->n_stacks && !h->b->opts->tree)
		return;
	/* --stack, --tree: addresses named as the agent's kernel has them */
	text = xmalloc(n + 1);
	memcpy(text, p, n);
	text[n] = '\0';
	if (tep_parse_kallsyms(h->tep, text) < 0 && !h->err[0])
		snprintf(h->err, sizeof(h->err), "the agent's kallsyms do not parse: stacks show "
			 "addresses");
	free(text);
}

static void br_printk(void *ctx, const uint8_t *p, size_t n)
{
	br_keep(ctx, "printk_formats", p, n);
}

static void br_format(void *ctx, const char *sys, const char *name, const uint8_t *text,
		      size_t n)
{
	struct br_host *h = ctx;
	char rel[600];

	/* the tracers' formats come unasked: only a refused one of the user's events matters */
	if (rpages_format(h->pages, sys, text, n) < 0 && strcmp(sys, "ftrace") && !h->err[0])
		snprintf(h->err, sizeof(h->err), "the format of %s:%s does not parse", sys, name);
	if (h->mirror && mirror_put_format(h->mirror, sys, name, text, n, rel, sizeof(rel)) < 0 &&
	    !h->err[0])
		snprintf(h->err, sizeof(h->err), "cannot keep %.440s for -o: %s", rel,
			 strerror(errno));
}

static void br_comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	struct br_host *h = ctx;

	(void)ts;
	tep_override_comm(h->tep, name, pid);
}

static void br_user_name(void *ctx, int32_t pid, uint64_t addr, uint8_t kind, const char *name)
{
	struct br_host *h = ctx;

	if (h->unames)
		usernames_put(h->unames, pid, addr, kind, name);
}

static void br_loss(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		    const struct kt_backlog *bl)
{
	struct br_host *h = ctx;

	rpages_loss(h->pages, cpus, ncpus, bl);
}

/* A record (or a loss marker) of host h's for its -o file, in its own time order. */
static void br_record(struct br_host *h, const struct kt_rec *r)
{
	if (h->rec && !h->rec_failed &&
	    tdat_writer_add(h->rec, r, h->rec_err, sizeof(h->rec_err)) < 0)
		h->rec_failed = true;
}

/* --max-events reached: what comes after is received (and recorded with -o) but not
 * printed, and the capture stops, as locally. */
static bool br_full(const struct batch_remote *b)
{
	return b->opts->max_events && b->printed >= b->opts->max_events;
}

/* The user stack held under its event, printed (before any other line). */
static void br_flush_held(struct batch_remote *b)
{
	struct br_host *h;

	if (!b->held.data)
		return;
	h = &b->hosts[b->held_host];
	evstack_record_print(h->dec, h->unames ? usernames_symbolizer(h->unames) : NULL, &b->held,
			     false, b->out);
	b->held.data = NULL;
}

/* Holds r (a user stack under its event) until the event's kernel stack comes. */
static void br_hold(struct batch_remote *b, const struct br_host *h, const struct kt_rec *r)
{
	if (r->size > b->held_cap) {
		b->held_cap = r->size;
		b->held_data = xrealloc(b->held_data, b->held_cap);
	}
	memcpy(b->held_data, r->data, r->size);
	b->held = *r;
	b->held.data = b->held_data;
	b->held_host = h->idx;
}

/* --stack, --user-stacks: a stack record's frames (user frames as the agent named them), as
 * local batch mode prints an event's stack:
 * right under the event when it was the line before (the kernel writes it just after, on
 * the same CPU), else under a line of its own saying whose it is. With --json the frames go
 * into the record's object as "stack". Returns false for a record that is no stack. */
static bool br_print_stack(struct br_host *h, const struct kt_rec *r, char *line, size_t len)
{
	struct batch_remote *b = h->b;
	struct kt_symbolizer *sym = h->unames ? usernames_symbolizer(h->unames) : NULL;
	char ts[32], label[80] = "", ev[64];
	FILE *out = b->out;
	bool attached, user;

	if ((!b->opts->n_stacks && !b->opts->user_stacks) || !evstack_is_record(h->dec, r))
		return false;
	if (b->opts->json) {
		decoder_format_json(h->dec, r, line, len);
		line[strlen(line) - 1] = '\0'; /* the object's last '}' goes after the stack */
		batch_print_host_json(out, h->opt->label, line);
		fputs(",\"stack\":", out);
		evstack_record_print(h->dec, sym, r, true, out);
		fputs("}\n", out);
		b->stacks++;
		return true;
	}
	attached = b->last_event && b->last_host == h->idx && b->last_cpu == r->cpu;
	user = !strcmp(decoder_format_name(h->dec, r, ev, sizeof(ev)), "ftrace:user_stack");
	if (attached && user && !b->held.data) {
		br_hold(b, h, r); /* its kernel stack, when it has one, goes first */
		b->stacks++;
		return true;
	}
	if (!attached || user)
		br_flush_held(b);
	if (!attached) {
		decoder_format_ts(r->ts, 0, ts, sizeof(ts));
		if (b->merge)
			snprintf(label, sizeof(label), " %-*s", b->label_width, h->opt->label);
		fprintf(out, "%s%s [%03u] %16s-%-7d %s stack:\n", ts, label, r->cpu,
			tep_data_comm_from_pid(h->tep, decoder_rec_pid(r)), decoder_rec_pid(r),
			user ? "user" : "kernel");
	}
	evstack_record_print(h->dec, sym, r, false, out);
	if (attached)
		br_flush_held(b); /* the user stack after the kernel's */
	/* the event's other stack (its user stack, then its kernel one) goes under it too */
	b->last_event = attached;
	b->stacks++;
	return true;
}

/* r of host h's, ts its time (shifted onto this machine's clock with several remotes),
 * host_ts the agent's own: a line, or with --json an object (the host's label first). */
static void br_print(struct br_host *h, const struct kt_rec *r, uint64_t host_ts)
{
	struct batch_remote *b = h->b;
	char line[8192], name[128], ts[32], label[80] = "";
	int pid;

	if (b->opts->quiet || b->out_closed || br_full(b))
		return;
	if (!(r->flags & KT_REC_LOST) && br_print_stack(h, r, line, sizeof(line))) {
		if (ferror(b->out))
			b->out_closed = true;
		return;
	}
	br_flush_held(b);
	b->last_event = !(r->flags & KT_REC_LOST);
	b->last_host = h->idx;
	b->last_cpu = r->cpu;
	if (b->opts->json) {
		decoder_format_json(h->dec, r, line, sizeof(line));
		fputs("{\"host\":", b->out);
		json_string(b->out, h->opt->label);
		if (b->merge)
			fprintf(b->out, ",\"host_ts\":%llu", (unsigned long long)host_ts);
		fprintf(b->out, ",%s\n", line + 1);
	} else {
		decoder_format_ts(r->ts, 0, ts, sizeof(ts));
		decoder_format_info(h->dec, r, line, sizeof(line));
		if (b->merge)
			snprintf(label, sizeof(label), " %-*s", b->label_width, h->opt->label);
		if (r->flags & KT_REC_LOST) {
			batch_print_lost(b->out, ts, label, r->cpu, line);
		} else {
			pid = decoder_rec_pid(r);
			batch_print_event(b->out, ts, label, r->cpu,
					  tep_data_comm_from_pid(h->tep, pid), pid,
					  decoder_format_name(h->dec, r, name, sizeof(name)), line);
		}
	}
	if (!(r->flags & KT_REC_LOST))
		b->printed++;
	if (ferror(b->out))
		b->out_closed = true;
}

/* A record of one host's in its time order: with one remote printed, and recorded with
 * -o; with several, into the merge. */
static void br_emit(void *ctx, const struct kt_rec *r)
{
	struct br_host *h = ctx;

	br_record(h, r);
	if (h->tree)
		batch_tree_feed(h->tree, r);
	if (h->b->merge)
		hostmerge_put(h->b->merge, h->idx, r);
	else
		br_print(h, r, r->ts);
}

/* A record in the merged order of several remotes'. */
static void br_merged(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts)
{
	struct batch_remote *b = ctx;

	br_print(&b->hosts[host], r, host_ts);
}

static void br_watermark(void *ctx, uint64_t ts)
{
	struct br_host *h = ctx;

	rpages_flush(h->pages, ts);
	if (h->b->merge) {
		hostclock_refresh(h->b->merge, h->idx, h->r);
		hostmerge_watermark(h->b->merge, h->idx, ts);
	}
}

static void br_page(void *ctx, uint32_t cpu, const uint8_t *page, size_t len)
{
	struct br_host *h = ctx;

	rpages_page(h->pages, cpu, page, len);
}

/* A line an agent's command wrote to its stderr (escaped by client.c), with its label when
 * there are several remotes. */
static void br_stderr(void *ctx, const char *line)
{
	struct br_host *h = ctx;

	if (h->b->n > 1)
		fprintf(stderr, "%s: ", h->opt->label);
	fprintf(stderr, "%s\n", line);
}

/* A histogram's, the counters', the probes' or a profile's rendering: kept, the last one of
 * each, until the summary prints it (batch_snaps.h). */
static void br_snapshot(void *ctx, struct kt_snapshot *s)
{
	struct br_host *h = ctx;

	batch_snaps_take(&h->snaps, h->b->opts, s);
}

static const struct kt_remote_ops br_ops = {
	.hello = br_hello,
	.header_page = br_header_page,
	.format = br_format,
	.kallsyms = br_kallsyms,
	.printk = br_printk,
	.page = br_page,
	.comm = br_comm,
	.user_name = br_user_name,
	.loss = br_loss,
	.watermark = br_watermark,
	.snapshot = br_snapshot,
};

/* A refusal of a request that came after protocol 1's first ops (an agent of before them
 * ends on it: "unknown request N"): with both ktop versions when they differ. */
static void br_refused(const struct br_host *h, const char *what, const char *reply, char *err,
		       size_t errlen)
{
	char hint[160] = "";

	if (strcmp(h->hello.version, PACKAGE_VERSION))
		snprintf(hint, sizeof(hint), " (it runs ktop %.31s, this is ktop %s: install the "
			 "same version on both sides)", h->hello.version, PACKAGE_VERSION);
	snprintf(err, errlen, "%s refused %.220s: %.500s%s", remote_name(h->r), what, reply, hint);
}

/* Enables each of the space-separated events a probe-add named (a USDT probe's sites, one
 * otherwise), with the filter. Returns 0, or -1 with the refusal in names. */
static int br_enable_each(struct kt_remote *r, char *names, size_t len, const char *filter)
{
	char *list = xstrdup(names), *save = NULL;
	int ret = 0;

	for (char *ev = strtok_r(list, " ", &save); ev && !ret; ev = strtok_r(NULL, " ", &save))
		ret = remote_call(r, KT_REQ_ENABLE, ev, filter, names, len) < 0 ? -1 : 0;
	free(list);
	return ret;
}

/* -p, --comm or --cgroup as the scope request, which then scopes what the others ask for:
 * the processes and cgroups are the agent's machine's. Returns 0, or -1 with err. */
static int br_scope(struct br_host *h, char *err, size_t errlen)
{
	struct kt_scopereq q;
	char reply[1024];
	int r;

	if (!scopereq_from_options(h->b->opts, &q))
		return 0;
	r = remote_call(h->r, KT_REQ_SCOPE, q.kind, q.arg, reply, sizeof(reply));
	if (r < 0)
		br_refused(h, q.opt, reply, err, errlen);
	scopereq_free(&q);
	return r < 0 ? -1 : 0;
}

/* The name the agent gave pid, for the file's task list and the trees; NULL when none came. */
static const char *br_comm_name(void *ctx, int pid)
{
	struct br_host *h = ctx;

	return tep_is_pid_registered(h->tep, pid) ? tep_data_comm_from_pid(h->tep, pid) : NULL;
}

/* --tree on host h: before its tracer's switch, whether its kernel has function_graph;
 * after it (which brought the funcgraph formats), the trees its records are fed to. Returns
 * 0, or -1 with err. */
static const char *br_tree_comm(void *ctx, int pid, unsigned long long ts)
{
	(void)ts;
	return br_comm_name(ctx, pid);
}

static int br_tree_check(struct br_host *h, char *err, size_t errlen)
{
	char reply[1024], list[1030];

	/* as locally: no trees where the kernel has no function_graph */
	if (remote_call(h->r, KT_REQ_TRACERS, "", "", reply, sizeof(reply)) < 0) {
		br_refused(h, "--tree", reply, err, errlen);
		return -1;
	}
	snprintf(list, sizeof(list), " %s ", reply);
	if (!strstr(list, " function_graph ")) {
		snprintf(err, errlen, "--tree: %s offers no function_graph tracer in ktop's instance "
			 "(available: %.500s)", remote_name(h->r), reply);
		return -1;
	}
	return 0;
}

/* The options' scope, probes, tracer, events, histograms and counters (these last, as
 * locally: they cover the capture), as requests. Returns 0, or -1 with err. */
static int br_requests(struct br_host *h, char *err, size_t errlen)
{
	const struct kt_options *o = h->b->opts;
	struct kt_remote *r = h->r;
	char reply[1024], what[230], *specs;

	if (br_scope(h, err, errlen) < 0)
		return -1;
	if (o->tree && br_tree_check(h, err, errlen) < 0)
		return -1;
	/* --stack, --tree: the agent's kallsyms (-o asked for them already) before any record
	 * can ask a function's name: libtraceevent builds its function map on the first lookup
	 * and never adds names parsed after it */
	if ((o->n_stacks || o->tree) && !o->record_path &&
	    remote_call(r, KT_REQ_KALLSYMS, "", "", reply, sizeof(reply)) < 0) {
		br_refused(h, o->tree ? "kallsyms for --tree" : "kallsyms for --stack", reply, err,
			   errlen);
		return -1;
	}
	for (size_t i = 0; i < o->n_probes; i++) {
		if (remote_call(r, KT_REQ_PROBE_ADD,
				o->probes[i].usdt ? "usdt" :
				probe_kind_name((enum kt_probe_kind)o->probes[i].kind),
				o->probes[i].def, reply, sizeof(reply)) < 0 ||
		    br_enable_each(r, reply, sizeof(reply), o->filter) < 0) {
			snprintf(err, errlen, "%s refused the probe %.200s: %.500s", remote_name(r),
				 o->probes[i].def, reply);
			return -1;
		}
	}
	/* --ftrace-filter and the other lists before the tracer, as locally (request 26) */
	for (int w = 0; w < KT_FTRACE_NLISTS; w++)
		for (size_t i = 0; i < o->n_ftrace_lists[w]; i++) {
			snprintf(what, sizeof(what), "%s %.200s",
				 tracers_list_file((enum kt_ftrace_list)w), o->ftrace_lists[w][i]);
			if (remote_call(r, KT_REQ_FTRACE_LIST, "add", what, reply, sizeof(reply)) < 0) {
				br_refused(h, what, reply, err, errlen);
				return -1;
			}
		}
	if (o->tracer && remote_call(r, KT_REQ_TRACER, o->tracer, "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s refused -t %.100s: %.500s", remote_name(r), o->tracer, reply);
		return -1;
	}
	/* --user-stacks before any event is on: the agent starts its reader again */
	if (o->user_stacks) {
		h->unames = usernames_new();
		if (remote_call(r, KT_REQ_USER_STACKS, "", "", reply, sizeof(reply)) < 0) {
			br_refused(h, "--user-stacks", reply, err, errlen);
			return -1;
		}
	}
	for (size_t i = 0; i < o->n_events; i++) {
		if (remote_call(r, KT_REQ_ENABLE, o->events[i], o->filter, reply, sizeof(reply)) <
		    0) {
			snprintf(err, errlen, "%s refused -e %.200s: %.500s", remote_name(r), o->events[i],
				 reply);
			return -1;
		}
	}
	if (o->tree && !(h->tree = batch_tree_new_tep(h->tep, br_tree_comm, h, err, errlen)))
		return -1;
	for (size_t i = 0; i < o->n_stacks; i++) {
		if (remote_call(r, KT_REQ_STACK, o->stacks[i], o->filter, reply, sizeof(reply)) <
		    0) {
			snprintf(what, sizeof(what), "--stack %.200s", o->stacks[i]);
			br_refused(h, what, reply, err, errlen);
			return -1;
		}
	}
	for (size_t i = 0; i < o->n_hists; i++) {
		if (remote_call(r, KT_REQ_HIST, o->hists[i], o->json ? "json" : "", reply,
				sizeof(reply)) < 0) {
			snprintf(what, sizeof(what), "--hist %.200s", o->hists[i]);
			br_refused(h, what, reply, err, errlen);
			return -1;
		}
		h->snaps.ids[i] = remote_last_id(r);
	}
	if (o->cpu_profile) {
		snprintf(what, sizeof(what), "%u", o->freq);
		if (remote_call(r, KT_REQ_PROFILE, o->freq ? what : "", "", reply, sizeof(reply)) <
		    0) {
			br_refused(h, "--profile", reply, err, errlen);
			return -1;
		}
		h->snaps.profile_id = remote_last_id(r);
	}
	if (o->off_cpu) {
		/* rendered there as --json and -q print it; arg: its variant, when pinned */
		snprintf(what, sizeof(what), "off-cpu%s%s%.30s", o->wakers ? "+wakers" : "",
			 o->off_cpu_via ? "=" : "", o->off_cpu_via ? o->off_cpu_via : "");
		if (remote_call(r, KT_REQ_PROFILE, what, o->json ? (o->quiet ? "json quiet" : "json") :
			        o->quiet ? "quiet" : "", reply, sizeof(reply)) < 0) {
			br_refused(h, "--off-cpu", reply, err, errlen);
			return -1;
		}
		h->snaps.offcpu_id = remote_last_id(r);
	}
	if (!o->pmu)
		return 0;
	specs = str_join(o->pmu_events, o->n_pmu_events);
	if (!specs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (remote_call(r, KT_REQ_COUNTERS, specs, o->json ? "json" : "", reply,
			sizeof(reply)) < 0) {
		free(specs);
		br_refused(h, "--pmu", reply, err, errlen);
		return -1;
	}
	free(specs);
	h->snaps.ids[o->n_hists] = remote_last_id(r);
	return 0;
}

/* -o FILE's path for host h: FILE with one remote; with several, one file a host, its
 * label before FILE's extension (trace.dat: trace-db-1.dat), a '/' in it made '_'. */
static char *br_record_path(const struct batch_remote *b, const struct br_host *h)
{
	const char *path = b->opts->record_path, *base = strrchr(path, '/');
	const char *dot = strrchr(base ? base + 1 : path, '.');
	size_t stem = dot && dot != (base ? base + 1 : path) ? (size_t)(dot - path) : strlen(path);
	char *label = xstrdup(h->opt->label), *out;

	if (b->n == 1) {
		free(label);
		return xstrdup(path);
	}
	for (char *c = label; *c; c++)
		if (*c == '/')
			*c = '_';
	out = xasprintf("%.*s-%s%s", (int)stem, path, label, path + stem);
	free(label);
	return out;
}

/* -o, after the hello (whose header_page the mirror kept): the agent's kallsyms and printk
 * formats mirrored, then the writer, before any event is enabled. Returns 0, or -1 with
 * err. */
static int br_record_start(struct br_host *h, char *err, size_t errlen)
{
	const struct kt_hello *hello = &h->hello;
	struct kt_tdat_meta meta = { .clock = "mono", .comm = br_comm_name, .comm_ctx = h,
				     .replace = h->b->opts->force };
	char reply[1024];

	if (remote_call(h->r, KT_REQ_KALLSYMS, "", "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s: no kallsyms for -o: %.500s", remote_name(h->r), reply);
		return -1;
	}
	mirror_tdat_meta(h->mirror, hello, h->uname, sizeof(h->uname), h->kallsyms,
			 sizeof(h->kallsyms), &meta);
	h->rec_path = br_record_path(h->b, h);
	h->rec = tdat_writer_open(h->rec_path, &meta, err, errlen);
	return h->rec ? 0 : -1;
}

/* -o: host h's file written with its agent's last loss counters and, with several
 * remotes, its clock offset, which trace-cmd report adds to its timestamps (so that
 * `trace-cmd report -i A -i B` merges the hosts' files as the printed stream is). Returns
 * the exit code. */
static int br_record_finish(struct br_host *h)
{
	unsigned long long events = tdat_writer_events(h->rec);
	const struct kt_cpu_stats *st;
	int64_t off;
	uint64_t unc;
	uint32_t n;
	int ret;

	st = rpages_cpu_stats(h->pages, &n);
	if (h->b->merge && remote_clock(h->r, &off, &unc))
		tdat_writer_set_offset(h->rec, -off);
	/* no counters came: none in the file */
	ret = tdat_writer_close(h->rec, n == h->hello.ncpus ? st : NULL, h->rec_err,
				sizeof(h->rec_err));
	h->rec = NULL;
	if (ret) {
		fprintf(stderr, "ktop: %s\n", h->rec_err);
		return KT_EXIT_RECORDING;
	}
	fprintf(stderr, "ktop: recorded %llu events to %s\n", events, h->rec_path);
	return KT_EXIT_OK;
}

/* With several remotes, host h failed (err): named on stderr, and it holds the others
 * back no longer. With one, the run fails: returns -1. */
static int br_host_failed(struct br_host *h, const char *err)
{
	if (h->b->n == 1)
		return -1;
	fprintf(stderr, "ktop: %s: %s\n", h->opt->label, err);
	h->failed = true;
	h->ended = true;
	rpages_flush(h->pages, UINT64_MAX);
	hostmerge_end(h->b->merge, h->idx);
	return 0;
}

/* Reads what host h's agent sent; its END ends it. Returns 0, or -1 (one remote) with err. */
static int br_pump(struct br_host *h, char *err, size_t errlen)
{
	int ret;

	ret = remote_pump(h->r, err, errlen);
	if (h->b->merge)
		hostclock_refresh(h->b->merge, h->idx, h->r);
	if (ret < 0)
		return br_host_failed(h, err);
	if (ret == 0) {
		h->ended = true;
		if (h->b->merge) {
			rpages_flush(h->pages, UINT64_MAX);
			hostmerge_end(h->b->merge, h->idx);
		}
	}
	return 0;
}

/* Polls every live agent (and wake, when >= 0) up to timeout_ms, and pumps those that have
 * something. Returns how many are live after, or -1 with err. */
static int br_poll(struct batch_remote *b, int wake, int timeout_ms, char *err, size_t errlen)
{
	struct pollfd pfd[2 * KT_REMOTES_MAX + 1];
	int live = 0;

	for (unsigned i = 0; i < b->n; i++) {
		pfd[i] = (struct pollfd){ .fd = b->hosts[i].ended ? -1 : remote_fd(b->hosts[i].r),
					  .events = POLLIN };
		pfd[b->n + i] = (struct pollfd){ .fd = b->hosts[i].ended ? -1 :
							      remote_err_fd(b->hosts[i].r),
						 .events = POLLIN };
	}
	pfd[2 * b->n] = (struct pollfd){ .fd = wake, .events = POLLIN };
	if (poll(pfd, 2 * b->n + 1, timeout_ms) < 0 && errno != EINTR) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return -1;
	}
	for (unsigned i = 0; i < b->n; i++) {
		if ((pfd[i].revents || pfd[b->n + i].revents) &&
		    br_pump(&b->hosts[i], err, errlen) < 0)
			return -1;
		live += !b->hosts[i].ended;
	}
	return live;
}

/* A ping to every live agent. One that died meanwhile fails the write (its end is read
 * next) instead of raising SIGPIPE, which would end the run for all. */
static void br_ping(struct batch_remote *b)
{
	sigset_t old;

	remote_sigpipe_block(&old);
	for (unsigned i = 0; i < b->n; i++)
		if (!b->hosts[i].ended)
			remote_ping(b->hosts[i].r);
	remote_sigpipe_restore(&old);
}

/* Until --duration, a signal, or every agent's end. Returns 0 when all ended, 1 to finish,
 * -1. */
static int br_capture(struct batch_remote *b, int wake, char *err, size_t errlen)
{
	const struct kt_options *o = b->opts;
	unsigned long long start = clock_mono_ns(), ping = 0, now, end;
	int ret, timeout;

	end = o->duration > 0 ? start + (unsigned long long)(o->duration * 1e9) : 0;
	while (!signals_pending()) {
		now = clock_mono_ns();
		if (end && now >= end)
			return 1;
		if (now - ping >= REMOTE_PING_NS) {
			br_ping(b);
			ping = now;
		}
		timeout = (int)((ping + REMOTE_PING_NS - now) / 1000000) + 1;
		if (end && (int)((end - now) / 1000000) + 1 < timeout)
			timeout = (int)((end - now) / 1000000) + 1;
		ret = br_poll(b, wake, timeout, err, errlen);
		if (ret <= 0)
			return ret;
		if (br_full(b))
			return 1;
	}
	return 1;
}

/* The agents drain, send their final counters and END. */
static int br_drain(struct batch_remote *b, char *err, size_t errlen)
{
	unsigned long long end = clock_mono_ns() + REMOTE_END_MS * 1000000ull;
	char why[600];
	int live = 1;

	for (unsigned i = 0; i < b->n; i++)
		remote_finish(b->hosts[i].r);
	while (live > 0 && clock_mono_ns() < end)
		live = br_poll(b, -1, 100, err, errlen);
	if (live < 0)
		return -1;
	for (unsigned i = 0; live > 0 && i < b->n; i++) {
		if (b->hosts[i].ended)
			continue;
		snprintf(why, sizeof(why), "%s did not finish within %d s",
			 remote_name(b->hosts[i].r), REMOTE_END_MS / 1000);
		if (br_host_failed(&b->hosts[i], why) < 0) {
			snprintf(err, errlen, "%s", why);
			return -1;
		}
	}
	return 0;
}

/* The hosts' figures (a line each with several, text), then the totals: the line local
 * batch mode ends with. */
static void br_summary(struct batch_remote *b, double secs)
{
	struct batch_hostsum f[KT_REMOTES_MAX];
	struct batch_totals all = { .printed = b->printed, .secs = secs };
	struct batch_snaps *snaps[KT_REMOTES_MAX];

	if (b->out_closed)
		return;
	br_flush_held(b); /* the last event's user stack */
	for (unsigned i = 0; i < b->n; i++) {
		b->hosts[i].snaps.failed = b->hosts[i].failed;
		snaps[i] = &b->hosts[i].snaps;
	}
	/* --folded: the flame graph's input and nothing else, as locally */
	if (batch_snaps_print_profiles(b->out, b->opts, snaps, b->n) < 0 || b->opts->folded)
		return;
	/* before the summary, which stays the last line, as locally */
	for (unsigned i = 0; i < b->n && !b->opts->quiet; i++)
		if (b->hosts[i].tree)
			batch_tree_print(b->hosts[i].tree, b->out, b->opts->json,
					 b->n > 1 ? b->hosts[i].opt->label : NULL);
	batch_snaps_print(b->out, b->opts, snaps, b->n);
	if (b->stacks)
		batch_print_stacks(b->out, b->opts->json, b->stacks,
				   b->opts->user_stacks ? "kernel and user" : "kernel");
	for (unsigned i = 0; i < b->n; i++) {
		const struct br_host *h = &b->hosts[i];

		f[i] = (struct batch_hostsum){ .label = h->opt->label, .name = remote_name(h->r),
					       .hello = &h->hello, .failed = h->failed };
		batch_hostsum_read(&f[i], h->r, h->pages, b->merge, h->idx);
		all.events += f[i].rs.events;
		all.lost_marked += f[i].rs.missed;
		all.lost_unknown += f[i].rs.missed_unknown;
		all.lost += f[i].lost;
	}
	if (b->opts->json) {
		batch_print_totals_json(b->out, &all);
		fputs("\"hosts\":[", b->out);
		for (unsigned i = 0; i < b->n; i++) {
			if (i)
				fputc(',', b->out);
			batch_hostsum_json(b->out, &f[i]);
		}
		fputs("]}}\n", b->out);
		fflush(b->out);
		return;
	}
	if (b->n == 1)
		batch_hostsum_one(b->out, &f[0]);
	for (unsigned i = 0; b->n > 1 && i < b->n; i++)
		batch_hostsum_line(b->out, &f[i]);
	batch_print_totals(b->out, &all);
	fflush(b->out);
}

/* Host i's decoder and agent, up to its hello (and with several, its clock). Returns 0,
 * or -1 with err. */
static int br_host_open(struct batch_remote *b, unsigned i, char *err, size_t errlen)
{
	struct br_host *h = &b->hosts[i];

	h->b = b;
	h->idx = i;
	h->opt = &b->opts->remotes[i];
	h->tep = tep_alloc();
	h->dec = h->tep ? decoder_new_offline(h->tep) : NULL;
	h->pages = h->dec ? rpages_new(h->tep, br_emit, h) : NULL;
	batch_snaps_init(&h->snaps, b->opts);
	h->snaps.label = h->opt->label;
	if (!h->pages) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	h->r = remote_spawn(h->opt->host, h->opt->via, b->opts->compress, &b->ops, h, err,
			    errlen);
	if (!h->r)
		return -1;
	h->snaps.name = remote_name(h->r);
	return 0;
}

static void br_host_close(struct br_host *h)
{
	if (h->b) /* a host after one that failed to open was never opened */
		batch_snaps_free(&h->snaps, h->b->opts);
	tdat_writer_abort(h->rec);
	batch_tree_free(h->tree);
	usernames_free(h->unames);
	mirror_free(h->mirror);
	free(h->rec_path);
	rpages_free(h->pages);
	remote_close(h->r);
	decoder_free(h->dec);
	if (h->tep)
		tep_free(h->tep);
}

/* Every agent started, said hello, (with several) told its clock, and took the requests.
 * Returns 0, or -1 with err (its host's label first with several). */
static int br_start(struct batch_remote *b, char *err, size_t errlen)
{
	char why[1024];
	unsigned i;

	for (i = 0; i < b->n; i++)
		if (br_host_open(b, i, why, sizeof(why)) < 0)
			goto fail;
	for (i = 0; i < b->n; i++) {
		struct br_host *h = &b->hosts[i];

		if (remote_handshake(h->r, REMOTE_HELLO_MS, why, sizeof(why)) < 0)
			goto fail;
		if (b->merge && hostclock_sync(b->merge, i, h->r, why, sizeof(why)) < 0)
			goto fail;
	}
	for (i = 0; b->opts->record_path && i < b->n; i++)
		if (br_record_start(&b->hosts[i], why, sizeof(why)) < 0)
			goto fail;
	for (i = 0; i < b->n; i++)
		if (br_requests(&b->hosts[i], why, sizeof(why)) < 0)
			goto fail;
	return 0;
fail:
	if (b->n > 1)
		snprintf(err, errlen, "%s: %s", b->opts->remotes[i].label, why);
	else
		snprintf(err, errlen, "%s", why);
	return -1;
}

int batch_remote_run(const struct kt_options *opts, FILE *out)
{
	struct batch_remote b = { .opts = opts, .out = out, .n = (unsigned)opts->n_remotes };
	unsigned long long start;
	char err[1100] = "";
	int wake[2], ret = KT_EXIT_FAILURE, cap;
	bool failed = false;

	if (pipe(wake) < 0) {
		fprintf(stderr, "ktop: cannot create a pipe: %s\n", strerror(errno));
		return KT_EXIT_FAILURE;
	}
	signals_install(wake[1]);
	for (unsigned i = 0; i < b.n; i++) {
		int w = (int)strlen(opts->remotes[i].label);

		b.label_width = w > b.label_width ? w : b.label_width;
	}
	b.ops = br_ops;
	b.ops.stderr_line = br_stderr;
	if (b.n > 1)
		b.merge = hostmerge_new(b.n, KT_HOSTMERGE_CAP, br_merged, &b);
	for (unsigned i = 0; opts->record_path && i < b.n; i++)
		if (!(b.hosts[i].mirror = mirror_new(err, sizeof(err))))
			goto fail;
	if (br_start(&b, err, sizeof(err)) < 0)
		goto fail;
	start = clock_mono_ns();
	cap = br_capture(&b, wake[0], err, sizeof(err));
	if (cap > 0)
		cap = br_drain(&b, err, sizeof(err));
	/* all that came, a cut-short capture's too */
	for (unsigned i = 0; i < b.n; i++)
		rpages_flush(b.hosts[i].pages, UINT64_MAX);
	if (b.merge)
		hostmerge_flush(b.merge);
	if (cap < 0)
		goto fail;
	for (unsigned i = 0; i < b.n; i++) {
		if (b.hosts[i].err[0])
			fprintf(stderr, "ktop: %s: %s\n", remote_name(b.hosts[i].r), b.hosts[i].err);
		failed = failed || b.hosts[i].failed;
	}
	br_summary(&b, (double)(clock_mono_ns() - start) / 1e9);
	ret = failed ? KT_EXIT_FAILURE : KT_EXIT_OK;
	for (unsigned i = 0; i < b.n; i++)
		if (b.hosts[i].rec && br_record_finish(&b.hosts[i]) != KT_EXIT_OK)
			ret = KT_EXIT_RECORDING;
	goto out;
fail:
	for (unsigned i = 0; i < b.n; i++) /* what an agent did wrong, not what it was asked */
		if (remote_fault(b.hosts[i].r)) {
			snprintf(err, sizeof(err), "%s", remote_fault(b.hosts[i].r));
			break;
		}
	fprintf(stderr, "ktop: %s\n", err);
out:
	for (unsigned i = 0; i < b.n; i++)
		br_host_close(&b.hosts[i]);
	hostmerge_free(b.merge);
	free(b.held_data);
	close(wake[0]);
	close(wake[1]);
	return ret;
}
