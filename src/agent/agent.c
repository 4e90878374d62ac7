// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktop --agent (agent.h). Two threads make frames: the reader (page mode, app.h's
 * app_set_page_sink) each page with the names of its new pids, the main thread the answers
 * to the viewer and loss counters on every -d tick. They queue them for a writer thread,
 * which alone writes stdout. One lock orders the frames, guards the queue and the decoder
 * (whose name cache the page path reads); the main thread never holds it while it waits for
 * the reader (a tracer switch, the stop). A slow link fills the queue and makes producers
 * wait, so the kernel drops and counts; at the stop the queue takes the kernel's last pages
 * without waiting, so the instance goes first and the tail follows at the link's pace.
 * The scope (KT_REQ_SCOPE) goes into the agent's own options and app.h's scope calls, so
 * what follows it is scoped as after local -p, --comm or --cgroup.
 * Histograms and counters (KT_REQ_HIST, KT_REQ_COUNTERS) are app.h's, as local batch mode's;
 * their snapshots go when the capture stops, before END, and their programs and perf events
 * with the agent's fds however it ends. The explorer's histograms (KT_REQ_HIST_LIVE) are
 * read every tick of the viewer's and sent as their rows (histrows.h), until
 * KT_REQ_HIST_CLOSE; its counters (KT_REQ_COUNTERS_LIVE) likewise as their figures
 * (counterrows.h), until KT_REQ_COUNTERS_CLOSE; its flame pane's profiles
 * (KT_REQ_PROFILE_LIVE, agentprof.h) polled every 100 ms and their stacks sent every such
 * tick (profrows.h), until KT_REQ_PROFILE_CLOSE; --off-cpu's (KT_REQ_PROFILE "off-cpu")
 * rendered as the capture stops. The explorer's overview (KT_REQ_OVERVIEW_LIVE, agentov.h)
 * read every tick of the viewer's and sent as an OVROWS frame until KT_REQ_OVERVIEW_CLOSE.
 * --user-stacks (KT_REQ_USER_STACKS) restarts the reader with
 * a side band that tracks mappings, and the page path names each new user frame before its
 * page (agentustack.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <tracefs.h>

#include "agent.h"
#include "app/app.h"
#include "backend/bpf/bpfhist.h"
#include "backend/tracefs/catalog.h"
#include "backend/ingest/decode.h"
#include "backend/tracefs/guard.h"
#include "backend/bpf/histprint.h"
#include "backend/ingest/loss.h"
#include "backend/perf/pmu.h"
#include "backend/perf/pmu_snap.h"
#include "backend/tracefs/probeprint.h"
#include "backend/tracefs/scope.h"
#include "backend/tracefs/session.h"
#include "backend/tracefs/tracers.h"
#include "batch/batch_profile.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/log.h"
#include "remote/counterrows.h"
#include "agentov.h"
#include "agentprof.h"
#include "agentreq.h"
#include "agenttrig.h"
#include "agentlist.h"
#include "backend/symbols/probenames.h"
#include "agentustack.h"
#include "remote/histrows.h"
#include "remote/proto.h"
#include "app/signals.h"
#include "source/source.h"
#include "util/xalloc.h"

/* The viewer says hello at once; a pipe that says nothing is not a viewer. */
#define AGENT_HELLO_MS 30000
/* Frames wait in a queue for the writer thread; while capturing, a producer waits once it
 * holds this much, so a slow link makes the kernel drop (and count) rather than the agent
 * grow. */
#define AGENT_QUEUE_MAX (1u << 20)
/* The kernel is clean before the queue's last bytes go out: after a signal they get a
 * second, after the viewer's own end (it waits for the tail) half a minute. */
#define AGENT_FLUSH_SIG_NS 1000000000ull
#define AGENT_FLUSH_EOF_NS 30000000000ull
/* At the stop the queue no longer makes the reader wait, but the instance must go within
 * 2 s even on a loaded machine: the drain ends once the queue holds this much or this long
 * has passed, and what the kernel still held is counted lost (the final loss frame). */
#define AGENT_STOP_QUEUE_MAX (4u << 20)
#define AGENT_STOP_READ_NS 500000000ull
/* Direct-mapped cache of the names sent, cleared on every tick (a rename shows in a -d). */
#define AGENT_NAMES 4096
/* --profile's rings are taken this often, as local batch mode takes them. */
#define AGENT_PROFILE_POLL_NS 100000000ull
/* A viewer pings every second. A line that never closes (a serial port) says nothing when
 * the viewer is gone: once one has pinged, this long without a byte from it, while nothing
 * waits to be sent to it (a long reply keeps a viewer waiting, not pinging), is its end. */
#define AGENT_SILENCE_NS 60000000000ull
/* An event committing as a pass began may carry an earlier time (the reader's slack). */
#define AGENT_COMMIT_SLACK_NS 2000000ull

struct agent {
	struct kt_app app;
	/* the agent's options, which the scope request fills as -p, --comm and --cgroup
	 * would (app.opts points here) */
	struct kt_options o;
	const struct kt_options *opts;
	char *scope_comm; /* o.comm's, owned */
	int in, out;
	bool compress;
	pthread_mutex_t lock;
	bool dead; /* __atomic: the output is gone */
	unsigned long long flush_by; /* __atomic: writes give up then (0: no limit) */
	/* under lock: */
	struct kt_wbuf q; /* frames the writer has not taken yet */
	size_t inflight; /* bytes the writer is writing */
	/* the time of the first event of the oldest page in q, and in what the writer is
	 * writing (0: no page there): how long the oldest unsent event has waited */
	uint64_t q_oldest, inflight_oldest;
	bool stopping; /* the capture is stopping: producers no longer wait for room */
	bool viewer_done; /* the viewer's end request came: as its stdin closing */
	bool pinged; /* main thread: the viewer pings (AGENT_SILENCE_NS applies) */
	unsigned long long heard; /* main thread: when its last bytes came */
	unsigned long long stop_at; /* when it began to */
	uint64_t *handed; /* per CPU: records in the pages sent since the reader (and the
			   * kernel's counters) last started */
	uint64_t *last_ts; /* per CPU: the time of the last record of the pages sent (0: none) */
	uint64_t wm_sent; /* the last watermark sent */
	bool writer_on, writer_quit;
	pthread_cond_t q_data, q_room;
	pthread_t writer;
	struct kbuffer *kbuf;
	uint8_t *page; /* a copy of the page being looked at (kbuffer wants it writable) */
	size_t page_size;
	struct {
		int pid;
		char name[16];
	} names[AGENT_NAMES];
	char **sent; /* "sys:event" of the formats sent */
	size_t n_sent;
	struct agent_hist {
		struct kt_bpfhist *h; /* in app.hists, which closes it */
		uint32_t id;	      /* the request that opened it */
		bool json;	      /* rendered as --json prints it */
		bool live;	      /* the explorer's: its rows every period */
		unsigned long long period_ns, next_ns; /* live: the viewer's tick, when next */
	} *hists;
	size_t n_hists;
	struct kt_batch_profile *profile; /* --profile's stacks (NULL: none asked for) */
	uint32_t profile_id;	/* the request that opened it */
	unsigned long long profile_polled; /* when its rings (and profs') were last taken */
	struct agent_prof {
		struct kt_agentprof *p;
		uint32_t id;	   /* the request that opened it */
		bool live;	   /* the explorer's: its stacks every period; else --off-cpu's */
		bool json, quiet;  /* --off-cpu's: rendered as --json, -q print it */
		unsigned long long period_ns, next_ns; /* live: the viewer's tick, when next */
	} *profs;
	size_t n_profs;
	struct kt_agentov *ov; /* the explorer's overview (KT_REQ_OVERVIEW_LIVE; NULL: none) */
	uint32_t pmu_id;	/* the counters request (0: none), rendered for --json? */
	bool pmu_json;
	/* the explorer's counters (KT_REQ_COUNTERS_LIVE; 0: none), their figures sent every
	 * period, the viewer's tick */
	uint32_t pmu_live;
	unsigned long long pmu_period_ns, pmu_next_ns;
	struct kt_pmu_snap pmu_snap; /* the last figures sent */
	struct kt_wbuf pay; /* under lock */
	/* --user-stacks: the names of user frames (under lock; reader thread once made) and
	 * the UNAMES payload being built */
	struct kt_agentustack *ustack;
	struct kt_wbuf unames;
	struct kt_page_sink sink;
	struct kt_rstream rs;
};

/* What is still to be written has ns more, then it is dropped. */
static void agent_flush_within(struct agent *a, unsigned long long ns)
{
	__atomic_store_n(&a->flush_by, clock_mono_ns() + ns, __ATOMIC_RELEASE);
}

/* Writes all of p (the writer thread, or anyone before it runs), waiting for a slow link;
 * gives up at flush_by. A broken pipe or the deadline passed marks the output dead and
 * wakes the main loop. */
static int agent_write(struct agent *a, const uint8_t *p, size_t n)
{
	struct pollfd pfd = { .fd = a->out, .events = POLLOUT };
	unsigned long long at;
	ssize_t w;
	char b = 'x';

	while (n && !__atomic_load_n(&a->dead, __ATOMIC_ACQUIRE)) {
		w = write(a->out, p, n);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			at = __atomic_load_n(&a->flush_by, __ATOMIC_ACQUIRE);
			if (at && clock_mono_ns() > at)
				break;
			poll(&pfd, 1, 100);
			continue;
		}
		break;
	}
	if (!n)
		return 0;
	log_debug("%s: the viewer's pipe is gone: %s", __func__, strerror(errno));
	__atomic_store_n(&a->dead, true, __ATOMIC_RELEASE);
	if (write(a->app.wake_wr, &b, 1) < 0) /* the main loop ends */
		log_debug("%s: wake: %s", __func__, strerror(errno));
	return -1;
}

static bool agent_dead(struct agent *a)
{
	return __atomic_load_n(&a->dead, __ATOMIC_ACQUIRE);
}

/* Queues a frame for the writer (before it runs: writes it at once). Never waits for room:
 * the main thread must keep hearing its input (the viewer's end) on a slow link. Lock
 * held. */
static int agent_send(struct agent *a, uint8_t type, const void *p, size_t n)
{
	size_t len;

	if (agent_dead(a) || frame_append(&a->q, type, p, n, a->compress) < 0)
		return -1;
	if (!a->writer_on) {
		len = a->q.len;
		a->q.len = 0;
		return agent_write(a, a->q.data, len);
	}
	pthread_cond_signal(&a->q_data);
	return 0;
}

/* The reader thread, after a page: while capturing, waits until the queue is below
 * AGENT_QUEUE_MAX, the capture stops or a signal came, so a slow link makes the kernel drop
 * (and count) rather than the agent grow. Lock held (released while waiting). */
static void agent_wait_room(struct agent *a)
{
	struct timespec until;

	while (a->writer_on && !a->stopping && !agent_dead(a) && !signals_pending() &&
	       a->q.len + a->inflight > AGENT_QUEUE_MAX) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&a->q_room, &a->lock, &until);
	}
}

/* The writer thread: takes the whole queue at a time and writes it, until told to quit
 * with nothing left, or the output is dead. */
static void *agent_writer(void *arg)
{
	struct agent *a = arg;
	struct kt_wbuf mine = { 0 }, t;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->q.len && !a->writer_quit && !agent_dead(a))
			pthread_cond_wait(&a->q_data, &a->lock);
		if (!a->q.len || agent_dead(a))
			break;
		t = mine;
		mine = a->q;
		a->q = t;
		a->q.len = 0;
		a->inflight = mine.len;
		a->inflight_oldest = a->q_oldest;
		a->q_oldest = 0;
		pthread_mutex_unlock(&a->lock);
		agent_write(a, mine.data, mine.len);
		mine.len = 0;
		pthread_mutex_lock(&a->lock);
		a->inflight = 0;
		a->inflight_oldest = 0;
		pthread_cond_broadcast(&a->q_room);
	}
	a->q.len = 0; /* dead: dropped */
	a->q_oldest = 0;
	pthread_cond_broadcast(&a->q_room);
	pthread_mutex_unlock(&a->lock);
	wbuf_free(&mine);
	return NULL;
}

/* The writer from now on; sends stay synchronous when it cannot start. */
static void agent_writer_start(struct agent *a)
{
	sigset_t all, old;

	sigfillset(&all); /* signals go to the main thread */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	errno = pthread_create(&a->writer, NULL, agent_writer, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno)
		log_debug("%s: no writer thread: %s", __func__, strerror(errno));
	else
		a->writer_on = true;
}

/* The queue's last bytes out within ns (or dropped), then the writer ends. */
static void agent_writer_stop(struct agent *a, unsigned long long ns)
{
	if (!a->writer_on)
		return;
	agent_flush_within(a, ns);
	pthread_mutex_lock(&a->lock);
	a->writer_quit = true;
	pthread_cond_signal(&a->q_data);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->writer, NULL);
	a->writer_on = false;
}

static void agent_send_str(struct agent *a, uint8_t type, const char *s)
{
	a->pay.len = 0;
	wbuf_str(&a->pay, s);
	agent_send(a, type, a->pay.data, a->pay.len);
}

/* A pid seen in a page: its name goes out before the page when not sent lately. */
static void agent_note_pid(struct agent *a, int pid, unsigned long long ts)
{
	unsigned slot = (unsigned)pid % AGENT_NAMES;
	const char *name;

	if (a->names[slot].pid == pid && a->names[slot].name[0])
		return;
	name = decoder_comm(a->app.decoder, pid, ts);
	a->names[slot].pid = pid;
	snprintf(a->names[slot].name, sizeof(a->names[slot].name), "%s", name ? name : "");
	msg_comm_add(&a->pay, pid, ts, a->names[slot].name);
}

/* A user frame's name, into the UNAMES payload (lock held). */
static void agent_uname(void *ctx, int pid, uint64_t addr, uint8_t kind, const char *name)
{
	msg_uname_add(&((struct agent *)ctx)->unames, pid, addr, kind, name);
}

/* The names of user frames gathered, sent (lock held). */
static void agent_send_unames(struct agent *a)
{
	if (a->unames.len)
		agent_send(a, KT_MSG_UNAMES, a->unames.data, a->unames.len);
	a->unames.len = 0;
}

/* The reader's page sink (reader thread): names, then the page's used bytes as they are. */
static void agent_page(void *ctx, int cpu, const void *page, size_t len)
{
	struct agent *a = ctx;
	unsigned long long ts, first = 0;
	size_t used = len;
	int32_t pid;
	void *rec;

	pthread_mutex_lock(&a->lock);
	a->pay.len = 0;
	if (len <= a->page_size) {
		memcpy(a->page, page, len);
		if (kbuffer_load_subbuffer(a->kbuf, a->page) == 0) {
			/* the data, and the missed-events count the kernel may store after it */
			used = (size_t)kbuffer_start_of_data(a->kbuf) +
			       (size_t)kbuffer_subbuffer_size(a->kbuf) + 8;
			if (used > len)
				used = len;
			for (rec = kbuffer_read_event(a->kbuf, &ts); rec;
			     rec = kbuffer_next_event(a->kbuf, &ts)) {
				if (a->handed && cpu < a->app.ncpus) {
					a->handed[cpu]++;
					a->last_ts[cpu] = ts;
				}
				if (!first)
					first = ts;
				if (kbuffer_event_size(a->kbuf) < 8)
					continue;
				memcpy(&pid, (char *)rec + 4, sizeof(pid)); /* common_pid */
				agent_note_pid(a, pid, ts);
				if (a->ustack)
					agentustack_record(a->ustack, rec,
							   (size_t)kbuffer_event_size(a->kbuf),
							   agent_uname, a);
			}
		}
	}
	agent_send_unames(a);
	if (a->pay.len)
		agent_send(a, KT_MSG_COMMS, a->pay.data, a->pay.len);
	a->pay.len = 0;
	msg_page_encode(&a->pay, (uint32_t)cpu, page, used);
	if (agent_send(a, KT_MSG_PAGE, a->pay.data, a->pay.len) == 0 && a->writer_on &&
	    first && (!a->q_oldest || first < a->q_oldest))
		a->q_oldest = first;
	agent_wait_room(a);
	pthread_mutex_unlock(&a->lock);
}

/* A pass of the reader ended (reader thread): the viewer may order what is older than the
 * pass on the CPUs it read to their end, and, on a CPU it did not (under a storm the reader
 * never catches up, and the viewer would order nothing until its 64 MiB queue spilled),
 * what is not newer than the last record sent from it: a CPU's pages come in order. */
static void agent_swept(void *ctx, unsigned long long before, const int *behind, int nbehind)
{
	struct agent *a = ctx;
	uint64_t wm = before > AGENT_COMMIT_SLACK_NS ? before - AGENT_COMMIT_SLACK_NS : 0;

	pthread_mutex_lock(&a->lock);
	if (a->ustack) {
		agentustack_pass(a->ustack, agent_uname, a);
		agent_send_unames(a);
	}
	for (int i = 0; i < nbehind; i++)
		if (behind[i] >= 0 && behind[i] < a->app.ncpus && a->last_ts[behind[i]] < wm)
			wm = a->last_ts[behind[i]];
	if (wm > a->wm_sent) {
		a->wm_sent = wm;
		a->pay.len = 0;
		wbuf_u64(&a->pay, wm);
		agent_send(a, KT_MSG_WATERMARK, a->pay.data, a->pay.len);
	}
	pthread_mutex_unlock(&a->lock);
}

static bool agent_format_sent(struct agent *a, const char *sys, const char *name)
{
	char key[256];

	snprintf(key, sizeof(key), "%s:%s", sys, name);
	for (size_t i = 0; i < a->n_sent; i++)
		if (!strcmp(a->sent[i], key))
			return true;
	a->sent = xreallocarray(a->sent, a->n_sent + 1, sizeof(*a->sent));
	a->sent[a->n_sent++] = xstrdup(key);
	return false;
}

/* One event's format file, once. Lock held. */
static void agent_send_format(struct agent *a, const char *sys, const char *name)
{
	char *text;
	int size = 0;

	if (agent_format_sent(a, sys, name))
		return;
	text = tracefs_event_file_read(NULL, sys, name, "format", &size);
	if (!text) {
		log_debug("%s: no format for %s:%s", __func__, sys, name);
		return;
	}
	a->pay.len = 0;
	msg_format_encode(&a->pay, sys, name, text, (size_t)size);
	agent_send(a, KT_MSG_FORMAT, a->pay.data, a->pay.len);
	free(text);
}

/* The formats of every event spec selects, before it is enabled: a page never comes
 * before the format that decodes it. Lock held. */
static void agent_send_formats(struct agent *a, const char *spec)
{
	const struct kt_catalog *cat = a->app.catalog;

	for (size_t i = 0; i < cat->count; i++)
		if (app_spec_selects(spec, &cat->events[i]))
			agent_send_format(a, cat->events[i].system, cat->events[i].name);
}

/* The instance's tracers, space-separated, as the reply's one line. */
static int agent_tracers(struct agent *a, char *text, size_t len)
{
	char **names = tracers_available(a->app.session, text, len);
	size_t n = 0;

	if (!names)
		return -1;
	text[0] = '\0';
	for (size_t i = 0; names[i] && n < len; i++)
		n += (size_t)snprintf(text + n, len - n, "%s%s", i ? " " : "", names[i]);
	tracers_free_names(names);
	return 0;
}

/* The formats of spec's events, asked for without enabling them (the explorer's picker).
 * Lock held. */
static int agent_formats(struct agent *a, const char *spec, char *text, size_t len)
{
	const struct kt_catalog *cat = a->app.catalog;
	int n = 0;

	for (size_t i = 0; i < cat->count; i++)
		n += app_spec_selects(spec, &cat->events[i]);
	if (!n) {
		snprintf(text, len, "no event matches '%s' on this agent", spec);
		return -1;
	}
	agent_send_formats(a, spec);
	snprintf(text, len, "%d formats", n);
	return 0;
}

/* The reader's drain at the stop asks before each page (reader thread). */
static bool agent_full(void *ctx)
{
	struct agent *a = ctx;
	bool full;

	pthread_mutex_lock(&a->lock);
	full = a->stopping && (a->q.len + a->inflight > AGENT_STOP_QUEUE_MAX ||
			       clock_mono_ns() - a->stop_at > AGENT_STOP_READ_NS);
	pthread_mutex_unlock(&a->lock);
	return full;
}

/* The kernel's figures as the instance goes: what the drain left in its buffers (entries),
 * and what it had read from the kernel but not handed over (pages spliced into the
 * reader's pipe when the drain ended: read events less the records sent), are never sent,
 * so they are counted as dropped; events + lost stays what the kernel wrote. Lock held. */
static void agent_left_lost(struct agent *a)
{
	struct kt_cpu_stats *st;
	uint64_t left = 0, unsent;

	for (int cpu = 0; a->app.cpu_stats && cpu < a->app.ncpus; cpu++) {
		st = &a->app.cpu_stats[cpu];
		unsent = st->read_events > a->handed[cpu] ? st->read_events - a->handed[cpu] : 0;
		left += st->entries + unsent;
		st->dropped_events += st->entries + unsent;
		st->entries = 0;
		st->bytes = 0; /* counted lost: nothing of it will come */
		st->read_events -= unsent;
	}
	log_debug("%s: %llu events left in the kernel's buffers at the stop, counted lost",
		  __func__, (unsigned long long)left);
}

/* The ftrace system's formats (function, funcgraph_entry...): tracers write them, and
 * available_events does not list them. Lock held. */
static void agent_send_ftrace_formats(struct agent *a)
{
	char **names = tracefs_system_events(NULL, "ftrace");

	for (size_t i = 0; names && names[i]; i++)
		agent_send_format(a, "ftrace", names[i]);
	tracefs_list_free(names);
}

static void agent_send_file(struct agent *a, uint8_t type, const char *path)
{
	size_t len = 0;
	char *text = file_read_all(path, &len);

	if (!text) {
		log_debug("%s: %s: %s", __func__, path, strerror(errno));
		return;
	}
	agent_send(a, type, text, len);
	free(text);
}

/* How long the oldest event not sent yet has waited: the oldest page queued (its first
 * event; the writer's whole chunk counts as unsent until it is written), or an older one
 * a CPU's buffer holds while the reader is behind on it: more than a page unread (it
 * splices each page as it fills). Not below that: the stats' oldest event is the time of
 * the page being written, which on a quiet CPU began long before its unread events. Lock
 * held. */
static uint64_t agent_age(struct agent *a, const struct kt_cpu_stats *st, int ncpus)
{
	uint64_t now = clock_mono_ns(), age = 0, oldest = a->inflight_oldest;

	if (!oldest || (a->q_oldest && a->q_oldest < oldest))
		oldest = a->q_oldest;
	if (oldest && now > oldest)
		age = now - oldest;
	for (int cpu = 0; st && cpu < ncpus; cpu++)
		if (st[cpu].entries && st[cpu].bytes > a->page_size && st[cpu].oldest_us &&
		    st[cpu].now_us > st[cpu].oldest_us &&
		    (st[cpu].now_us - st[cpu].oldest_us) * 1000 > age)
			age = (st[cpu].now_us - st[cpu].oldest_us) * 1000;
	return age;
}

/* The kernel's loss counters of every CPU, and how far behind the agent is: what the
 * kernel holds unread, the queue ahead of this frame, the oldest unsent event's age. Lock
 * held. */
static void agent_send_loss(struct agent *a, const struct kt_cpu_stats *st)
{
	struct kt_loss_cpu *l = xcalloc((size_t)a->app.ncpus, sizeof(*l));
	struct kt_cpu_stats *all = xcalloc((size_t)a->app.ncpus, sizeof(*all));
	struct kt_backlog bl = { .queued = a->q.len + a->inflight };
	struct kt_cpu_stats one;

	for (int cpu = 0; cpu < a->app.ncpus; cpu++) {
		if (!st && loss_read_cpu(session_trace_instance(a->app.session), cpu, &one) < 0)
			continue;
		if (st)
			one = st[cpu];
		all[cpu] = one;
		l[cpu] = (struct kt_loss_cpu){ one.overrun, one.commit_overrun,
					       one.dropped_events, one.entries,
					       one.read_events, one.bytes };
	}
	bl.age_ns = agent_age(a, all, a->app.ncpus);
	a->pay.len = 0;
	msg_loss_encode(&a->pay, l, (uint32_t)a->app.ncpus, &bl);
	agent_send(a, KT_MSG_LOSS, a->pay.data, a->pay.len);
	free(all);
	free(l);
}

/* The kernel's multi-line messages (a filter's caret) as the one line a reply carries. */
static void first_line(char *s)
{
	s[strcspn(s, "\n")] = '\0';
}

/* Enables spec's events (stack: each with its kernel stack, as --stack) with filter, and
 * --comm's name when the scope has one, their formats sent first. */
static int agent_enable(struct agent *a, const char *spec, const char *filter, bool stack,
			char *text, size_t len)
{
	char *saved = a->app.event_filter;
	int n;

	if (a->o.comm) {
		a->app.event_filter = scope_comm_filter(a->o.comm, *filter ? filter : NULL, text,
							len);
		if (!a->app.event_filter) {
			a->app.event_filter = saved;
			return -1;
		}
	} else {
		a->app.event_filter = *filter ? xstrdup(filter) : NULL;
	}
	agent_send_formats(a, spec);
	n = stack ? app_set_stacks(&a->app, spec, true, text, len) :
		    app_set_events(&a->app, spec, true, text, len);
	free(a->app.event_filter);
	a->app.event_filter = saved;
	if (n >= 0 && !text[0])
		snprintf(text, len, "%d events", n);
	return n < 0 ? -1 : 0;
}

/* The picker's filter of an event that is on (request 28): set, or cleared with "", the
 * scope's --comm in it as in an enable's. */
static int agent_filter(struct agent *a, const char *spec, const char *filter, char *text,
			size_t len)
{
	char sys[256], *ev, *with_comm = NULL;
	int ret;

	snprintf(sys, sizeof(sys), "%s", spec);
	ev = strchr(sys, ':');
	if (!ev) {
		snprintf(text, len, "%s: give the event as SYS:EVENT", spec);
		return -1;
	}
	*ev++ = '\0';
	if (a->o.comm) {
		with_comm = scope_comm_filter(a->o.comm, *filter ? filter : NULL, text, len);
		if (!with_comm)
			return -1;
	}
	ret = source_set_filter(a->app.source, sys, ev, with_comm ? with_comm : filter, text,
				len);
	free(with_comm);
	return ret;
}

/* --usdt: one uprobe per site of the probe in a binary of the agent's machine, as locally
 * (app_usdt_create: all sites or none), not enabled; the reply names them all,
 * space-separated, for the viewer's enables. */
static int agent_usdt_add(struct agent *a, const char *def, char *text, size_t len)
{
	size_t first = source_probe_count(a->app.source), used = 0;
	char err[512];
	int n = app_usdt_create(&a->app, def, false, NULL, 0, err, sizeof(err));

	if (n < 0) {
		snprintf(text, len, "%s", err);
		return -1;
	}
	text[0] = '\0';
	for (size_t i = first; i < first + (size_t)n; i++) {
		const struct kt_probe *p = source_probe_get(a->app.source, i);

		used += (size_t)snprintf(text + used, used < len ? len - used : 0, "%s%s:%s",
					 used ? " " : "", p->system, p->event);
	}
	if (used < len)
		return 0;
	for (size_t i = first + (size_t)n; i-- > first;)
		app_probe_delete(&a->app, source_probe_get(a->app.source, i)->event, NULL, 0);
	snprintf(text, len, "%.200s: %d sites, more than one reply names: probe them with "
		 "--uprobe at their addresses (ktop --list-usdt on that machine lists them)", def,
		 n);
	return -1;
}

static int agent_probe_add(struct agent *a, const char *kind, const char *def, char *text,
			   size_t len)
{
	static const char *const kinds[] = { [KT_PROBE_KPROBE] = "kprobe",
					     [KT_PROBE_KRETPROBE] = "kretprobe",
					     [KT_PROBE_UPROBE] = "uprobe",
					     [KT_PROBE_URETPROBE] = "uretprobe" };
	char err[512];

	if (!strcmp(kind, "usdt"))
		return agent_usdt_add(a, def, text, len);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (!kinds[k] || strcmp(kinds[k], kind))
			continue;
		if (app_probe_create(&a->app, (enum kt_probe_kind)k, def, false, text, len, err,
				     sizeof(err)) < 0) {
			snprintf(text, len, "%s", err);
			return -1;
		}
		return 0;
	}
	snprintf(text, len, "unknown probe kind '%s': kprobe, kretprobe, uprobe, uretprobe or usdt",
		 kind);
	return -1;
}

/* -p (arg "pid", or "pid+children" for --follow-children; arg2 the pids, comma-separated),
 * --comm (arg2 the name) or --cgroup (arg2 the path) on the agent's machine, as app_open
 * sets them up locally: the pids and the cgroup in the instance now (the cgroup's members
 * kept current on every tick), the name in the filter of every event enabled from then on,
 * and the pids in the options the counters open with. One scope a run, before the
 * requests it scopes. Lock held. */
static int agent_scope(struct agent *a, const struct kt_request *q, char *text, size_t len)
{
	bool children = !strcmp(q->arg, "pid+children");
	char *filter, *end;
	const char *s;
	long v;

	if (a->o.n_pids || a->o.comm || a->app.cgroup) {
		snprintf(text, len, "the scope was set already (one scope request a run)");
		return -1;
	}
	if (!strcmp(q->arg, "comm")) {
		filter = scope_comm_filter(q->arg2, NULL, text, len);
		if (!filter)
			return -1;
		free(filter);
		a->o.comm = a->scope_comm = xstrdup(q->arg2);
		snprintf(text, len, "comm %s", a->o.comm);
		return 0;
	}
	if (!strcmp(q->arg, "cgroup")) {
		if (app_set_cgroup(&a->app, q->arg2, text, len) < 0)
			return -1;
		snprintf(text, len, "%s", a->app.scope_desc);
		return 0;
	}
	if (strcmp(q->arg, "pid") && !children) {
		snprintf(text, len, "unknown scope '%s': pid, pid+children, comm or cgroup", q->arg);
		return -1;
	}
	for (s = q->arg2; *s; s = *end ? end + 1 : end) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || v <= 0 || v > 0x7fffffff || (*end && *end != ',')) {
			snprintf(text, len, "scope: '%s' is not a list of pids", q->arg2);
			free(a->o.pids);
			a->o.pids = NULL;
			a->o.n_pids = 0;
			return -1;
		}
		a->o.pids = xreallocarray(a->o.pids, a->o.n_pids + 1, sizeof(*a->o.pids));
		a->o.pids[a->o.n_pids++] = (pid_t)v;
	}
	if (!a->o.n_pids || app_set_scope(&a->app, a->o.pids, a->o.n_pids, children, text,
					  len) < 0) {
		if (!a->o.n_pids)
			snprintf(text, len, "scope: no pid given");
		free(a->o.pids);
		a->o.pids = NULL;
		a->o.n_pids = 0;
		return -1;
	}
	a->o.follow_children = children;
	snprintf(text, len, "%s", a->app.scope_desc);
	return 0;
}

/* This machine's name, for a refusal the viewer shows among several hosts'. */
static const char *agent_host(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%.63s", uname(&u) == 0 ? u.nodename : "this host");
	return buf;
}

/* The explorer's scope key (KT_REQ_SCOPE_SET): the scope in force replaced, as the local
 * key does it (pids that run here, a command's running processes, a cgroup followed; ""
 * all processes; "none" no process: the agent's own pid, which is never traced, as an
 * empty cgroup's). --comm's filter, if the scope request set one, stays on the events, as
 * locally. The reply is the scope as the header says it. Lock held. */
static int agent_scope_set(struct agent *a, const struct kt_request *q, char *text,
			   size_t len)
{
	size_t klen = strcspn(q->arg, "+");
	bool children = !strcmp(q->arg + klen, "+children");
	char kind[16], host[64], why[512];
	pid_t *pids = NULL, self = getpid();
	ssize_t n = 0;

	snprintf(kind, sizeof(kind), "%.*s", (int)klen, q->arg);
	if (!strcmp(kind, "cgroup")) {
		if (app_set_cgroup(&a->app, q->arg2, why, sizeof(why)) < 0) {
			snprintf(text, len, "on %s: %s", agent_host(host, sizeof(host)), why);
			return -1;
		}
	} else if (!strcmp(kind, "none")) {
		if (app_set_scope(&a->app, &self, 1, false, text, len) < 0)
			return -1;
	} else if ((*kind && strcmp(kind, "pid") && strcmp(kind, "comm")) ||
		   (q->arg[klen] && !children)) {
		snprintf(text, len, "unknown scope '%.32s': pid, comm, cgroup, none or empty, "
			 "+children after pid or comm", q->arg);
		return -1;
	} else if ((*kind && (n = scope_request_pids(kind, q->arg2, agent_host(host, sizeof(host)),
						    &pids, text, len)) < 0) ||
		   app_set_scope(&a->app, pids, (size_t)n, children, text, len) < 0) {
		free(pids);
		return -1;
	}
	/* what counters and profiles opened from now on are scoped by */
	free(a->o.pids);
	a->o.pids = pids;
	a->o.n_pids = (size_t)n;
	a->o.follow_children = children;
	if (!strcmp(kind, "comm"))
		snprintf(text, len, "comm %.32s%s", q->arg2, children ? " +children" : "");
	else if (!strcmp(kind, "none"))
		snprintf(text, len, "none");
	else
		snprintf(text, len, "%s", a->app.scope_desc[0] ? a->app.scope_desc :
				    "all processes");
	return 0;
}

/* The viewer's tick in ms (arg2 of KT_REQ_HIST_LIVE, _COUNTERS_LIVE, _PROFILE_LIVE) in ns: its
 * -d, 100 ms to an hour; the agent's own -d when it gives none. */
static unsigned long long agent_live_period(struct agent *a, const char *ms)
{
	char *end;
	unsigned long v = strtoul(ms, &end, 10);

	if (!*ms || *end || !v)
		v = a->opts->delay_ms;
	v = v < 100 ? 100 : v > 3600000 ? 3600000 : v;
	return v * 1000000ull;
}

/* A --hist histogram loaded and attached as local batch mode does (app_hist_open: the
 * same checks, the same refusals). Main thread, lock not held: the verifier takes a
 * while and the page path goes on meanwhile. */
static int agent_hist_open(struct agent *a, const struct kt_request *q, char *text,
			   size_t len)
{
	struct kt_bpfhist *h = app_hist_open(&a->app, q->arg, text, len);
	bool live = q->op == KT_REQ_HIST_LIVE;

	if (!h)
		return -1;
	a->hists = xreallocarray(a->hists, a->n_hists + 1, sizeof(*a->hists));
	a->hists[a->n_hists++] = (struct agent_hist){
		.h = h, .id = q->id, .json = !strcmp(q->arg2, "json"), .live = live,
		.period_ns = live ? agent_live_period(a, q->arg2) : 0,
		.next_ns = clock_mono_ns(), /* the first rows at the next turn of the loop */
	};
	snprintf(text, len, "%s via=%s", bpfhist_spec(h)->text, bpfhist_variant(h));
	return 0;
}

/* The explorer closed its pane: the histogram named by the id of the request that opened
 * it goes, its programs and maps with it. Main thread, lock not held. */
static int agent_hist_close(struct agent *a, const struct kt_request *q, char *text,
			    size_t len)
{
	char *end;
	unsigned long id = strtoul(q->arg, &end, 10);

	for (size_t i = 0; *q->arg && !*end && i < a->n_hists; i++) {
		if (a->hists[i].id != id || !a->hists[i].live)
			continue;
		app_hist_close(&a->app, a->hists[i].h);
		memmove(&a->hists[i], &a->hists[i + 1], (a->n_hists - i - 1) * sizeof(*a->hists));
		a->n_hists--;
		snprintf(text, len, "closed");
		return 0;
	}
	snprintf(text, len, "no histogram of the explorer's was opened by request '%s'", q->arg);
	return -1;
}

/* The explorer's histograms whose period came read and sent as their rows. Returns when
 * the next one is due (ULLONG_MAX: none is live). Main thread. */
static unsigned long long agent_send_histrows(struct agent *a, unsigned long long now)
{
	unsigned long long due = ULLONG_MAX;
	const struct kt_hist_row *rows;
	struct kt_bpfhist *h;
	char err[512];
	size_t n;

	for (size_t i = 0; i < a->n_hists; i++) {
		if (!a->hists[i].live)
			continue;
		if (now < a->hists[i].next_ns) {
			due = a->hists[i].next_ns < due ? a->hists[i].next_ns : due;
			continue;
		}
		a->hists[i].next_ns = now + a->hists[i].period_ns;
		due = a->hists[i].next_ns < due ? a->hists[i].next_ns : due;
		h = a->hists[i].h;
		if (bpfhist_read(h, err, sizeof(err)) < 0)
			log_debug("%s: %s", __func__, err);
		n = bpfhist_rows(h, &rows);
		pthread_mutex_lock(&a->lock);
		a->pay.len = 0;
		msg_histrows_encode(&a->pay, a->hists[i].id, bpfhist_variant(h), bpfhist_missed(h),
				    bpfhist_total(h), rows, n);
		agent_send(a, KT_MSG_HISTROWS, a->pay.data, a->pay.len);
		pthread_mutex_unlock(&a->lock);
	}
	return due;
}

/* --pmu's counters as local batch mode opens them (the default set and the --pmu-event
 * specs, space-separated in arg: a string field keeps no control character), refused as it
 * refuses them: nothing may be counted for want of privilege. The explorer's
 * (KT_REQ_COUNTERS_LIVE) are read every tick of the viewer's (arg2) and sent as their
 * figures, the first after one tick (a rate needs an interval). One set at a time: the
 * app has one. Main thread, lock not held. */
static int agent_counters_open(struct agent *a, const struct kt_request *q, char *text,
			       size_t len)
{
	char *specs, *save = NULL;
	const char **events = NULL;
	size_t n = 0;
	int ret;

	if (a->app.pmu) {
		snprintf(text, len, "counters are open already (one set at a time: close them "
			 "first)");
		return -1;
	}
	specs = xstrdup(q->arg);
	for (char *s = strtok_r(specs, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		events = xreallocarray(events, n + 1, sizeof(*events));
		events[n++] = s;
	}
	/* the set keeps no pointer into the specs */
	ret = app_pmu_open_events(&a->app, events, n, text, len);
	free(events);
	free(specs);
	if (ret < 0)
		return -1;
	if (pmu_refused(a->app.pmu, text, len)) {
		app_pmu_close(&a->app);
		return -1;
	}
	if (q->op == KT_REQ_COUNTERS_LIVE) {
		a->pmu_live = q->id;
		a->pmu_period_ns = agent_live_period(a, q->arg2);
		a->pmu_next_ns = clock_mono_ns() + a->pmu_period_ns;
	} else {
		a->pmu_id = q->id;
		a->pmu_json = !strcmp(q->arg2, "json");
	}
	snprintf(text, len, "%zu counters", pmu_ncounters(a->app.pmu));
	return 0;
}

/* The explorer closed its counters pane: the set opened by that request goes, its perf
 * fds with it. Main thread, lock not held. */
static int agent_counters_close(struct agent *a, const struct kt_request *q, char *text,
				size_t len)
{
	char *end;
	unsigned long id = strtoul(q->arg, &end, 10);

	if (!*q->arg || *end || !a->pmu_live || id != a->pmu_live) {
		snprintf(text, len, "no counters of the explorer's were opened by request '%s'",
			 q->arg);
		return -1;
	}
	app_pmu_close(&a->app);
	pmu_snap_free(&a->pmu_snap);
	a->pmu_live = 0;
	snprintf(text, len, "closed");
	return 0;
}

/* The explorer's counters, when their period came: read and sent as their figures.
 * Returns when they are next due (ULLONG_MAX: none are open). Main thread. */
static unsigned long long agent_send_counterrows(struct agent *a, unsigned long long now)
{
	if (!a->pmu_live)
		return ULLONG_MAX;
	if (now < a->pmu_next_ns)
		return a->pmu_next_ns;
	a->pmu_next_ns = now + a->pmu_period_ns;
	pmu_read(a->app.pmu);
	pmu_snap_take(a->app.pmu, &a->pmu_snap);
	pthread_mutex_lock(&a->lock);
	a->pay.len = 0;
	msg_counterrows_encode(&a->pay, a->pmu_live, &a->pmu_snap);
	agent_send(a, KT_MSG_COUNTERROWS, a->pay.data, a->pay.len);
	pthread_mutex_unlock(&a->lock);
	return a->pmu_next_ns;
}

/* --profile on the agent's machine as local batch mode samples (app_profile_open: -F's
 * frequency, scoped by the scope request's pids or comm, bounded by the agent's --memory),
 * its rings taken every PROFILE_POLL_MS, its stacks sent when the capture stops. Main
 * thread, lock not held. */
static int agent_prof_add(struct agent *a, const struct kt_request *q, char *text,
			  size_t len);

static int agent_profile_open(struct agent *a, const struct kt_request *q, char *text,
			      size_t len)
{
	if (agentprof_is_offcpu(q->arg))
		return agent_prof_add(a, q, text, len);
	if (a->profile) {
		snprintf(text, len, "a profile was asked for already (one profile request a run)");
		return -1;
	}
	if (agentprof_freq(q->arg, &a->o.freq, text, len) < 0)
		return -1;
	a->o.cpu_profile = true;
	if (app_profile_open(&a->app, text, len) < 0)
		return -1;
	a->profile = batch_profile_new(&a->app);
	if (!a->profile) {
		snprintf(text, len, "profile: out of memory for its stacks");
		return -1;
	}
	a->profile_id = q->id;
	snprintf(text, len, "profile sampling");
	return 0;
}

/* The flame pane's profile (KT_REQ_PROFILE_LIVE: "", a frequency or "off-cpu", its stacks
 * every tick of the viewer's) or --off-cpu's (KT_REQ_PROFILE "off-cpu", arg2's words
 * "json" and "quiet" say how it is rendered at the end), scoped by the agent's options.
 * The reply names it. Main thread, lock not held. */
static int agent_prof_add(struct agent *a, const struct kt_request *q, char *text,
			  size_t len)
{
	bool live = q->op == KT_REQ_PROFILE_LIVE;
	struct kt_agentprof *p = agentprof_open(&a->app, q->arg, text, len);

	if (!p)
		return -1;
	a->profs = xreallocarray(a->profs, a->n_profs + 1, sizeof(*a->profs));
	a->profs[a->n_profs++] = (struct agent_prof){
		.p = p, .id = q->id, .live = live,
		.json = !live && strstr(q->arg2, "json"), .quiet = !live && strstr(q->arg2, "quiet"),
		.period_ns = live ? agent_live_period(a, q->arg2) : 0,
		.next_ns = clock_mono_ns() + (live ? agent_live_period(a, q->arg2) : 0),
	};
	snprintf(text, len, "%s", agentprof_name(p));
	return 0;
}

/* The explorer let its profile go: the one the request of that id opened goes, its perf
 * events or BPF programs with it. Main thread, lock not held. */
static int agent_prof_close(struct agent *a, const struct kt_request *q, char *text,
			    size_t len)
{
	char *end;
	unsigned long id = strtoul(q->arg, &end, 10);

	for (size_t i = 0; *q->arg && !*end && i < a->n_profs; i++) {
		if (a->profs[i].id != id || !a->profs[i].live)
			continue;
		agentprof_free(a->profs[i].p);
		memmove(&a->profs[i], &a->profs[i + 1], (a->n_profs - i - 1) * sizeof(*a->profs));
		a->n_profs--;
		snprintf(text, len, "closed");
		return 0;
	}
	snprintf(text, len, "no profile of the explorer's was opened by request '%s'", q->arg);
	return -1;
}

/* The explorer's profiles whose period came sent as the stacks counted since their last
 * frame. Returns when the next one is due (ULLONG_MAX: none is live). Main thread. */
static unsigned long long agent_send_profrows(struct agent *a, unsigned long long now)
{
	unsigned long long due = ULLONG_MAX;

	for (size_t i = 0; i < a->n_profs; i++) {
		struct agent_prof *ap = &a->profs[i];

		if (!ap->live)
			continue;
		if (now >= ap->next_ns) {
			ap->next_ns = now + ap->period_ns;
			agentprof_poll(ap->p);
			pthread_mutex_lock(&a->lock);
			a->pay.len = 0;
			agentprof_encode(ap->p, ap->id, &a->pay);
			agent_send(a, KT_MSG_PROFROWS, a->pay.data, a->pay.len);
			pthread_mutex_unlock(&a->lock);
		}
		due = ap->next_ns < due ? ap->next_ns : due;
	}
	return due;
}

/* The explorer's overview (KT_REQ_OVERVIEW_LIVE, _CLOSE, _SYSCALLS): one at a time, as the
 * app has one of each pane. Main thread, lock not held. */
static int agent_overview(struct agent *a, const struct kt_request *q, char *text, size_t len)
{
	char *end;
	unsigned long id;

	if (q->op == KT_REQ_OVERVIEW_LIVE) {
		if (a->ov) {
			snprintf(text, len, "an overview is open already (one at a time)");
			return -1;
		}
		a->ov = agentov_open(q->id, q->arg, agent_live_period(a, q->arg2), text, len);
		return a->ov ? 0 : -1;
	}
	if (q->op == KT_REQ_OVERVIEW_SYSCALLS) {
		if (!a->ov) {
			snprintf(text, len, "no overview is open");
			return -1;
		}
		return agentov_syscalls(a->ov, q->arg, text, len);
	}
	id = strtoul(q->arg, &end, 10);
	if (!*q->arg || *end || !a->ov || id != agentov_id(a->ov)) {
		snprintf(text, len, "no overview of the explorer's was opened by request '%s'",
			 q->arg);
		return -1;
	}
	agentov_free(a->ov);
	a->ov = NULL;
	snprintf(text, len, "closed");
	return 0;
}

/* The explorer's overview, when its tick came: read and sent. Returns when it is next due
 * (ULLONG_MAX: none is open). Main thread. */
static unsigned long long agent_send_ovrows(struct agent *a, unsigned long long now)
{
	if (!a->ov)
		return ULLONG_MAX;
	if (now < agentov_due(a->ov))
		return agentov_due(a->ov);
	pthread_mutex_lock(&a->lock);
	a->pay.len = 0;
	agentov_encode(a->ov, now, &a->pay);
	agent_send(a, KT_MSG_OVROWS, a->pay.data, a->pay.len);
	pthread_mutex_unlock(&a->lock);
	return agentov_due(a->ov);
}

/* --off-cpu's profiles of the whole run, as local -b --off-cpu prints them. Lock held. */
static void agent_send_offcpu(struct agent *a)
{
	char *text;

	for (size_t i = 0; i < a->n_profs; i++) {
		if (a->profs[i].live)
			continue;
		agentprof_poll(a->profs[i].p);
		text = agentprof_offcpu_text(a->profs[i].p, a->profs[i].json, a->profs[i].quiet);
		if (!text) {
			log_debug("%s: out of memory", __func__);
			continue;
		}
		a->pay.len = 0;
		msg_snapshot_encode(&a->pay, KT_SNAP_OFFCPU, a->profs[i].id, text, strlen(text));
		if (agent_send(a, KT_MSG_SNAPSHOT, a->pay.data, a->pay.len) < 0)
			log_debug("%s: the off-CPU profile's %zu bytes not sent", __func__,
				  strlen(text));
		free(text);
	}
}

/* The profile's stacks as batch_profile_text gives them, for the viewer to print as local
 * batch mode does. Lock held. */
static void agent_send_profile(struct agent *a)
{
	char *text;

	if (!a->profile)
		return;
	batch_profile_poll(a->profile);
	text = batch_profile_text(a->profile);
	if (!text) {
		log_debug("%s: out of memory", __func__);
		return;
	}
	a->pay.len = 0;
	msg_snapshot_encode(&a->pay, KT_SNAP_PROFILE, a->profile_id, text, strlen(text));
	if (agent_send(a, KT_MSG_SNAPSHOT, a->pay.data, a->pay.len) < 0)
		log_debug("%s: the profile's %zu bytes not sent", __func__, strlen(text));
	free(text);
}

/* A histogram (h) or the counters (h NULL) rendered as local batch mode prints them, in
 * one snapshot frame. Lock held. */
static void agent_send_snapshot(struct agent *a, uint32_t id, const struct kt_bpfhist *h,
				bool json)
{
	size_t len = 0;
	char *text = NULL;
	FILE *out = open_memstream(&text, &len);

	if (!out) {
		log_debug("%s: %s", __func__, strerror(errno));
		return;
	}
	if (h && json)
		histprint_json(h, out);
	else if (h)
		histprint_text(h, out);
	else if (json)
		pmu_write_json(a->app.pmu, out);
	else
		pmu_write_text(a->app.pmu, out);
	if (fclose(out) == 0) {
		a->pay.len = 0;
		msg_snapshot_encode(&a->pay, h ? KT_SNAP_HIST : KT_SNAP_COUNTERS, id, text, len);
		if (agent_send(a, KT_MSG_SNAPSHOT, a->pay.data, a->pay.len) < 0)
			log_debug("%s: request %u's snapshot not sent (%zu bytes)", __func__, id,
				  len);
	}
	free(text);
}

/* Probes' hits and misses as lines the viewer parses back (probeprint_wire), in a snapshot
 * naming request id (0: as the capture ended). Lock held. */
static void agent_send_probe_lines(struct agent *a, uint32_t id,
				   const struct kt_probe_report *r, size_t n)
{
	size_t len = 0;
	char *text = NULL;
	FILE *out = open_memstream(&text, &len);

	if (!out) {
		log_debug("%s: %s", __func__, strerror(errno));
		return;
	}
	probeprint_wire(r, n, out);
	if (fclose(out) == 0) {
		a->pay.len = 0;
		msg_snapshot_encode(&a->pay, KT_SNAP_PROBES, id, text, len);
		agent_send(a, KT_MSG_SNAPSHOT, a->pay.data, a->pay.len);
	}
	free(text);
}

/* The probes' hits and misses app_stop_capture read before it removed them, as lines the
 * viewer renders as local batch mode does. Lock held. */
static void agent_send_probe_reports(struct agent *a)
{
	if (a->app.n_probe_reports)
		agent_send_probe_lines(a, 0, a->app.probe_reports, a->app.n_probe_reports);
}

/* KT_REQ_PROBE_COUNTS: every probe's counts now (an empty snapshot when there is none, so
 * the viewer drops a probe gone since), before the reply. Lock held. */
static int agent_probe_counts(struct agent *a, uint32_t id, char *text, size_t len)
{
	size_t n = 0;
	struct kt_probe_report *r = probes_report(a->app.probes, &n);

	agent_send_probe_lines(a, id, r, n);
	free(r);
	snprintf(text, len, "%zu probes", n);
	return 0;
}

/* Each histogram, then the counters, as the viewer asked to have them rendered: the
 * histograms read as the capture stopped (app_stop_capture's last tick), the counters
 * stopped before it (pmu_stop), as locally; then the probes' counts. Lock held. */
static void agent_send_snapshots(struct agent *a)
{
	for (size_t i = 0; i < a->n_hists; i++)
		if (!a->hists[i].live) /* the explorer had its rows on every tick */
			agent_send_snapshot(a, a->hists[i].id, a->hists[i].h, a->hists[i].json);
	if (a->pmu_id)
		agent_send_snapshot(a, a->pmu_id, NULL, a->pmu_json);
	agent_send_probe_reports(a);
	agent_send_profile(a);
	agent_send_offcpu(a);
}

/* Request 26: a function list's operation; a get's entries go as a snapshot first. Lock
 * held. */
/* Requests 26 and 29: lines (a function list, names to complete from) as a snapshot of
 * KT_SNAP_LIST naming the request, before its reply. Lock held. */
static int agent_list_request(struct agent *a, const struct kt_request *q, char *text,
			      size_t len)
{
	char *lines = NULL;
	int ret = q->op == KT_REQ_NAMES ?
			  probe_names(q->arg, q->arg2, &lines, text, len) :
			  agent_ftrace_list(&a->app, q->arg, q->arg2, &lines, text, len);

	if (ret == 0 && lines) {
		a->pay.len = 0;
		msg_snapshot_encode(&a->pay, KT_SNAP_LIST, q->id, lines, strlen(lines));
		agent_send(a, KT_MSG_SNAPSHOT, a->pay.data, a->pay.len);
	}
	free(lines);
	return ret;
}

/* --user-stacks: the option on, the frames' namer made, and the reader started again with
 * a side band that tracks mappings (the kernel's counters go on: the records handed stay
 * counted). */
static int agent_user_stacks(struct agent *a, char *text, size_t len)
{
	struct kt_page_sink sink = a->sink;
	struct kt_agentustack *u;

	if (a->ustack)
		return 0;
	pthread_mutex_lock(&a->lock); /* the decoder's */
	u = agentustack_new(a->app.session, a->app.decoder, text, len);
	a->ustack = u;
	pthread_mutex_unlock(&a->lock);
	if (!u)
		return -1;
	sink.sym = agentustack_symbolizer(u);
	return app_set_page_sink(&a->app, &sink, text, len);
}

static void agent_request(struct agent *a, const struct kt_request *q)
{
	char text[1024] = "";
	int ret = -1;

	if (q->op == KT_REQ_HIST || q->op == KT_REQ_HIST_LIVE || q->op == KT_REQ_COUNTERS ||
	    q->op == KT_REQ_COUNTERS_LIVE || q->op == KT_REQ_PROFILE ||
	    q->op == KT_REQ_PROFILE_LIVE) {
		ret = q->op == KT_REQ_COUNTERS || q->op == KT_REQ_COUNTERS_LIVE ?
			      agent_counters_open(a, q, text, sizeof(text)) :
		      q->op == KT_REQ_PROFILE	   ? agent_profile_open(a, q, text, sizeof(text)) :
		      q->op == KT_REQ_PROFILE_LIVE ? agent_prof_add(a, q, text, sizeof(text)) :
						     agent_hist_open(a, q, text, sizeof(text));
		pthread_mutex_lock(&a->lock);
	} else if (q->op == KT_REQ_HIST_CLOSE || q->op == KT_REQ_COUNTERS_CLOSE ||
		   q->op == KT_REQ_PROFILE_CLOSE) {
		ret = q->op == KT_REQ_HIST_CLOSE     ? agent_hist_close(a, q, text, sizeof(text)) :
		      q->op == KT_REQ_COUNTERS_CLOSE ? agent_counters_close(a, q, text, sizeof(text)) :
						       agent_prof_close(a, q, text, sizeof(text));
		pthread_mutex_lock(&a->lock);
	} else if (q->op == KT_REQ_OVERVIEW_LIVE || q->op == KT_REQ_OVERVIEW_CLOSE ||
		   q->op == KT_REQ_OVERVIEW_SYSCALLS) {
		ret = agent_overview(a, q, text, sizeof(text));
		pthread_mutex_lock(&a->lock);
	} else if (q->op == KT_REQ_USER_STACKS) {
		/* the reader stops and starts again: its page sink takes the lock */
		ret = agent_user_stacks(a, text, sizeof(text));
		pthread_mutex_lock(&a->lock);
	} else if (q->op == KT_REQ_TRACER) {
		/* the reader stops and starts again: its page sink takes the lock */
		ret = app_set_tracer(&a->app, q->arg, text, sizeof(text));
		pthread_mutex_lock(&a->lock);
		/* the switch reset the kernel's counters (before any page of the new tracer:
		 * -b -t switches before it enables events) */
		memset(a->handed, 0, (size_t)a->app.ncpus * sizeof(*a->handed));
	} else {
		pthread_mutex_lock(&a->lock);
		switch (q->op) {
		case KT_REQ_ENABLE:
		case KT_REQ_STACK:
			ret = agent_enable(a, q->arg, q->arg2, q->op == KT_REQ_STACK, text,
					   sizeof(text));
			break;
		case KT_REQ_FILTER:
			ret = agent_filter(a, q->arg, q->arg2, text, sizeof(text));
			break;
		case KT_REQ_DISABLE:
			ret = app_set_events(&a->app, q->arg, false, text, sizeof(text)) < 0 ? -1 : 0;
			break;
		case KT_REQ_PROBE_ADD:
			ret = agent_probe_add(a, q->arg, q->arg2, text, sizeof(text));
			break;
		case KT_REQ_PROBE_DEL:
			ret = app_probe_delete(&a->app, q->arg, text, sizeof(text));
			break;
		case KT_REQ_PROBE_COUNTS:
			ret = agent_probe_counts(a, q->id, text, sizeof(text));
			break;
		case KT_REQ_KALLSYMS:
			agent_send_file(a, KT_MSG_KALLSYMS, "/proc/kallsyms");
			snprintf(text, sizeof(text), "%s/printk_formats", a->app.tracing_dir);
			agent_send_file(a, KT_MSG_PRINTK, text);
			text[0] = '\0';
			ret = 0;
			break;
		case KT_REQ_TRACERS:
			ret = agent_tracers(a, text, sizeof(text));
			break;
		case KT_REQ_FORMAT:
			ret = agent_formats(a, q->arg, text, sizeof(text));
			break;
		case KT_REQ_SCOPE:
			ret = agent_scope(a, q, text, sizeof(text));
			break;
		case KT_REQ_SCOPE_SET:
			ret = agent_scope_set(a, q, text, sizeof(text));
			break;
		case KT_REQ_STACK_OFF:
			ret = app_set_stacks(&a->app, q->arg, false, text, sizeof(text)) < 0 ? -1 : 0;
			break;
		case KT_REQ_TRIGGER:
			ret = agent_trigger(&a->app, q->arg, q->arg2, text, sizeof(text));
			break;
		case KT_REQ_FTRACE_LIST:
		case KT_REQ_NAMES:
			ret = agent_list_request(a, q, text, sizeof(text));
			break;
		case KT_REQ_EVENTS:
			snprintf(text, sizeof(text), "%s/available_events", a->app.tracing_dir);
			agent_send_file(a, KT_MSG_EVENTS, text);
			text[0] = '\0';
			ret = 0;
			break;
		case KT_REQ_END:
			a->viewer_done = true;
			ret = 0;
			break;
		} /* an op this agent does not know was refused by agentreq_decode */
	}
	first_line(text);
	log_debug("%s: %s %s: %s%s", __func__, msg_request_name(q->op), q->arg,
		  ret < 0 ? "refused: " : "", text);
	a->pay.len = 0;
	msg_reply_encode(&a->pay, q->id, ret == 0, text);
	agent_send(a, KT_MSG_REPLY, a->pay.data, a->pay.len);
	pthread_mutex_unlock(&a->lock);
}

/* A request that could not be read as sent: refused, the agent goes on. */
static void agent_refuse_request(struct agent *a, uint32_t id, const char *why)
{
	log_debug("%s: request %u refused: %s", __func__, id, why);
	pthread_mutex_lock(&a->lock);
	a->pay.len = 0;
	msg_reply_encode(&a->pay, id, false, why);
	agent_send(a, KT_MSG_REPLY, a->pay.data, a->pay.len);
	pthread_mutex_unlock(&a->lock);
}

/* One frame from the viewer (agentreq.c reads it). Returns -1 when it is one the agent
 * cannot go on after. */
static int agent_frame(struct agent *a, const struct kt_frame *f, const uint8_t *p, size_t n,
		       char *err, size_t errlen)
{
	struct kt_agentreq req, *in = &req;

	if (agentreq_decode(f, p, n, in, err, errlen) < 0)
		return -1;
	switch (in->kind) {
	case KT_AGENTREQ_RUN:
		agent_request(a, &in->q);
		return 0;
	case KT_AGENTREQ_REFUSE:
		agent_refuse_request(a, in->q.id, in->why);
		return 0;
	case KT_AGENTREQ_PING:
		a->pinged = true;
		pthread_mutex_lock(&a->lock);
		a->pay.len = 0;
		msg_pong_encode(&a->pay, in->ping, clock_mono_ns());
		agent_send(a, KT_MSG_PONG, a->pay.data, a->pay.len);
		pthread_mutex_unlock(&a->lock);
		return 0;
	}
	return 0;
}

/* Reads what stdin has. Returns 1 to go on, 0 at its end (or the viewer's end request), -1
 * with err (a bad frame). */
static int agent_input(struct agent *a, char *err, size_t errlen)
{
	uint8_t buf[65536];
	struct kt_frame f;
	const uint8_t *p;
	ssize_t r;
	size_t n;
	int ret;

	r = read(a->in, buf, sizeof(buf));
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (r == 0)
		return 0;
	a->heard = clock_mono_ns();
	rstream_feed(&a->rs, buf, (size_t)r);
	while ((ret = rstream_next(&a->rs, &f, &p, &n, err, errlen)) > 0) {
		if (agent_frame(a, &f, p, n, err, errlen) < 0)
			return -1;
		if (a->viewer_done) /* what it sent after is not read */
			return 0;
	}
	return ret < 0 ? -1 : 1;
}

/* The viewer's hello, before anything is opened. Returns 0, or -1 with the line to say. */
static int agent_hello_in(struct agent *a, struct kt_hello *h, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = a->in, .events = POLLIN };
	unsigned long long end = clock_mono_ns() + AGENT_HELLO_MS * 1000000ull;
	uint8_t buf[4096];
	struct kt_frame f;
	const uint8_t *p;
	size_t n;
	ssize_t r;
	int ret;

	for (;;) {
		ret = rstream_next(&a->rs, &f, &p, &n, err, errlen);
		if (ret < 0)
			return -1;
		if (ret > 0)
			break;
		if (clock_mono_ns() > end) {
			snprintf(err, errlen, "no hello from a viewer on stdin within %d s: ktop "
				 "--agent is started by ktop -H or --via", AGENT_HELLO_MS / 1000);
			return -1;
		}
		/* read only what is there: a blocking read would outwait the time limit */
		ret = poll(&pfd, 1, 1000);
		if (ret < 0 && errno != EINTR) {
			snprintf(err, errlen, "poll on stdin: %s", strerror(errno));
			return -1;
		}
		if (ret <= 0)
			continue;
		r = read(a->in, buf, sizeof(buf));
		if (r == 0) {
			snprintf(err, errlen, "stdin closed before the viewer's hello");
			return -1;
		}
		if (r > 0)
			rstream_feed(&a->rs, buf, (size_t)r);
	}
	if (agentreq_hello(&f, p, n, h, err, errlen) < 0)
		return -1;
	a->compress = h->compress;
	return 0;
}

static void agent_hello_out(struct agent *a, int page_size)
{
	struct kt_hello h = { .proto = KT_PROTO_VERSION, .role = 'A',
			      .ncpus = (uint32_t)a->app.ncpus, .page_size = (uint32_t)page_size,
			      .long_size = (uint8_t)sizeof(long),
			      .big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ };
	struct utsname u;
	char path[512];

	snprintf(h.version, sizeof(h.version), "%s", PACKAGE_VERSION);
	if (uname(&u) == 0) {
		snprintf(h.host, sizeof(h.host), "%.63s", u.nodename);
		snprintf(h.kernel, sizeof(h.kernel), "%.63s", u.release);
	}
	pthread_mutex_lock(&a->lock);
	a->pay.len = 0;
	msg_hello_encode(&a->pay, &h);
	agent_send(a, KT_MSG_HELLO, a->pay.data, a->pay.len);
	snprintf(path, sizeof(path), "%s/events/header_page", a->app.tracing_dir);
	agent_send_file(a, KT_MSG_HEADER_PAGE, path);
	agent_send_ftrace_formats(a);
	pthread_mutex_unlock(&a->lock);
}

/* Before the kernel state exists: the error goes as the only frame (after a hello of this
 * version, so a viewer of another one names both) and to stderr (ssh shows it). */
static int agent_refuse(struct agent *a, const char *line, int code)
{
	struct kt_hello h = { .proto = KT_PROTO_VERSION, .role = 'A', .ncpus = 1,
			      .page_size = 4096, .long_size = (uint8_t)sizeof(long) };

	fprintf(stderr, "ktop --agent: %s\n", line);
	agent_flush_within(a, AGENT_FLUSH_SIG_NS); /* a viewer that does not read gets a second */
	snprintf(h.version, sizeof(h.version), "%s", PACKAGE_VERSION);
	a->pay.len = 0;
	msg_hello_encode(&a->pay, &h);
	agent_send(a, KT_MSG_HELLO, a->pay.data, a->pay.len);
	agent_send_str(a, KT_MSG_ERROR, line);
	return code;
}

static int agent_loop(struct agent *a)
{
	struct pollfd pfd[2] = { { .fd = a->in, .events = POLLIN },
				 { .fd = a->app.wake_rd, .events = POLLIN } };
	unsigned long long tick = a->opts->delay_ms * 1000000ull, next = clock_mono_ns() + tick;
	unsigned long long now, wake, ctr, prof;
	char err[512];
	bool idle;
	int ret;

	a->heard = clock_mono_ns();
	while (!signals_pending() && !agent_dead(a)) {
		/* the explorer's histograms and counters at its pace, the loss at the agent's -d */
		wake = agent_send_histrows(a, clock_mono_ns());
		prof = agent_send_profrows(a, clock_mono_ns());
		wake = prof < wake ? prof : wake;
		now = clock_mono_ns();
		ctr = agent_send_counterrows(a, now);
		wake = ctr < wake ? ctr : wake;
		ctr = agent_send_ovrows(a, clock_mono_ns());
		wake = ctr < wake ? ctr : wake;
		if ((a->profile || a->n_profs) && now - a->profile_polled >= AGENT_PROFILE_POLL_NS) {
			if (a->profile)
				batch_profile_poll(a->profile); /* its rings are its own: no lock */
			for (size_t i = 0; i < a->n_profs; i++)
				agentprof_poll(a->profs[i].p);
			a->profile_polled = now;
		}
		if (now >= next) {
			if (a->pmu_id) /* rates over the last -d, as locally */
				pmu_read(a->app.pmu);
			if (a->app.cgroup) /* its members now, as app_tick does locally */
				app_follow_cgroup(&a->app);
			pthread_mutex_lock(&a->lock);
			idle = !a->q.len && !a->inflight;
			agent_send_loss(a, NULL);
			memset(a->names, 0, sizeof(a->names));
			pthread_mutex_unlock(&a->lock);
			if (a->pinged && idle && now - a->heard > AGENT_SILENCE_NS) {
				fprintf(stderr, "ktop --agent: the viewer has said nothing for %llu s "
					"(it pings every second): taken as gone\n",
					(now - a->heard) / 1000000000ull);
				return KT_EXIT_FAILURE;
			}
			next = now + tick;
			continue;
		}
		wake = wake < next ? wake : next;
		if ((a->profile || a->n_profs) && wake > now + AGENT_PROFILE_POLL_NS)
			wake = now + AGENT_PROFILE_POLL_NS;
		if (poll(pfd, 2, wake > now ? (int)((wake - now) / 1000000) + 1 : 0) < 0 &&
		    errno != EINTR)
			break;
		if (pfd[1].revents)
			app_drain_wake(&a->app);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		ret = agent_input(a, err, sizeof(err));
		if (ret == 0) {
			log_debug("%s: the viewer %s", __func__,
				  a->viewer_done ? "said it is done" : "closed stdin");
			break;
		}
		if (ret < 0) {
			fprintf(stderr, "ktop --agent: %s\n", err);
			pthread_mutex_lock(&a->lock);
			agent_send_str(a, KT_MSG_ERROR, err);
			pthread_mutex_unlock(&a->lock);
			return KT_EXIT_FAILURE;
		}
	}
	return KT_EXIT_OK;
}

int agent_run(const struct kt_options *opts)
{
	struct agent *a = xcalloc(1, sizeof(*a));
	struct kt_hello viewer;
	char err[1024];
	int ret, flags;

	a->sink = (struct kt_page_sink){
		.page = agent_page, .swept = agent_swept, .full = agent_full, .ctx = a
	};
	a->o = *opts;
	a->opts = &a->o;
	a->in = STDIN_FILENO;
	a->out = STDOUT_FILENO;
	a->app.wake_wr = -1;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->q_data, NULL);
	pthread_cond_init(&a->q_room, NULL);
	/* a viewer that stops reading must not hang the agent's way out */
	flags = fcntl(a->out, F_GETFL);
	fcntl(a->out, F_SETFL, flags | O_NONBLOCK);
	if (agent_hello_in(a, &viewer, err, sizeof(err)) < 0) {
		ret = agent_refuse(a, err, KT_EXIT_USAGE);
		goto out;
	}
	/* before any thread exists: the guard cleans up after kill -9 */
	guard_start();
	ret = app_open(&a->app, &a->o, err, sizeof(err));
	if (ret) {
		app_close(&a->app);
		ret = agent_refuse(a, err, ret);
		goto out;
	}
	signals_install(a->app.wake_wr);
	a->handed = xcalloc((size_t)a->app.ncpus, sizeof(*a->handed));
	a->last_ts = xcalloc((size_t)a->app.ncpus, sizeof(*a->last_ts));
	agent_writer_start(a);
	/* the page path's buffers, the hello and the formats before the first page */
	a->page_size = (size_t)reader_page_size(a->app.reader);
	a->page = xmalloc(a->page_size);
	a->kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? KBUFFER_ENDIAN_BIG :
									  KBUFFER_ENDIAN_LITTLE);
	agent_hello_out(a, (int)a->page_size);
	if (app_set_page_sink(&a->app, &a->sink, err, sizeof(err)) < 0) {
		pthread_mutex_lock(&a->lock);
		agent_send_str(a, KT_MSG_ERROR, err);
		pthread_mutex_unlock(&a->lock);
		fprintf(stderr, "ktop --agent: %s\n", err);
		agent_writer_stop(a, AGENT_FLUSH_SIG_NS);
		app_close(&a->app);
		ret = KT_EXIT_FAILURE;
		goto out;
	}
	ret = agent_loop(a);

	/* the kernel first: the reader drains into the queue, which no longer makes anyone
	 * wait, and the instance and probes go; then the queue, END last */
	pthread_mutex_lock(&a->lock);
	a->stopping = true;
	a->stop_at = clock_mono_ns();
	pthread_cond_broadcast(&a->q_room);
	pthread_mutex_unlock(&a->lock);
	if (a->pmu_id) /* the counters cover the capture, not the drain */
		pmu_stop(a->app.pmu);
	app_stop_capture(&a->app);
	pthread_mutex_lock(&a->lock);
	agent_send_snapshots(a);
	agent_left_lost(a);
	agent_send_loss(a, a->app.cpu_stats);
	a->pay.len = 0;
	agent_send(a, KT_MSG_END, NULL, 0);
	pthread_mutex_unlock(&a->lock);
	agent_writer_stop(a, signals_pending() || agent_dead(a) ? AGENT_FLUSH_SIG_NS :
								   AGENT_FLUSH_EOF_NS);
	batch_profile_free(a->profile); /* it reads app.profile */
	agentustack_free(a->ustack); /* the reader that named with it is gone */
	for (size_t i = 0; i < a->n_profs; i++)
		agentprof_free(a->profs[i].p);
	agentov_free(a->ov);
	app_close(&a->app);
	if (signals_pending())
		log_debug("%s: signal %d", __func__, signals_pending());
out:
	fcntl(a->out, F_SETFL, flags); /* the file description may be shared */
	for (size_t i = 0; i < a->n_sent; i++)
		free(a->sent[i]);
	free(a->sent);
	free(a->hists);
	pmu_snap_free(&a->pmu_snap);
	free(a->profs);
	free(a->o.pids);
	free(a->scope_comm);
	free(a->handed);
	free(a->last_ts);
	if (a->kbuf)
		kbuffer_free(a->kbuf);
	free(a->page);
	wbuf_free(&a->q);
	wbuf_free(&a->pay);
	wbuf_free(&a->unames);
	rstream_free(&a->rs);
	pthread_cond_destroy(&a->q_data);
	pthread_cond_destroy(&a->q_room);
	pthread_mutex_destroy(&a->lock);
	free(a);
	return ret;
}
