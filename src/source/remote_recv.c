// SPDX-License-Identifier: GPL-2.0-or-later
/* What the agents send, taken under the lock from the client thread (or the UI
 * thread's remote_call): hello, formats, pages staged for the store through hostmerge, task
 * names, loss, replies and the frames of what the explorer opened; and the client thread
 * itself, which moves what was staged into the store with the lock let go (the lock order,
 * remote_local.h: the store's lock is never taken under this one). */
#include "config.h"

#include "source/remote_local.h"

/* ---- what the agents send (under lock, from the client or the UI thread) -------------- */

/* A record in its final order, staged for the store (rs_flush). Lock held. */
static void rs_stage(struct remote_src *rs, const struct kt_rec *r)
{
	recq_put(&rs->staged, r, r->ts);
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

void rs_emit(void *ctx, const struct kt_rec *r)
{
	struct rs_host *h = ctx;
	struct kt_rec t;
	const struct kt_rec *m = rs_translate(h, r, &t);

	if (!m)
		return;
	if (h->rs->merge)
		hostmerge_put(h->rs->merge, h->idx, m);
	else
		rs_stage(h->rs, m);
}

/* A record in the merged order of several hosts'. */
void rs_merged(void *ctx, unsigned host, const struct kt_rec *r, uint64_t host_ts)
{
	(void)host;
	(void)host_ts;
	rs_stage(ctx, r);
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

	rpages_page(h->pages, cpu, page, len);
}

/* What the watermark allows is staged; the UI is woken once it is stored. */
static void rs_watermark(void *ctx, uint64_t ts)
{
	struct rs_host *h = ctx;

	rpages_flush(h->pages, ts);
	if (h->rs->merge) {
		hostclock_refresh(h->rs->merge, h->idx, h->r);
		hostmerge_watermark(h->rs->merge, h->idx, ts);
	}
	h->rs->staged_wake = true;
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
void rs_fault(const struct remote_src *rs, char *err, size_t errlen)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (remote_fault(rs->hosts[i].r)) {
			snprintf(err, errlen, "%s", remote_fault(rs->hosts[i].r));
			return;
		}
}

/* What the commands wrote to their stderr, to ours (the screen is not curses' now). */
void rs_stderr_out(struct remote_src *rs)
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

/* An overview's tick (client thread, or the UI's remote_call; lock held): queued in its
 * host's queue for the next update, the oldest dropped past RS_OV_QUEUE; those of one
 * closed meanwhile are dropped. */
static void rs_ov_rows(void *ctx, struct kt_ovrows *rows)
{
	struct rs_host *h = ctx;
	struct rs_ov *ro = rs_live_find(h, KT_REQ_OVERVIEW_LIVE, rows->id);
	struct kt_ovrows **q = ro ? ro->q[h->idx] : NULL;
	unsigned *nq = ro ? &ro->nq[h->idx] : NULL;

	if (!ro) {
		overview_snap_free(&rows->snap);
		return;
	}
	if (*nq == RS_OV_QUEUE) {
		overview_snap_free(&q[0]->snap);
		free(q[0]);
		memmove(q, q + 1, (RS_OV_QUEUE - 1) * sizeof(q[0]));
		(*nq)--;
	}
	q[*nq] = xmalloc(sizeof(*rows));
	*q[(*nq)++] = *rows;
}

const struct kt_remote_ops rs_ops = {
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

/* Host h's capture stopped (err, or its END): what came is all there is, staged in order;
 * with several hosts it holds the others back no longer. Lock held. */
static void rs_host_ended(struct rs_host *h, const char *err)
{
	struct remote_src *rs = h->rs;

	rpages_flush(h->pages, UINT64_MAX);
	if (rs->merge)
		hostmerge_end(rs->merge, h->idx);
	rs->staged_wake = true;
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

/* Moves what was staged under the lock into the store: taken under the lock, stored with
 * it let go (the store's lock is never taken under it). One caller at a time, so the
 * store gets the records in the order they were staged: the client thread, or the closing
 * once it stopped. */
void rs_flush(struct remote_src *rs)
{
	struct kt_recq q;
	struct kt_rec r;
	uint64_t key;
	bool wake;

	rs_lock(rs);
	q = rs->staged; /* the emptied queue's buffer is the next one's */
	rs->staged = rs->flushing;
	rs->flushing = q;
	wake = rs->staged_wake;
	rs->staged_wake = false;
	rs_unlock(rs);
	if (!recq_peek(&rs->flushing, &r, &key) && !wake)
		return;
	store_lock(rs->app->store);
	for (; recq_peek(&rs->flushing, &r, &key); recq_pop(&rs->flushing))
		if (r.flags & KT_REC_LOST)
			store_append_lost(rs->app->store, r.ts, r.cpu, r.lost);
		else
			store_append(rs->app->store, r.ts, r.cpu, r.data, r.size);
	store_unlock(rs->app->store);
	if (wake)
		rs_wake(rs);
}

/* A request on the UI thread staged records (lock held then): the client thread is woken to
 * store them (a full pipe already says so). */
void rs_nudge(struct remote_src *rs)
{
	char b = 0;

	if (write(rs->ctl[1], &b, 1) < 0 && errno != EAGAIN)
		log_debug("%s: %s", __func__, strerror(errno));
}

/* Whether ctl said stop (else it only asked for what was staged to be stored). */
static bool rs_stop_asked(struct remote_src *rs)
{
	char b[64];

	while (read(rs->ctl[0], b, sizeof(b)) == (ssize_t)sizeof(b))
		;
	return __atomic_load_n(&rs->stopping, __ATOMIC_ACQUIRE);
}

/* Pumps the pipes until told to stop or every agent ends; pings once a second; stores what
 * each round staged. */
void *rs_thread(void *arg)
{
	struct remote_src *rs = arg;
	struct pollfd pfd[2 * KT_REMOTES_MAX + 1];
	unsigned long long ping = 0, now;
	unsigned i, n = rs->n, live = n;

	rs_flush(rs); /* what came with the requests before it started */
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
		if (pfd[2 * n].revents && rs_stop_asked(rs))
			return NULL;
		rs_lock(rs);
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
		rs_unlock(rs);
		rs_flush(rs);
	}
	rs_wake(rs);
	return NULL;
}
