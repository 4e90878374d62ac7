// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/fileio.h"
#include "comms.h"
#include "perfring.h"
#include "backend/symbols/symbolize.h"
#include "taskwatch.h"

/* Data pages per CPU: a COMM record is about 40 bytes, so 64 KiB holds some 1,600 renames
 * between two drains (the reader drains at least every 100 ms). */
#define RING_PAGES 16
/* With mmaps too (some ten per exec): 256 KiB. */
#define MAPS_RING_PAGES 64

/* Side-band records, each after a struct queued: one drain's, then the consumer's. */
struct records {
	char *buf;
	size_t len, cap;
};

struct queued {
	uint64_t ts;
	size_t size; /* of the record after it, padded to 8 bytes */
};

struct kt_taskwatch {
	struct kt_comms *comms;
	struct kt_perfring *rings;
	int nrings;
	uint64_t lost;
	bool maps;
	struct records drained;	/* this drain's, drainer only */
	size_t *order;		/* offsets into drained, sorted by time */
	size_t norder, order_cap;
	uint64_t drain_lost;	/* drainer only: records this drain had no memory for */
	pthread_mutex_t lock;	/* queue */
	struct records queue;
	uint64_t queue_lost;	/* drainer only */
	struct records feeding;	/* feeder only: the queue taken, replayed outside the lock */
};

/* The perf clock that reads what the ftrace clock named reads; false when none does. */
static bool perf_clock_of(const char *trace_clock, bool *use_clockid, int *clockid)
{
	static const struct {
		const char *name;
		int clockid;
	} map[] = {
		{ "mono", CLOCK_MONOTONIC },
		{ "mono_raw", CLOCK_MONOTONIC_RAW },
		{ "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	size_t i;

	/* ftrace's local, global and perf clocks are sched_clock, as perf's default is */
	if (!strcmp(trace_clock, "local") || !strcmp(trace_clock, "global") ||
	    !strcmp(trace_clock, "perf")) {
		*use_clockid = false;
		return true;
	}
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (!strcmp(trace_clock, map[i].name)) {
			*use_clockid = true;
			*clockid = map[i].clockid;
			return true;
		}
	}
	return false;
}

static int ring_open(struct kt_perfring *r, int cpu, bool use_clockid, int clockid, bool maps)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.mmap = maps; /* executable mappings only, as perf record's default */
	attr.mmap2 = maps;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.exclude_kernel = 1; /* a dummy counts nothing; side-band records still come */
	attr.use_clockid = use_clockid;
	attr.clockid = clockid;
	r->fd = -1;
	r->base = NULL;
	r->scratch = NULL;
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	return perfring_map(r, fd, maps ? MAPS_RING_PAGES : RING_PAGES);
}

struct kt_taskwatch *taskwatch_open(struct kt_comms *comms, const char *trace_clock, bool maps,
				    char *err, size_t errlen)
{
	struct kt_taskwatch *tw;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	bool use_clockid;
	int clockid = 0, cpu;

	if (!perf_clock_of(trace_clock, &use_clockid, &clockid)) {
		snprintf(err, errlen, "trace clock '%s' has no perf clock to match", trace_clock);
		return NULL;
	}
	tw = calloc(1, sizeof(*tw));
	if (!tw || ncpus < 1 || !(tw->rings = calloc((size_t)ncpus, sizeof(*tw->rings)))) {
		free(tw);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	tw->comms = comms;
	tw->maps = maps;
	pthread_mutex_init(&tw->lock, NULL);
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct kt_perfring *r = &tw->rings[tw->nrings];

		if (ring_open(r, cpu, use_clockid, clockid, maps) == 0) {
			tw->nrings++;
			continue;
		}
		/* an offline CPU has nothing to tell */
		if (errno == ENODEV || errno == ENXIO) {
			perfring_close(r);
			continue;
		}
		snprintf(err, errlen, "perf side band on CPU %d: %s", cpu, strerror(errno));
		perfring_close(r);
		taskwatch_close(tw);
		return NULL;
	}
	return tw;
}

/* The name tid had at ts: what the side band said, else what /proc says now. */
bool taskwatch_name(struct kt_comms *comms, int tid, uint64_t ts, char out[KT_COMM_LEN])
{
	char path[64], *buf, *nl;

	if (comms_at(comms, tid, ts, out))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	buf = file_read_all(path, NULL);
	if (!buf)
		return false;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	snprintf(out, KT_COMM_LEN, "%s", buf);
	free(buf);
	/* its name since before ktop (a rename since would have come as a record): a shell
	 * that forks a thousand times is read once */
	comms_set(comms, tid, 0, out);
	return true;
}

unsigned taskwatch_record(struct kt_comms *comms, const struct perf_event_header *h,
			  uint64_t ts)
{
	const char *p = (const char *)(h + 1);
	char comm[KT_COMM_LEN];
	uint32_t ids[4];

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (h->size < sizeof(*h) + 8 + 16)
			return 0;
		memcpy(ids, p, 8);
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(comm) - 1, p + 8);
		comms_set(comms, (int)ids[1], ts, comm);
		return 1;
	case PERF_RECORD_FORK:
		/* the child starts with its parent thread's name */
		if (h->size < sizeof(*h) + 24)
			return 0;
		memcpy(ids, p, 16); /* pid, ppid, tid, ptid */
		if (!taskwatch_name(comms, (int)ids[3], ts, comm))
			return 0;
		comms_set(comms, (int)ids[2], ts, comm);
		return 1;
	default:
		return 0;
	}
}

/* Appends h, of time ts, to rs. -1 when out of memory. */
static int records_add(struct records *rs, const struct perf_event_header *h, uint64_t ts)
{
	size_t size = (h->size + 7u) & ~(size_t)7, need = sizeof(struct queued) + size;
	struct queued q = { ts, size };

	if (rs->len + need > rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 1 << 14;
		char *buf;

		while (rs->len + need > cap)
			cap *= 2;
		if (!(buf = realloc(rs->buf, cap)))
			return -1;
		rs->buf = buf;
		rs->cap = cap;
	}
	memcpy(rs->buf + rs->len, &q, sizeof(q));
	memset(rs->buf + rs->len + sizeof(q), 0, size);
	memcpy(rs->buf + rs->len + sizeof(q), h, h->size);
	rs->len += need;
	return 0;
}

/* A record the symbolizer needs, kept in this drain's list. */
static void keep_record(struct kt_taskwatch *tw, const struct perf_event_header *h, uint64_t ts)
{
	if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2 &&
	    h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_EXIT &&
	    !(h->type == PERF_RECORD_COMM && h->misc & PERF_RECORD_MISC_COMM_EXEC))
		return;
	if (tw->norder == tw->order_cap) {
		size_t cap = tw->order_cap ? tw->order_cap * 2 : 256, *o;

		if (!(o = realloc(tw->order, cap * sizeof(*o)))) {
			tw->drain_lost++;
			return;
		}
		tw->order = o;
		tw->order_cap = cap;
	}
	tw->order[tw->norder] = tw->drained.len;
	if (records_add(&tw->drained, h, ts) < 0) {
		tw->drain_lost++;
		return;
	}
	tw->norder++;
}

static int by_time(const void *a, const void *b, void *arg)
{
	const struct records *rs = arg;
	size_t oa = *(const size_t *)a, ob = *(const size_t *)b;
	const struct queued *x = (const void *)(rs->buf + oa), *y = (const void *)(rs->buf + ob);

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* one CPU's records keep their order */
	return oa < ob ? -1 : oa > ob;
}

/* This drain's records, the CPUs merged by time, onto the end of the queue. */
static void queue_drained(struct kt_taskwatch *tw)
{
	size_t i;

	if (tw->norder)
		qsort_r(tw->order, tw->norder, sizeof(*tw->order), by_time, &tw->drained);
	pthread_mutex_lock(&tw->lock);
	tw->queue_lost += tw->drain_lost;
	for (i = 0; i < tw->norder; i++) {
		const struct queued *q = (const void *)(tw->drained.buf + tw->order[i]);

		if (tw->queue.len + sizeof(*q) + q->size > KT_TASKWATCH_QUEUE ||
		    records_add(&tw->queue, (const void *)(q + 1), q->ts) < 0)
			tw->queue_lost++;
	}
	pthread_mutex_unlock(&tw->lock);
	tw->drain_lost = 0;
	tw->norder = 0;
	tw->drained.len = 0;
}

void taskwatch_feed(struct kt_taskwatch *tw, struct kt_symbolizer *sym)
{
	struct records taken;
	size_t at;

	if (!tw)
		return;
	/* the buffers change hands: the reader's drain never waits on /proc reads */
	pthread_mutex_lock(&tw->lock);
	taken = tw->queue;
	tw->queue = tw->feeding;
	pthread_mutex_unlock(&tw->lock);
	for (at = 0; at < taken.len;) {
		const struct queued *q = (const void *)(taken.buf + at);

		symbolizer_record(sym, (const void *)(q + 1));
		at += sizeof(*q) + q->size;
	}
	taken.len = 0;
	tw->feeding = taken;
}

uint64_t taskwatch_lost(const struct kt_taskwatch *tw)
{
	/* queue_lost is written by the drainer alone: its own thread reads it unlocked */
	return tw ? tw->lost + tw->queue_lost : 0;
}

static unsigned ring_drain(struct kt_taskwatch *tw, struct kt_perfring *r)
{
	const struct perf_event_header *h;
	unsigned learned = 0;
	uint64_t n, ts;

	perfring_begin(r);
	while ((h = perfring_peek(r))) {
		if (h->type == PERF_RECORD_LOST && h->size >= sizeof(*h) + 16) {
			memcpy(&n, (const char *)(h + 1) + 8, 8);
			tw->lost += n;
		} else if (h->size >= sizeof(*h) + 8) {
			/* sample_id_all with TID|TIME: every record ends in its time */
			memcpy(&ts, (const char *)h + h->size - 8, 8);
			learned += taskwatch_record(tw->comms, h, ts);
			if (tw->maps)
				keep_record(tw, h, ts);
		}
		perfring_skip(r);
	}
	perfring_end(r);
	return learned;
}

unsigned taskwatch_drain(struct kt_taskwatch *tw)
{
	unsigned learned = 0;
	int i;

	if (!tw)
		return 0;
	for (i = 0; i < tw->nrings; i++)
		learned += ring_drain(tw, &tw->rings[i]);
	if (tw->maps)
		queue_drained(tw);
	return learned;
}

void taskwatch_close(struct kt_taskwatch *tw)
{
	int i;

	if (!tw)
		return;
	for (i = 0; i < tw->nrings; i++)
		perfring_close(&tw->rings[i]);
	free(tw->rings);
	free(tw->drained.buf);
	free(tw->order);
	free(tw->queue.buf);
	free(tw->feeding.buf);
	pthread_mutex_destroy(&tw->lock);
	free(tw);
}
