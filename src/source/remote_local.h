/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The remote event source (ktop -H HOST, ktop --via CMD without -b): the explorer over an
 * agent at the other end of a pipe (src/remote/, docs/remote.md), or over several (-H and
 * --via more than once, KT_REMOTES_MAX). Each agent's formats build its own tep; the first
 * host's is the one the decoder reads and its available_events the catalogue. A client
 * thread pumps the pipes: pages decoded and merged by time (remote/pages.c, shared with
 * batch mode) are staged under the lock and go into app->store once it is let go (the lock
 * order at struct remote_src), one byte to the wake pipe per batch; task names into
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
#ifndef KTOP_SOURCE_REMOTE_LOCAL_H
#define KTOP_SOURCE_REMOTE_LOCAL_H

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

#include "app/app.h"
#include "app/stopwhen.h"
#include "backend/tracefs/catalog.h"
#include "backend/perf/comms.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack_record.h"
#include "backend/tracefs/probeprint.h"
#include "backend/tracefs/tracers.h"
#include "backend/tracefs/triggers.h"
#include "backend/symbols/usernames.h"
#include "util/clock.h"
#include "countersrc.h"
#include "histsrc.h"
#include "ovsrc.h"
#include "profsrc.h"
#include "util/log.h"
#include "remote/client.h"
#include "remote/hostclock.h"
#include "remote/hostmerge.h"
#include "remote/mirror.h"
#include "remote/pages.h"
#include "remote/recq.h"
#include "app/scopereq.h"
#include "record/tdat_write.h"
#include "source/source.h"
#include "util/strutil.h"
#include "util/lockorder.h"
#include "util/xalloc.h"

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

/* The overview the explorer opened on its agents: each host's ticks as they came, taken
 * together by one update (-b --top prints every one), every host's rows merged then; and
 * what each host's last tick said of the overview there (remote_overview.c). */
#define RS_OV_QUEUE 8
struct rs_ov {
	struct kt_ovsrc base;
	struct remote_src *rs;
	struct rs_live live;
	/* under lock: each host's ticks not taken, oldest first */
	struct kt_ovrows *q[KT_REMOTES_MAX][RS_OV_QUEUE];
	unsigned nq[KT_REMOTES_MAX];
	/* UI thread: each host's last tick taken (its rows moved into the merged snapshot) */
	struct rs_ov_host {
		bool have, fresh;
		struct kt_ov_snap snap; /* procs and threads NULL */
		struct kt_sysstrip sys;
		char source[256];
	} host[KT_REMOTES_MAX];
	/* UI thread: the overview as of the last tick taken (the first host's with several,
	 * a column missing on any of them said with its label) */
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
	/* the hosts' r and pages, merge: the client thread's pump, the UI's requests.
	 * Lock order (util/lockorder.h, checked in test-hook builds): the store's lock, then
	 * this one, never the other way. The UI thread draws rows with the store locked and
	 * may ask an agent for a format under this lock (rs_load_format); so nothing done
	 * under this lock takes the store's: what the agents' pages bring is staged, and the
	 * client thread moves it into the store after letting this lock go (rs_flush). */
	pthread_mutex_t lock;
	/* under lock: records decoded and merged, in order, not in the store yet; and
	 * whether a watermark came with them (the UI is woken once they are stored) */
	struct kt_recq staged;
	bool staged_wake;
	/* the client thread's (and the closing's, once it stopped): staged as last taken */
	struct kt_recq flushing;
	bool stopping; /* ctl carries a stop, not only a nudge to store what was staged */
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
	int ctl[2]; /* wakes the client thread: to stop, or to store what a request staged */
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

void rs_nudge(struct remote_src *rs);

static inline void rs_lock(struct remote_src *rs)
{
	lockorder_take(KT_LOCK_REMOTE);
	pthread_mutex_lock(&rs->lock);
}

static inline void rs_unlock(struct remote_src *rs)
{
	pthread_mutex_unlock(&rs->lock);
	lockorder_drop(KT_LOCK_REMOTE);
}

/* After a request on the UI thread: the lock let go, and the client thread nudged to store
 * what came with the reply (the UI may hold the store's lock: it cannot). */
static inline void rs_unlock_request(struct remote_src *rs)
{
	bool staged = rs->staged.head < rs->staged.len || rs->staged_wake;

	rs_unlock(rs);
	if (staged)
		rs_nudge(rs);
}

static inline bool rs_gone(const struct rs_host *h)
{
	return __atomic_load_n(&h->gone, __ATOMIC_ACQUIRE);
}

/* Shared between remote_*.c. */
void rs_emit(void *ctx, const struct kt_rec *r);
void rs_merged(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts);
void rs_fault(const struct remote_src *rs, char *err, size_t errlen);
void rs_stderr_out(struct remote_src *rs);
extern const struct kt_remote_ops rs_ops;
void *rs_thread(void *arg);
void rs_flush(struct remote_src *rs);
unsigned int remote_caps(struct kt_source *s);
const char *remote_refusal(struct kt_source *s, enum kt_cap cap);
void remote_describe(struct kt_source *s, struct kt_source_desc *d);
void remote_tick(struct kt_source *s);
void rs_probe_free(struct kt_probe *p);
void remote_close_src(struct kt_source *s);
struct rs_event *rs_find(struct remote_src *rs, const char *system, const char *event,
			 bool add);
int rs_ask(struct rs_host *h, uint8_t op, const char *arg, const char *arg2,
	   char *reply, size_t len);
int rs_call(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
	    char *err, size_t errlen);
const char *rs_host_arg(const struct rs_host *h, const char *arg, char *buf, size_t len);
int rs_call_all(struct remote_src *rs, uint8_t op, const char *arg, const char *arg2,
		bool *took, char *err, size_t errlen);
int rs_load_format(void *ctx, const char *system, const char *event);
/* remote_panes.c: what the explorer opens on the agents, which send it every tick */
int rs_live_open_every(struct rs_host *h, struct rs_live *lv, const char *arg,
		       unsigned tick_ms, char *reply, size_t len);
void rs_live_close(struct remote_src *rs, struct rs_live *lv, uint8_t close_op,
		   void (*done)(void *obj, unsigned host));
void rs_symbols(struct remote_src *rs);
extern const struct kt_source_events_ops remote_events_ops;
extern const struct kt_source_filter_ops remote_filter_ops;
extern const struct kt_source_stack_ops remote_stacks_ops;
extern const struct kt_source_host_ops remote_hosts_ops;
int rs_scope_all(struct remote_src *rs, uint8_t op, const char *what, const char *kind,
		 const char *arg, char *desc, size_t desclen, char *note, size_t notelen,
		 char *err, size_t errlen);
char *remote_tracer(struct kt_source *s);
char **remote_tracers_available(struct kt_source *s, char *err, size_t errlen);
int remote_set_tracer(struct kt_source *s, const char *name, char *err, size_t errlen);
extern const struct kt_source_probe_ops remote_probes_ops;
extern const struct kt_source_scope_ops remote_scope_ops;
struct kt_histsrc *remote_hist_open(struct kt_source *s, const char *spec, char *err,
				    size_t errlen);
struct kt_ovsrc *remote_overview_open(struct kt_source *s, const char *via, char *err,
				      size_t errlen);
struct kt_profsrc *remote_profile_open(struct kt_source *s,
				       const struct kt_profsrc_req *req, char *err,
				       size_t errlen);
struct kt_countersrc *remote_counters_open(struct kt_source *s, char *err,
					   size_t errlen);
char **remote_list_get(struct kt_source *s, enum kt_ftrace_list which, char *err,
		       size_t errlen);
char **remote_names(struct kt_source *s, const char *what, const char *arg,
		    char *reply, size_t len);
int remote_record_meta(struct kt_source *s, struct kt_tdat_meta *meta, char *err,
		       size_t errlen);
extern const struct kt_source_trigger_ops remote_triggers_ops;
extern const struct kt_source_tracer_ops remote_tracer_ops;

#endif
