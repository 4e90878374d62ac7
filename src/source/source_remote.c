// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The remote event source (ktop -H HOST, ktop --via CMD without -b): the explorer over an
 * agent at the other end of a pipe (src/remote/, docs/remote.md). The agent's formats build
 * the tep the decoder reads, its available_events the catalogue. A client thread pumps the
 * pipe: pages decoded and merged by time (remote/pages.c, shared with batch mode) go into
 * app->store, one byte to the wake pipe per batch; task names into app->comms; the agent's
 * loss frames become app->cpu_stats and app->kernel_lost on the tick. Control requests are
 * sent from the UI thread under the same lock (remote_call dispatches what comes meanwhile,
 * the formats of the events it enables among them, so the tep only changes on the UI
 * thread). Events, filters, the tracer and dynamic probes are offered (the function lists
 * are not: the tracer pane says they are missing; a probe's hit counts are not asked for);
 * the rest is refused with one line. The agent's command's stderr (ssh's warnings) would
 * break the screen: it is read through a pipe, its last line shown in the status line and
 * all of it printed to stderr once the screen is given back (as the source closes).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "backend/catalog.h"
#include "backend/comms.h"
#include "backend/decode.h"
#include "clock.h"
#include "log.h"
#include "remote/client.h"
#include "remote/pages.h"
#include "source/source.h"
#include "xalloc.h"

#define REMOTE_HELLO_MS 30000
#define REMOTE_PING_NS 1000000000ull
/* The header says "behind" from this wait of the agent's oldest unsent event: below it is
 * the reader's own pace (a quiet CPU's partial page every 100 ms) and the tick's. */
#define REMOTE_BEHIND_NS 500000000ull
/* An agent flooding its stderr must not grow the explorer: the first this many bytes are
 * kept for the end, the lines past them counted. */
#define REMOTE_ERRLOG_MAX (64u << 10)

/* An event the viewer turned on or gave a filter ("sys:ev"; "sys:*" a whole system). */
struct rs_event {
	char *spec;
	char *filter; /* NULL: none */
	bool on;
};

struct remote_src {
	struct kt_app *app;
	struct tep_handle *tep;
	pthread_mutex_t lock; /* r and pages: the client thread's pump, the UI's requests */
	struct kt_remote *r;
	struct kt_rpages *pages;
	struct kt_hello hello;
	char *events; /* available_events as the agent sent it */
	size_t events_len;
	struct rs_event *ev;
	size_t n_ev;
	char **asked; /* "sys:ev" whose format the decoder asked the agent for */
	size_t n_asked;
	pthread_t thread;
	bool thread_on;
	int ctl[2]; /* wakes the client thread to stop */
	char ended[512]; /* under lock: why the capture stopped */
	bool gone;	 /* the pipe closed or the agent failed: the capture stopped */
	char name[256];
	char tracer[64]; /* the agent's instance's, as last switched */
	bool symbols; /* its kallsyms were asked for */
	struct kt_probe *probes; /* made through the agent, in creation order */
	size_t n_probes;
	struct kt_rbacklog backlog; /* UI thread: the agent's last report, as of the tick */
	char *errlog; /* under lock: what the command wrote to its stderr, kept for the end */
	size_t errlog_len;
	unsigned long errlog_dropped; /* lines past REMOTE_ERRLOG_MAX, counted, not kept */
	char errlast[256]; /* under lock: its last line, without control characters */
	unsigned errseq;   /* under lock: lines so far */
	char note[256];	   /* UI thread: errlast and errseq as of the tick */
	unsigned noteseq;
};

#define RS(s) ((struct remote_src *)(s)->data)

/* ---- what the agent sends (under lock, from the client or the UI thread) -------------- */

static void rs_emit(void *ctx, const struct kt_rec *r)
{
	struct remote_src *rs = ctx;

	if (r->flags & KT_REC_LOST)
		store_append_lost(rs->app->store, r->ts, r->cpu, r->lost);
	else
		store_append(rs->app->store, r->ts, r->cpu, r->data, r->size);
}

static void rs_wake(struct remote_src *rs)
{
	char b = 1;
	ssize_t n = write(rs->app->wake_wr, &b, 1); /* a full pipe already says "wake up" */

	(void)n;
}

static void rs_hello(void *ctx, const struct kt_hello *h)
{
	struct remote_src *rs = ctx;

	rs->hello = *h;
	rpages_hello(rs->pages, h);
}

static void rs_header_page(void *ctx, const uint8_t *p, size_t n)
{
	rpages_header_page(((struct remote_src *)ctx)->pages, p, n);
}

static void rs_format(void *ctx, const char *sys, const char *name, const uint8_t *text,
		      size_t n)
{
	struct remote_src *rs = ctx;

	if (rpages_format(rs->pages, sys, text, n) < 0)
		log_debug("%s: the format of %s:%s does not parse", __func__, sys, name);
}

static void rs_events(void *ctx, const uint8_t *p, size_t n)
{
	struct remote_src *rs = ctx;

	free(rs->events);
	rs->events = xmalloc(n + 1);
	memcpy(rs->events, p, n);
	rs->events[n] = '\0';
	rs->events_len = n;
}

/* The agent's kallsyms and printk formats (asked for by rs_load_symbols): addresses in its
 * records become its kernel's function names. */
static void rs_parse(struct remote_src *rs, const uint8_t *p, size_t n, bool kallsyms)
{
	char *buf = xmalloc(n + 1);

	memcpy(buf, p, n);
	buf[n] = '\0';
	if (kallsyms ? tep_parse_kallsyms(rs->tep, buf) : tep_parse_printk_formats(rs->tep, buf))
		log_debug("%s: the agent's %s do not parse", __func__,
			  kallsyms ? "kallsyms" : "printk formats");
	free(buf);
}

static void rs_kallsyms(void *ctx, const uint8_t *p, size_t n)
{
	rs_parse(ctx, p, n, true);
}

static void rs_printk(void *ctx, const uint8_t *p, size_t n)
{
	rs_parse(ctx, p, n, false);
}

static void rs_page(void *ctx, uint32_t cpu, const uint8_t *page, size_t len)
{
	struct remote_src *rs = ctx;

	store_lock(rs->app->store);
	rpages_page(rs->pages, cpu, page, len);
	store_unlock(rs->app->store);
}

static void rs_watermark(void *ctx, uint64_t ts)
{
	struct remote_src *rs = ctx;

	store_lock(rs->app->store);
	rpages_flush(rs->pages, ts);
	store_unlock(rs->app->store);
	rs_wake(rs);
}

static void rs_comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	comms_set(((struct remote_src *)ctx)->app->comms, pid, ts, name);
}

static void rs_loss(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		    const struct kt_backlog *bl)
{
	rpages_loss(((struct remote_src *)ctx)->pages, cpus, ncpus, bl);
}

/* A line of the command's stderr: kept, and the last one for the status line. */
static void rs_stderr(void *ctx, const char *line)
{
	struct remote_src *rs = ctx;
	size_t n = strlen(line), i;

	if (rs->errlog_len + n + 1 > REMOTE_ERRLOG_MAX) {
		rs->errlog_dropped++;
	} else {
		rs->errlog = xrealloc(rs->errlog, rs->errlog_len + n + 2);
		memcpy(rs->errlog + rs->errlog_len, line, n);
		rs->errlog_len += n;
		rs->errlog[rs->errlog_len++] = '\n';
		rs->errlog[rs->errlog_len] = '\0';
	}
	/* an escape sequence must not reach the screen */
	for (i = 0; line[i] && i < sizeof(rs->errlast) - 1; i++)
		rs->errlast[i] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
	rs->errlast[i] = '\0';
	rs->errseq++;
}

/* What the command wrote to its stderr, to ours (the screen is not curses' now). */
static void rs_stderr_out(struct remote_src *rs)
{
	if (rs->errlog_len)
		fputs(rs->errlog, stderr);
	if (rs->errlog_dropped)
		fprintf(stderr, "ktop: %lu more lines of the agent's stderr not kept (past %u KiB)\n",
			rs->errlog_dropped, REMOTE_ERRLOG_MAX >> 10);
	free(rs->errlog);
	rs->errlog = NULL;
	rs->errlog_len = 0;
	rs->errlog_dropped = 0;
}

static const struct kt_remote_ops rs_ops = {
	.hello = rs_hello,
	.header_page = rs_header_page,
	.format = rs_format,
	.events = rs_events,
	.kallsyms = rs_kallsyms,
	.printk = rs_printk,
	.page = rs_page,
	.comm = rs_comm,
	.loss = rs_loss,
	.watermark = rs_watermark,
	.stderr_line = rs_stderr,
};

/* ---- the client thread ----------------------------------------------------------------- */

/* Pumps the pipe until told to stop or the agent ends; pings once a second. */
static void *rs_thread(void *arg)
{
	struct remote_src *rs = arg;
	struct pollfd pfd[3] = { { .fd = remote_fd(rs->r), .events = POLLIN },
				 { .fd = rs->ctl[0], .events = POLLIN },
				 { .fd = remote_err_fd(rs->r), .events = POLLIN } };
	unsigned long long ping = 0, now;
	char err[512] = "";
	int ret = 1;

	while (ret > 0) {
		if (poll(pfd, 3, 1000) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			return NULL;
		pthread_mutex_lock(&rs->lock);
		now = clock_mono_ns();
		if (now - ping >= REMOTE_PING_NS) {
			remote_ping(rs->r);
			ping = now;
		}
		if (pfd[0].revents || pfd[2].revents)
			ret = remote_pump(rs->r, err, sizeof(err));
		pfd[2].fd = remote_err_fd(rs->r); /* -1 once it ended */
		if (ret <= 0) { /* what came is all there is: stored, in order */
			store_lock(rs->app->store);
			rpages_flush(rs->pages, UINT64_MAX);
			store_unlock(rs->app->store);
			snprintf(rs->ended, sizeof(rs->ended), "%s",
				 err[0] ? err : "the agent ended the capture");
			__atomic_store_n(&rs->gone, true, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&rs->lock);
	}
	log_debug("%s: %s", __func__, rs->ended);
	rs_wake(rs);
	return NULL;
}

/* ---- the source's ops ------------------------------------------------------------------ */

static unsigned int remote_caps(struct kt_source *s)
{
	return KT_CAP_EVENTS | KT_CAP_FILTER | KT_CAP_TRACER | KT_CAP_PROBES | KT_CAP_LIVE |
	       KT_CAP_CLEAR | KT_CAP_KBUF;
}

/* One line each, short enough for an 80-column status line. */
static const char *remote_refusal(struct kt_source *s, enum kt_cap cap)
{
	switch (cap) {
	case KT_CAP_HIST:
		return "remote: BPF histograms over an agent are not done yet";
	case KT_CAP_COUNTERS:
		return "remote: counters over an agent are not done yet";
	case KT_CAP_PROFILE:
		return "remote: profiles over an agent are not done yet";
	case KT_CAP_WRITE:
		return "remote: w and A not done yet (ktop -b -H HOST -o FILE records it)";
	case KT_CAP_TRIGGERS:
		return "remote: triggers over an agent are not done yet";
	case KT_CAP_STACKS:
		return "remote: stacks on events over an agent are not done yet";
	case KT_CAP_SCOPE:
		return "remote: scoping over an agent is not done yet (a filter on common_pid is)";
	default:
		return "remote: not available over an agent yet (events, filters, tracers are)";
	}
}

static void remote_describe(struct kt_source *s, struct kt_source_desc *d)
{
	struct remote_src *rs = RS(s);

	/* first: the header cuts a long --via command short */
	snprintf(d->name, sizeof(d->name), "%s%.240s",
		 __atomic_load_n(&rs->gone, __ATOMIC_ACQUIRE) ? "ENDED " : "", rs->name);
	snprintf(d->host, sizeof(d->host), "%s", rs->hello.host);
	snprintf(d->kernel, sizeof(d->kernel), "%s", rs->hello.kernel);
	snprintf(d->note, sizeof(d->note), "%s", rs->note);
	d->note_seq = rs->noteseq;
	/* an agent that ended is behind no longer: what it sent is all there is */
	if (rs->backlog.age_ns >= REMOTE_BEHIND_NS &&
	    !__atomic_load_n(&rs->gone, __ATOMIC_ACQUIRE)) {
		d->behind_bytes = rs->backlog.bytes;
		d->behind_ns = rs->backlog.age_ns;
	}
}

/* The agent's last loss counters and what its pages brought. */
static void remote_tick(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	struct kt_app *app = s->app;
	const struct kt_cpu_stats *st;
	uint32_t n;

	pthread_mutex_lock(&rs->lock);
	rpages_stats(rs->pages, &app->rstats, app->cpu_rstats, (uint32_t)app->ncpus,
		     &app->kernel_lost);
	st = rpages_cpu_stats(rs->pages, &n);
	for (uint32_t i = 0; i < n && i < (uint32_t)app->ncpus; i++)
		app->cpu_stats[i] = st[i];
	rpages_backlog(rs->pages, &rs->backlog);
	memcpy(rs->note, rs->errlast, sizeof(rs->note));
	rs->noteseq = rs->errseq;
	pthread_mutex_unlock(&rs->lock);
}

static void rs_probe_free(struct kt_probe *p)
{
	free(p->system);
	free(p->event);
	free(p->definition);
}

static void remote_close_src(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	char b = 1;

	if (rs->thread_on) {
		if (write(rs->ctl[1], &b, 1) < 0)
			log_debug("%s: %s", __func__, strerror(errno));
		pthread_join(rs->thread, NULL);
	}
	/* the agent sees its input and output close: it removes its instance at once */
	remote_close(rs->r);
	rs_stderr_out(rs);
	close(rs->ctl[0]);
	close(rs->ctl[1]);
	rpages_free(rs->pages);
	for (size_t i = 0; i < rs->n_ev; i++) {
		free(rs->ev[i].spec);
		free(rs->ev[i].filter);
	}
	free(rs->ev);
	for (size_t i = 0; i < rs->n_asked; i++)
		free(rs->asked[i]);
	free(rs->asked);
	free(rs->events);
	for (size_t i = 0; i < rs->n_probes; i++)
		rs_probe_free(&rs->probes[i]);
	free(rs->probes);
	pthread_mutex_destroy(&rs->lock);
	if (rs->tep)
		tep_free(rs->tep);
	free(rs);
	s->data = NULL;
}

static struct rs_event *rs_find(struct remote_src *rs, const char *system, const char *event,
				bool add)
{
	char spec[512];

	snprintf(spec, sizeof(spec), "%s:%s", system, event ? event : "*");
	for (size_t i = 0; i < rs->n_ev; i++)
		if (!strcmp(rs->ev[i].spec, spec))
			return &rs->ev[i];
	if (!add)
		return NULL;
	rs->ev = xreallocarray(rs->ev, rs->n_ev + 1, sizeof(*rs->ev));
	rs->ev[rs->n_ev] = (struct rs_event){ .spec = xstrdup(spec) };
	return &rs->ev[rs->n_ev++];
}

/* A request and its reply (the agent's text, or its refusal; once the agent is gone, why,
 * without writing to its closed pipe). */
static int rs_ask(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		  char *reply, size_t len)
{
	sigset_t old;
	int ret = -1;

	/* an agent that died makes the write fail, not the explorer end (SIGPIPE ends it) */
	remote_sigpipe_block(&old);
	pthread_mutex_lock(&rs->lock);
	if (__atomic_load_n(&rs->gone, __ATOMIC_ACQUIRE))
		snprintf(reply, len, "%s", rs->ended);
	else
		ret = remote_call(rs->r, op, arg, arg2, reply, len);
	pthread_mutex_unlock(&rs->lock);
	remote_sigpipe_restore(&old);
	return ret;
}

/* A request; the agent's refusal as err. */
static int rs_call(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		   char *err, size_t errlen)
{
	char reply[1024];
	int ret = rs_ask(rs, op, arg, arg2, reply, sizeof(reply));

	if (ret < 0 && err && errlen)
		snprintf(err, errlen, "%s", reply);
	return ret;
}

/* The decoder lacks a format (the picker shows one, a filter is checked against it): the
 * agent sends it, once per event. UI thread. */
static int rs_load_format(void *ctx, const char *system, const char *event)
{
	struct remote_src *rs = ctx;
	char spec[512];

	snprintf(spec, sizeof(spec), "%s:%s", system, event);
	for (size_t i = 0; i < rs->n_asked; i++)
		if (!strcmp(rs->asked[i], spec))
			return -1;
	rs->asked = xreallocarray(rs->asked, rs->n_asked + 1, sizeof(*rs->asked));
	rs->asked[rs->n_asked++] = xstrdup(spec);
	return rs_call(rs, KT_REQ_FORMAT, spec, "", NULL, 0);
}

static int remote_enable(struct kt_source *s, const char *system, const char *event, bool on,
			 char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);

	if (rs_call(rs, on ? KT_REQ_ENABLE : KT_REQ_DISABLE, e->spec,
		    on && e->filter ? e->filter : "", err, errlen) < 0)
		return -1;
	e->on = on;
	return 0;
}

static bool remote_is_enabled(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	if (!e && event) /* its whole system */
		e = rs_find(RS(s), system, NULL, false);
	return e && e->on;
}

static int remote_for_each_enabled(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	struct remote_src *rs = RS(s);
	const struct kt_catalog *cat = s->app->catalog;
	int n = 0;

	for (size_t i = 0; cat && i < cat->count; i++) {
		if (!remote_is_enabled(s, cat->events[i].system, cat->events[i].name))
			continue;
		n++;
		if (fn)
			fn(cat->events[i].system, cat->events[i].name, ctx);
	}
	(void)rs;
	return n;
}

static char *remote_get_filter(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	return e && e->filter ? xstrdup(e->filter) : NULL;
}

/* The agent sets a filter as it enables (its enable request carries it): an event that is
 * on is enabled again with it; one that is off keeps it for when it is turned on. The
 * protocol has no request that clears a filter yet: that is refused while the event is on. */
static int remote_set_filter(struct kt_source *s, const char *system, const char *event,
			     const char *filter, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool clear = !filter || !*filter;

	if (e->on && clear) {
		snprintf(err, errlen, "clearing a filter over a remote agent is not done yet: turn "
			 "%s off and on again instead", e->spec);
		return -1;
	}
	if (e->on && rs_call(rs, KT_REQ_ENABLE, e->spec, filter, err, errlen) < 0)
		return -1;
	free(e->filter);
	e->filter = clear ? NULL : xstrdup(filter);
	return 0;
}

static char *remote_tracer(struct kt_source *s)
{
	return xstrdup(RS(s)->tracer);
}

/* The agent's instance's tracers (tracers.h's array). */
static char **remote_tracers_available(struct kt_source *s, char *err, size_t errlen)
{
	char reply[1024], *save = NULL, *w;
	char **names = xcalloc(1, sizeof(*names));
	size_t n = 0;

	if (rs_ask(RS(s), KT_REQ_TRACERS, "", "", reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s", reply);
		free(names);
		return NULL;
	}
	for (w = strtok_r(reply, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		names = xreallocarray(names, n + 2, sizeof(*names));
		names[n++] = xstrdup(w);
		names[n] = NULL;
	}
	return names;
}

/* The agent's available_events again: its catalogue after a probe came or went. */
static int rs_refresh_catalog(struct remote_src *rs, char *err, size_t errlen)
{
	struct kt_catalog *cat;

	if (rs_call(rs, KT_REQ_EVENTS, "", "", err, errlen) < 0)
		return -1;
	cat = catalog_parse(rs->events);
	if (!cat) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	catalog_free(rs->app->catalog);
	rs->app->catalog = cat;
	return 0;
}

/* The agent makes it (disabled) and names it; its catalogue is read again. The format
 * comes as for any event: the decoder asks for it (request 8), and the agent sends it when
 * the event is enabled (so a probe made again, with a new id, is decoded by its new one). */
static int remote_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			       char *event, size_t eventlen, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	char reply[1024], sys[128];
	const char *colon;

	if (rs_ask(rs, KT_REQ_PROBE_ADD, probe_kind_name(kind), def, reply, sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s", reply);
		return -1;
	}
	colon = strchr(reply, ':');
	if (!colon) {
		snprintf(err, errlen, "%s named its probe '%.200s', not GROUP:NAME", rs->name,
			 reply);
		return -1;
	}
	snprintf(event, eventlen, "%s", reply);
	if (rs_refresh_catalog(rs, err, errlen) < 0) {
		rs_call(rs, KT_REQ_PROBE_DEL, reply, "", NULL, 0);
		return -1;
	}
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - reply), reply);
	rs->probes = xreallocarray(rs->probes, rs->n_probes + 1, sizeof(*rs->probes));
	rs->probes[rs->n_probes++] = (struct kt_probe){
		.kind = kind,
		.system = xstrdup(sys),
		.event = xstrdup(colon + 1),
		.definition = xstrdup(def),
	};
	return 0;
}

static int remote_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	const char *ev = strchr(name, ':') ? strchr(name, ':') + 1 : name;
	struct rs_event *e;
	size_t i;

	if (rs_call(rs, KT_REQ_PROBE_DEL, name, "", err, errlen) < 0)
		return -1;
	for (i = 0; i < rs->n_probes && strcmp(rs->probes[i].event, ev); i++)
		;
	if (i < rs->n_probes) {
		/* the agent disabled it as it went */
		e = rs_find(rs, rs->probes[i].system, ev, false);
		if (e)
			e->on = false;
		rs_probe_free(&rs->probes[i]);
		memmove(&rs->probes[i], &rs->probes[i + 1],
			(rs->n_probes - i - 1) * sizeof(*rs->probes));
		rs->n_probes--;
	}
	rs_refresh_catalog(rs, NULL, 0);
	return 0;
}

static size_t remote_probe_count(struct kt_source *s)
{
	return RS(s)->n_probes;
}

static const struct kt_probe *remote_probe_get(struct kt_source *s, size_t i)
{
	return i < RS(s)->n_probes ? &RS(s)->probes[i] : NULL;
}

/* The agent restarts its reader around the switch (its pages keep coming). A tracer's
 * records carry kernel addresses (a call tree's functions): before the first switch to one,
 * while the link is still quiet, the agent's kallsyms and printk formats come into the tep,
 * here, where the UI holds no lock the pages coming meanwhile need (a row being drawn holds
 * the store's). A few MB: seconds over a slow link. */
static int remote_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	char why[1024];

	if (strcmp(name, "nop") && !rs->symbols) {
		rs->symbols = true;
		if (rs_call(rs, KT_REQ_KALLSYMS, "", "", why, sizeof(why)) < 0)
			log_debug("%s: no kallsyms from the agent: %s", __func__, why);
	}
	if (rs_call(rs, KT_REQ_TRACER, name, "", err, errlen) < 0)
		return -1;
	snprintf(rs->tracer, sizeof(rs->tracer), "%s", name);
	return 0;
}

const struct kt_source_ops source_remote_ops = {
	.kind = "remote",
	.remote = true,
	.caps = remote_caps,
	.refusal = remote_refusal,
	.describe = remote_describe,
	.tick = remote_tick,
	.close = remote_close_src,
	.enable = remote_enable,
	.is_enabled = remote_is_enabled,
	.for_each_enabled = remote_for_each_enabled,
	.get_filter = remote_get_filter,
	.set_filter = remote_set_filter,
	.tracer = remote_tracer,
	.tracers_available = remote_tracers_available,
	.set_tracer = remote_set_tracer,
	.probe_create = remote_probe_create,
	.probe_delete = remote_probe_delete,
	.probe_count = remote_probe_count,
	.probe_get = remote_probe_get,
};

/* ---- the opener ------------------------------------------------------------------------- */

/* Starts the agent and learns its layout, formats and events. Returns 0, or -1 with err. */
static int rs_connect(struct remote_src *rs, const struct kt_options *opts, char *err,
		      size_t errlen)
{
	char reply[1024];

	rs->tep = tep_alloc();
	if (!rs->tep || pipe2(rs->ctl, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(errno ? errno : ENOMEM));
		return -1;
	}
	rs->pages = rpages_new(rs->tep, rs_emit, rs);
	rs->r = remote_spawn(opts->remotes[0].host, opts->remotes[0].via, opts->compress, &rs_ops,
			     rs, err, errlen);
	if (!rs->r || remote_handshake(rs->r, REMOTE_HELLO_MS, err, errlen) < 0)
		return -1;
	if (remote_call(rs->r, KT_REQ_EVENTS, "", "", reply, sizeof(reply)) < 0 || !rs->events) {
		snprintf(err, errlen, "%s gave no event list: %s", remote_name(rs->r),
			 reply[0] ? reply : "an older agent? (install the same ktop on both sides)");
		return -1;
	}
	if (opts->remotes[0].host)
		snprintf(rs->name, sizeof(rs->name), "%s", opts->remotes[0].host);
	else
		snprintf(rs->name, sizeof(rs->name), "%.64s via %.180s", rs->hello.host,
			 opts->remotes[0].via);
	return 0;
}

int app_open_remote(struct kt_app *app, const struct kt_options *opts, char *err,
		    size_t errlen)
{
	struct remote_src *rs;
	struct kt_source *s;
	sigset_t all, old;
	int ret = app_init(app, opts, err, errlen);

	if (ret != KT_EXIT_OK)
		return ret;
	rs = xcalloc(1, sizeof(*rs));
	rs->app = app;
	rs->ctl[0] = rs->ctl[1] = -1;
	snprintf(rs->tracer, sizeof(rs->tracer), "nop"); /* a new instance's */
	pthread_mutex_init(&rs->lock, NULL);
	s = xcalloc(1, sizeof(*s));
	s->ops = &source_remote_ops;
	s->app = app;
	s->data = rs;
	app->source = s; /* closes the agent with the app */
	app->store = store_new(opts->memory_bytes);
	app->comms = comms_new();
	if (!app->store || !app->comms) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	if (rs_connect(rs, opts, err, errlen) < 0) {
		rs_stderr_out(rs); /* the messages before the one line that says why */
		return KT_EXIT_FAILURE;
	}
	app->decoder = decoder_new_offline(rs->tep);
	app->catalog = catalog_parse(rs->events);
	app->ncpus = rs->hello.ncpus ? (int)rs->hello.ncpus : 1;
	app->cpu_stats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_stats));
	app->cpu_rstats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_rstats));
	if (!app->decoder || !app->catalog) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	decoder_set_comms(app->decoder, app->comms);
	decoder_set_loader(app->decoder, rs_load_format, rs);
	for (size_t i = 0; i < opts->n_events; i++)
		if (app_set_events(app, opts->events[i], true, err, errlen) < 0)
			return KT_EXIT_FAILURE;
	/* signals go to the main thread; the pings' SIGPIPE after the agent died is left
	 * pending on this one, the write failing with EPIPE instead */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&rs->thread, NULL, rs_thread, rs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, errlen, "cannot start the client thread: %s", strerror(ret));
		return KT_EXIT_FAILURE;
	}
	rs->thread_on = true;
	app->last_tick_ns = clock_mono_ns();
	selfstat_sample(&app->self);
	return KT_EXIT_OK;
}
