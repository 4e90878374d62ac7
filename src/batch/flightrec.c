// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The armed flight recorder (flightrec.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "app/app_recorder.h"
#include "app/armspec.h"
#include "backend/bpf/armbpf.h"
#include "backend/ingest/decode.h"
#include "backend/bpf/histdata.h"
#include "util/clock.h"
#include "flightrec.h"
#include "util/json.h"
#include "util/log.h"
#include "record/incident.h"
#include "record/recorder.h"
#include "app/stopwhen.h"
#include "util/xalloc.h"

/* The reader brings a quiet CPU's partial page in every 100 ms: a window is written once
 * this long has passed after its end. */
#define FR_FLUSH_NS 300000000ull
/* An event condition's record is looked for this long before it is given up. */
#define FR_LOCATE_NS 2000000000ull
#define NS 1000000000.0

struct fr_cond {
	struct kt_armspec spec;
	unsigned int kidx;	/* its row in the kernel's conditions (they re-arm themselves) */
	/* an event condition: its trigger in place, since when, found spent when; armed again
	 * no sooner than rearm_ns */
	bool armed, added; /* added: its trigger is in the kernel, spent or not */
	uint64_t armed_seq;
	unsigned long long seen_ns;
	unsigned long long rearm_ns;
	char event[200];	/* event: "SYS:EV" */
};

struct fr_kept {
	char path[4096];
	unsigned long long bytes;
};

struct kt_flightrec {
	struct kt_app *app;
	struct fr_cond *conds;
	size_t n;
	struct kt_armbpf *bpf;
	struct kt_incident *queue; /* fired, waiting for their windows to be in the store */
	size_t nqueue;
	unsigned int fired;   /* incidents fired (numbered in that order) */
	unsigned int n0;      /* numbers go on from this: the list's last, armed before */
	unsigned int written; /* incidents written, kept or not */
	struct fr_kept *kept; /* this run's incident directories still on disk, oldest first */
	size_t nkept;
	unsigned long long kept_bytes;
	char *dir;			 /* --incidents */
	void (*say)(void *ctx, const char *line); /* NULL: stderr */
	void *say_ctx;
	struct kt_incident_rows *rows;	 /* where written incidents are listed, or NULL */
};

/* One problem line to the front end's place for them. */
__attribute__((format(printf, 2, 3))) static void fr_say(struct kt_flightrec *fr,
							  const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (fr->say)
		fr->say(fr->say_ctx, line);
	else
		fprintf(stderr, "ktop: %s\n", line);
}

void flightrec_set_say(struct kt_flightrec *fr, void (*say)(void *ctx, const char *line),
		       void *ctx)
{
	fr->say = say;
	fr->say_ctx = ctx;
}

/* Context for the store when no -e names any: the scheduler, and the syscalls when a
 * condition is about them. */
static int fr_default_events(struct kt_flightrec *fr, char *err, size_t errlen)
{
	const struct kt_options *o = fr->app->opts;
	bool sys = false;

	if (o->n_events || o->n_profile_events)
		return 0;
	for (size_t i = 0; i < fr->n; i++)
		sys |= fr->conds[i].spec.kind == KT_ARM_SYSCALL ||
		       fr->conds[i].spec.kind == KT_ARM_ERRNO;
	if (app_set_events(fr->app, "sched:sched_switch", true, err, errlen) < 0 ||
	    app_set_events(fr->app, "sched:sched_wakeup", true, err, errlen) < 0)
		return -1;
	if (sys && (app_set_events(fr->app, "raw_syscalls:sys_enter", true, err, errlen) < 0 ||
		    app_set_events(fr->app, "raw_syscalls:sys_exit", true, err, errlen) < 0))
		return -1;
	return 0;
}

/* An event condition's trigger, added (again). */
static int fr_arm_event(struct kt_flightrec *fr, struct fr_cond *c, char *err, size_t errlen)
{
	struct kt_trigger *t = &c->spec.trig;

	if (source_stacks_enabled(fr->app->source, t->system, t->event)) {
		snprintf(err, errlen, "%s:%s has stacks on (--stack), and the kernel takes one "
			 "stacktrace trigger per event: drop --stack there (the incident's record "
			 "carries its stack)", t->system, t->event);
		return -1;
	}
	store_lock(fr->app->store);
	c->armed_seq = store_end(fr->app->store);
	store_unlock(fr->app->store);
	if (source_trigger_add(fr->app->source, stopwhen_format(fr->app, t), t, err, errlen) < 0)
		return -1;
	c->armed = c->added = true;
	return 0;
}

static int fr_arm_all(struct kt_flightrec *fr, char *err, size_t errlen)
{
	struct kt_arm_cond rows[KT_ARM_MAX];
	size_t nk = 0;
	char ev[300];

	for (size_t i = 0; i < fr->n; i++) {
		struct fr_cond *c = &fr->conds[i];

		if (c->spec.kind != KT_ARM_NONE) {
			if (nk == KT_ARM_MAX) {
				snprintf(err, errlen, "--arm: at most %d syscall, errno, runq and "
					 "offcpu conditions", KT_ARM_MAX);
				return -1;
			}
			c->kidx = (unsigned int)nk;
			rows[nk] = c->spec.cond;
			rows[nk++].gap_ns = (unsigned long long)(fr->app->opts->arm_gap * NS);
			continue;
		}
		snprintf(ev, sizeof(ev), "%s:%s", c->spec.trig.system, c->spec.trig.event);
		if (app_set_events(fr->app, ev, true, err, errlen) < 0 ||
		    fr_arm_event(fr, c, err, errlen) < 0)
			return -1;
	}
	if (nk && !(fr->bpf = armbpf_open(rows, nk, err, errlen)))
		return -1;
	return 0;
}

struct kt_flightrec *flightrec_start(struct kt_app *app, const char *const *conds, size_t n,
				     const char *dir, char *err, size_t errlen)
{
	struct kt_flightrec *fr = xcalloc(1, sizeof(*fr));

	fr->app = app;
	fr->dir = xstrdup(dir);
	fr->conds = xcalloc(n, sizeof(*fr->conds));
	fr->n = n;
	for (size_t i = 0; i < fr->n; i++) {
		if (armspec_parse(conds[i], &fr->conds[i].spec, err, errlen) < 0)
			goto fail;
	}
	/* an unwritable directory is said now, not at the first incident hours later */
	if ((mkdir(dir, 0700) < 0 && errno != EEXIST) || access(dir, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "--incidents %s: %s (name a directory ktop may write)", dir,
			 strerror(errno));
		goto fail;
	}
	if (fr_default_events(fr, err, errlen) < 0 || fr_arm_all(fr, err, errlen) < 0)
		goto fail;
	return fr;
fail:
	flightrec_finish(fr);
	return NULL;
}

/* The incident of c, fired as f says: queued with its window, written once the reader has
 * brought that in; c may be armed again meanwhile (after its gap). */
static struct kt_incident *fr_fired(struct kt_flightrec *fr, struct fr_cond *c,
				    const struct kt_arm_fire *f)
{
	const struct kt_options *o = fr->app->opts;
	unsigned long long pre = (unsigned long long)(o->arm_pre * NS);
	struct kt_incident *inc;

	fr->queue = xreallocarray(fr->queue, fr->nqueue + 1, sizeof(*fr->queue));
	inc = &fr->queue[fr->nqueue++];
	memset(inc, 0, sizeof(*inc));
	inc->n = fr->n0 + ++fr->fired;
	inc->cond = c->spec.text;
	inc->kind = c->spec.kind;
	inc->threshold_ns = c->spec.cond.min_ns;
	inc->fire = *f;
	inc->from = f->start > pre ? f->start - pre : 0;
	inc->to = f->ts + (unsigned long long)(o->arm_post * NS);
	inc->pre = o->arm_pre;
	inc->post = o->arm_post;
	if (c->spec.kind != KT_ARM_NONE) {
		struct kt_arm_count n;

		armbpf_counts(fr->bpf, c->kidx, &n);
		inc->matches = n.matches;
		inc->full = n.full;
		return inc; /* the kernel re-arms it */
	}
	c->armed = false;
	c->rearm_ns = f->ts + (unsigned long long)(o->arm_gap * NS);
	log_debug("flightrec: %s fired at %llu", c->spec.text, f->ts);
	return inc;
}

/* The record of an event condition that fired: the last of its event since it was armed
 * with a stack after it (the trigger's). False while the reader has not brought it in. */
static bool fr_locate_event(struct kt_flightrec *fr, struct fr_cond *c, struct kt_arm_fire *f)
{
	struct kt_app *app = fr->app;
	struct tep_event *te = tep_find_event_by_name(decoder_tep(app->decoder),
						      c->spec.trig.system, c->spec.trig.event);
	struct kt_rec r;
	bool found = false;

	store_lock(app->store);
	for (uint64_t seq = store_end(app->store); te && !found && seq > c->armed_seq &&
						  seq > store_first(app->store); seq--) {
		if (!store_get(app->store, seq - 1, &r) || (r.flags & KT_REC_LOST) ||
		    decoder_rec_type(&r) != te->id || !r.stack)
			continue;
		memset(f, 0, sizeof(*f));
		f->pid = f->tid = decoder_rec_pid(&r);
		snprintf(f->comm, sizeof(f->comm), "%s", decoder_comm(app->decoder, f->pid, r.ts));
		f->cpu = r.cpu;
		f->nr = -1;
		f->ts = f->start = r.ts;
		found = true;
	}
	store_unlock(app->store);
	return found;
}

/* An event condition: its trigger spent, then its record found (or given up on). */
static void fr_poll_event(struct kt_flightrec *fr, struct fr_cond *c)
{
	char ev[300];
	struct kt_arm_fire f;

	if (!c->seen_ns) {
		if (!source_trigger_spent(fr->app->source, c->spec.trig.system,
					  c->spec.trig.event, "stacktrace"))
			return;
		c->seen_ns = clock_mono_ns();
	}
	if (!fr_locate_event(fr, c, &f)) {
		if (clock_mono_ns() < c->seen_ns + FR_LOCATE_NS)
			return;
		snprintf(ev, sizeof(ev), "%s:%s", c->spec.trig.system, c->spec.trig.event);
		fr_say(fr, "--arm %s fired, but its %s record was evicted or lost: the window is "
		       "taken around the moment it was seen", c->spec.text, ev);
		memset(&f, 0, sizeof(f));
		f.nr = -1;
		f.ts = f.start = c->seen_ns;
	}
	c->seen_ns = 0;
	snprintf(c->event, sizeof(c->event), "%s:%s", c->spec.trig.system, c->spec.trig.event);
	fr_fired(fr, c, &f)->event = c->event;
}

/* "syscall clock_nanosleep took 120.3 ms", "syscall openat failed ENOENT". */
static void fr_what(const struct kt_incident *inc, char *buf, size_t len)
{
	const struct kt_arm_fire *f = &inc->fire;
	const char *sc = f->nr >= 0 ? hist_syscall_name((unsigned long long)f->nr) : NULL;

	switch (inc->kind) {
	case KT_ARM_NONE:
		snprintf(buf, len, "event %s", inc->event);
		break;
	case KT_ARM_ERRNO:
		snprintf(buf, len, "syscall %s failed %s", sc ? sc : "?",
			 strerrorname_np((int)f->value) ? strerrorname_np((int)f->value) : "?");
		break;
	default:
		snprintf(buf, len, "%s%s%s %.3f ms", inc->kind == KT_ARM_SYSCALL ? "syscall " : "",
			 inc->kind == KT_ARM_SYSCALL ? (sc ? sc : "?") :
			 inc->kind == KT_ARM_RUNQ ? "run-queue wait" : "off-CPU",
			 inc->kind == KT_ARM_SYSCALL ? " took" : "", (double)f->value / 1e6);
	}
}

static void fr_line(const struct kt_incident *inc, const char *path, FILE *out, bool json)
{
	char what[128], ts[32];
	double post_kept = (double)(inc->to - inc->fire.ts) / NS;

	fr_what(inc, what, sizeof(what));
	decoder_format_ts(inc->fire.ts, 0, ts, sizeof(ts));
	if (json) {
		fprintf(out, "{\"incident\":{\"n\":%u,\"condition\":", inc->n);
		json_string(out, inc->cond);
		fputs(",\"what\":", out);
		json_string(out, what);
		fprintf(out, ",\"pid\":%d,\"tid\":%d,\"cpu\":%u,\"fired\":\"%s\",\"dir\":", inc->fire.pid,
			inc->fire.tid, inc->fire.cpu, ts);
		json_string(out, path);
		if (inc->truncated)
			fprintf(out, ",\"truncated\":true,\"post_kept_s\":%.3f", post_kept);
		fputs("}}\n", out);
	} else {
		fprintf(out, "incident %u: %s: %s by %s %d/%d on CPU %u at %s -> %s", inc->n,
			inc->cond, what, inc->fire.comm, inc->fire.pid, inc->fire.tid, inc->fire.cpu,
			ts, path);
		if (inc->truncated)
			fprintf(out, " (truncated: ktop stopped %.3f s into the %g s post-roll)",
				post_kept, inc->post);
		fputc('\n', out);
	}
	fflush(out);
}

/* --incident-quota: this run's oldest incidents go until the total fits (the newest stays). */
static void fr_quota(struct kt_flightrec *fr, const char *path)
{
	size_t quota = fr->app->opts->incident_quota;
	struct fr_kept *k;

	fr->kept = xrealloc(fr->kept, (fr->nkept + 1) * sizeof(*fr->kept));
	k = &fr->kept[fr->nkept++];
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->bytes = incident_size(path);
	fr->kept_bytes += k->bytes;
	while (quota && fr->kept_bytes > quota && fr->nkept > 1) {
		k = &fr->kept[0];
		if (incident_remove(k->path) < 0)
			fr_say(fr, "--incident-quota: cannot remove %s: %s", k->path,
			       strerror(errno));
		else
			fr_say(fr, "--incident-quota %zu bytes: removed the oldest, %s (%llu bytes)",
			       quota, k->path, k->bytes);
		fr->kept_bytes -= k->bytes;
		memmove(fr->kept, fr->kept + 1, --fr->nkept * sizeof(*fr->kept));
	}
}

/* The explorer's row of an incident written. */
static void fr_row(struct kt_flightrec *fr, const struct kt_incident *inc,
		   const struct kt_window_stats *ws, const char *path)
{
	struct kt_fr_row *r;

	if (!fr->rows)
		return;
	r = incident_rows_add(fr->rows);
	r->n = inc->n;
	r->fired = inc->fire.ts;
	r->from = inc->from;
	r->to = inc->to;
	snprintf(r->cond, sizeof(r->cond), "%s", inc->cond);
	fr_what(inc, r->what, sizeof(r->what));
	if (inc->kind == KT_ARM_NONE)
		snprintf(r->value, sizeof(r->value), "event");
	else if (inc->kind == KT_ARM_ERRNO)
		snprintf(r->value, sizeof(r->value), "%s",
			 strerrorname_np((int)inc->fire.value) ? strerrorname_np((int)inc->fire.value)
							       : "?");
	else
		snprintf(r->value, sizeof(r->value), "%.3f ms", (double)inc->fire.value / 1e6);
	snprintf(r->comm, sizeof(r->comm), "%s", inc->fire.comm);
	r->pid = inc->fire.pid;
	r->tid = inc->fire.tid;
	r->cpu = inc->fire.cpu;
	r->lost = ws->lost_events;
	snprintf(r->path, sizeof(r->path), "%s", path);
}

void flightrec_set_rows(struct kt_flightrec *fr, struct kt_incident_rows *rows)
{
	size_t n = incident_rows_count(rows);

	fr->rows = rows;
	fr->n0 = n ? incident_rows_get(rows, n - 1)->n : 0;
}

void flightrec_conds(const struct kt_flightrec *fr, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < fr->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "; " : "",
					fr->conds[i].spec.text);
}

/* Writes the queued incident i and takes it off the queue. */
static void fr_write(struct kt_flightrec *fr, size_t i, FILE *out)
{
	struct kt_incident *inc = &fr->queue[i];
	struct kt_window_stats ws = { 0 };
	struct kt_incident_from src;
	char path[4096], err[1024];
	int rc;

	fr->written++;
	rc = app_incident_from(fr->app, &src, err, sizeof(err));
	if (rc == 0)
		rc = incident_write(&src, fr->dir, inc, path, sizeof(path), &ws, err,
				    sizeof(err));
	if (rc < 0)
		fr_say(fr, "incident %u not written: %s; capture goes on", inc->n, err);
	else if (rc > 0)
		fr_say(fr, "incident %u: %s; capture goes on", inc->n, err);
	if (rc >= 0) {
		if (out)
			fr_line(inc, path, out, fr->app->opts->json);
		fr_row(fr, inc, &ws, path);
		fr_quota(fr, path);
	}
	memmove(inc, inc + 1, (--fr->nqueue - i) * sizeof(*inc));
}

/* --max-incidents have fired: no more are taken. */
static bool fr_full(const struct kt_flightrec *fr)
{
	return fr->app->opts->max_incidents && fr->fired >= fr->app->opts->max_incidents;
}

/* An event condition's trigger added again once its gap has passed, until --max-incidents
 * have fired (the kernel's conditions re-arm themselves). */
static void fr_rearm(struct kt_flightrec *fr, struct fr_cond *c)
{
	char err[512];

	if (c->armed || fr_full(fr) || clock_mono_ns() < c->rearm_ns)
		return;
	/* only its own spent stacktrace:1: the user's triggers on the event stay (the kernel
	 * holds one stacktrace per event, so that one is ours: fr_arm_event checks) */
	if (source_trigger_remove_cmd(fr->app->source, c->spec.trig.system, c->spec.trig.event,
				      c->spec.trig.cmd, err, sizeof(err)) < 0 ||
	    fr_arm_event(fr, c, err, sizeof(err)) < 0) {
		fr_say(fr, "--arm %s cannot be armed again: %s", c->spec.text, err);
		c->rearm_ns = ~0ull;
	}
}

/* What fired since the last look, queued; event conditions armed again when rearm. */
static void fr_collect(struct kt_flightrec *fr, bool rearm)
{
	struct kt_arm_fire f;

	for (size_t i = 0; i < fr->n; i++) {
		struct fr_cond *c = &fr->conds[i];

		if (c->spec.kind == KT_ARM_NONE) {
			if (c->armed)
				fr_poll_event(fr, c);
			if (rearm)
				fr_rearm(fr, c);
			continue;
		}
		while (!fr_full(fr) && armbpf_take(fr->bpf, c->kidx, &f))
			fr_fired(fr, c, &f);
	}
}

void flightrec_poll(struct kt_flightrec *fr, FILE *out)
{
	size_t i;

	fr_collect(fr, true);
	/* a window is in the store once the reader has passed its end */
	for (i = 0; i < fr->nqueue;) {
		if (clock_mono_ns() >= fr->queue[i].to + FR_FLUSH_NS)
			fr_write(fr, i, out);
		else
			i++;
	}
}

void flightrec_flush(struct kt_flightrec *fr, FILE *out)
{
	unsigned long long now = clock_mono_ns(), last = 0;
	struct timespec nap;

	if (!fr)
		return;
	fr_collect(fr, false); /* what fired since the last tick too */
	for (size_t i = 0; i < fr->nqueue; i++) {
		struct kt_incident *inc = &fr->queue[i];

		if (inc->to > now) {
			inc->to = now > inc->fire.ts ? now : inc->fire.ts;
			inc->truncated = true;
		}
		if (inc->to > last)
			last = inc->to;
	}
	/* what came up to now is in the store once the reader has had a quiet CPU's turn */
	if (last + FR_FLUSH_NS > now) {
		nap.tv_sec = (time_t)((last + FR_FLUSH_NS - now) / 1000000000ull);
		nap.tv_nsec = (long)((last + FR_FLUSH_NS - now) % 1000000000ull);
		nanosleep(&nap, NULL);
	}
	while (fr->nqueue)
		fr_write(fr, 0, out);
}

bool flightrec_done(const struct kt_flightrec *fr)
{
	return fr->app->opts->max_incidents && fr->written >= fr->app->opts->max_incidents;
}

void flightrec_finish(struct kt_flightrec *fr)
{
	char err[512];

	if (!fr)
		return;
	/* the explorer disarms while the capture goes on: its own triggers go now */
	for (size_t i = 0; i < fr->n; i++)
		if (fr->conds[i].added &&
		    source_trigger_remove_cmd(fr->app->source, fr->conds[i].spec.trig.system,
					      fr->conds[i].spec.trig.event,
					      fr->conds[i].spec.trig.cmd, err, sizeof(err)) < 0)
			log_debug("flightrec: %s", err);
	armbpf_close(fr->bpf);
	free(fr->dir);
	free(fr->queue);
	free(fr->kept);
	free(fr->conds);
	free(fr);
}
