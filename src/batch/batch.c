// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode. Events are printed while the capture runs, from the store, so memory stays
 * within --memory however long the run; the reader never waits for stdout. What the store
 * evicted before it could be printed is counted in the summary, apart from what the kernel
 * lost.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/app_recorder.h"
#include "chrome.h"
#include "util/timerange.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "backend/callgraph/evstacks.h"
#include "backend/bpf/histprint.h"
#include "backend/perf/pmu.h"
#include "backend/tracefs/probeprint.h"
#include "util/json.h"
#include "batch.h"
#include "batch_print.h"
#include "record/recorder.h"
#include "record/tdat_write.h"
#include "batch_profile.h"
#include "batch_tree.h"
#include "flightrec.h"
#include "app/signals.h"
#include "app/stopwhen.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/xalloc.h"
#include "backend/tracefs/triggers.h"

#define BATCH_PRINT_CHUNK 1024
#define PROFILE_POLL_MS 100
/* An event whose stack may still be on its way (the last record of its CPU) waits this
 * long for it: the kernel writes the stack microseconds after the event, and the reader
 * collects a quiet CPU's partial page every 100 ms. */
#define BATCH_STACK_WAIT_NS 500000000ull

struct batch {
	struct kt_app *app;
	FILE *out;
	uint64_t next;	     /* next sequence number to print */
	uint64_t printed;    /* event lines written */
	uint64_t unprinted;  /* evicted before they could be printed */
	bool out_closed;     /* stdout went away (EPIPE): keep capturing, stop printing */
	struct kt_recorder *rec; /* -o: the capture also goes to a trace.dat */
	char rec_err[512];
	struct kt_batch_tree *tree; /* --tree: records become call trees, printed at the end */
	struct kt_batch_profile *profile; /* --profile: samples, printed at the end */
	struct kt_stacks *folded; /* --folded: the events' stacks, printed at the end */
	bool folded_oom;	  /* some stacks were left out of it: out of memory */
	bool draining;	     /* capture stopped: print everything left, signals or not */
	unsigned long long deadline; /* --duration's end (clock_mono_ns()), 0: none */
	char **trig_text;    /* --trigger hist or snapshot: what it made (trigger_output()),
			      * read before the instance goes; NULL entries: nothing */
	struct kt_flightrec *fr; /* --arm: the flight recorder; its incidents are the output */
	uint64_t from, to;   /* --from, --to as trace timestamps: rows outside are left out */
	bool no_rows;	     /* -i FILE -o or --chrome-trace without -b: the files alone */
	struct kt_chrome *chrome; /* --chrome-trace */
};

/* What --trigger's hist and snapshot triggers made, read while the instance exists. */
static void batch_read_trigger_output(struct batch *b)
{
	const struct kt_options *o = b->app->opts;
	struct kt_trigger t;
	char err[256];

	if (!o->n_triggers)
		return;
	b->trig_text = xcalloc(o->n_triggers, sizeof(*b->trig_text));
	for (size_t i = 0; i < o->n_triggers; i++)
		if (trigger_parse(o->triggers[i], true, &t, err, sizeof(err)) == 0)
			b->trig_text[i] = source_trigger_output(b->app->source, &t);
}

static void batch_print_trigger_output(struct batch *b)
{
	const struct kt_options *o = b->app->opts;

	for (size_t i = 0; b->trig_text && i < o->n_triggers; i++) {
		if (!b->trig_text[i] || b->out_closed) {
			free(b->trig_text[i]);
			continue;
		}
		if (o->json) {
			fputs("{\"trigger_output\":{\"trigger\":", b->out);
			json_string(b->out, o->triggers[i]);
			fputs(",\"text\":", b->out);
			json_string(b->out, b->trig_text[i]);
			fputs("}}\n", b->out);
		} else {
			fprintf(b->out, "# ktop: trigger %s made:\n%s", o->triggers[i],
				b->trig_text[i]);
		}
		free(b->trig_text[i]);
	}
	free(b->trig_text);
	b->trig_text = NULL;
}

/* The stack attached to r, innermost frame first, one per line (the kernel's layout). */
static void batch_print_stack(struct batch *b, const struct kt_evstack_frame *f, size_t n)
{
	struct kt_symbolizer *sym = app_symbolizer(b->app);
	enum kt_frame_kind kind;
	char name[256];

	for (size_t i = 0; i < n; i++)
		fprintf(b->out, " => %s\n", evstack_name(b->app->decoder, sym, &f[i], true, name,
							 sizeof(name), &kind));
}

/* r's stack, read after r is formatted: a recording's pager may move the store's window to
 * reach it, and r's data with it. Store lock held. */
static size_t batch_stack_of(struct batch *b, const struct kt_rec *r, struct kt_evstack_frame *f)
{
	return r->stack ? evstack_read(b->app->decoder, b->app->store, r, f, KT_EVSTACK_MAX) : 0;
}

/* Store lock held. */
static void batch_print_rec(struct batch *b, const struct kt_rec *r)
{
	struct kt_decoder *d = b->app->decoder;
	char line[8192], name[128], info[4096], ts[32];
	struct kt_evstack_frame f[KT_EVSTACK_MAX];
	size_t nf;
	int pid;

	if (b->app->opts->json) {
		decoder_format_json(d, r, line, sizeof(line));
		nf = batch_stack_of(b, r, f);
		if (nf) { /* the object's last '}' goes after the stack */
			line[strlen(line) - 1] = '\0';
			fprintf(b->out, "%s,\"stack\":", line);
			evstack_write_json(d, app_symbolizer(b->app), f, nf, b->out);
			fputs("}\n", b->out);
			return;
		}
		fputs(line, b->out);
		fputc('\n', b->out);
		return;
	}
	decoder_format_ts(r->ts, 0, ts, sizeof(ts));
	decoder_format_info(d, r, info, sizeof(info));
	if (r->flags & KT_REC_LOST) {
		batch_print_lost(b->out, ts, "", r->cpu, info);
		return;
	}
	pid = decoder_rec_pid(r);
	batch_print_event(b->out, ts, "", r->cpu, decoder_comm(d, pid, r->ts), pid,
			  decoder_format_name(d, r, name, sizeof(name)), info);
	batch_print_stack(b, f, batch_stack_of(b, r, f));
}

/* Whether r, an event without a stack yet, may still get one: stacks are being captured,
 * r is the last record of its CPU and recent. Store lock held. */
static bool batch_stack_due(struct batch *b, const struct kt_rec *r)
{
	struct kt_store_stats s;

	if (b->draining || !app_can(b->app, KT_CAP_LIVE) || r->stack || (r->flags & KT_REC_LOST))
		return false;
	store_stats(b->app->store, &s);
	return (b->app->opts->n_stacks || s.stacks) &&
	       store_cpu_last(b->app->store, r->seq, r->cpu) &&
	       r->ts + BATCH_STACK_WAIT_NS > clock_mono_ns();
}

/* --max-events reached: what came after is captured but not printed. */
static bool batch_full(const struct batch *b)
{
	return b->app->opts->max_events && b->printed >= b->app->opts->max_events;
}

/* Prints what the store gained since the last call. */
static void batch_print_new(struct batch *b)
{
	struct kt_store *st = b->app->store;
	struct kt_rec r;
	uint64_t end;
	unsigned n;
	bool wait = false;

	for (;;) {
		store_lock(st);
		if (b->next < store_first(st)) {
			b->unprinted += store_first(st) - b->next;
			b->next = store_first(st);
		}
		end = store_end(st);
		for (n = 0; b->next < end && n < BATCH_PRINT_CHUNK; n++, b->next++) {
			if (batch_full(b))
				break;
			if (!store_get(st, b->next, &r) || (r.flags & KT_REC_STACK))
				continue; /* a stack is printed with its event */
			if ((wait = batch_stack_due(b, &r)))
				break;
			if (r.ts < b->from || r.ts > b->to)
				continue;
			if (!(r.flags & KT_REC_LOST))
				b->printed++;
			if (b->chrome)
				chrome_add(b->chrome, &r);
			if (b->tree)
				batch_tree_feed(b->tree, &r);
			else if (b->folded)
				b->folded_oom |= evstacks_add(b->folded, b->app->decoder, NULL,
							      app_symbolizer(b->app), st, &r) < 0;
			else if (!b->app->opts->quiet && !b->no_rows && !b->fr && !b->out_closed)
				batch_print_rec(b, &r);
		}
		store_unlock(st);
		if (ferror(b->out) && !b->out_closed) {
			b->out_closed = true; /* a closed pipe: the reader need not suffer */
			clearerr(b->out);
		}
		if (b->next >= end || batch_full(b) || wait)
			break;
		/* Events may arrive faster than they print (a slow terminal, a loaded machine):
		 * a signal or --duration's end must end the capture now, not once printing has
		 * caught up. */
		if (!b->draining &&
		    (signals_pending() || (b->deadline && clock_mono_ns() >= b->deadline)))
			break;
	}
}

/* --stop-when: whether it fired, and the matching event's time. */
static void batch_stop_line(struct batch *b)
{
	struct kt_stopwhen *sw = b->app->stop;
	char ts[32];

	if (stopwhen_check(b->app) && stopwhen_locate(b->app))
		decoder_format_ts(sw->ts, 0, ts, sizeof(ts));
	if (b->app->opts->json) {
		fputs("{\"stop_when\":{\"spec\":", b->out);
		json_string(b->out, sw->desc);
		fprintf(b->out, ",\"fired\":%s", sw->fired ? "true" : "false");
		if (sw->located)
			fprintf(b->out, ",\"ts\":\"%s\",\"seq\":%llu", ts,
				(unsigned long long)sw->seq);
		fputs("}}\n", b->out);
	} else if (sw->located) {
		fprintf(b->out, "# ktop: stopped by %s at %s\n", sw->desc, ts);
	} else {
		fprintf(b->out, "# ktop: %s %s\n", sw->desc,
			sw->fired ? "fired (its event was evicted from the store)" : "did not fire");
	}
}

static void batch_summary(struct batch *b, double secs)
{
	struct kt_app *app = b->app;
	FILE *out = b->out;
	const struct batch_totals t = {
		.events = app->rstats.events, .printed = b->printed, .lost = app->kernel_lost,
		.lost_marked = app->rstats.missed, .lost_unknown = app->rstats.missed_unknown,
		.evicted = b->unprinted, .secs = secs,
	};
	struct kt_store_stats ss;

	batch_print_trigger_output(b);
	if (b->out_closed)
		return;
	if (b->profile && batch_profile_print(b->profile, out) < 0)
		return;
	/* --folded: FlameGraph's input and nothing else */
	if (app->opts->folded) {
		fflush(out);
		return;
	}
	/* Histograms and counters, before the summary, which stays the last line. */
	for (size_t i = 0; i < app->n_hists; i++) {
		if (app->opts->json)
			histprint_json(app->hists[i], out);
		else
			histprint_text(app->hists[i], out);
	}
	if (app->pmu) {
		if (app->opts->json)
			pmu_write_json(app->pmu, out);
		else
			pmu_write_text(app->pmu, out);
	}
	if (app->stop)
		batch_stop_line(b);
	/* each probe's hits, and a kernel probe's misses, as the capture ended */
	probeprint(app->probe_reports, app->n_probe_reports, app->opts->json, out);
	store_lock(app->store);
	store_stats(app->store, &ss);
	store_unlock(app->store);
	if (ss.stacks) /* records too, each its event's; printed with it */
		batch_print_stacks(out, app->opts->json, ss.stacks, "kernel and user");
	/* perf's side band: a lost exec, rename or fork leaves the names to /proc and
	 * saved_cmdlines, a lost mapping a user frame to an address */
	if (app->rstats.sideband_lost) {
		if (app->opts->json)
			fprintf(out, "{\"side_band\":{\"lost\":%llu}}\n",
				(unsigned long long)app->rstats.sideband_lost);
		else
			fprintf(out, "# ktop: side band lost %llu records (names of tasks that forked, "
				"exec'd or renamed then came from /proc or saved_cmdlines; "
				"user frames may be addresses)\n",
				(unsigned long long)app->rstats.sideband_lost);
	}
	if (app->opts->json) {
		batch_print_totals_json(out, &t);
		fputs("\"cpus\":[", out);
		for (int cpu = 0; cpu < app->ncpus; cpu++)
			fprintf(out, "%s{\"cpu\":%d,\"overrun\":%llu,\"dropped\":%llu}",
				cpu ? "," : "", cpu,
				(unsigned long long)app->cpu_stats[cpu].overrun,
				(unsigned long long)app->cpu_stats[cpu].dropped_events);
		fputs("]}}\n", out);
	} else {
		batch_print_totals(out, &t);
	}
	fflush(out);
}

/* -o: the file is written once the kernel's loss counters are final, or as soon as a page
 * cannot be written (then the capture goes on, and the exit status says it). */
static int batch_finish_recording(struct batch *b)
{
	unsigned long long events, missed;
	int ret;

	recorder_pump(b->rec, b->rec_err, sizeof(b->rec_err));
	events = recorder_events(b->rec);
	missed = recorder_missed(b->rec);
	ret = recorder_finish(b->rec, b->rec_err, sizeof(b->rec_err));
	b->rec = NULL;
	if (ret) {
		fprintf(stderr, "ktop: %s\n", b->rec_err);
		return KT_EXIT_RECORDING;
	}
	fprintf(stderr, "ktop: recorded %llu events to %s", events, b->app->opts->record_path);
	if (missed)
		fprintf(stderr, " (%llu evicted from --memory before they were written)", missed);
	fputc('\n', stderr);
	return KT_EXIT_OK;
}

/* --chrome-trace: the file completed once the last record is in. */
static int batch_finish_chrome(struct batch *b)
{
	unsigned long long n;
	char err[512];

	if (!b->chrome)
		return KT_EXIT_OK;
	n = chrome_events(b->chrome);
	if (chrome_close(b->chrome, err, sizeof(err)) < 0) {
		b->chrome = NULL;
		fprintf(stderr, "ktop: %s\n", err);
		return KT_EXIT_RECORDING;
	}
	b->chrome = NULL;
	fprintf(stderr, "ktop: wrote %llu trace events to %s\n", n, b->app->opts->chrome_path);
	return KT_EXIT_OK;
}

/* --chrome-trace: the file is created before the capture, so a bad path fails at once. */
static bool batch_chrome_start(struct batch *b)
{
	char err[512];

	if (!b->app->opts->chrome_path)
		return true;
	b->chrome = chrome_open(b->app, b->app->opts->chrome_path, err, sizeof(err));
	if (!b->chrome)
		fprintf(stderr, "ktop: %s\n", err);
	return b->chrome != NULL;
}

/* -i FILE -o PART: what the file lacks for a cut (a version 7 file) is said before it is
 * read through; the formats copied out now are the ones the cut then uses. */
static bool batch_cut_possible(struct batch *b)
{
	struct kt_tdat_meta meta = { 0 };
	char err[512];

	if (!b->app->opts->record_path ||
	    source_record_meta(b->app->source, &meta, err, sizeof(err)) >= 0)
		return true;
	fprintf(stderr, "ktop: %s\n", err);
	return false;
}

/* -i FILE -o PART: the window's records written again, once the index is complete. */
static int batch_cut_recording(struct batch *b)
{
	struct kt_recorder_from src;
	struct kt_window_stats ws;
	char err[512];

	if (!b->app->opts->record_path)
		return KT_EXIT_OK;
	if (app_recorder_from(b->app, &src, err, sizeof(err)) < 0 ||
	    recorder_write_window(&src, b->app->opts->record_path, b->from, b->to, &ws, err,
				  sizeof(err))) {
		fprintf(stderr, "ktop: %s\n", err);
		return KT_EXIT_RECORDING;
	}
	fprintf(stderr, "ktop: recorded %llu events to %s\n", ws.events, b->app->opts->record_path);
	return KT_EXIT_OK;
}

/* -o with --profile: the stacks go into the file as ktop's own option. */
static void batch_keep_profile(struct batch *b)
{
	char *text = batch_profile_text(b->profile);

	if (!text || recorder_set_stacks(b->rec, text) < 0)
		fprintf(stderr, "ktop: out of memory: the profile is not kept in %s\n",
			b->app->opts->record_path);
	free(text);
}

/* --folded: the stacks gathered, folded, once the capture is over. */
static void batch_folded_end(struct batch *b)
{
	if (!b->folded)
		return;
	if (!b->app->opts->quiet && !b->out_closed && stacks_write_folded(b->folded, b->out) < 0)
		b->out_closed = true;
	if (b->folded_oom)
		fprintf(stderr, "ktop: --folded: out of memory: some stacks were left out\n");
	stacks_free(b->folded);
	b->folded = NULL;
}

/* --folded's tree; false (with the reason on stderr) when out of memory. */
static bool batch_folded_start(struct batch *b)
{
	/* with --profile, --folded is the profile's */
	if (!b->app->opts->folded || b->app->opts->cpu_profile)
		return true;
	b->folded = stacks_new(KT_STACK_EVENTS);
	if (!b->folded)
		fprintf(stderr, "ktop: --folded: out of memory\n");
	return b->folded != NULL;
}

/* -i: the whole recording, once the index has reached its end; the duration is the
 * recording's own. */
static int batch_recording(struct batch *b)
{
	const struct kt_options *o = b->app->opts;
	const char *kept = source_kept_stacks(b->app->source);
	struct kt_source_desc info;
	char err[512];
	int ret;

	b->no_rows = o->mode != KT_MODE_BATCH;
	if (o->tree && !(b->tree = batch_tree_new(b->app, err, sizeof(err)))) {
		fprintf(stderr, "ktop: %s: %s\n", o->input_path, err);
		return KT_EXIT_FAILURE;
	}
	if (o->cpu_profile && !kept) {
		fprintf(stderr, "ktop: %s has no profile (ktop -b --profile -o FILE keeps one)\n",
			o->input_path);
		return KT_EXIT_FAILURE;
	}
	if (o->cpu_profile &&
	    !(b->profile = batch_profile_from_text(b->app->opts, kept, err, sizeof(err)))) {
		fprintf(stderr, "ktop: %s: %s\n", o->input_path, err);
		return KT_EXIT_FAILURE;
	}
	if (!batch_folded_start(b) || !batch_cut_possible(b) || !batch_chrome_start(b))
		return KT_EXIT_FAILURE;
	source_wait_complete(b->app->source);
	app_tick(b->app);
	batch_print_new(b);
	ret = batch_finish_chrome(b);
	if (!ret)
		ret = batch_cut_recording(b);
	if (b->no_rows)
		return ret;
	if (b->tree) {
		if (!o->quiet)
			batch_tree_print(b->tree, b->out, o->json, NULL);
		batch_tree_free(b->tree);
	}
	batch_folded_end(b);
	fflush(b->out);
	source_describe(b->app->source, &info);
	batch_summary(b, (double)(info.last_ts - info.first_ts) / 1e9);
	batch_profile_free(b->profile);
	b->profile = NULL;
	if (info.corrupt)
		fprintf(stderr, "ktop: %s: %llu corrupt records left out\n",
			b->app->opts->input_path, (unsigned long long)info.corrupt);
	if (info.corrupt_page[0]) {
		fprintf(stderr, "ktop: %s (the events before it were printed)\n", info.corrupt_page);
		return KT_EXIT_FAILURE;
	}
	return ret;
}

int batch_run(struct kt_app *app, FILE *out)
{
	unsigned long long start = clock_mono_ns(), deadline = 0, now;
	struct batch b = { .app = app, .out = out };
	struct pollfd pfd = { .fd = app->wake_rd, .events = POLLIN };
	const struct kt_options *o = app->opts;
	int timeout, rec_status = KT_EXIT_OK;
	char err[512];

	if (!app_can(app, KT_CAP_SEEK))
		app->capture_start = start; /* the trace clock is CLOCK_MONOTONIC's */
	time_range_resolve(&o->range, app->capture_start, &b.from, &b.to);
	if (app_can(app, KT_CAP_SEEK))
		return batch_recording(&b);
	if (o->record_path) {
		struct kt_recorder_from src;

		if (app_recorder_from(app, &src, b.rec_err, sizeof(b.rec_err)) == 0)
			b.rec = recorder_start(&src, o->record_path, 0, b.rec_err,
					       sizeof(b.rec_err));
		if (!b.rec) {
			fprintf(stderr, "ktop: %s\n", b.rec_err);
			return KT_EXIT_FAILURE;
		}
		recorder_set_window(b.rec, b.from, b.to);
	}
	if (!batch_chrome_start(&b)) {
		app_stop_capture(app);
		return KT_EXIT_FAILURE;
	}
	if (o->tree && !(b.tree = batch_tree_new(app, err, sizeof(err)))) {
		fprintf(stderr, "ktop: %s\n", err);
		app_stop_capture(app);
		return KT_EXIT_FAILURE;
	}
	if (app->profile && !(b.profile = batch_profile_new(app))) {
		fprintf(stderr, "ktop: out of memory for the profile's stacks\n");
		app_stop_capture(app);
		return KT_EXIT_FAILURE;
	}
	if (!batch_folded_start(&b)) {
		app_stop_capture(app);
		return KT_EXIT_FAILURE;
	}
	if (o->n_arms && !(b.fr = flightrec_start(app, o->arms, o->n_arms,
						  o->incidents_dir, err, sizeof(err)))) {
		fprintf(stderr, "ktop: --arm: %s\n", err);
		app_stop_capture(app);
		return KT_EXIT_FAILURE;
	}
	/* an unattended run's log says from when it watches */
	if (b.fr)
		fprintf(stderr, "ktop: armed %zu condition%s, incidents to %s\n", o->n_arms,
			o->n_arms == 1 ? "" : "s", o->incidents_dir);
	if (o->duration > 0)
		deadline = start + (unsigned long long)(o->duration * 1e9);
	if (o->range.has_to && (!deadline || b.to < deadline))
		deadline = b.to; /* nothing after --to is printed: the capture ends there */
	b.deadline = deadline;
	for (;;) {
		now = clock_mono_ns();
		if (signals_pending() || (deadline && now >= deadline))
			break;
		timeout = (int)o->delay_ms;
		/* the sample rings hold about a second at 999 Hz: drained ten times as often */
		if ((b.profile || b.fr) && timeout > PROFILE_POLL_MS)
			timeout = PROFILE_POLL_MS;
		if (deadline && (deadline - now) / 1000000ull < (unsigned long long)timeout)
			timeout = (int)((deadline - now) / 1000000ull) + 1;
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			break;
		app_drain_wake(app);
		app_follow_cgroup(app);
		if (b.rec && recorder_pump(b.rec, b.rec_err, sizeof(b.rec_err)) < 0)
			rec_status = batch_finish_recording(&b);
		batch_print_new(&b);
		if (b.profile)
			batch_profile_poll(b.profile);
		if (b.fr)
			flightrec_poll(b.fr, out);
		if (batch_full(&b) || stopwhen_check(app) || (b.fr && flightrec_done(b.fr)))
			break;
	}
	/* an incident that fired is written with the post-roll it has, whatever ended the run */
	flightrec_flush(b.fr, out);
	/* The counters and the profile cover --duration, not the drain that follows. */
	if (app->pmu)
		pmu_stop(app->pmu);
	if (b.profile)
		batch_profile_poll(b.profile); /* later samples stay unread in the rings */
	if (b.profile && b.rec)
		batch_keep_profile(&b);
	/* Without tracefs there is no capture whose stop reads the histograms a last time. */
	if (!app_can(app, KT_CAP_EVENTS))
		app_tick(app);
	batch_read_trigger_output(&b);
	app_stop_capture(app);
	b.draining = true;
	batch_print_new(&b);
	flightrec_finish(b.fr);
	if (b.tree) {
		if (!o->quiet && !b.out_closed)
			batch_tree_print(b.tree, out, o->json, NULL);
		batch_tree_free(b.tree);
	}
	batch_folded_end(&b);
	fflush(out);
	batch_summary(&b, (double)(clock_mono_ns() - start) / 1e9);
	batch_profile_free(b.profile);
	if (batch_finish_chrome(&b) && rec_status == KT_EXIT_OK)
		rec_status = KT_EXIT_RECORDING;
	return b.rec ? batch_finish_recording(&b) : rec_status;
}
