// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader thread.
 *
 * One thread serves every CPU: it splices whole pages (tracefs_cpu_buffered_read), and when a
 * CPU has no full page but another CPU's events wait to be merged, it reads that CPU's partial
 * page (tracefs_cpu_read). CPUs are merged by timestamp: an event is stored only once every
 * other CPU either has a later event at hand or was found empty after that event's time. The
 * instance runs on the "mono" trace clock, so "found empty at" is a CLOCK_MONOTONIC reading.
 *
 * Where the kernel can (6.10+), each CPU's buffer is memory-mapped instead (ringmap.h): one
 * ioctl gives the reader the next sub-buffer, decoded where the kernel wrote it, and a
 * sub-buffer the writer is still on is taken again from where the last look ended. A CPU
 * the kernel will not map, and --read-mode=read, read as above.
 *
 * When nothing is left to read the thread sleeps in poll() on the per-CPU files (woken when
 * the kernel's buffer_percent watermark is crossed), its control pipe, and a short timeout
 * so that a quiet CPU's partial page still reaches the screen within a tick.
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>
#include <tracefs.h>

#include "util/log.h"
#include "backend/perf/comms.h"
#include "reader.h"
#include "ringmap.h"
#include "backend/tracefs/session.h"
#include "store.h"
#include "backend/perf/taskwatch.h"
#include "util/clock.h"

/* How often a quiet CPU's partial page is collected when nothing wakes us. */
#define READER_IDLE_MS 100
/* An event committed just after a CPU was found empty can carry an earlier timestamp than
 * the moment of the check; other CPUs' events wait this long to stay in order. */
#define READER_ORDER_SLACK_NS 2000000ull
/* Events held back for ordering wait this long for the next pass: the consumer shows them
 * at most ten times a second anyway, and a pass every 50 ms (as often as the consumer is
 * woken, and the bare reader's timeout) rather than every few lets a fast producer's pages
 * gather, read in bulk; the kernel still wakes the reader early at buffer_percent, so a
 * small buffer does not overflow meanwhile. At 20 ms the reader made three times the bare
 * reader's passes, each paying its ioctls and poll whatever the rate (issue 37). */
#define READER_HELD_MS 50
/* Records stored per hold of the store lock, so the UI never waits long. */
#define READER_BATCH 4096
/* While records keep coming, the consumer is woken this often (it redraws at most 10/s). */
#define READER_WAKE_NS 50000000ull
/* Pages read ahead of the merge per CPU: events held back for ordering wait here rather than
 * in the kernel's buffer, which a pass leaves empty as a bare reader does. Without it a small
 * buffer under a storm kept a pass's worth of events, and overflowed when the reader's next
 * wake came late (a vCPU the host did not run for 10 ms). At most this many bytes, touched
 * only by a CPU that gets that far ahead. */
#define READER_AHEAD_BYTES (1u << 20)
/* Reading ahead costs cache (the pages go through the ring's slots, not one hot page): only
 * when a CPU's buffer holds fewer than this many passes' pages is it worth it. */
#define READER_AHEAD_PASSES 4

struct reader_cpu {
	int cpu;
	int fd;
	struct tracefs_cpu *tcpu;
	struct kt_ringmap *map;	/* the CPU's buffer, mapped; NULL: read through tcpu */
	uint32_t map_id;	/* the mapped sub-buffer taken last */
	int map_off;		/* and how far (its header included): where to go on from */
	bool on_map;		/* kbuf is on the mapping, not on a copy in ring */
	/* The kernel counted map_id's data past map_off as read, and that data is still to be
	 * taken (an ioctl while reading ahead): no ioctl before it is. */
	bool map_pending;
	bool remap;		/* unmapped for a resize (reader_unmap_hook) */
	struct kbuffer *kbuf;
	char *ring;		/* qcap sub-buffers: the page being merged, then those read ahead */
	void *page;		/* the one kbuf is on (page mode: the one being handed over) */
	unsigned qhead, qcount, qcap; /* the pages read ahead: first slot, how many, slots */
	bool have;		/* kbuf holds an unread event */
	bool dry, checked;	/* this pass: had no full page; was asked for a partial one */
	void *data;		/* that event */
	unsigned long long ts;
	unsigned long long empty_at; /* when last found empty (0: never) */
	int64_t missed;		/* loss to mark before the current event (0: none) */
	struct kt_reader_stats stats; /* this CPU's share of the reader's (STAT_ADD) */
};

struct kt_reader {
	struct kt_store *store;
	struct kt_comms *comms;
	int rename_id; /* task:task_rename records feed comms; -1: not on this kernel */
	struct kt_rename_layout rename;
	struct kt_taskwatch *names; /* every exec, rename and fork, into comms; NULL: none */
	struct reader_cpu *cpus;
	int *behind; /* page mode: the CPUs a pass did not read to their end */
	int ncpus;
	int subbuf_size;
	int wake_fd;
	struct kt_page_sink sink; /* page mode when sink.page is set */
	int ctl[2];
	pthread_t thread;
	bool started;
	pid_t tid;
	unsigned long long last_wake;
	bool held; /* the last pass stopped at an event that must wait for ordering */
	struct tracefs_instance *inst; /* whose buffer_size_kb sizes the read-ahead */
	unsigned long long buffer_pages; /* sub-buffers per CPU (0: unknown) */
	unsigned long long buffer_read_at; /* when buffer_pages was read */
	bool ahead_said; /* the first read-ahead is in the debug log */
	bool stopping; /* reader_stop asked; read and written with __atomic */
	/* Held by the thread while it reads, and by reader_unmap_hook while the mappings are
	 * gone. */
	pthread_mutex_t map_lock;
	bool unmap_wanted; /* the hook waits for map_lock; __atomic */
	struct kt_session *session; /* whose unmap hook is ours */
	pthread_mutex_t tid_lock;
	pthread_cond_t tid_cond;
	/* written by the reader thread only, read by anyone (STAT_ADD, reader_stats) */
	struct kt_reader_stats stats;
};

/* A single writer needs no atomic read-modify-write, only untorn loads and stores. The
 * reader's figures and the CPU's share of them. */
#define STAT_ADD1(st, field, n) \
	__atomic_store_n(&(st)->field, (st)->field + (n), __ATOMIC_RELAXED)
#define STAT_ADD(r, c, field, n)                 \
	do {                                     \
		STAT_ADD1(&(r)->stats, field, n); \
		STAT_ADD1(&(c)->stats, field, n); \
	} while (0)

/* Loads a page just read into the CPU's cursor. Returns true when it holds an event. */
static bool cpu_load_page(struct kt_reader *r, struct reader_cpu *c)
{
	int missed;

	if (kbuffer_load_subbuffer(c->kbuf, c->page) < 0)
		return false;
	missed = kbuffer_missed_events(c->kbuf);
	STAT_ADD(r, c, pages, 1);
	if (missed > 0)
		STAT_ADD(r, c, missed, (uint64_t)missed);
	else if (missed < 0)
		STAT_ADD(r, c, missed_unknown, 1);
	if (missed)
		c->missed = missed;
	c->data = kbuffer_read_event(c->kbuf, &c->ts);
	c->have = c->data != NULL;
	return c->have;
}

/* Where the next page read from the kernel goes: the slot after those read ahead. The page
 * being merged, the slot before qhead, is kept while qcount < qcap - 1. */
static void *cpu_tail(const struct kt_reader *r, const struct reader_cpu *c)
{
	return c->ring + (size_t)((c->qhead + c->qcount) % c->qcap) * (size_t)r->subbuf_size;
}

/* The oldest page read ahead, loaded into the CPU's cursor. */
static void cpu_load_next(struct kt_reader *r, struct reader_cpu *c)
{
	c->page = c->ring + (size_t)c->qhead * (size_t)r->subbuf_size;
	c->on_map = false;
	c->qhead = (c->qhead + 1) % c->qcap;
	c->qcount--;
	cpu_load_page(r, c);
}

/*
 * Takes c's next sub-buffer from its mapping (one ioctl) into the cursor: the rest of the one
 * the writer is still on, or the next one. Returns false when the kernel had nothing new.
 */
static bool cpu_map_next(struct kt_reader *r, struct reader_cpu *c)
{
	bool fresh, pending = c->map_pending;
	uint32_t id = c->map_id;
	void *page;

	c->map_pending = false;
	page = pending ? ringmap_page(c->map, id) : ringmap_get_reader(c->map, &id);
	if (!page) {
		log_debug("reader: cpu%d: the mapped buffer's ioctl: %s", c->cpu, strerror(errno));
		return false;
	}
	c->page = page;
	c->on_map = true;
	fresh = id != c->map_id;
	if (fresh) {
		c->map_id = id;
		cpu_load_page(r, c);
	} else {
		kbuffer_load_subbuffer(c->kbuf, page);
		c->data = kbuffer_read_at_offset(c->kbuf, c->map_off, &c->ts);
		c->have = c->data != NULL;
	}
	/* the header and the data (kbuffer_start_of_data is past a leading time extend) */
	c->map_off = RINGMAP_HEADER + kbuffer_subbuffer_size(c->kbuf);
	/* after a pending look, the ioctl is still to come */
	return fresh || c->have || pending;
}

/* The cursor moves from its mapped sub-buffer to a copy in the ring's last slot (the one
 * reading ahead leaves alone), before an ioctl gives that sub-buffer back to the writer. */
static void cpu_map_detach(struct kt_reader *r, struct reader_cpu *c)
{
	char *slot = c->ring + (size_t)(c->qcap - 1) * (size_t)r->subbuf_size;
	int off;

	if (!c->on_map || !c->have)
		return;
	off = kbuffer_curr_offset(c->kbuf);
	ringmap_copy(slot, c->page, (size_t)r->subbuf_size, c->map_off);
	kbuffer_load_subbuffer(c->kbuf, slot);
	c->data = kbuffer_read_at_offset(c->kbuf, off, &c->ts);
	c->have = c->data != NULL;
	c->page = slot;
	c->on_map = false;
}

/* Reading ahead from the mapping: whole sub-buffers copied into the ring, up to the one the
 * writer is on. */
static void cpu_map_ahead(struct kt_reader *r, struct reader_cpu *c)
{
	uint32_t id;
	void *page;

	/* an ioctl now would give back the writer's sub-buffer with its news untaken */
	if (c->map_pending)
		return;
	cpu_map_detach(r, c);
	while (c->qcount + 1 < c->qcap) {
		page = ringmap_get_reader(c->map, &id);
		if (!page)
			break;
		if (id == c->map_id) { /* the writer's: the rest of it as cpu_map_next goes on */
			c->map_pending = true;
			break;
		}
		c->map_id = id;
		c->map_off = ringmap_copy(cpu_tail(r, c), page, (size_t)r->subbuf_size, 0);
		c->qcount++;
	}
}

/*
 * Gives c an event to merge if it has one: a page read ahead, else a full page from the
 * kernel, else its partial page when partial is set. Returns 1 when c has an event, 0 when c
 * is empty (empty_at updated), -1 when only a partial page is left and partial was not
 * allowed.
 */
static int cpu_fill(struct kt_reader *r, struct reader_cpu *c, bool partial)
{
	unsigned long long before;
	int n;

	while (!c->have) {
		if (c->qcount) {
			cpu_load_next(r, c);
			continue;
		}
		/* Nothing read ahead and the current page done: back to the first slot, which
		 * stays in the cache while the reader keeps up (a page a slot would not). */
		c->qhead = 0;
		before = clock_mono_ns();
		/* a mapped sub-buffer costs no copy, partial or not */
		if (c->map) {
			if (cpu_map_next(r, c))
				continue;
			c->empty_at = before;
			return 0;
		}
		n = tracefs_cpu_buffered_read(c->tcpu, cpu_tail(r, c), true);
		if (n <= 0 && !partial)
			return -1;
		if (n <= 0)
			n = tracefs_cpu_read(c->tcpu, cpu_tail(r, c), true);
		if (n > 0) {
			c->qcount++;
			cpu_load_next(r, c);
			continue;
		}
		c->empty_at = before;
		return 0;
	}
	return 1;
}

/* After a pass held back for ordering: every CPU's full pages, as far as its slots go, out
 * of the kernel's buffer while the held events wait. Nothing here is merged yet, and a CPU
 * with pages read ahead is not empty, so the order stays what cpu_fill gives. */
static void reader_read_ahead(struct kt_reader *r)
{
	int i;

	for (i = 0; i < r->ncpus; i++) {
		struct reader_cpu *c = &r->cpus[i];

		if (c->map) {
			cpu_map_ahead(r, c);
			continue;
		}
		while (c->qcount + 1 < c->qcap &&
		       tracefs_cpu_buffered_read(c->tcpu, cpu_tail(r, c), true) > 0)
			c->qcount++;
	}
}

/*
 * Stores c's events, the loss marker first, while they are older than limit, at most max of
 * them (max > 0, and c has an event); returns how many. A run stays in one page: the figures
 * are counted once per run, not per event, as the bare reader would.
 */
static unsigned cpu_emit_run(struct kt_reader *r, struct reader_cpu *c, unsigned long long limit,
			     unsigned max)
{
	struct kt_store *store = r->store;
	int rename_id = r->rename_id;
	unsigned short type;
	unsigned n = 0;

	if (c->missed && store)
		store_append_lost(store, c->ts, (uint32_t)c->cpu, c->missed > 0 ? c->missed : -1);
	c->missed = 0;
	do {
		/* Every event record starts with its common fields, the type first; the size is
		 * asked for only when the record is kept or read (a quiet batch run keeps none). */
		if (rename_id >= 0) {
			memcpy(&type, c->data, sizeof(type));
			if (type == rename_id)
				comms_note(r->comms, &r->rename, c->ts, c->data,
					   (uint32_t)kbuffer_event_size(c->kbuf));
		}
		if (store)
			store_append(store, c->ts, (uint32_t)c->cpu, c->data,
				     (uint32_t)kbuffer_event_size(c->kbuf));
		n++;
		c->data = kbuffer_next_event(c->kbuf, &c->ts);
	} while (c->data && c->ts < limit && n < max);
	c->have = c->data != NULL;
	STAT_ADD(r, c, events, n);
	return n;
}

static void reader_wake(struct kt_reader *r)
{
	char b = 1;
	ssize_t n;

	if (r->wake_fd < 0)
		return;
	r->last_wake = clock_mono_ns();
	n = write(r->wake_fd, &b, 1); /* a full pipe already says "wake up" */
	(void)n;
}

/* The consumer redraws at most ten times a second: one wake per 50 ms is plenty, and under a
 * flood the merge loop never runs dry, so this is also what keeps the screen moving. The
 * first records after a quiet spell wake it at once. */
static void reader_wake_sometimes(struct kt_reader *r)
{
	/* nothing kept (a quiet batch count): no record for the consumer to see */
	if (!r->store)
		return;
	if (clock_mono_ns() - r->last_wake >= READER_WAKE_NS)
		reader_wake(r);
}

/* The side band's new names (and mappings), and what it lost so far. */
static void reader_drain_names(struct kt_reader *r)
{
	if (!r->names)
		return;
	taskwatch_drain(r->names);
	__atomic_store_n(&r->stats.sideband_lost, taskwatch_lost(r->names), __ATOMIC_RELAXED);
}

static void reader_lock(struct kt_reader *r)
{
	if (r->store)
		store_lock(r->store);
}

static void reader_unlock(struct kt_reader *r)
{
	if (r->store)
		store_unlock(r->store);
}

static struct reader_cpu *reader_oldest(struct kt_reader *r)
{
	struct reader_cpu *m = NULL;
	int i;

	for (i = 0; i < r->ncpus; i++)
		if (r->cpus[i].have && (!m || r->cpus[i].ts < m->ts))
			m = &r->cpus[i];
	return m;
}

/*
 * m's current event may go (every other CPU holds a later event or was found empty late
 * enough): how far m's events may run on without looking at the other CPUs again. An event
 * of m may go while its time is below the returned bound: below every other CPU's current
 * event, and more than slack before every other empty CPU's last check. Equal times go back
 * to reader_oldest, which breaks ties by CPU.
 */
static unsigned long long reader_run_bound(struct kt_reader *r, const struct reader_cpu *m,
					   unsigned long long slack)
{
	unsigned long long bound = UINT64_MAX, b;
	int i;

	for (i = 0; i < r->ncpus; i++) {
		const struct reader_cpu *c = &r->cpus[i];

		if (c == m)
			continue;
		b = c->have ? c->ts : c->empty_at - slack;
		if (b < bound)
			bound = b;
	}
	return bound;
}

/*
 * One merge pass. sweep: also collect partial pages (a quiet CPU's events reach the store).
 * until: store nothing newer (the end of the capture; UINT64_MAX while it runs), and merge
 * without slack, every CPU having been read to the end. Returns the records stored.
 *
 * Syscalls are per page, never per event: a CPU found dry is not asked again in the same
 * pass, and a CPU is asked at most once per pass whether it is empty. Events that cannot go
 * yet stay in their page for the next pass.
 */
static uint64_t reader_pump(struct kt_reader *r, bool sweep, unsigned long long until)
{
	unsigned long long slack = until == UINT64_MAX ? READER_ORDER_SLACK_NS : 0;
	/* A pass takes what the kernel held when it began: under a storm faster than the
	 * reader, newer records would keep it here forever, deaf to reader_stop. */
	unsigned long long pass_end = until == UINT64_MAX ? clock_mono_ns() + slack : until;
	struct reader_cpu *m, *c;
	unsigned long long limit;
	uint64_t stored = 0;
	bool locked = false;
	unsigned batch = 0, n;
	int i;

	r->held = false;
	/* Names first: a rename comes before the events that carry the new name. Only events
	 * older than the drain are sure to find theirs (perf writes a rename's record as it
	 * happens); a newer one waits for the next pass, which drains again. */
	if (r->names) {
		unsigned long long drained = clock_mono_ns();

		reader_drain_names(r);
		if (pass_end > drained)
			pass_end = drained;
	}
	for (i = 0; i < r->ncpus; i++)
		r->cpus[i].dry = r->cpus[i].checked = false;
	for (;;) {
		for (i = 0; i < r->ncpus; i++) {
			c = &r->cpus[i];
			if (!c->have && !c->dry && cpu_fill(r, c, sweep) != 1)
				c->dry = true;
		}
		m = reader_oldest(r);
		if (!m || m->ts > pass_end)
			break;
		/* m may go only if no CPU without an event can still hold an older one. */
		for (i = 0; i < r->ncpus; i++) {
			c = &r->cpus[i];
			if (c->have || c->empty_at > m->ts + slack)
				continue;
			if (c->checked)
				break;
			c->checked = true;
			if (locked) {
				reader_unlock(r);
				locked = false;
			}
			if (cpu_fill(r, c, true) == 1 || c->empty_at > m->ts + slack)
				continue;
			break;
		}
		if (i < r->ncpus) {
			r->held = true;
			break;
		}
		m = reader_oldest(r); /* a CPU just filled may hold an older event */
		/* The rest of m's page, as far as the other CPUs allow: one look at them per run
		 * of events rather than per event. */
		limit = reader_run_bound(r, m, slack);
		if (limit > pass_end)
			limit = pass_end + 1;
		do {
			if (!locked) {
				reader_lock(r);
				locked = true;
			}
			n = cpu_emit_run(r, m, limit, READER_BATCH - batch);
			stored += n;
			batch += n;
			if (batch == READER_BATCH) {
				reader_unlock(r);
				locked = false;
				batch = 0;
				reader_wake_sometimes(r);
			}
		} while (m->have && m->ts < limit);
	}
	if (locked)
		reader_unlock(r);
	return stored;
}

/* Page mode: what the writer added to its sub-buffer since the last look, as a sub-buffer of
 * its own in c->page (whose copy of the whole it is), as a partial read() makes one: the
 * first new record's time in the header, its delta zeroed. Returns its length, 0 if none. */
static int cpu_map_tail(struct reader_cpu *c, int end)
{
	char *p = c->page;
	unsigned long long ts;
	uint32_t word;
	int off, len;
	long commit;

	kbuffer_load_subbuffer(c->kbuf, p);
	if (!kbuffer_read_at_offset(c->kbuf, c->map_off, &ts)) {
		c->map_off = end;
		return 0;
	}
	off = kbuffer_curr_offset(c->kbuf); /* past a time extend, whose delta ts has */
	len = end - off;
	c->map_off = end;
	memmove(p + RINGMAP_HEADER, p + off, (size_t)len);
	memcpy(p, &ts, sizeof(ts));
	commit = len;
	memcpy(p + sizeof(ts), &commit, sizeof(commit));
	memcpy(&word, p + RINGMAP_HEADER, sizeof(word));
	word &= 31; /* type_len stays, the delta is the header's now (little endian) */
	memcpy(p + RINGMAP_HEADER, &word, sizeof(word));
	return RINGMAP_HEADER + len;
}

/* Page mode's next sub-buffer from c's mapping, copied to c->page (the sink must not see the
 * writer add to it): a new one whole, or the writer's own one's news (cpu_map_tail). Returns
 * its length, 0 when the kernel had nothing new. */
static int cpu_map_page(struct kt_reader *r, struct reader_cpu *c)
{
	uint32_t id;
	void *page;
	int end;

	for (;;) {
		page = ringmap_get_reader(c->map, &id);
		if (!page)
			return 0;
		end = ringmap_copy(c->page, page, (size_t)r->subbuf_size, 0);
		if (id == c->map_id)
			return end > c->map_off ? cpu_map_tail(c, end) : 0;
		c->map_id = id;
		c->map_off = end;
		if (end > RINGMAP_HEADER)
			return r->subbuf_size;
	}
}

/* Pages handed over per CPU per pass: under a storm, the other CPUs and the stop flag
 * still get their turn. */
#define READER_PAGES_PER_PASS 64

/* Page mode's next page of c into c->page, under map_lock (the unmap hook's); *mapped says
 * whether it came from the mapping. Returns its length, <= 0 for none. */
static int cpu_read_page(struct kt_reader *r, struct reader_cpu *c, bool partial, bool *mapped)
{
	int n;

	pthread_mutex_lock(&r->map_lock);
	*mapped = c->map != NULL;
	if (c->map) {
		n = cpu_map_page(r, c);
	} else {
		n = tracefs_cpu_buffered_read(c->tcpu, c->page, true);
		if (n <= 0 && partial)
			n = tracefs_cpu_read(c->tcpu, c->page, true);
	}
	pthread_mutex_unlock(&r->map_lock);
	return n;
}

static uint64_t reader_pass_pages_unlocked(struct kt_reader *r, bool partial, bool draining)
{
	unsigned long long before = clock_mono_ns();
	uint64_t pages = 0;
	int i, k, n, nbehind = 0;
	bool mapped = false;

	reader_drain_names(r);
	if (r->sink.sym)
		taskwatch_feed(r->names, r->sink.sym);
	for (i = 0; i < r->ncpus; i++) {
		struct reader_cpu *c = &r->cpus[i];

		for (k = 0; k < READER_PAGES_PER_PASS; k++) {
			if (draining && r->sink.full && r->sink.full(r->sink.ctx))
				return 0;
			n = cpu_read_page(r, c, partial, &mapped);
			if (n <= 0)
				break;
			STAT_ADD(r, c, pages, 1);
			r->sink.page(r->sink.ctx, c->cpu, c->page, (size_t)n);
			pages++;
		}
		/* a mapped CPU's pass went to the writer, partial sub-buffer included */
		if ((!partial && !mapped) || k == READER_PAGES_PER_PASS)
			r->behind[nbehind++] = c->cpu;
	}
	/* the mappings of every event handed over are in the side band by now (a process
	 * maps before it runs): the sink's last try at the frames it could not name */
	if (r->sink.sym && pages) {
		reader_drain_names(r);
		taskwatch_feed(r->names, r->sink.sym);
	}
	if (r->sink.swept)
		r->sink.swept(r->sink.ctx, before, r->behind, nbehind);
	return pages;
}

/*
 * Page mode's pass: each CPU's full pages, and with partial its last partial page, to the
 * sink; then the sink learns which CPUs it did not read to their end. Returns the pages
 * handed over; while draining at the stop, 0 once the sink is full.
 *
 * Called with map_lock held, it runs without it but for the reads: the sink may wait for a
 * lock its own thread holds while it resizes the buffer, and the unmap hook waits for
 * map_lock (the agent enabling an event under its lock).
 */
static uint64_t reader_pass_pages(struct kt_reader *r, bool partial, bool draining)
{
	uint64_t pages;

	pthread_mutex_unlock(&r->map_lock);
	pages = reader_pass_pages_unlocked(r, partial, draining);
	pthread_mutex_lock(&r->map_lock);
	return pages;
}

/* After a held pass that read pages: reads ahead when a CPU's buffer is small for the rate,
 * the buffer's size read again at most once an idle period (the instance is sized when the
 * first event is enabled, and may be resized; a quiet reader never asks). */
static void reader_maybe_read_ahead(struct kt_reader *r, uint64_t pass_pages)
{
	unsigned long long now = clock_mono_ns();
	long long kb;

	if (now - r->buffer_read_at >= READER_IDLE_MS * 1000000ull) {
		r->buffer_read_at = now;
		if (tracefs_instance_file_read_number(r->inst, "buffer_size_kb", &kb) == 0 && kb > 0)
			r->buffer_pages = (unsigned long long)kb * 1024 / (unsigned)r->subbuf_size;
	}
	if (pass_pages * READER_AHEAD_PASSES < r->buffer_pages)
		return;
	if (!r->ahead_said)
		log_debug("reader: reading ahead: a pass read %llu pages, a CPU's buffer holds %llu",
			  (unsigned long long)pass_pages, r->buffer_pages);
	r->ahead_said = true;
	reader_read_ahead(r);
}

/* The unmap hook waits for the lock (map_lock): a thread that never sleeps under a storm
 * lets it in between passes. */
static void reader_yield_maps(struct kt_reader *r)
{
	struct timespec ms = { 0, 1000000 };

	if (!__atomic_load_n(&r->unmap_wanted, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_unlock(&r->map_lock);
	while (__atomic_load_n(&r->unmap_wanted, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	pthread_mutex_lock(&r->map_lock);
}

/* Maps c's buffer, going on where the kernel's reader stands. False (c reads) with the
 * reason in why. */
static bool cpu_map_open(struct kt_reader *r, struct reader_cpu *c, char *why, size_t len)
{
	uint32_t id, read;

	c->map = ringmap_open(c->fd, why, len);
	if (!c->map)
		return false;
	if (ringmap_subbuf_size(c->map) != (uint32_t)r->subbuf_size) {
		snprintf(why, len, "mapped sub-buffers of %u bytes, read ones of %d",
			 ringmap_subbuf_size(c->map), r->subbuf_size);
		ringmap_close(c->map);
		c->map = NULL;
		return false;
	}
	ringmap_reader(c->map, &id, &read);
	/* mapped again after a resize: the sub-buffer taken last goes on where we were */
	if (!c->remap || id != c->map_id) {
		c->map_off = RINGMAP_HEADER + (int)read;
		c->map_pending = false;
	}
	c->map_id = id;
	return true;
}

/* session_size_buffer's hook around a resize the kernel refuses while the buffer is mapped:
 * before, the thread stops reading (map_lock) and the cursors move to copies; after, every
 * CPU maps again, or reads with read() where the kernel now refuses. */
static void reader_unmap_hook(void *ctx, bool before)
{
	struct kt_reader *r = ctx;
	char why[192];
	int i;

	if (before) {
		__atomic_store_n(&r->unmap_wanted, true, __ATOMIC_RELEASE);
		pthread_mutex_lock(&r->map_lock);
	}
	for (i = 0; i < r->ncpus; i++) {
		struct reader_cpu *c = &r->cpus[i];

		if (before && c->map) {
			cpu_map_detach(r, c);
			c->on_map = false;
			ringmap_close(c->map);
			c->map = NULL;
			c->remap = true;
		} else if (!before && c->remap) {
			if (!cpu_map_open(r, c, why, sizeof(why)))
				log_debug("reader: cpu%d reads with read() now: %s", c->cpu, why);
			c->remap = false;
		}
	}
	if (before)
		return;
	pthread_mutex_unlock(&r->map_lock);
	__atomic_store_n(&r->unmap_wanted, false, __ATOMIC_RELEASE);
}

static void *reader_main(void *arg)
{
	struct kt_reader *r = arg;
	unsigned long long last_sweep = 0, stop_ts, pages;
	struct pollfd *pfd;
	bool stop = false;
	int i, n, e, timeout;

	pthread_mutex_lock(&r->tid_lock);
	r->tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_signal(&r->tid_cond);
	pthread_mutex_unlock(&r->tid_lock);

	pfd = calloc((size_t)r->ncpus + 1, sizeof(*pfd));
	if (!pfd)
		return NULL;
	for (i = 0; i < r->ncpus; i++) {
		pfd[i].fd = r->cpus[i].fd;
		pfd[i].events = POLLIN;
	}
	pfd[r->ncpus].fd = r->ctl[0];
	pfd[r->ncpus].events = POLLIN;

	pthread_mutex_lock(&r->map_lock);
	while (!stop && !__atomic_load_n(&r->stopping, __ATOMIC_ACQUIRE)) {
		unsigned long long now = clock_mono_ns();
		bool sweep = now - last_sweep >= READER_IDLE_MS * 1000000ull;

		reader_yield_maps(r);
		if (sweep)
			last_sweep = now;
		pages = r->stats.pages;
		if (r->sink.page) {
			if (reader_pass_pages(r, sweep, false))
				continue;
		} else if (reader_pump(r, sweep, UINT64_MAX)) {
			reader_wake_sometimes(r);
			/* Stopped by the ordering slack: let records gather rather than ask the
			 * kernel again at once for the few that aged past it meanwhile. */
			if (!r->held)
				continue;
		}
		if (!r->sink.page && r->held && r->stats.pages > pages)
			reader_maybe_read_ahead(r, r->stats.pages - pages);
		/* Events held back for ordering go out soon after the slack, not a full idle. */
		timeout = !r->sink.page && reader_oldest(r) ? READER_HELD_MS : READER_IDLE_MS;
		pthread_mutex_unlock(&r->map_lock);
		n = poll(pfd, (nfds_t)r->ncpus + 1, timeout);
		e = errno;
		pthread_mutex_lock(&r->map_lock);
		if (n < 0 && e != EINTR)
			break;
		if (pfd[r->ncpus].revents)
			stop = true;
	}
	/* Stopped: take everything the kernel buffered up to now, in order. */
	stop_ts = clock_mono_ns();
	if (r->sink.page) /* a storm could outrun it: a second at most, less if it is full */
		while (reader_pass_pages(r, true, true) && clock_mono_ns() - stop_ts < 1000000000ull)
			;
	else
		while (reader_pump(r, true, stop_ts))
			;
	pthread_mutex_unlock(&r->map_lock);
	reader_wake(r);
	free(pfd);
	return NULL;
}

static int reader_subbuf_size(struct tracefs_instance *inst)
{
	long long kb;

	if (tracefs_instance_file_read_number(inst, "buffer_subbuf_size_kb", &kb) == 0 && kb > 0)
		return (int)(kb * 1024);
	return getpagesize();
}

/* Maps every CPU's buffer it can, and says in the log which way the reader reads. */
static void reader_map_cpus(struct kt_reader *r)
{
	char why[192] = "";
	int i, mapped = 0;

	for (i = 0; i < r->ncpus; i++)
		mapped += cpu_map_open(r, &r->cpus[i], why, sizeof(why));
	if (mapped == r->ncpus)
		log_debug("reader: ring buffer memory-mapped, %d CPUs", mapped);
	else
		log_debug("reader: %d of %d CPUs memory-mapped, the rest read with read(): %s",
			  mapped, r->ncpus, why);
	if (mapped)
		session_set_unmap_hook(r->session, reader_unmap_hook, r);
}

static void reader_close_cpus(struct kt_reader *r)
{
	uint64_t entries, overrun, read;
	int i;

	for (i = 0; i < r->ncpus; i++) {
		struct reader_cpu *c = &r->cpus[i];

		if (c->map) {
			ringmap_counters(c->map, &entries, &overrun, &read);
			log_debug("reader: cpu%d's meta page: entries %llu, overrun %llu, read %llu",
				  c->cpu, (unsigned long long)entries, (unsigned long long)overrun,
				  (unsigned long long)read);
			ringmap_close(c->map);
		}
		if (c->tcpu)
			tracefs_cpu_free_fd(c->tcpu);
		if (c->fd >= 0)
			close(c->fd);
		if (c->kbuf)
			kbuffer_free(c->kbuf);
		free(c->ring);
	}
	free(r->cpus);
	r->cpus = NULL;
	free(r->behind);
	r->behind = NULL;
}

/* The task_rename layout: its records, when enabled, name tasks exactly over time. */
static void reader_setup_renames(struct kt_reader *r, struct tracefs_instance *inst, bool maps)
{
	char *fmt, *clock, why[256];

	r->rename_id = -1;
	if (!r->comms)
		return;
	fmt = tracefs_instance_file_read(inst, "events/task/task_rename/format", NULL);
	if (fmt && comms_parse_format(fmt, &r->rename) == 0)
		r->rename_id = r->rename.id;
	free(fmt);
	/* Without the side band, names come from /proc and saved_cmdlines, as trace-cmd's do:
	 * a task gone before its rows are drawn may show an older name or none. */
	clock = tracefs_get_clock(inst);
	r->names = taskwatch_open(r->comms, clock ? clock : "local", maps, why, sizeof(why));
	if (!r->names)
		log_debug("%s: no task-name side band: %s", __func__, why);
	free(clock);
}

void reader_feed(struct kt_reader *r, struct kt_symbolizer *sym)
{
	if (r)
		taskwatch_feed(r->names, sym);
}

static struct kt_reader *reader_create(struct kt_session *s, struct kt_store *st,
				       const struct kt_page_sink *sink, struct kt_comms *comms,
				       bool maps, int wake_fd, char *err, size_t errlen)
{
	struct tracefs_instance *inst = session_trace_instance(s);
	struct kt_reader *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	char path[64];
	int i;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->store = st;
	if (sink)
		r->sink = *sink;
	/* A quiet count keeps no record to name: no side band to drain every pass (on a busy
	 * machine every compiler's fork and exec, a tenth of the reader's CPU in issue 37's
	 * profile). */
	r->comms = st || sink ? comms : NULL;
	reader_setup_renames(r, inst, maps);
	r->wake_fd = wake_fd;
	r->ctl[0] = r->ctl[1] = -1;
	r->ncpus = session_ncpus(s);
	r->subbuf_size = reader_subbuf_size(inst);
	r->inst = inst;
	r->session = s;
	pthread_mutex_init(&r->map_lock, NULL);
	pthread_mutex_init(&r->tid_lock, NULL);
	pthread_cond_init(&r->tid_cond, NULL);
	r->cpus = calloc((size_t)r->ncpus, sizeof(*r->cpus));
	r->behind = calloc((size_t)r->ncpus, sizeof(*r->behind));
	if (!r->cpus || !r->behind || pipe2(r->ctl, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "cannot set up the reader: %s", strerror(errno));
		goto fail;
	}
	/* A start that fails part way closes only what it opened: 0 is stdin (the keyboard). */
	for (i = 0; i < r->ncpus; i++)
		r->cpus[i].fd = -1;
	for (i = 0; i < r->ncpus; i++) {
		struct reader_cpu *c = &r->cpus[i];

		c->cpu = i;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw", i);
		c->fd = tracefs_instance_file_open(inst, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->fd < 0) {
			snprintf(err, errlen, "cannot open %s of %s: %s", path, session_name(s),
				 strerror(errno));
			goto fail;
		}
		c->tcpu = tracefs_cpu_alloc_fd(c->fd, r->subbuf_size, true);
		c->kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					KBUFFER_ENDIAN_LITTLE);
		/* page mode hands each page over as it is read: one slot */
		c->qcap = sink && sink->page ? 1 : READER_AHEAD_BYTES / (unsigned)r->subbuf_size;
		if (c->qcap < 2 && !(sink && sink->page))
			c->qcap = 2;
		/* page-aligned: the kernel copies each sub-buffer into one page, not across two */
		if (posix_memalign((void **)&c->ring, 4096, (size_t)c->qcap * (size_t)r->subbuf_size))
			c->ring = NULL;
		c->page = c->ring;
		if (!c->tcpu || !c->kbuf || !c->ring) {
			snprintf(err, errlen, "cannot set up the reader for CPU %d: %s", i,
				 strerror(errno ? errno : ENOMEM));
			goto fail;
		}
	}
	if (!session_may_map(s))
		log_debug("reader: reads with read() (--read-mode=read)");
	else if (!inst) /* a mapped buffer refuses other tools' resizes and snapshots */
		log_debug("reader: reads the shared top-level buffer with read()");
	else
		reader_map_cpus(r);
	/* Signals go to the main thread: a SIGWINCH taken by the reader would never interrupt
	 * the UI's poll(), so a resize would wait for the next key. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	errno = pthread_create(&r->thread, NULL, reader_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (errno) {
		snprintf(err, errlen, "cannot start the reader thread: %s", strerror(errno));
		goto fail;
	}
	r->started = true;
	pthread_mutex_lock(&r->tid_lock);
	while (!r->tid)
		pthread_cond_wait(&r->tid_cond, &r->tid_lock);
	pthread_mutex_unlock(&r->tid_lock);
	log_debug("%s: %d CPUs, sub-buffer %d bytes, thread %d", __func__, r->ncpus,
		  r->subbuf_size, (int)r->tid);
	return r;
fail:
	reader_stop(r, NULL, NULL);
	return NULL;
}

struct kt_reader *reader_start(struct kt_session *s, struct kt_store *st, struct kt_comms *comms,
			       bool maps, int wake_fd, char *err, size_t errlen)
{
	return reader_create(s, st, NULL, comms, maps, wake_fd, err, errlen);
}

struct kt_reader *reader_start_pages(struct kt_session *s, const struct kt_page_sink *sink,
				     struct kt_comms *comms, char *err, size_t errlen)
{
	return reader_create(s, NULL, sink, comms, sink->sym != NULL, -1, err, errlen);
}

int reader_page_size(const struct kt_reader *r)
{
	return r->subbuf_size;
}

pid_t reader_tid(const struct kt_reader *r)
{
	return r->tid;
}

void reader_stop(struct kt_reader *r, struct kt_reader_stats *final, struct kt_symbolizer *sym)
{
	char b = 1;

	if (!r)
		return;
	if (r->session)
		session_set_unmap_hook(r->session, NULL, NULL);
	if (r->started) {
		/* The flag for a reader too busy to poll; the pipe for one asleep in poll. */
		__atomic_store_n(&r->stopping, true, __ATOMIC_RELEASE);
		if (write(r->ctl[1], &b, 1) < 0)
			log_debug("%s: control pipe: %s", __func__, strerror(errno));
		pthread_join(r->thread, NULL);
		log_debug("%s: %llu pages, %llu events", __func__,
			  (unsigned long long)r->stats.pages, (unsigned long long)r->stats.events);
	}
	if (final)
		*final = r->stats;
	if (r->cpus)
		reader_close_cpus(r);
	if (sym)
		taskwatch_feed(r->names, sym);
	taskwatch_close(r->names);
	if (r->ctl[0] >= 0)
		close(r->ctl[0]);
	if (r->ctl[1] >= 0)
		close(r->ctl[1]);
	pthread_mutex_destroy(&r->tid_lock);
	pthread_mutex_destroy(&r->map_lock);
	pthread_cond_destroy(&r->tid_cond);
	free(r);
}

static void stats_load(const struct kt_reader_stats *st, struct kt_reader_stats *out)
{
	out->pages = __atomic_load_n(&st->pages, __ATOMIC_RELAXED);
	out->events = __atomic_load_n(&st->events, __ATOMIC_RELAXED);
	out->missed = __atomic_load_n(&st->missed, __ATOMIC_RELAXED);
	out->missed_unknown = __atomic_load_n(&st->missed_unknown, __ATOMIC_RELAXED);
	out->sideband_lost = __atomic_load_n(&st->sideband_lost, __ATOMIC_RELAXED);
}

void reader_stats_add(struct kt_reader_stats *to, const struct kt_reader_stats *from)
{
	to->pages += from->pages;
	to->events += from->events;
	to->missed += from->missed;
	to->missed_unknown += from->missed_unknown;
	to->sideband_lost += from->sideband_lost;
}

void reader_stats(struct kt_reader *r, struct kt_reader_stats *out)
{
	stats_load(&r->stats, out);
}

void reader_cpu_stats(struct kt_reader *r, int cpu, struct kt_reader_stats *out)
{
	if (cpu >= 0 && cpu < r->ncpus)
		stats_load(&r->cpus[cpu].stats, out);
	else
		memset(out, 0, sizeof(*out));
}
