// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../log.h"
#include "../fileio.h"
#include "comms.h"
#include "taskwatch.h"

/* Data pages per CPU: a COMM record is about 40 bytes, so 64 KiB holds some 1,600 renames
 * between two drains (the reader drains at least every 100 ms). */
#define RING_PAGES 16
#define REC_MAX 256 /* larger than any COMM or FORK record */

struct ring {
	int fd;
	void *base; /* the metadata page, then the data pages */
	size_t size; /* of the data pages */
};

struct kt_taskwatch {
	struct kt_comms *comms;
	struct ring *rings;
	int nrings;
	size_t page;
	uint64_t lost;
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

static int ring_open(struct ring *r, int cpu, bool use_clockid, int clockid, size_t page)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.exclude_kernel = 1; /* a dummy counts nothing; side-band records still come */
	attr.use_clockid = use_clockid;
	attr.clockid = clockid;
	r->fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	r->size = RING_PAGES * page;
	r->base = mmap(NULL, page + r->size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -1;
	}
	return 0;
}

static void ring_close(struct ring *r, size_t page)
{
	if (r->base)
		munmap(r->base, page + r->size);
	if (r->fd >= 0)
		close(r->fd);
}

struct kt_taskwatch *taskwatch_open(struct kt_comms *comms, const char *trace_clock, char *err,
				    size_t errlen)
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
	tw->page = (size_t)sysconf(_SC_PAGESIZE);
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct ring *r = &tw->rings[tw->nrings];

		if (ring_open(r, cpu, use_clockid, clockid, tw->page) == 0) {
			tw->nrings++;
			continue;
		}
		/* an offline CPU has nothing to tell */
		if (errno == ENODEV || errno == ENXIO) {
			ring_close(r, tw->page);
			continue;
		}
		snprintf(err, errlen, "perf side band on CPU %d: %s", cpu, strerror(errno));
		ring_close(r, tw->page);
		taskwatch_close(tw);
		return NULL;
	}
	return tw;
}

/* The name tid had at ts: what the side band said, else what /proc says now. */
static bool name_of(struct kt_taskwatch *tw, int tid, uint64_t ts, char out[KT_COMM_LEN])
{
	char path[64], *buf, *nl;

	if (comms_at(tw->comms, tid, ts, out))
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
	comms_set(tw->comms, tid, 0, out);
	return true;
}

/* One record; with sample_id_all and TID|TIME, every record ends in {pid, tid, time}. */
static unsigned take(struct kt_taskwatch *tw, const struct perf_event_header *h)
{
	const char *p = (const char *)(h + 1);
	char comm[KT_COMM_LEN];
	uint32_t ids[4];
	uint64_t ts, n;

	switch (h->type) {
	case PERF_RECORD_COMM:
		if (h->size < sizeof(*h) + 8 + 16)
			return 0;
		memcpy(ids, p, 8);
		memcpy(&ts, (const char *)h + h->size - 8, 8);
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(comm) - 1, p + 8);
		comms_set(tw->comms, (int)ids[1], ts, comm);
		return 1;
	case PERF_RECORD_FORK:
		/* the child starts with its parent thread's name */
		if (h->size < sizeof(*h) + 24)
			return 0;
		memcpy(ids, p, 16); /* pid, ppid, tid, ptid */
		memcpy(&ts, p + 16, 8);
		if (!name_of(tw, (int)ids[3], ts, comm))
			return 0;
		comms_set(tw->comms, (int)ids[2], ts, comm);
		return 1;
	case PERF_RECORD_LOST:
		memcpy(&n, p + 8, 8);
		tw->lost += n;
		return 0;
	default:
		return 0;
	}
}

static unsigned ring_drain(struct kt_taskwatch *tw, struct ring *r)
{
	struct perf_event_mmap_page *meta = r->base;
	const char *data = (const char *)r->base + tw->page;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	union {
		struct perf_event_header h;
		char bytes[REC_MAX];
	} rec;
	unsigned learned = 0;

	while (tail < head) {
		size_t off = (size_t)(tail % r->size), first;
		struct perf_event_header h;

		first = r->size - off < sizeof(h) ? r->size - off : sizeof(h);
		memcpy(&h, data + off, first);
		memcpy((char *)&h + first, data, sizeof(h) - first);
		if (h.size < sizeof(h))
			break; /* never written by the kernel; stop rather than spin */
		if (h.size <= sizeof(rec)) {
			first = r->size - off < h.size ? r->size - off : h.size;
			memcpy(rec.bytes, data + off, first);
			memcpy(rec.bytes + first, data, h.size - first);
			learned += take(tw, &rec.h);
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
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
	return learned;
}

void taskwatch_close(struct kt_taskwatch *tw)
{
	int i;

	if (!tw)
		return;
	for (i = 0; i < tw->nrings; i++)
		ring_close(&tw->rings[i], tw->page);
	if (tw->lost)
		log_debug("taskwatch: the kernel dropped %llu side-band records",
			  (unsigned long long)tw->lost);
	free(tw->rings);
	free(tw);
}
