// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The remote event source (ktop -H HOST, ktop --via CMD without -b): the explorer over an
 * agent at the other end of a pipe (src/remote/, docs/remote.md), or over several (-H and
 * --via more than once, KT_REMOTES_MAX). Each agent's formats build its own tep; the first
 * host's is the one the decoder reads and its available_events the catalogue. A client
 * thread pumps the pipes: pages decoded and merged by time (remote/pages.c, shared with
 * batch mode) go into app->store, one byte to the wake pipe per batch; task names into
 * app->comms; the agents' loss frames become app->cpu_stats and app->kernel_lost on the
 * tick. Control requests are sent from the UI thread under the same lock (remote_call
 * dispatches what comes meanwhile, the formats of the events it enables among them, so the
 * decoder's tep only changes on the UI thread). Events, filters, the tracer and dynamic
 * probes are offered (the function lists are not: the tracer pane says they are missing;
 * USDT probes are made by the agent, which reads the binary; a probe's counts are asked for
 * on the editor's tick, KT_REQ_PROBE_COUNTS, and come as a snapshot), histograms (each agent opens it,
 * KT_REQ_HIST_LIVE, and sends its rows on every tick: histsrc.h's pane data, every host's
 * rows labelled with their host), counters (each agent opens them,
 * KT_REQ_COUNTERS_LIVE, and sends their figures on every tick: countersrc.h's pane data,
 * a set per host), the flame pane's profiles (KT_REQ_PROFILE_LIVE: each agent samples,
 * names the frames and sends the stacks of every tick, profsrc.h; every host's under its
 * label), stacks on events (KT_REQ_STACK, KT_REQ_STACK_OFF; the frames named from each
 * host's kallsyms; --user-stacks' user frames, KT_REQ_USER_STACKS, by the names each host's
 * agent sends, usernames.h) and the scope (KT_REQ_SCOPE at the start, KT_REQ_SCOPE_SET from the
 * key, names checked on the agent's machine); the rest is refused with one line. The agents'
 * commands' stderr (ssh's warnings) would break the screen: it is read through a pipe, its
 * last line shown in the status line and all of it printed to stderr once the screen is
 * given back (as the source closes).
 *
 * Several hosts: their records are merged onto this machine's clock by remote/hostmerge.c,
 * each host's offset from the pings (as in batch mode), and stored with the hosts' CPUs
 * numbered one after the other (the first host's 0..n-1, the next one's from n), so the
 * ring-buffer pane and the per-CPU columns show every host's; source_cpu_host() names a
 * CPU's host for the stream's host column. A record of an event whose id differs on its
 * host from the first host's is given the first host's id; one the first host has no
 * format for cannot be decoded and is dropped (ktop -v logs it). Every request goes to
 * every host; one a host refuses is named with its label, the others keep theirs. A probe
 * is made on every host, all or none, each agent in its own group, which maps to the first
 * host's (the editor's probes are the first host's events). Task names are one table:
 * a pid two hosts both use shows the name either gave last.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "app.h"
#include "stopwhen.h"
#include "backend/catalog.h"
#include "backend/comms.h"
#include "backend/decode.h"
#include "backend/evstack_record.h"
#include "backend/probeprint.h"
#include "backend/tracers.h"
#include "backend/triggers.h"
#include "backend/usernames.h"
#include "clock.h"
#include "countersrc.h"
#include "histsrc.h"
#include "ovsrc.h"
#include "profsrc.h"
#include "log.h"
#include "remote/client.h"
#include "remote/hostclock.h"
#include "remote/hostmerge.h"
#include "remote/mirror.h"
#include "remote/pages.h"
#include "remote/scopereq.h"
#include "record/tdat_write.h"
#include "source/source.h"
#include "strutil.h"
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
	bool stack; /* its kernel stack after each record (KT_REQ_STACK) */
};

struct remote_src;

/* What the explorer opened on every agent, which sends it every tick: a histogram, the
 * counters or a profile, found by the request that opened it on the frame's host. */
struct rs_live {
	uint8_t op;		     /* KT_REQ_HIST_LIVE, _COUNTERS_LIVE or _PROFILE_LIVE */
	uint32_t id[KT_REMOTES_MAX]; /* the request that opened it on each host (0: not there) */
	struct rs_live *next;	     /* under lock: in rs->lives */
	void *obj;		     /* the rs_hist, rs_ctrs or rs_prof it is */
};

/* A histogram the explorer opened on every agent: each host's last HISTROWS frame, which
 * the pane's update takes, and all of their rows together, each with its host. */
struct rs_hist {
	struct kt_histsrc base;
	struct remote_src *rs;
	struct rs_live live;
	struct kt_histrows in[KT_REMOTES_MAX];	 /* under lock: each host's last frame */
	bool fresh[KT_REMOTES_MAX];		 /* under lock: in came since the update */
	struct kt_histrows last[KT_REMOTES_MAX]; /* UI thread: each host's, as updated */
	/* UI thread: what the pane reads */
	struct kt_hist_row *rows; /* every host's, each with its host */
	size_t nrows;
	struct kt_hist_row total; /* every host's summed */
	uint64_t missed;	  /* likewise */
	char variant[16];	  /* the first host's */
};

/* The counters the explorer opened on every agent: each host's last COUNTERROWS figures,
 * which the pane's update takes, or why the host refused them. */
struct rs_ctrs {
	struct kt_countersrc base;
	struct remote_src *rs;
	struct rs_live live;
	char *refusal[KT_REMOTES_MAX];	       /* why a host did not (NULL: it did) */
	struct kt_pmu_snap in[KT_REMOTES_MAX]; /* under lock: each host's last figures */
	bool fresh[KT_REMOTES_MAX];	       /* under lock: in came since the update */
	struct kt_pmu_snap last[KT_REMOTES_MAX]; /* UI thread: each host's, as updated */
	bool have[KT_REMOTES_MAX];	       /* UI thread: last holds figures */
};

/* A profile the flame pane opened on every agent (profsrc.h): the PROFROWS frames that
 * came since the pane's last update, which adds their stacks, each host's under its label
 * when there are several. */
struct rs_prof {
	struct kt_profsrc base;
	struct remote_src *rs;
	struct rs_live live;
	/* under lock: the frames' payloads since the update, each after its host's index
	 * (u32) and length (u64), and what a frozen pane left out past RS_PROF_PENDING_MAX */
	struct kt_wbuf pending;
	uint64_t pending_dropped;
	char note[256];		     /* under lock: the last line a host said of it, "" none */
};

/* The overview the explorer opened on its agent (one host): its ticks as they came, each
 * taken by one update (-b --top prints every one), and what the last taken said of the
 * overview there. */
#define RS_OV_QUEUE 8
struct rs_ov {
	struct kt_ovsrc base;
	struct remote_src *rs;
	struct rs_live live;
	struct kt_ovrows *q[RS_OV_QUEUE]; /* under lock: the ticks not taken, oldest first */
	unsigned nq;
	/* UI thread: the agent's overview as of the last tick taken (or its open's reply) */
	char source[256];
	char missing[KT_OVC_N][200];
	bool syscalls;
};

/* A frozen flame pane takes no frames: the agents' are kept up to this much, the rest
 * dropped (a local profile's rings overflow likewise). */
#define RS_PROF_PENDING_MAX (16u << 20)

/* One agent. */
struct rs_host {
	struct remote_src *rs;
	unsigned idx;
	char label[64];		 /* several hosts: -H's HOST, "via1" ... */
	struct tep_handle *tep;	 /* its formats; the first host's is the decoder's */
	struct kt_remote *r;
	struct kt_rpages *pages;
	struct kt_hello hello;
	uint32_t cpu_base;	 /* its CPU 0 in the store's numbering */
	char ended[512];	 /* under lock: why its capture stopped */
	bool gone;		 /* its pipe closed or its agent failed */
	struct kt_rbacklog backlog; /* UI thread: its last report, as of the tick */
	uint8_t *buf;		 /* a record given the first host's event id */
	size_t buf_cap;
	/* another host's event ids (65536) to the first host's, RS_ID_UNKNOWN until looked
	 * up; NULL again when a format comes (an id may change meaning) */
	int32_t *ids;
	/* its agent's probe group (written under lock): its probes' events are the first
	 * host's of the same name in the first host's group */
	char group[32];
	/* under lock: the counts of its probes its agent last sent (KT_REQ_PROBE_COUNTS) */
	struct kt_probe_report *counts;
	size_t n_counts;
	bool counts_asked; /* under lock: a request is out that no snapshot answered yet */
	/* one host: its tracefs files as they came (w, A: the trace.dat writer reads them);
	 * NULL with several, or when the directory could not be made */
	struct kt_mirror *mirror;
	char mirror_err[256]; /* why a file could not be kept, "" */
	char *list_text; /* under lock: the function list a get's snapshot brought (request 26) */
	/* --user-stacks: the names its agent gave the user frames of its stacks (NULL without) */
	struct kt_usernames *unames;
	char uname[256], kallsyms[4200];
};

#define RS_IDS 65536	     /* common_type is two bytes */
#define RS_ID_UNKNOWN (-1)
#define RS_ID_NONE (-2)	     /* the first host has no format for it */

struct remote_src {
	struct kt_app *app;
	/* the hosts' r and pages, merge: the client thread's pump, the UI's requests */
	pthread_mutex_t lock;
	struct rs_host hosts[KT_REMOTES_MAX];
	unsigned n;
	struct kt_hostmerge *merge; /* several hosts; NULL with one */
	char *events; /* available_events as the first agent sent it */
	size_t events_len;
	struct rs_event *ev;
	size_t n_ev;
	char **asked; /* "sys:ev" whose format the decoder asked the agent for */
	size_t n_asked;
	pthread_t thread;
	bool thread_on;
	int ctl[2]; /* wakes the client thread to stop */
	char name[256];
	char tracer[64]; /* the agents' instances', as last switched */
	bool symbols; /* the first host's kallsyms were asked for */
	bool host_symbols; /* every other host's too (stacks: each host's frames its own) */
	struct kt_probe *probes; /* made through the agent, in creation order */
	size_t n_probes;
	char *errlog; /* under lock: what the commands wrote to their stderr, kept for the end */
	size_t errlog_len;
	unsigned long errlog_dropped; /* lines past REMOTE_ERRLOG_MAX, counted, not kept */
	char errlast[256]; /* under lock: the last line, without control characters */
	unsigned errseq;   /* under lock: lines so far */
	char note[256];	   /* UI thread: errlast and errseq as of the tick */
	unsigned noteseq;
	struct rs_live *lives; /* under lock: the panes' histograms and profiles on the agents */
	struct rs_ctrs *ctrs;  /* under lock: the explorer's counters on the agents (one set) */
	char **trig_events;    /* "SYS:EV" the explorer put triggers on (triggers_for_each) */
	size_t n_trig;
};

#define RS(s) ((struct remote_src *)(s)->data)

static bool rs_gone(const struct rs_host *h)
{
	return __atomic_load_n(&h->gone, __ATOMIC_ACQUIRE);
}

/* ---- what the agents send (under lock, from the client or the UI thread) -------------- */

static void rs_store(struct remote_src *rs, const struct kt_rec *r)
{
	if (r->flags & KT_REC_LOST)
		store_append_lost(rs->app->store, r->ts, r->cpu, r->lost);
	else
		store_append(rs->app->store, r->ts, r->cpu, r->data, r->size);
}

/* The first host's id of host h's event type: looked up by name once (the first host's tep
 * is the decoder's: touched once per type, not per record), RS_ID_NONE when it lacks it. */
static int32_t rs_first_id(struct rs_host *h, int type)
{
	struct tep_event *mine, *theirs;

	if (!h->ids) {
		h->ids = xreallocarray(NULL, RS_IDS, sizeof(*h->ids));
		for (size_t i = 0; i < RS_IDS; i++)
			h->ids[i] = RS_ID_UNKNOWN;
	}
	if (h->ids[type] != RS_ID_UNKNOWN)
		return h->ids[type];
	mine = tep_find_event(h->tep, type);
	/* its probes are the first host's of the same name, in the first host's group */
	theirs = !mine ? NULL :
		 tep_find_event_by_name(h->rs->hosts[0].tep,
					h->group[0] && !strcmp(mine->system, h->group) ?
						h->rs->hosts[0].group : mine->system,
					mine->name);
	h->ids[type] = theirs ? theirs->id : RS_ID_NONE;
	if (!theirs)
		log_debug("%s: %s: no format for its event %d on %s: its records are dropped",
			  __func__, h->label, type, h->rs->hosts[0].label);
	return h->ids[type];
}

/* A record of the host's in its order, as the first host numbers its CPU and event: NULL
 * when the first host has no format for its event. */
static const struct kt_rec *rs_translate(struct rs_host *h, const struct kt_rec *r,
					 struct kt_rec *out)
{
	uint8_t *id;
	int32_t theirs;
	int type;

	*out = *r;
	out->cpu += h->cpu_base;
	if (!h->idx || (r->flags & KT_REC_LOST) || r->size < 2)
		return out;
	/* common_type: every record's first field, two bytes in the host's byte order */
	type = (int)tep_read_number(h->tep, r->data, 2);
	theirs = rs_first_id(h, type);
	if (theirs == RS_ID_NONE)
		return NULL;
	if (theirs == type)
		return out;
	if (h->buf_cap < r->size) {
		h->buf = xrealloc(h->buf, r->size);
		h->buf_cap = r->size;
	}
	memcpy(h->buf, r->data, r->size);
	id = h->buf;
	id[h->hello.big_endian ? 1 : 0] = (uint8_t)(theirs & 0xff);
	id[h->hello.big_endian ? 0 : 1] = (uint8_t)((unsigned)theirs >> 8);
	out->data = h->buf;
	return out;
}

static void rs_emit(void *ctx, const struct kt_rec *r)
{
	struct rs_host *h = ctx;
	struct kt_rec t;
	const struct kt_rec *m = rs_translate(h, r, &t);

	if (!m)
		return;
	if (h->rs->merge)
		hostmerge_put(h->rs->merge, h->idx, m);
	else
		rs_store(h->rs, m);
}

/* A record in the merged order of several hosts'. */
static void rs_merged(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts)
{
	(void)host;
	(void)host_ts;
	rs_store(ctx, r);
}

static void rs_wake(struct remote_src *rs)
{
	char b = 1;
	ssize_t n = write(rs->app->wake_wr, &b, 1); /* a full pipe already says "wake up" */

	(void)n;
}

static void rs_hello(void *ctx, const struct kt_hello *hello)
{
	struct rs_host *h = ctx;

	h->hello = *hello;
	rpages_hello(h->pages, hello);
}

/* A file the agent sent, kept where the trace.dat writer looks for it (w, A). */
static void rs_keep(struct rs_host *h, const char *rel, const void *p, size_t n)
{
	if (h->mirror && mirror_put(h->mirror, rel, p, n) < 0 && !h->mirror_err[0])
		snprintf(h->mirror_err, sizeof(h->mirror_err), "cannot keep the agent's %.100s "
			 "here: %s", rel, strerror(errno));
}

static void rs_header_page(void *ctx, const uint8_t *p, size_t n)
{
	rpages_header_page(((struct rs_host *)ctx)->pages, p, n);
	rs_keep(ctx, "events/header_page", p, n);
}

/* A format: the ids looked up before it may mean another event now (a probe made again),
 * the host's own, or every host's when it is the first host's. */
static void rs_format(void *ctx, const char *sys, const char *name, const uint8_t *text,
		      size_t n)
{
	struct rs_host *h = ctx;
	struct remote_src *rs = h->rs;

	char rel[600];

	if (rpages_format(h->pages, sys, text, n) < 0)
		log_debug("%s: the format of %s:%s does not parse", __func__, sys, name);
	if (h->mirror && mirror_put_format(h->mirror, sys, name, text, n, rel, sizeof(rel)) < 0 &&
	    !h->mirror_err[0])
		snprintf(h->mirror_err, sizeof(h->mirror_err), "cannot keep the agent's %.100s "
			 "here: %s", rel, strerror(errno));
	for (unsigned i = 1; i < rs->n; i++) {
		if (h->idx && i != h->idx)
			continue;
		free(rs->hosts[i].ids);
		rs->hosts[i].ids = NULL;
	}
}

/* The first host's list is the catalogue; the others' are not asked for. */
static void rs_events(void *ctx, const uint8_t *p, size_t n)
{
	struct remote_src *rs = ((struct rs_host *)ctx)->rs;

	free(rs->events);
	rs->events = xmalloc(n + 1);
	memcpy(rs->events, p, n);
	rs->events[n] = '\0';
	rs->events_len = n;
}

/* The agent's kallsyms and printk formats (asked for by remote_set_tracer): addresses in its
 * records become its kernel's function names. */
static void rs_parse(struct rs_host *h, const uint8_t *p, size_t n, bool kallsyms)
{
	char *buf = xmalloc(n + 1);

	memcpy(buf, p, n);
	buf[n] = '\0';
	if (kallsyms ? tep_parse_kallsyms(h->tep, buf) : tep_parse_printk_formats(h->tep, buf))
		log_debug("%s: the agent's %s do not parse", __func__,
			  kallsyms ? "kallsyms" : "printk formats");
	free(buf);
}

static void rs_kallsyms(void *ctx, const uint8_t *p, size_t n)
{
	rs_parse(ctx, p, n, true);
	rs_keep(ctx, "kallsyms", p, n);
}

static void rs_printk(void *ctx, const uint8_t *p, size_t n)
{
	rs_parse(ctx, p, n, false);
	rs_keep(ctx, "printk_formats", p, n);
}

static void rs_page(void *ctx, uint32_t cpu, const uint8_t *page, size_t len)
{
	struct rs_host *h = ctx;

	store_lock(h->rs->app->store);
	rpages_page(h->pages, cpu, page, len);
	store_unlock(h->rs->app->store);
}

static void rs_watermark(void *ctx, uint64_t ts)
{
	struct rs_host *h = ctx;

	store_lock(h->rs->app->store);
	rpages_flush(h->pages, ts);
	if (h->rs->merge) {
		hostclock_refresh(h->rs->merge, h->idx, h->r);
		hostmerge_watermark(h->rs->merge, h->idx, ts);
	}
	store_unlock(h->rs->app->store);
	rs_wake(h->rs);
}

static void rs_comm(void *ctx, int32_t pid, uint64_t ts, const char *name)
{
	comms_set(((struct rs_host *)ctx)->rs->app->comms, pid, ts, name);
}

static void rs_user_name(void *ctx, int32_t pid, uint64_t addr, uint8_t kind, const char *name)
{
	struct rs_host *h = ctx;

	if (h->unames)
		usernames_put(h->unames, pid, addr, kind, name);
}

static void rs_loss(void *ctx, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		    const struct kt_backlog *bl)
{
	rpages_loss(((struct rs_host *)ctx)->pages, cpus, ncpus, bl);
}

/* A line of a command's stderr (with its host's label when there are several): kept, and
 * the last one for the status line. */
static void rs_stderr(void *ctx, const char *text)
{
	struct rs_host *h = ctx;
	struct remote_src *rs = h->rs;
	char line[1024];
	size_t n;

	snprintf(line, sizeof(line), "%s%s%s", rs->n > 1 ? h->label : "", rs->n > 1 ? ": " : "",
		 text);
	n = strlen(line);
	if (rs->errlog_len + n + 1 > REMOTE_ERRLOG_MAX) {
		rs->errlog_dropped++;
	} else {
		rs->errlog = xrealloc(rs->errlog, rs->errlog_len + n + 2);
		memcpy(rs->errlog + rs->errlog_len, line, n);
		rs->errlog_len += n;
		rs->errlog[rs->errlog_len++] = '\n';
		rs->errlog[rs->errlog_len] = '\0';
	}
	snprintf(rs->errlast, sizeof(rs->errlast), "%s", line); /* escaped by client.c */
	rs->errseq++;
}

/* What an agent did wrong, in err instead of the request it failed (client.h). */
static void rs_fault(const struct remote_src *rs, char *err, size_t errlen)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (remote_fault(rs->hosts[i].r)) {
			snprintf(err, errlen, "%s", remote_fault(rs->hosts[i].r));
			return;
		}
}

/* What the commands wrote to their stderr, to ours (the screen is not curses' now). */
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

/* The histogram or profile (op) that the request id opened on host h; NULL once it closed.
 * Lock held. */
static void *rs_live_find(struct rs_host *h, uint8_t op, uint32_t id)
{
	struct rs_live *lv = h->rs->lives;

	while (lv && (!id || lv->op != op || lv->id[h->idx] != id))
		lv = lv->next;
	return lv ? lv->obj : NULL;
}

/* A histogram's rows (client thread, or the UI's remote_call; lock held): kept for its
 * pane's next update; those of one closed meanwhile are dropped. */
static void rs_hist_rows(void *ctx, struct kt_histrows *rows)
{
	struct rs_host *h = ctx;
	struct rs_hist *rh = rs_live_find(h, KT_REQ_HIST_LIVE, rows->id);

	if (!rh) {
		free(rows->rows);
		return;
	}
	free(rh->in[h->idx].rows);
	rh->in[h->idx] = *rows;
	rh->fresh[h->idx] = true;
}

/* A probes' counts snapshot (KT_REQ_PROBE_COUNTS's, or the one as the capture ended):
 * host h's counts from now on; a function list's entries, for the get that asked. Lock
 * held. */
static void rs_snapshot(void *ctx, struct kt_snapshot *snap)
{
	struct rs_host *h = ctx;

	if (snap->kind == KT_SNAP_LIST) { /* taken by remote_list_get after the reply */
		free(h->list_text);
		h->list_text = snap->text;
		return;
	}
	if (snap->kind == KT_SNAP_PROBES) {
		free(h->counts);
		h->counts = probeprint_parse_wire(snap->text, &h->n_counts);
		h->counts_asked = false;
	}
	free(snap->text);
}

/* Counters' figures (client thread, or the UI's remote_call; lock held): kept for the pane's
 * next update; those of a set closed meanwhile are dropped. */
static void rs_counter_rows(void *ctx, struct kt_counterrows *rows)
{
	struct rs_host *h = ctx;
	struct rs_ctrs *rc = rs_live_find(h, KT_REQ_COUNTERS_LIVE, rows->id);

	if (!rc) {
		pmu_snap_free(&rows->snap);
		return;
	}
	pmu_snap_free(&rc->in[h->idx]);
	rc->in[h->idx] = rows->snap;
	rc->fresh[h->idx] = true;
}

/* A profile's stacks (client thread, or the UI's remote_call; lock held): added to its
 * pane's next update, under the host's label with several hosts; those of one closed
 * meanwhile are dropped. */
static void rs_prof_rows(void *ctx, const struct kt_profrows *rows)
{
	struct rs_host *h = ctx;
	struct remote_src *rs = h->rs;
	struct rs_prof *rp = rs_live_find(h, KT_REQ_PROFILE_LIVE, rows->id);

	if (!rp)
		return;
	if (rows->note[0])
		snprintf(rp->note, sizeof(rp->note), "%.63s%s%.180s", rs->n > 1 ? h->label : "",
			 rs->n > 1 ? ": " : "", rows->note);
	if (!rows->nstacks)
		return;
	if (rp->pending.len + rows->stacks_len > RS_PROF_PENDING_MAX) {
		rp->pending_dropped++;
		return;
	}
	/* the frame again, as the stacks it checked: its head is in rows */
	wbuf_u32(&rp->pending, h->idx);
	wbuf_u32(&rp->pending, rows->nstacks);
	wbuf_u64(&rp->pending, rows->stacks_len);
	wbuf_put(&rp->pending, rows->stacks, rows->stacks_len);
}

/* An overview's tick (client thread, or the UI's remote_call; lock held): queued for its
 * next update, the oldest dropped past RS_OV_QUEUE; those of one closed meanwhile are
 * dropped. */
static void rs_ov_rows(void *ctx, struct kt_ovrows *rows)
{
	struct rs_host *h = ctx;
	struct rs_ov *ro = rs_live_find(h, KT_REQ_OVERVIEW_LIVE, rows->id);

	if (!ro) {
		overview_snap_free(&rows->snap);
		return;
	}
	if (ro->nq == RS_OV_QUEUE) {
		overview_snap_free(&ro->q[0]->snap);
		free(ro->q[0]);
		memmove(ro->q, ro->q + 1, (RS_OV_QUEUE - 1) * sizeof(ro->q[0]));
		ro->nq--;
	}
	ro->q[ro->nq] = xmalloc(sizeof(*rows));
	*ro->q[ro->nq++] = *rows;
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
	.user_name = rs_user_name,
	.loss = rs_loss,
	.watermark = rs_watermark,
	.stderr_line = rs_stderr,
	.hist_rows = rs_hist_rows,
	.snapshot = rs_snapshot,
	.counter_rows = rs_counter_rows,
	.prof_rows = rs_prof_rows,
	.ov_rows = rs_ov_rows,
};

/* ---- the client thread ----------------------------------------------------------------- */

/* Host h's capture stopped (err, or its END): what came is all there is, stored in order;
 * with several hosts it holds the others back no longer. Lock held. */
static void rs_host_ended(struct rs_host *h, const char *err)
{
	struct remote_src *rs = h->rs;

	store_lock(rs->app->store);
	rpages_flush(h->pages, UINT64_MAX);
	if (rs->merge)
		hostmerge_end(rs->merge, h->idx);
	store_unlock(rs->app->store);
	snprintf(h->ended, sizeof(h->ended), "%s", err[0] ? err : "the agent ended the capture");
	__atomic_store_n(&h->gone, true, __ATOMIC_RELEASE);
	log_debug("%s: %s: %s", __func__, h->label, h->ended);
}

/* Reads what host h's agent sent. Lock held. */
static void rs_pump(struct rs_host *h)
{
	char err[512] = "";
	int ret = remote_pump(h->r, err, sizeof(err));

	if (h->rs->merge)
		hostclock_refresh(h->rs->merge, h->idx, h->r);
	if (ret <= 0)
		rs_host_ended(h, err);
}

/* Pumps the pipes until told to stop or every agent ends; pings once a second. */
static void *rs_thread(void *arg)
{
	struct remote_src *rs = arg;
	struct pollfd pfd[2 * KT_REMOTES_MAX + 1];
	unsigned long long ping = 0, now;
	unsigned i, n = rs->n, live = n;

	while (live) {
		for (i = 0; i < n; i++) {
			bool on = !rs_gone(&rs->hosts[i]);

			pfd[i] = (struct pollfd){ .fd = on ? remote_fd(rs->hosts[i].r) : -1,
						  .events = POLLIN };
			pfd[n + i] = (struct pollfd){ .fd = on ? remote_err_fd(rs->hosts[i].r) : -1,
						      .events = POLLIN };
		}
		pfd[2 * n] = (struct pollfd){ .fd = rs->ctl[0], .events = POLLIN };
		if (poll(pfd, 2 * n + 1, 1000) < 0 && errno != EINTR)
			break;
		if (pfd[2 * n].revents)
			return NULL;
		pthread_mutex_lock(&rs->lock);
		now = clock_mono_ns();
		live = 0;
		for (i = 0; i < n; i++) {
			struct rs_host *h = &rs->hosts[i];

			if (rs_gone(h))
				continue;
			if (now - ping >= REMOTE_PING_NS)
				remote_ping(h->r);
			if (pfd[i].revents || pfd[n + i].revents)
				rs_pump(h);
			live += !rs_gone(h);
		}
		if (now - ping >= REMOTE_PING_NS)
			ping = now;
		pthread_mutex_unlock(&rs->lock);
	}
	rs_wake(rs);
	return NULL;
}

/* ---- the source's ops ------------------------------------------------------------------ */

static unsigned int remote_caps(struct kt_source *s)
{
	struct remote_src *rs = RS(s);

	/* w and A: one host's capture is one trace.dat, the agent's files mirrored here;
	 * triggers: on every host (a stop that fires on one stops the others) */
	return KT_CAP_EVENTS | KT_CAP_FILTER | KT_CAP_TRACER | KT_CAP_PROBES | KT_CAP_HIST |
	       KT_CAP_COUNTERS | KT_CAP_PROFILE | KT_CAP_STACKS | KT_CAP_SCOPE | KT_CAP_LIVE |
	       KT_CAP_CLEAR | KT_CAP_KBUF |
	       KT_CAP_TRIGGERS | (rs && rs->n == 1 && rs->hosts[0].mirror ? KT_CAP_WRITE : 0) |
	       (rs && rs->n == 1 ? KT_CAP_OVERVIEW : 0);
}

/* One line each, short enough for an 80-column status line. */
static const char *remote_refusal(struct kt_source *s, enum kt_cap cap)
{
	(void)s;
	switch (cap) {
	case KT_CAP_WRITE:
		/* several hosts' records are merged onto this clock, ids made the first's */
		return "remote: w and A record one host (ktop -b -o: a file a host)";
	case KT_CAP_OVERVIEW:
		return "remote: the overview shows one host (one -H or --via)";
	default:
		return "remote: not available over an agent yet (events, filters, tracers are)";
	}
}

/* Host h for the header. Lock held. */
static void rs_describe_host(struct rs_host *h, struct kt_source_host *d)
{
	snprintf(d->label, sizeof(d->label), "%s", h->label);
	d->clock = remote_clock(h->r, &d->offset_ns, &d->uncertainty_ns);
	d->ended = rs_gone(h);
	snprintf(d->group, sizeof(d->group), "%s", h->group);
	if (h->backlog.age_ns >= REMOTE_BEHIND_NS && !d->ended) {
		d->behind_bytes = h->backlog.bytes;
		d->behind_ns = h->backlog.age_ns;
	}
}

static void remote_describe(struct kt_source *s, struct kt_source_desc *d)
{
	struct remote_src *rs = RS(s);
	struct rs_host *h0 = &rs->hosts[0];
	bool all_gone = true;

	for (unsigned i = 0; i < rs->n; i++)
		all_gone &= rs_gone(&rs->hosts[i]);
	/* first: the header cuts a long --via command short */
	snprintf(d->name, sizeof(d->name), "%s%.240s", all_gone ? "ENDED " : "", rs->name);
	snprintf(d->note, sizeof(d->note), "%s", rs->note);
	d->note_seq = rs->noteseq;
	if (rs->n > 1) {
		pthread_mutex_lock(&rs->lock); /* the clocks the pongs refine */
		for (unsigned i = 0; i < rs->n; i++)
			rs_describe_host(&rs->hosts[i], &d->hosts[i]);
		pthread_mutex_unlock(&rs->lock);
		d->n_hosts = rs->n;
		return;
	}
	snprintf(d->host, sizeof(d->host), "%s", h0->hello.host);
	snprintf(d->kernel, sizeof(d->kernel), "%s", h0->hello.kernel);
	/* an agent that ended is behind no longer: what it sent is all there is */
	if (h0->backlog.age_ns >= REMOTE_BEHIND_NS && !all_gone) {
		d->behind_bytes = h0->backlog.bytes;
		d->behind_ns = h0->backlog.age_ns;
	}
}

/* The agents' last loss counters and what their pages brought, every host's CPUs after the
 * one before's. */
static void remote_tick(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	struct kt_app *app = s->app;
	struct kt_reader_stats all;
	const struct kt_cpu_stats *st;
	uint64_t lost;
	uint32_t n, room;

	pthread_mutex_lock(&rs->lock);
	app->rstats = (struct kt_reader_stats){ 0 };
	app->kernel_lost = 0;
	for (unsigned k = 0; k < rs->n; k++) {
		struct rs_host *h = &rs->hosts[k];

		room = (uint32_t)app->ncpus - h->cpu_base;
		rpages_stats(h->pages, &all, app->cpu_rstats + h->cpu_base, room, &lost);
		app->rstats.pages += all.pages;
		app->rstats.events += all.events;
		app->rstats.missed += all.missed;
		app->rstats.missed_unknown += all.missed_unknown;
		app->kernel_lost += lost;
		st = rpages_cpu_stats(h->pages, &n);
		for (uint32_t i = 0; i < n && i < room; i++)
			app->cpu_stats[h->cpu_base + i] = st[i];
		rpages_backlog(h->pages, &h->backlog);
	}
	memcpy(rs->note, rs->errlast, sizeof(rs->note));
	rs->noteseq = rs->errseq;
	pthread_mutex_unlock(&rs->lock);
}

static const char *remote_cpu_host(struct kt_source *s, uint32_t cpu, uint32_t *local)
{
	struct remote_src *rs = RS(s);
	unsigned k = rs->n;

	if (rs->n < 2)
		return NULL;
	while (k > 1 && cpu < rs->hosts[k - 1].cpu_base)
		k--;
	*local = cpu - rs->hosts[k - 1].cpu_base;
	return rs->hosts[k - 1].label;
}

/* Several hosts: the tep of the host whose CPU cpu is, which holds its kallsyms once a
 * stack asked for them (the UI thread reads it; the client thread only adds formats);
 * NULL for the first host's, which is the decoder's. */
static struct tep_handle *remote_symbols(struct kt_source *s, uint32_t cpu)
{
	struct remote_src *rs = RS(s);

	for (unsigned k = rs->n; rs->host_symbols && k-- > 1;)
		if (cpu >= rs->hosts[k].cpu_base)
			return rs->hosts[k].tep;
	return NULL; /* the first host's: the decoder's */
}

/* The names the agent of the host whose CPU cpu is gave its user frames. */
static struct kt_symbolizer *remote_user_symbolizer(struct kt_source *s, uint32_t cpu)
{
	struct remote_src *rs = RS(s);
	unsigned k = rs->n;

	while (k-- > 1 && cpu < rs->hosts[k].cpu_base)
		;
	return rs->hosts[k].unames ? usernames_symbolizer(rs->hosts[k].unames) : NULL;
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
	/* every agent sees its input and output close: it removes its instance at once */
	for (unsigned i = 0; i < rs->n; i++)
		remote_close(rs->hosts[i].r);
	rs_stderr_out(rs);
	close(rs->ctl[0]);
	close(rs->ctl[1]);
	for (unsigned i = 0; i < rs->n; i++) {
		rpages_free(rs->hosts[i].pages);
		free(rs->hosts[i].buf);
		free(rs->hosts[i].ids);
		free(rs->hosts[i].counts);
		free(rs->hosts[i].list_text);
		mirror_free(rs->hosts[i].mirror);
		usernames_free(rs->hosts[i].unames);
		if (rs->hosts[i].tep)
			tep_free(rs->hosts[i].tep);
	}
	hostmerge_free(rs->merge);
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
	for (size_t i = 0; i < rs->n_trig; i++)
		free(rs->trig_events[i]);
	free(rs->trig_events);
	pthread_mutex_destroy(&rs->lock);
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

/* A request to host h and its reply (the agent's text, or its refusal; once the agent is
 * gone, why, without writing to its closed pipe). */
static int rs_ask(struct rs_host *h, uint8_t op, const char *arg, const char *arg2,
		  char *reply, size_t len)
{
	struct remote_src *rs = h->rs;
	sigset_t old;
	int ret = -1;

	/* an agent that died makes the write fail, not the explorer end (SIGPIPE ends it) */
	remote_sigpipe_block(&old);
	pthread_mutex_lock(&rs->lock);
	if (rs_gone(h))
		snprintf(reply, len, "%s", h->ended);
	else
		ret = remote_call(h->r, op, arg, arg2, reply, len);
	pthread_mutex_unlock(&rs->lock);
	remote_sigpipe_restore(&old);
	return ret;
}

/* A request to the first host; its refusal as err. */
static int rs_call(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		   char *err, size_t errlen)
{
	char reply[1024];
	int ret = rs_ask(&rs->hosts[0], op, arg, arg2, reply, sizeof(reply));

	if (ret < 0 && err && errlen)
		snprintf(err, errlen, "%s", reply);
	return ret;
}

/* arg as host h knows it: an event of the first host's probe group ("GROUP:NAME", or
 * "GROUP:*") is the one of that name in h's group. */
static const char *rs_host_arg(const struct rs_host *h, const char *arg, char *buf, size_t len)
{
	const char *g0 = h->rs->hosts[0].group;
	size_t n = strlen(g0);

	if (!h->idx || !n || !h->group[0] || strncmp(arg, g0, n) || arg[n] != ':')
		return arg;
	snprintf(buf, len, "%s%s", h->group, arg + n);
	return buf;
}

/* A request to every host (an event named as each host's group has it). Returns 0 when
 * all took it, -1 with err saying why the first that refused did (its label first with
 * several; how many took it after); *took: whether any did. A host that ended is passed
 * over while another takes it. */
static int rs_call_all(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		       bool *took, char *err, size_t errlen)
{
	char reply[1024], own[512];
	int yes = 0, no = 0;

	if (rs->n == 1) {
		*took = rs_call(rs, op, arg, arg2, err, errlen) == 0;
		return *took ? 0 : -1;
	}
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, op, rs_host_arg(h, arg, own, sizeof(own)), arg2, reply,
			   sizeof(reply)) == 0)
			yes++;
		else if (!rs_gone(h) && !no++ && err && errlen)
			snprintf(err, errlen, "%s: %s", h->label, reply);
	}
	*took = yes > 0;
	if (!yes && !no) { /* all of them ended */
		snprintf(err, errlen, "%s: %s", rs->hosts[0].label, rs->hosts[0].ended);
		return -1;
	}
	if (no && yes && err && errlen && strlen(err) + 40 < errlen)
		snprintf(err + strlen(err), errlen - strlen(err), " (%d other%s took it)", yes,
			 yes > 1 ? "s" : "");
	return no ? -1 : 0;
}

/* The decoder lacks a format (the picker shows one, a filter is checked against it): the
 * first agent sends it, once per event. UI thread. */
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

/* Whether an event of system (event NULL: any of it) prints a kernel symbol (%pS, %ps,
 * %pF, %pf, %pB: kmem's call_site, timer's function), its format in the first host's tep. */
static bool rs_prints_symbols(struct remote_src *rs, const char *system, const char *event)
{
	struct tep_handle *tep = rs->hosts[0].tep;
	bool prints = false;
	const char *f;

	pthread_mutex_lock(&rs->lock); /* the client thread adds formats under it */
	for (int i = 0; tep && !prints && i < tep_get_events_count(tep); i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		if (!ev || strcmp(ev->system, system) || (event && strcmp(ev->name, event)))
			continue;
		for (f = ev->print_fmt.format; f && !prints && (f = strstr(f, "%p")); f += 2)
			prints = f[2] && strchr("sSfFB", f[2]);
	}
	pthread_mutex_unlock(&rs->lock);
	return prints;
}

static void rs_symbols(struct remote_src *rs);

/* On every host; on when any took it (a refusal is still reported: -1 with err). An event
 * that prints kernel symbols first fetches the agent's kallsyms, before any of its rows is
 * drawn (libtraceevent maps functions once, on the first lookup): the agent sent its
 * formats before it enabled it. */
static int remote_enable(struct kt_source *s, const char *system, const char *event, bool on,
			 char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool took;
	int ret = rs_call_all(rs, on ? KT_REQ_ENABLE : KT_REQ_DISABLE, e->spec,
			      on && e->filter ? e->filter : "", &took, err, errlen);

	if (took)
		e->on = on;
	if (on && took && !rs->symbols && rs_prints_symbols(rs, system, event))
		rs_symbols(rs);
	return ret;
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
	const struct kt_catalog *cat = s->app->catalog;
	int n = 0;

	for (size_t i = 0; cat && i < cat->count; i++) {
		if (!remote_is_enabled(s, cat->events[i].system, cat->events[i].name))
			continue;
		n++;
		if (fn)
			fn(cat->events[i].system, cat->events[i].name, ctx);
	}
	return n;
}

static char *remote_get_filter(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	return e && e->filter ? xstrdup(e->filter) : NULL;
}

/* An event that is on takes its new filter, or none, on every host (request 28); one that
 * is off keeps it for its enable request, which carries it. */
static int remote_set_filter(struct kt_source *s, const char *system, const char *event,
			     const char *filter, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool clear = !filter || !*filter, took = true;
	int ret = 0;

	if (e->on)
		ret = rs_call_all(rs, KT_REQ_FILTER, e->spec, clear ? "" : filter, &took, err,
				  errlen);
	if (took) {
		free(e->filter);
		e->filter = clear ? NULL : xstrdup(filter);
	}
	return ret;
}

/* A tracer's records and an event's stacks carry kernel addresses: before the first switch
 * to a tracer or the first stack, the first host's kallsyms and printk formats come into
 * its tep, which decodes every host's records (so with several hosts their kernels'
 * addresses are named by the first's), here, where the UI holds no lock the pages coming
 * meanwhile need (a row being drawn holds the store's; the decoder never asks for them
 * itself). A few MB: seconds over a slow link. */
static void rs_symbols(struct remote_src *rs)
{
	char why[1024];

	if (rs->symbols)
		return;
	rs->symbols = true;
	if (rs_call(rs, KT_REQ_KALLSYMS, "", "", why, sizeof(why)) < 0)
		log_debug("%s: no kallsyms from the agent: %s", __func__, why);
}

/* Every host's kallsyms into its own tep, once, before the first stack: a stack's frames
 * are named by its host's kernel (remote_symbols), whose addresses KASLR makes its own. */
static void rs_host_symbols(struct remote_src *rs)
{
	char why[1024];

	rs_symbols(rs);
	if (rs->host_symbols)
		return;
	rs->host_symbols = true;
	for (unsigned i = 1; i < rs->n; i++)
		if (rs_ask(&rs->hosts[i], KT_REQ_KALLSYMS, "", "", why, sizeof(why)) < 0)
			log_debug("%s: no kallsyms from %s: %s", __func__, rs->hosts[i].label, why);
}

static bool remote_stacks_enabled(struct kt_source *s, const char *system, const char *event)
{
	struct rs_event *e = rs_find(RS(s), system, event, false);

	return e && e->stack;
}

/* On every host: the event's kernel stack after each of its records (KT_REQ_STACK with the
 * event's filter: the agent adds its stacktrace trigger as --stack does, the event on), the
 * first host's kallsyms fetched before the first (rs_symbols); off: KT_REQ_STACK_OFF, the
 * event stays on. On when any host took it (a refusal is still reported). */
static int remote_stacks_set(struct kt_source *s, struct tep_event *te, const char *system,
			     const char *event, bool on, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_event *e = rs_find(rs, system, event, true);
	bool took;
	int ret;

	(void)te; /* the agent checks the trigger against its own format */
	if (on)
		rs_host_symbols(rs);
	ret = rs_call_all(rs, on ? KT_REQ_STACK : KT_REQ_STACK_OFF, e->spec,
			  on && e->filter ? e->filter : "", &took, err, errlen);
	if (took) {
		e->stack = on;
		e->on |= on;
	}
	return ret;
}

/* The event's filter changed: its stacks, if it has them, are taken off and put on again
 * with it (the agent's trigger takes the event's filter as its condition). */
static int remote_stacks_refilter(struct kt_source *s, struct tep_event *te, const char *system,
				  const char *event, char *err, size_t errlen)
{
	if (!remote_stacks_enabled(s, system, event))
		return 0;
	if (remote_stacks_set(s, te, system, event, false, err, errlen) < 0)
		return -1;
	return remote_stacks_set(s, te, system, event, true, err, errlen);
}

/* The scope request op (KT_REQ_SCOPE at the start, KT_REQ_SCOPE_SET from the key) to every
 * host. The first host that takes it says the header's words (desc). A host that refuses
 * (the pid does not run there) while another took it is told to record none of its
 * processes (KT_REQ_SCOPE_SET "none"), so the stream holds the scope's processes alone:
 * desc then names the hosts that took it ("pid 42 on db-1") and note the first refusal.
 * When none takes it, -1 with the first refusal (what: the option, at the start: "HOST
 * refused -p: ..."), and nothing changed. */
static int rs_scope_all(struct remote_src *rs, uint8_t op, const char *what, const char *kind,
			const char *arg, char *desc, size_t desclen, char *note, size_t notelen,
			char *err, size_t errlen)
{
	bool took[KT_REMOTES_MAX] = { false };
	char reply[1024], on[256] = "";
	unsigned yes = 0, no = 0;
	size_t used;

	note[0] = err[0] = '\0';
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, op, kind, arg, reply, sizeof(reply)) == 0) {
			took[i] = true;
			if (!yes++)
				snprintf(desc, desclen, "%s", reply);
			used = strlen(on);
			snprintf(on + used, sizeof(on) - used, "%s%s", used ? "," : "", h->label);
		} else if (!no++) {
			snprintf(err, errlen, "%s%s%s%s%s", what ? (rs->n > 1 ? h->label :
						remote_name(h->r)) : rs->n > 1 ? h->label : "",
				 what ? " refused " : rs->n > 1 ? ": " : "", what ? what : "",
				 what ? ": " : "", reply);
		}
	}
	if (!yes || !no)
		return yes ? 0 : -1;
	for (unsigned i = 0; i < rs->n; i++)
		if (!took[i] && !rs_gone(&rs->hosts[i]) &&
		    rs_ask(&rs->hosts[i], KT_REQ_SCOPE_SET, "none", "", reply, sizeof(reply)) < 0)
			log_debug("%s: %s: %s", __func__, rs->hosts[i].label, reply);
	used = strlen(desc);
	snprintf(desc + used, desclen - used, " on %s", on);
	snprintf(note, notelen, "%.700s%s: %s records none of its processes", err,
		 no > 1 ? " (and more)" : "", no > 1 ? "those hosts each" : "that host");
	err[0] = '\0';
	return 0;
}

/* The scope key's scope, on every host (rs_scope_all); "" clears it. */
static int remote_set_scope(struct kt_source *s, const char *kind, const char *arg,
			    char *desc, size_t desclen, char *note, size_t notelen, char *err,
			    size_t errlen)
{
	int ret = rs_scope_all(RS(s), KT_REQ_SCOPE_SET, NULL, kind, arg, desc, desclen, note,
			       notelen, err, errlen);

	if (ret == 0 && !*kind)
		desc[0] = '\0';
	return ret;
}

static char *remote_tracer(struct kt_source *s)
{
	return xstrdup(RS(s)->tracer);
}

/* The first agent's instance's tracers (tracers.h's array). */
static char **remote_tracers_available(struct kt_source *s, char *err, size_t errlen)
{
	char reply[1024], *save = NULL, *w;
	char **names = xcalloc(1, sizeof(*names));
	size_t n = 0;

	if (rs_ask(&RS(s)->hosts[0], KT_REQ_TRACERS, "", "", reply, sizeof(reply)) < 0) {
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

/* Host h's names of what it made ("GROUP:NAME ..."), checked: one group, the first host's
 * names (its binary, its kernel may differ). Its group learned. Returns 0, or -1 with err. */
static int rs_probe_names(struct rs_host *h, const char *reply, const char *first, char *err,
			  size_t errlen)
{
	struct remote_src *rs = h->rs;
	size_t g = strcspn(reply, ":"), a, b;
	const char *p = reply, *q = first;

	if (!reply[g] || g >= sizeof(h->group) || strchr(reply, ':') > reply + strcspn(reply, " ")) {
		snprintf(err, errlen, "%s named its probe '%.200s', not GROUP:NAME",
			 remote_name(h->r), reply);
		return -1;
	}
	for (; *p; p += a + (p[a] == ' '), q += b + (q[b] == ' ')) {
		a = strcspn(p, " ");
		b = strcspn(q, " ");
		if (strncmp(p, reply, g + 1) ||
		    (h->idx && (a - g != b - strcspn(q, ":") || strncmp(p + g, q + strcspn(q, ":"),
									 a - g)))) {
			snprintf(err, errlen, "its sites %.300s are not %.300s's %.300s (the binaries "
				 "differ?)", reply, rs->hosts[0].label, first);
			return -1;
		}
	}
	if (h->idx && *q) {
		snprintf(err, errlen, "its sites %.300s are not %.300s's %.300s (the binaries "
			 "differ?)", reply, rs->hosts[0].label, first);
		return -1;
	}
	pthread_mutex_lock(&rs->lock); /* the client thread maps its records by it */
	snprintf(h->group, sizeof(h->group), "%.*s", (int)g, reply);
	pthread_mutex_unlock(&rs->lock);
	return 0;
}

/* A probe came or went: the counts the agents sent before are of other probes (a name
 * made again counts from 0). */
static void rs_counts_forget(struct remote_src *rs)
{
	pthread_mutex_lock(&rs->lock);
	for (unsigned k = 0; k < rs->n; k++) {
		free(rs->hosts[k].counts);
		rs->hosts[k].counts = NULL;
		rs->hosts[k].n_counts = 0;
	}
	pthread_mutex_unlock(&rs->lock);
}

/* Deletes each of names ("GROUP:NAME ...") on host h. */
static void rs_probe_undo(struct rs_host *h, const char *names)
{
	char one[256], why[1024];

	for (const char *p = names; *p; p += strcspn(p, " "), p += *p == ' ') {
		snprintf(one, sizeof(one), "%.*s", (int)strcspn(p, " "), p);
		if (rs_ask(h, KT_REQ_PROBE_DEL, one, "", why, sizeof(why)) < 0)
			log_debug("%s: %s: %s: %s", __func__, h->label, one, why);
	}
}

/* Every agent makes it (kind "usdt": one probe a site), disabled, all or none: the first
 * host that refuses is named with its reason and the hosts that made it delete it again.
 * A host that ended is passed over. The first host's catalogue is read again. The formats
 * come as for any event: the decoder asks for them (request 8), and each agent sends its
 * own when the event is enabled (so a probe made again, with a new id, is decoded by its
 * new one). Returns how many probes, the first host's names in events. */
static int rs_probe_add(struct remote_src *rs, const char *kindname, enum kt_probe_kind kind,
			const char *def, char *events, size_t eventslen, char *err, size_t errlen)
{
	char made[KT_REMOTES_MAX][1024], reply[1024], why[1024], *first = NULL;
	unsigned i, k;
	int n = 0;

	for (i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		made[i][0] = '\0';
		if (rs_gone(h) && rs->n > 1)
			continue;
		if (rs_ask(h, KT_REQ_PROBE_ADD, kindname, def, reply, sizeof(reply)) < 0) {
			snprintf(why, sizeof(why), "%s", reply);
			goto undo;
		}
		snprintf(made[i], sizeof(made[i]), "%s", reply);
		if (rs_probe_names(h, reply, first ? first : reply, why, sizeof(why)) < 0)
			goto undo;
		if (!first)
			first = made[i];
	}
	if (!first) {
		snprintf(err, errlen, "%s: %s", rs->hosts[0].label, rs->hosts[0].ended);
		return -1;
	}
	if (rs_refresh_catalog(rs, err, errlen) < 0) {
		i = rs->n;
		why[0] = '\0';
		goto undo_all;
	}
	snprintf(events, eventslen, "%s", first);
	rs_counts_forget(rs);
	for (const char *p = first; *p; p += strcspn(p, " "), p += *p == ' ', n++) {
		size_t g = strcspn(p, ":"), w = strcspn(p, " ");

		rs->probes = xreallocarray(rs->probes, rs->n_probes + 1, sizeof(*rs->probes));
		rs->probes[rs->n_probes++] = (struct kt_probe){
			.kind = kind,
			.system = xasprintf("%.*s", (int)g, p),
			.event = xasprintf("%.*s", (int)(w - g - 1), p + g + 1),
			.definition = xstrdup(def),
		};
	}
	return n;
undo:
	if (rs->n > 1)
		snprintf(err, errlen, "%s: %s", rs->hosts[i].label, why);
	else
		snprintf(err, errlen, "%s", why);
	i++; /* a host that made it with other names deletes it too */
undo_all:
	for (k = 0; k < i; k++)
		rs_probe_undo(&rs->hosts[k], made[k]);
	return -1;
}

static int remote_probe_create(struct kt_source *s, enum kt_probe_kind kind, const char *def,
			       char *event, size_t eventlen, char *err, size_t errlen)
{
	char names[1024];
	int n = rs_probe_add(RS(s), probe_kind_name(kind), kind, def, names, sizeof(names), err,
			     errlen);

	if (n < 0)
		return -1;
	snprintf(event, eventlen, "%s", names);
	return 0;
}

/* The agents read the binary's notes on their machines and make one uprobe a site, the
 * semaphore counted up there, as local --usdt does. */
static int remote_usdt_create(struct kt_source *s, const char *def, char *events,
			      size_t eventslen, char *err, size_t errlen)
{
	return rs_probe_add(RS(s), "usdt", KT_PROBE_UPROBE, def, events, eventslen, err, errlen);
}

/* On every host (each its own group's); dropped here once one took it. */
static int remote_probe_delete(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	const char *ev = strchr(name, ':') ? strchr(name, ':') + 1 : name;
	struct rs_event *e;
	bool took;
	size_t i;
	int ret = rs_call_all(rs, KT_REQ_PROBE_DEL, name, "", &took, err, errlen);

	if (!took)
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
	rs_counts_forget(rs);
	rs_refresh_catalog(rs, NULL, 0);
	return ret;
}

/* Host k's last counts of the i-th probe (its name in k's group). Lock held. */
static int rs_host_counts(struct remote_src *rs, size_t i, unsigned k, struct kt_probe_health *h)
{
	const struct rs_host *host = &rs->hosts[k];
	char name[256];

	snprintf(name, sizeof(name), "%s:%s", host->group, rs->probes[i].event);
	for (size_t j = 0; host->group[0] && j < host->n_counts; j++) {
		if (!strcmp(host->counts[j].event, name)) {
			*h = host->counts[j].health;
			return 0;
		}
	}
	return -1;
}

/* Every host's counts, summed; -1 when none has said. */
static int remote_probe_health(struct kt_source *s, size_t i, struct kt_probe_health *h)
{
	struct remote_src *rs = RS(s);
	struct kt_probe_health one;
	int found = 0;

	if (i >= rs->n_probes)
		return -1;
	*h = (struct kt_probe_health){ 0 };
	pthread_mutex_lock(&rs->lock);
	for (unsigned k = 0; k < rs->n; k++) {
		if (rs_host_counts(rs, i, k, &one) < 0)
			continue;
		h->hits += one.hits;
		h->misses += one.misses;
		found++;
	}
	pthread_mutex_unlock(&rs->lock);
	return found ? 0 : -1;
}

static int remote_probe_host_health(struct kt_source *s, size_t i, unsigned host,
				    struct kt_probe_health *h)
{
	struct remote_src *rs = RS(s);
	int ret;

	if (i >= rs->n_probes || host >= rs->n)
		return -1;
	pthread_mutex_lock(&rs->lock);
	ret = rs_host_counts(rs, i, host, h);
	pthread_mutex_unlock(&rs->lock);
	return ret;
}

/* Each agent that answered the last asks for its counts again (request 24, not waited
 * for: its snapshot comes through the client thread). An older agent refuses it: its one
 * request stays unanswered, and its probes show no counts. */
static void remote_probe_refresh(struct kt_source *s)
{
	struct remote_src *rs = RS(s);
	sigset_t old;

	if (!rs->n_probes)
		return;
	remote_sigpipe_block(&old);
	pthread_mutex_lock(&rs->lock);
	for (unsigned k = 0; k < rs->n; k++) {
		struct rs_host *h = &rs->hosts[k];

		if (rs_gone(h) || h->counts_asked)
			continue;
		if (remote_send_request(h->r, KT_REQ_PROBE_COUNTS, "", "") < 0)
			log_debug("%s: %s: %s", __func__, h->label, strerror(errno));
		else
			h->counts_asked = true;
	}
	pthread_mutex_unlock(&rs->lock);
	remote_sigpipe_restore(&old);
}

static size_t remote_probe_count(struct kt_source *s)
{
	return RS(s)->n_probes;
}

static const struct kt_probe *remote_probe_get(struct kt_source *s, size_t i)
{
	return i < RS(s)->n_probes ? &RS(s)->probes[i] : NULL;
}

/* Every agent restarts its reader around the switch (its pages keep coming); the first
 * switch to a tracer other than nop fetches the kallsyms (rs_symbols). */
static int remote_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	bool took;
	int ret;

	if (strcmp(name, "nop"))
		rs_symbols(rs);
	ret = rs_call_all(rs, KT_REQ_TRACER, name, "", &took, err, errlen);

	if (took)
		snprintf(rs->tracer, sizeof(rs->tracer), "%s", name);
	return ret;
}

/* ---- what the explorer opens on every agent, which sends it every tick ------------------ */

/* Opens lv on host h with arg and a tick of tick_ms (rs_live_open: this explorer's -d, so
 * its interval is the pane's tick), and lists it before the lock goes (its first frame may come at once). Returns 0, or -1
 * with the agent's reason (or why it is gone) in reply. */
static int rs_live_open_every(struct rs_host *h, struct rs_live *lv, const char *arg,
			      unsigned tick_ms, char *reply, size_t len)
{
	struct remote_src *rs = h->rs;
	char tick[16];
	sigset_t old;
	int ret = -1;

	snprintf(tick, sizeof(tick), "%u", tick_ms);
	remote_sigpipe_block(&old);
	pthread_mutex_lock(&rs->lock);
	if (rs_gone(h)) {
		snprintf(reply, len, "%s", h->ended);
	} else {
		ret = remote_call(h->r, lv->op, arg, tick, reply, len);
		if (ret == 0) {
			lv->id[h->idx] = remote_last_id(h->r);
			if (rs->lives != lv) { /* once: its hosts open one after another */
				lv->next = rs->lives;
				rs->lives = lv;
			}
		}
	}
	pthread_mutex_unlock(&rs->lock);
	remote_sigpipe_restore(&old);
	return ret;
}

static int rs_live_open(struct rs_host *h, struct rs_live *lv, const char *arg, char *reply,
			size_t len)
{
	return rs_live_open_every(h, lv, arg, h->rs->app->opts->delay_ms, reply, len);
}

/* Opens lv on every host, all or none. Returns 0 with the first host's reply in first, or
 * -1 with the first refusal (or why that host is gone; with several hosts its label first)
 * in err: the caller closes lv then (rs_live_close), on the hosts that took it. */
static int rs_live_open_all(struct remote_src *rs, struct rs_live *lv, const char *arg,
			    char *first, size_t firstlen, char *err, size_t errlen)
{
	char reply[1024];

	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_live_open(&rs->hosts[i], lv, arg, reply, sizeof(reply)) < 0) {
			snprintf(err, errlen, "%s%s%s", rs->n > 1 ? rs->hosts[i].label : "",
				 rs->n > 1 ? ": " : "", reply);
			return -1;
		}
		if (!i)
			snprintf(first, firstlen, "%s", reply);
	}
	return 0;
}

/* Out of the list, and closed (close_op, the id of the request that opened it) on each
 * host that opened it (its programs go with it there), no reply waited for: Esc and q
 * never wait for a slow link; done(obj, host) frees what each host's frames left. */
static void rs_live_close(struct remote_src *rs, struct rs_live *lv, uint8_t close_op,
			  void (*done)(void *obj, unsigned host))
{
	struct rs_live **pp;
	sigset_t old;
	char id[16];

	remote_sigpipe_block(&old);
	pthread_mutex_lock(&rs->lock);
	for (pp = &rs->lives; *pp && *pp != lv; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = lv->next;
	for (unsigned i = 0; i < rs->n; i++) {
		snprintf(id, sizeof(id), "%u", lv->id[i]);
		if (lv->id[i] && !rs_gone(&rs->hosts[i]) &&
		    remote_send_request(rs->hosts[i].r, close_op, id, "") < 0)
			log_debug("%s: %s: %s", __func__, rs->hosts[i].label, strerror(errno));
		if (done)
			done(lv->obj, i);
	}
	pthread_mutex_unlock(&rs->lock);
	remote_sigpipe_restore(&old);
}

/* ---- histograms on the agent (histsrc.h) ------------------------------------------------- */

#define RH(h) ((struct rs_hist *)(h))

/* Every host's rows one after the other, their totals and misses summed. UI thread. */
static void rh_gather(struct rs_hist *rh)
{
	unsigned n = rh->rs->n;
	size_t k = 0;

	rh->nrows = 0;
	for (unsigned i = 0; i < n; i++)
		rh->nrows += rh->last[i].nrows;
	free(rh->rows);
	rh->rows = rh->nrows ? xcalloc(rh->nrows, sizeof(*rh->rows)) : NULL;
	memset(&rh->total, 0, sizeof(rh->total));
	rh->missed = 0;
	for (unsigned i = 0; i < n; i++) {
		for (uint32_t j = 0; j < rh->last[i].nrows; j++) {
			rh->rows[k] = rh->last[i].rows[j];
			rh->rows[k++].host = i;
		}
		hist_val_add(&rh->total.cum, &rh->last[i].total.cum);
		hist_val_add(&rh->total.iv, &rh->last[i].total.iv);
		rh->missed += rh->last[i].missed;
	}
	if (rh->last[0].variant[0])
		snprintf(rh->variant, sizeof(rh->variant), "%s", rh->last[0].variant);
}

static bool rh_update(struct kt_histsrc *h)
{
	struct rs_hist *rh = RH(h);
	bool changed = false;

	pthread_mutex_lock(&rh->rs->lock);
	for (unsigned i = 0; i < rh->rs->n; i++) {
		if (!rh->fresh[i])
			continue;
		free(rh->last[i].rows);
		rh->last[i] = rh->in[i];
		rh->in[i].rows = NULL;
		rh->fresh[i] = false;
		changed = true;
	}
	pthread_mutex_unlock(&rh->rs->lock);
	if (changed)
		rh_gather(rh);
	return changed;
}

static size_t rh_rows(struct kt_histsrc *h, const struct kt_hist_row **rows)
{
	*rows = RH(h)->rows;
	return RH(h)->nrows;
}

static const struct kt_hist_row *rh_total(struct kt_histsrc *h)
{
	return &RH(h)->total;
}

static const char *rh_variant(struct kt_histsrc *h)
{
	return RH(h)->variant;
}

static uint64_t rh_missed(struct kt_histsrc *h)
{
	return RH(h)->missed;
}

/* Several hosts: a row's host's label. */
static const char *rh_host_label(struct kt_histsrc *h, unsigned host)
{
	struct remote_src *rs = RH(h)->rs;

	return rs->n > 1 && host < rs->n ? rs->hosts[host].label : NULL;
}

static unsigned int rh_hosts(struct kt_histsrc *h)
{
	return RH(h)->rs->n;
}

/* Each host's frames of it, as the histogram closes. Lock held. */
static void rh_done(void *obj, unsigned host)
{
	struct rs_hist *rh = obj;

	free(rh->in[host].rows);
	free(rh->last[host].rows);
}

/* Out of the list, then closed on the agents. */
static void rh_close(struct kt_histsrc *h)
{
	struct rs_hist *rh = RH(h);

	rs_live_close(rh->rs, &rh->live, KT_REQ_HIST_CLOSE, rh_done);
	free(rh->rows);
	free(rh);
}

static const struct kt_histsrc_ops rh_ops = {
	.update = rh_update,
	.rows = rh_rows,
	.total = rh_total,
	.variant = rh_variant,
	.missed = rh_missed,
	.host_label = rh_host_label,
	.hosts = rh_hosts,
	.close = rh_close,
};

/* The spec's syntax is checked here, as batch mode does; each agent opens it as local
 * batch mode would (app_hist_open) and sends its rows on every tick. All or none: the
 * first host that refuses (or ended) is named with its reason, and the hosts that took it
 * close it again. */
static struct kt_histsrc *remote_hist_open(struct kt_source *s, const char *spec, char *err,
					   size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_hist *rh = xcalloc(1, sizeof(*rh));
	char reply[1024];
	const char *via;

	rh->base.ops = &rh_ops;
	rh->rs = rs;
	rh->live = (struct rs_live){ .op = KT_REQ_HIST_LIVE, .obj = rh };
	if (histspec_parse(spec, &rh->base.spec, err, errlen) < 0) {
		free(rh);
		return NULL;
	}
	if (rs_live_open_all(rs, &rh->live, spec, reply, sizeof(reply), err, errlen) < 0) {
		rh_close(&rh->base);
		return NULL;
	}
	/* "SPEC via=VARIANT": the variant until the first rows say it */
	via = strstr(reply, " via=");
	snprintf(rh->variant, sizeof(rh->variant), "%s", via ? via + 5 : "?");
	return &rh->base;
}

/* ---- the overview on the agent (ovsrc.h) -------------------------------------------------- */

#define RO(o) ((struct rs_ov *)(o))

static bool ro_update(struct kt_ovsrc *o, struct kt_ov_snap *snap, struct kt_sysstrip *sys)
{
	struct rs_ov *ro = RO(o);
	struct kt_ovrows *t = NULL;

	pthread_mutex_lock(&ro->rs->lock);
	if (ro->nq) {
		t = ro->q[0];
		memmove(ro->q, ro->q + 1, --ro->nq * sizeof(ro->q[0]));
	}
	pthread_mutex_unlock(&ro->rs->lock);
	if (!t)
		return false;
	overview_snap_free(snap);
	*snap = t->snap;
	*sys = t->sys;
	snprintf(ro->source, sizeof(ro->source), "%s", t->source);
	memcpy(ro->missing, t->missing, sizeof(ro->missing));
	ro->syscalls = t->syscalls;
	free(t);
	return true;
}

static const char *ro_source(struct kt_ovsrc *o)
{
	return RO(o)->source;
}

static const char *ro_missing(struct kt_ovsrc *o, enum kt_ov_col c)
{
	return RO(o)->missing[c];
}

static int ro_set_syscalls(struct kt_ovsrc *o, bool on, char *err, size_t errlen)
{
	struct rs_ov *ro = RO(o);

	if (rs_call(ro->rs, KT_REQ_OVERVIEW_SYSCALLS, on ? "on" : "off", "", err, errlen) < 0)
		return -1;
	ro->syscalls = on;
	return 0;
}

static bool ro_syscalls_on(struct kt_ovsrc *o)
{
	return RO(o)->syscalls;
}

/* The ticks not taken, as the overview closes. Lock held. */
static void ro_done(void *obj, unsigned host)
{
	struct rs_ov *ro = obj;

	(void)host;
	for (unsigned i = 0; i < ro->nq; i++) {
		overview_snap_free(&ro->q[i]->snap);
		free(ro->q[i]);
	}
	ro->nq = 0;
}

/* Out of the list, then closed on the agent: its programs go there. */
static void ro_close(struct kt_ovsrc *o)
{
	rs_live_close(RO(o)->rs, &RO(o)->live, KT_REQ_OVERVIEW_CLOSE, ro_done);
	free(o);
}

static const struct kt_ovsrc_ops ro_ops = {
	.update = ro_update,
	.source = ro_source,
	.missing = ro_missing,
	.set_syscalls = ro_set_syscalls,
	.syscalls_on = ro_syscalls_on,
	.close = ro_close,
};

/* The agent opens it as local --top would (its BPF object, or /proc) and sends a tick
 * every --interval (-b --top's) or -d. */
static struct kt_ovsrc *remote_overview_open(struct kt_source *s, const char *via, char *err,
					     size_t errlen)
{
	struct remote_src *rs = RS(s);
	const struct kt_options *o = rs->app->opts;
	struct rs_ov *ro = xcalloc(1, sizeof(*ro));
	unsigned tick = o->top_interval > 0 ? (unsigned)(o->top_interval * 1000 + 0.5) :
					      o->delay_ms;

	ro->base.ops = &ro_ops;
	ro->base.paced = true;
	ro->rs = rs;
	ro->syscalls = true; /* as the agent opens it */
	ro->live = (struct rs_live){ .op = KT_REQ_OVERVIEW_LIVE, .obj = ro };
	if (rs_live_open_every(&rs->hosts[0], &ro->live, via ? via : "", tick, ro->source,
			       sizeof(ro->source)) < 0) {
		snprintf(err, errlen, "%s", ro->source);
		ro_close(&ro->base);
		return NULL;
	}
	return &ro->base;
}

/* ---- profiles on the agent (profsrc.h) --------------------------------------------------- */

#define RP(p) ((struct rs_prof *)(p))

/* The stacks of what came since the last update added to into, each host's under its
 * label with several, within a quarter of --memory as a local pane's profile is bounded.
 * UI thread; the frames are taken under the lock, added after it. */
static bool rp_update(struct kt_profsrc *p, struct kt_stacks *into, char *note, size_t len)
{
	struct rs_prof *rp = RP(p);
	struct remote_src *rs = rp->rs;
	struct kt_wbuf got;
	struct kt_profrows rows = { 0 };
	uint64_t dropped = 0, frozen;
	struct kt_rbuf r;
	unsigned host;
	bool changed;
	int ret = 0;

	pthread_mutex_lock(&rs->lock);
	snprintf(note, len, "%s", rp->note);
	rp->note[0] = '\0';
	got = rp->pending;
	memset(&rp->pending, 0, sizeof(rp->pending));
	frozen = rp->pending_dropped;
	rp->pending_dropped = 0;
	pthread_mutex_unlock(&rs->lock);
	changed = got.len > 0;
	rbuf_init(&r, got.data, got.len);
	while (r.left && !r.bad && !ret) {
		host = rbuf_u32(&r);
		rows.nstacks = rbuf_u32(&r);
		rows.stacks_len = (size_t)rbuf_u64(&r);
		rows.stacks = r.p;
		r.p += rows.stacks_len;
		r.left -= rows.stacks_len;
		ret = profrows_add(&rows, into, rs->n > 1 ? rs->hosts[host].label : NULL,
				   rs->app->opts->memory_bytes / 4, &dropped);
	}
	wbuf_free(&got);
	if (ret < 0)
		snprintf(note, len, "%s: out of memory for its stacks", p->name);
	else if (frozen)
		snprintf(note, len, "%s: %" PRIu64 " of the agents' frames left out while the pane "
			 "took none (past %u MiB)", p->name, frozen, RS_PROF_PENDING_MAX >> 20);
	else if (dropped && !note[0])
		snprintf(note, len, "%s: stacks of weight %" PRIu64 " left out: past a quarter of "
			 "--memory", p->name, dropped);
	return changed;
}

/* Out of the list, then closed on the agents: their perf events and BPF programs go. */
static void rp_close(struct kt_profsrc *p)
{
	struct rs_prof *rp = RP(p);

	rs_live_close(rp->rs, &rp->live, KT_REQ_PROFILE_CLOSE, NULL);
	wbuf_free(&rp->pending);
	free(rp);
}

static const struct kt_profsrc_ops rp_ops = {
	.update = rp_update,
	.close = rp_close,
};

/* Each agent samples (or counts its off-CPU time) on its machine, names the frames there
 * and sends the stacks counted since its last tick, every tick of this explorer's. All or
 * none: the first host that refuses (or ended) is named with its reason, and the hosts
 * that took it close it again. The title is the first host's. */
static struct kt_profsrc *remote_profile_open(struct kt_source *s, bool off_cpu, unsigned freq,
					      char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_prof *rp = xcalloc(1, sizeof(*rp));
	char arg[16];

	rp->base.ops = &rp_ops;
	rp->base.off_cpu = off_cpu;
	rp->rs = rs;
	rp->live = (struct rs_live){ .op = KT_REQ_PROFILE_LIVE, .obj = rp };
	if (off_cpu)
		snprintf(arg, sizeof(arg), "off-cpu");
	else if (freq)
		snprintf(arg, sizeof(arg), "%u", freq);
	else
		arg[0] = '\0';
	/* the title: the first host's reply */
	if (rs_live_open_all(rs, &rp->live, arg, rp->base.name, sizeof(rp->base.name), err,
			     errlen) < 0) {
		rp_close(&rp->base);
		return NULL;
	}
	return &rp->base;
}

/* ---- counters on the agents (countersrc.h) ------------------------------------------------ */

#define RC(c) ((struct rs_ctrs *)(c))

static bool rc_update(struct kt_countersrc *c)
{
	struct rs_ctrs *rc = RC(c);
	bool changed = false;

	pthread_mutex_lock(&rc->rs->lock);
	for (unsigned i = 0; i < rc->rs->n; i++) {
		if (!rc->fresh[i])
			continue;
		pmu_snap_free(&rc->last[i]);
		rc->last[i] = rc->in[i];
		memset(&rc->in[i], 0, sizeof(rc->in[i]));
		rc->fresh[i] = false;
		rc->have[i] = changed = true;
	}
	pthread_mutex_unlock(&rc->rs->lock);
	return changed;
}

static unsigned rc_nhosts(struct kt_countersrc *c)
{
	return RC(c)->rs->n;
}

static void rc_host(struct kt_countersrc *c, unsigned i, struct kt_countersrc_host *out)
{
	struct rs_ctrs *rc = RC(c);

	*out = (struct kt_countersrc_host){
		.label = rc->rs->n > 1 ? rc->rs->hosts[i].label : NULL,
		.refusal = rc->refusal[i],
		.snap = rc->have[i] ? &rc->last[i] : NULL,
	};
}

/* Out of the source, closed on the agents (their perf fds go there), freed. */
static void rc_close(struct kt_countersrc *c)
{
	struct rs_ctrs *rc = RC(c);
	struct remote_src *rs = rc->rs;

	rs_live_close(rs, &rc->live, KT_REQ_COUNTERS_CLOSE, NULL);
	pthread_mutex_lock(&rs->lock);
	if (rs->ctrs == rc)
		rs->ctrs = NULL;
	pthread_mutex_unlock(&rs->lock);
	for (unsigned i = 0; i < rs->n; i++) {
		pmu_snap_free(&rc->in[i]);
		pmu_snap_free(&rc->last[i]);
		free(rc->refusal[i]);
	}
	free(rc);
}

static const struct kt_countersrc_ops rc_ops = {
	.update = rc_update,
	.nhosts = rc_nhosts,
	.host = rc_host,
	.close = rc_close,
};

/* The options' counters (the default set, --pmu-event) opened by each agent as local batch
 * mode would (app_pmu_open_events, scoped by its scope), their figures sent on every tick.
 * A host that refuses keeps its reason for the pane; NULL with err (the first host's
 * reason, its label first with several) when none took them. */
static struct kt_countersrc *remote_counters_open(struct kt_source *s, char *err,
						  size_t errlen)
{
	struct remote_src *rs = RS(s);
	const struct kt_options *o = rs->app->opts;
	struct rs_ctrs *rc;
	char reply[1024], *specs;
	unsigned took = 0;

	if (rs->ctrs) {
		snprintf(err, errlen, "the counters are open already (one set at a time)");
		return NULL;
	}
	specs = str_join(o->pmu_events, o->n_pmu_events);
	if (!specs) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rc = xcalloc(1, sizeof(*rc));
	rc->base.ops = &rc_ops;
	rc->rs = rs;
	rc->live = (struct rs_live){ .op = KT_REQ_COUNTERS_LIVE, .obj = rc };
	pthread_mutex_lock(&rs->lock);
	rs->ctrs = rc;
	pthread_mutex_unlock(&rs->lock);
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_live_open(&rs->hosts[i], &rc->live, specs, reply, sizeof(reply)) == 0)
			took++;
		else
			rc->refusal[i] = xstrdup(reply);
	}
	free(specs);
	if (took)
		return &rc->base;
	snprintf(err, errlen, "%s%s%s", rs->n > 1 ? rs->hosts[0].label : "", rs->n > 1 ? ": " : "",
		 rc->refusal[0]);
	rc_close(&rc->base);
	return NULL;
}

/* ---- triggers (one host: request 25, checked and run by the agent as locally) ---------- */

static void rs_trig_note(struct remote_src *rs, const char *system, const char *event, bool on)
{
	char key[200];
	size_t i;

	snprintf(key, sizeof(key), "%s:%s", system, event);
	for (i = 0; i < rs->n_trig && strcmp(rs->trig_events[i], key); i++)
		;
	if (on && i == rs->n_trig) {
		rs->trig_events = xreallocarray(rs->trig_events, rs->n_trig + 1,
						sizeof(*rs->trig_events));
		rs->trig_events[rs->n_trig++] = xstrdup(key);
	} else if (!on && i < rs->n_trig) {
		free(rs->trig_events[i]);
		rs->trig_events[i] = rs->trig_events[--rs->n_trig];
	}
}

static int remote_trigger_add(struct kt_source *s, struct tep_event *te,
			      const struct kt_trigger *t, char *err, size_t errlen)
{
	char body[KT_TRIGGER_MAX * 2 + 32], text[sizeof(body) + 200];
	bool took;

	(void)te; /* each agent checks it against its own format */
	err[0] = '\0';
	trigger_format(t, body, sizeof(body));
	snprintf(text, sizeof(text), "%s:%s:%s", t->system, t->event, body);
	if (rs_call_all(RS(s), KT_REQ_TRIGGER, "add", text, &took, err, errlen) < 0 && !took)
		return -1;
	rs_trig_note(RS(s), t->system, t->event, true);
	return err[0] ? -1 : 0;
}

static int remote_trigger_remove_all(struct kt_source *s, const char *system, const char *event,
				     char *err, size_t errlen)
{
	struct remote_src *rs = RS(s);
	char ev[200], own[256], reply[1024];
	int n = -1;

	snprintf(ev, sizeof(ev), "%s:%s", system, event);
	/* from every host; how many went is the first host's (each took the same) */
	for (unsigned i = rs->n; i-- > 0;) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, KT_REQ_TRIGGER, "remove", rs_host_arg(h, ev, own, sizeof(own)),
			   reply, sizeof(reply)) == 0)
			n = i ? n : atoi(reply);
		else if (!i || !rs_gone(h))
			snprintf(err, errlen, "%s%s%s", rs->n > 1 ? h->label : "",
				 rs->n > 1 ? ": " : "", reply);
	}
	if (n < 0)
		return -1;
	rs_trig_note(rs, system, event, false);
	return n;
}

static char *remote_trigger_list(struct kt_source *s, const char *system, const char *event)
{
	char ev[200], reply[1024], *p;

	snprintf(ev, sizeof(ev), "%s:%s", system, event);
	if (rs_ask(&RS(s)->hosts[0], KT_REQ_TRIGGER, "list", ev, reply, sizeof(reply)) < 0) {
		log_debug("%s: %s: %s", __func__, ev, reply);
		return NULL;
	}
	if (!reply[0])
		return NULL;
	for (p = reply; (p = strchr(p, '\x1f'));)
		*p = '\n';
	return xstrdup(reply);
}

static int remote_triggers_for_each(struct kt_source *s, kt_source_event_fn fn, void *ctx)
{
	struct remote_src *rs = RS(s);
	char sys[64];
	size_t i;

	for (i = 0; i < rs->n_trig; i++) {
		const char *c = strchr(rs->trig_events[i], ':');

		snprintf(sys, sizeof(sys), "%.*s", (int)(c - rs->trig_events[i]),
			 rs->trig_events[i]);
		fn(sys, c + 1, ctx);
	}
	return (int)rs->n_trig;
}

static int remote_tracing_on(struct kt_source *s, bool on)
{
	char err[1024];
	bool took;

	if (rs_call_all(RS(s), KT_REQ_TRIGGER, "tracing", on ? "on" : "off", &took, err,
			sizeof(err)) < 0) {
		log_debug("%s: %s", __func__, err);
		return took ? 0 : -1;
	}
	return 0;
}

/* Spent on any host: with several, the first to fire stops the others' capture too (a
 * moment later: each kernel fires on its own), so the whole stream ends there. */
static bool remote_trigger_spent(struct kt_source *s, const char *system, const char *event,
				 const char *cmd)
{
	struct remote_src *rs = RS(s);
	char arg[300], own[400], reply[1024];

	snprintf(arg, sizeof(arg), "%s:%s:%s", system, event, cmd);
	for (unsigned i = 0; i < rs->n; i++) {
		struct rs_host *h = &rs->hosts[i];

		if (rs_ask(h, KT_REQ_TRIGGER, "spent", rs_host_arg(h, arg, own, sizeof(own)), reply,
			   sizeof(reply)) < 0 || strcmp(reply, "1"))
			continue;
		if (rs->n > 1 && !strcmp(cmd, "traceoff"))
			remote_tracing_on(s, false);
		return true;
	}
	return false;
}

/* ---- the tracer pane's function lists (request 26: the first host's read, every host's
 * changed, as the tracer switches on every host) ----------------------------------------- */

static bool remote_list_exists(struct kt_source *s, enum kt_ftrace_list which)
{
	char reply[1024];

	return rs_ask(&RS(s)->hosts[0], KT_REQ_FTRACE_LIST, "exists", tracers_list_file(which),
		      reply, sizeof(reply)) == 0 &&
	       !strcmp(reply, "1");
}

/* The lines of the list snapshot that came before the first host's reply (requests 26,
 * 29), NULL-terminated. */
static char **rs_take_lines(struct remote_src *rs)
{
	struct rs_host *h = &rs->hosts[0];
	char *text, *line, *save = NULL, **out;
	size_t n = 0, cap = 1; /* a last line without its newline too */

	pthread_mutex_lock(&rs->lock);
	text = h->list_text;
	h->list_text = NULL;
	pthread_mutex_unlock(&rs->lock);
	/* as many entries as the snapshot holds lines, whatever the reply says */
	for (line = text; line && (line = strchr(line, '\n')); line++)
		cap++;
	out = xcalloc(cap + 1, sizeof(*out));
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && n < cap;
	     line = strtok_r(NULL, "\n", &save))
		out[n++] = xstrdup(line);
	free(text);
	return out;
}

static char **remote_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
			      size_t errlen)
{
	struct remote_src *rs = RS(s);
	char reply[1024];

	if (rs_ask(&rs->hosts[0], KT_REQ_FTRACE_LIST, "get", tracers_list_file(which), reply,
		   sizeof(reply)) < 0) {
		snprintf(err, errlen, "%s", reply);
		return NULL;
	}
	return rs_take_lines(rs);
}

/* The probe editor's names, read on the first host's machine (request 29). */
static char **remote_names(struct kt_source *s, const char *what, const char *arg,
			   char *reply, size_t len)
{
	struct remote_src *rs = RS(s);

	if (rs_ask(&rs->hosts[0], KT_REQ_NAMES, what, arg, reply, len) < 0)
		return NULL;
	return rs_take_lines(rs);
}

/* op on every host's list with entry: how many functions the first host's now holds (add), or
 * 0; -1 with the first refusal (its label first with several hosts). */
static int rs_list_change(struct remote_src *rs, const char *op, enum kt_ftrace_list which,
			  const char *entry, char *err, size_t errlen)
{
	char arg[600], reply[1024];
	int count = 0;

	snprintf(arg, sizeof(arg), "%s%s%s", tracers_list_file(which), entry ? " " : "",
		 entry ? entry : "");
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs_ask(&rs->hosts[i], KT_REQ_FTRACE_LIST, op, arg, reply, sizeof(reply)) < 0) {
			if (rs->n > 1)
				snprintf(err, errlen, "%s: %s", rs->hosts[i].label, reply);
			else
				snprintf(err, errlen, "%s", reply);
			return -1;
		}
		if (!i)
			count = atoi(reply);
	}
	return count;
}

static int remote_list_add(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			   char *err, size_t errlen)
{
	return rs_list_change(RS(s), "add", which, entry, err, errlen);
}

static int remote_list_remove(struct kt_source *s, enum kt_ftrace_list which, const char *entry,
			      char *err, size_t errlen)
{
	return rs_list_change(RS(s), "remove", which, entry, err, errlen) < 0 ? -1 : 0;
}

static int remote_list_clear(struct kt_source *s, enum kt_ftrace_list which, char *err,
			     size_t errlen)
{
	return rs_list_change(RS(s), "clear", which, NULL, err, errlen) < 0 ? -1 : 0;
}

/* w, A: the one host's kernel for the trace.dat writer, its kallsyms fetched first (the
 * file's function names are its kernel's). */
static int remote_record_meta(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
			      size_t errlen)
{
	struct remote_src *rs = RS(s);
	struct rs_host *h = &rs->hosts[0];

	rs_symbols(rs);
	if (h->mirror_err[0]) {
		snprintf(err, errlen, "%s", h->mirror_err);
		return -1;
	}
	snprintf(h->uname, sizeof(h->uname), "Linux %s %s", h->hello.host, h->hello.kernel);
	snprintf(h->kallsyms, sizeof(h->kallsyms), "%s/kallsyms", mirror_dir(h->mirror));
	meta->tracing_dir = mirror_dir(h->mirror);
	meta->kallsyms = h->kallsyms; /* none came: none in the file, not this machine's */
	meta->uname = h->uname;
	meta->ncpus = (int)h->hello.ncpus;
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
	.record_meta = remote_record_meta,
	.trigger_add = remote_trigger_add,
	.trigger_remove_all = remote_trigger_remove_all,
	.trigger_list = remote_trigger_list,
	.triggers_for_each = remote_triggers_for_each,
	.trigger_spent = remote_trigger_spent,
	.tracing_on = remote_tracing_on,
	.list_exists = remote_list_exists,
	.list_get = remote_list_get,
	.list_add = remote_list_add,
	.list_remove = remote_list_remove,
	.list_clear = remote_list_clear,
	.enable = remote_enable,
	.is_enabled = remote_is_enabled,
	.for_each_enabled = remote_for_each_enabled,
	.get_filter = remote_get_filter,
	.set_filter = remote_set_filter,
	.stacks_enabled = remote_stacks_enabled,
	.stacks_refilter = remote_stacks_refilter,
	.stacks_set = remote_stacks_set,
	.set_scope = remote_set_scope,
	.tracer = remote_tracer,
	.tracers_available = remote_tracers_available,
	.set_tracer = remote_set_tracer,
	.probe_create = remote_probe_create,
	.probe_delete = remote_probe_delete,
	.probe_count = remote_probe_count,
	.probe_get = remote_probe_get,
	.probe_health = remote_probe_health,
	.probe_host_health = remote_probe_host_health,
	.probe_refresh = remote_probe_refresh,
	.usdt_create = remote_usdt_create,
	.cpu_host = remote_cpu_host,
	.symbols = remote_symbols,
	.user_symbolizer = remote_user_symbolizer,
	.names = remote_names,
	.hist_open = remote_hist_open,
	.counters_open = remote_counters_open,
	.profile_open = remote_profile_open,
	.overview_open = remote_overview_open,
};

/* ---- the opener ------------------------------------------------------------------------- */

/* Host i's agent started, up to its hello. Returns 0, or -1 with err. */
static int rs_host_start(struct remote_src *rs, unsigned i, const struct kt_options *opts,
			 char *err, size_t errlen)
{
	struct rs_host *h = &rs->hosts[i];

	h->rs = rs;
	h->idx = i;
	snprintf(h->label, sizeof(h->label), "%s", opts->remotes[i].label);
	h->tep = tep_alloc();
	h->pages = h->tep ? rpages_new(h->tep, rs_emit, h) : NULL;
	if (!h->pages) {
		snprintf(err, errlen, "cannot start: out of memory");
		return -1;
	}
	h->r = remote_spawn(opts->remotes[i].host, opts->remotes[i].via, opts->compress,
			    &rs_ops, h, err, errlen);
	return h->r ? 0 : -1;
}

/* Host i's hello; with several, its clock, and a layout the first host's decoder reads.
 * Returns 0, or -1 with err. */
static int rs_host_hello(struct remote_src *rs, unsigned i, char *err, size_t errlen)
{
	struct rs_host *h = &rs->hosts[i], *h0 = &rs->hosts[0];

	if (remote_handshake(h->r, REMOTE_HELLO_MS, err, errlen) < 0)
		return -1;
	h->cpu_base = i ? rs->hosts[i - 1].cpu_base + rs->hosts[i - 1].hello.ncpus : 0;
	if (rs->n == 1)
		return 0;
	if (h->hello.big_endian != h0->hello.big_endian ||
	    h->hello.long_size != h0->hello.long_size) {
		snprintf(err, errlen, "its kernel's byte order or long size is not %s's: one "
			 "explorer cannot merge them (ktop -b does, or one explorer each)",
			 h0->label);
		return -1;
	}
	return hostclock_sync(rs->merge, i, h->r, err, errlen);
}

/* Starts the agents and learns their layouts, the first one's events. Returns 0, or -1
 * with err (the host's label first with several). */
static int rs_connect(struct remote_src *rs, const struct kt_options *opts, char *err,
		      size_t errlen)
{
	struct rs_host *h0 = &rs->hosts[0];
	char reply[1024], why[1024];
	unsigned i;

	if (pipe2(rs->ctl, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(errno));
		return -1;
	}
	if (rs->n > 1)
		rs->merge = hostmerge_new(rs->n, KT_HOSTMERGE_CAP, rs_merged, rs);
	for (i = 0; i < rs->n; i++)
		if (rs_host_start(rs, i, opts, why, sizeof(why)) < 0)
			goto fail;
	for (i = 0; i < rs->n; i++)
		if (rs_host_hello(rs, i, why, sizeof(why)) < 0)
			goto fail;
	if (remote_call(h0->r, KT_REQ_EVENTS, "", "", reply, sizeof(reply)) < 0 || !rs->events) {
		snprintf(why, sizeof(why), "%.200s gave no event list: %.700s", remote_name(h0->r),
			 reply[0] ? reply : "an older agent? (install the same ktop on both sides)");
		i = 0;
		goto fail;
	}
	if (rs->n > 1)
		snprintf(rs->name, sizeof(rs->name), "%u hosts", rs->n);
	else if (opts->remotes[0].host)
		snprintf(rs->name, sizeof(rs->name), "%s", opts->remotes[0].host);
	else
		snprintf(rs->name, sizeof(rs->name), "%.64s via %.180s", h0->hello.host,
			 opts->remotes[0].via);
	return 0;
fail:
	if (rs->n > 1)
		snprintf(err, errlen, "%s: %.900s", rs->hosts[i].label, why);
	else
		snprintf(err, errlen, "%s", why);
	return -1;
}

/* -p (--follow-children), --comm or --cgroup as the scope request to every host
 * (rs_scope_all), before any event is on: --comm's filter goes with every event enabled
 * after it, as locally; the header shows a pid or cgroup scope, as locally. Returns 0, or
 * -1 with err. */
/* --user-stacks: every agent's instance carries its tasks' user stacks, and names their
 * frames before the pages that hold them (before any event is on: the agent restarts its
 * reader). */
static int rs_user_stacks(struct remote_src *rs, char *err, size_t errlen)
{
	char why[512] = "";
	bool took;

	for (unsigned i = 0; i < rs->n; i++)
		rs->hosts[i].unames = usernames_new();
	if (rs_call_all(rs, KT_REQ_USER_STACKS, "", "", &took, why, sizeof(why)) == 0)
		return 0;
	snprintf(err, errlen, "--user-stacks: %s", why);
	return -1;
}

static int rs_start_scope(struct remote_src *rs, const struct kt_options *opts, char *err,
			  size_t errlen)
{
	struct kt_scopereq q;
	char desc[sizeof(rs->app->scope_desc)], note[1024];
	int ret;

	if (!scopereq_from_options(opts, &q))
		return 0;
	ret = rs_scope_all(rs, KT_REQ_SCOPE, q.opt, q.kind, q.arg, desc, sizeof(desc), note,
			   sizeof(note), err, errlen);
	if (ret == 0 && strcmp(q.kind, "comm"))
		snprintf(rs->app->scope_desc, sizeof(rs->app->scope_desc), "%s", desc);
	if (note[0])
		log_debug("%s: %s", __func__, note);
	scopereq_free(&q);
	return ret;
}

/* The options' scope, function lists, tracer, probes, events and stacks, as app_open sets
 * them up locally.
 * Returns 0, or -1 with err. */
static int rs_start_capture(struct remote_src *rs, const struct kt_options *opts, char *err,
			    size_t errlen)
{
	struct kt_app *app = rs->app;

	if (opts->filter && *opts->filter)
		app->event_filter = xstrdup(opts->filter);
	evstack_setup(app->store, app->decoder);
	if (rs_start_scope(rs, opts, err, errlen) < 0)
		return -1;
	for (int w = 0; w < KT_FTRACE_NLISTS; w++)
		for (size_t i = 0; i < opts->n_ftrace_lists[w]; i++)
			if (source_list_add(app->source, (enum kt_ftrace_list)w,
					    opts->ftrace_lists[w][i], err, errlen) < 0)
				return -1;
	if (opts->tracer && app_set_tracer(app, opts->tracer, err, errlen) < 0)
		return -1;
	if (app_setup_probes(app, err, errlen) != KT_EXIT_OK)
		return -1;
	if (opts->user_stacks && rs_user_stacks(rs, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < opts->n_events; i++)
		if (app_set_events(app, opts->events[i], true, err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < opts->n_stacks; i++)
		if (app_set_stacks(app, opts->stacks[i], true, err, errlen) < 0)
			return -1;
	/* --trigger and --stop-when, on the agent's events */
	return stopwhen_start(app, err, errlen);
}

int app_open_remote(struct kt_app *app, const struct kt_options *opts, char *err,
		    size_t errlen)
{
	struct remote_src *rs;
	struct kt_source *s;
	sigset_t all, old;
	int ret = app_init(app, opts, err, errlen);
	struct rs_host *last;
	char why[256];

	if (ret != KT_EXIT_OK)
		return ret;
	rs = xcalloc(1, sizeof(*rs));
	rs->app = app;
	rs->n = (unsigned)opts->n_remotes;
	rs->ctl[0] = rs->ctl[1] = -1;
	snprintf(rs->tracer, sizeof(rs->tracer), "nop"); /* a new instance's */
	pthread_mutex_init(&rs->lock, NULL);
	s = xcalloc(1, sizeof(*s));
	s->ops = &source_remote_ops;
	s->app = app;
	s->data = rs;
	app->source = s; /* closes the agents with the app */
	app->store = store_new(opts->memory_bytes);
	app->comms = comms_new();
	if (!app->store || !app->comms) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	if (rs->n == 1 && !(rs->hosts[0].mirror = mirror_new(why, sizeof(why))))
		log_debug("%s: w and A refused: %s", __func__, why);
	if (rs_connect(rs, opts, err, errlen) < 0) {
		rs_stderr_out(rs); /* the messages before the one line that says why */
		rs_fault(rs, err, errlen);
		return KT_EXIT_FAILURE;
	}
	last = &rs->hosts[rs->n - 1];
	app->decoder = decoder_new_offline(rs->hosts[0].tep);
	app->catalog = catalog_parse(rs->events);
	app->ncpus = (int)(last->cpu_base + last->hello.ncpus);
	if (app->ncpus < 1)
		app->ncpus = 1;
	app->cpu_stats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_stats));
	app->cpu_rstats = xcalloc((size_t)app->ncpus, sizeof(*app->cpu_rstats));
	if (!app->decoder || !app->catalog) {
		snprintf(err, errlen, "out of memory");
		return KT_EXIT_FAILURE;
	}
	decoder_set_comms(app->decoder, app->comms);
	decoder_set_loader(app->decoder, rs_load_format, rs);
	if (rs_start_capture(rs, opts, err, errlen) < 0) {
		rs_fault(rs, err, errlen);
		return KT_EXIT_FAILURE;
	}
	/* signals go to the main thread; the pings' SIGPIPE after an agent died is left
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
