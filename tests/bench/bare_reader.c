// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bare_reader - the benchmark's yardstick: the least a reader of a tracefs instance can do.
 *
 *   bare_reader [--mmap] INSTANCE SECONDS
 *   bare_reader [--mmap] --make KB SYSTEM:EVENT INSTANCE SECONDS
 *
 * The instance exists and its events are enabled (the first form), or (--make) this makes
 * it, KB per CPU ("-": the kernel's size for a new instance) with SYSTEM:EVENT enabled,
 * and removes it at the end: a ring buffer of 64 MB per CPU costs the kernel tens of ms to
 * allocate and free, which a tool that makes its own instance, as ktop does, pays too. For
 * SECONDS this reads every CPU's trace_pipe_raw in whole sub-buffers through splice
 * (tracefs_cpu_buffered_read), walks each sub-buffer with kbuffer counting records and
 * the events the kernel reports as missed, then stops, drains the partial pages
 * (tracefs_cpu_flush) and prints one line:
 *
 *   events=<n> missed=<m> pages=<p>
 *
 * followed by " missed_unknown_pages=<k>" when the kernel flagged lost events on a page
 * without saying how many, and with --make " lost=<overrun and dropped events>
 * unread=<entries>" from every CPU's stats file once tracing is off. Nothing is decoded or
 * stored: what this costs per event is the floor any tracefs reader pays.
 *
 * One thread polls all CPUs. poll() on trace_pipe_raw wakes when the CPU's buffer is
 * buffer_percent full; a 50 ms timeout bounds the wait when it never gets there.
 * libtracefs 1.6 does not expose the descriptor of a tracefs_cpu_open() handle, so each
 * trace_pipe_raw is opened here and wrapped with tracefs_cpu_alloc_fd(), which is the
 * same object tracefs_cpu_open() builds.
 *
 * --mmap: the floor of a reader that maps each CPU's buffer (Linux 6.10+, the ABI of the
 * kernel's Documentation/trace/ring-buffer-map.rst; src/backend/ingest/trace_mmap.h): one
 * TRACE_MMAP_IOCTL_GET_READER per sub-buffer, walked where the kernel wrote it, the one the
 * writer is still on walked again from where the last look ended. No copy, no flush: at the
 * end one more pass takes what is left.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>
#include <traceevent/kbuffer.h>

#include "backend/ingest/trace_mmap.h"

#define POLL_TIMEOUT_MS 50

struct cpu_reader {
	int cpu;
	int fd;
	struct tracefs_cpu *tcpu;
	/* --mmap: the mapping, the sub-buffer taken last and how far into it */
	struct kt_trace_buffer_meta *meta;
	size_t map_len;
	uint32_t id;
	int off;
};

struct counts {
	unsigned long long events;
	unsigned long long missed;
	unsigned long long missed_unknown_pages;
	unsigned long long pages;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Counts the records of one sub-buffer of len bytes from offset off (0: a new sub-buffer,
 * its loss counted too; else the offset of the first record not yet counted, past the
 * header). Returns where its data ends, the next look's offset. */
static int count_page(struct kbuffer *kbuf, void *page, int len, int off, struct counts *c)
{
	unsigned long long ts;
	void *rec;
	int missed;

	if (len <= 0)
		return off;
	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		fprintf(stderr, "bare_reader: unreadable sub-buffer (%d bytes)\n", len);
		return off;
	}
	if (!off) {
		c->pages++;
		missed = kbuffer_missed_events(kbuf);
		if (missed > 0)
			c->missed += (unsigned long long)missed;
		else if (missed < 0)
			c->missed_unknown_pages++;
	}
	for (rec = off ? kbuffer_read_at_offset(kbuf, off, &ts) : kbuffer_read_event(kbuf, &ts);
	     rec; rec = kbuffer_next_event(kbuf, &ts))
		c->events++;
	return (int)(sizeof(uint64_t) + sizeof(long)) + kbuffer_subbuffer_size(kbuf);
}

/* --mmap: maps the meta page and the sub-buffers behind it in one go. */
static int map_cpu(struct cpu_reader *r)
{
	long psize = sysconf(_SC_PAGESIZE);
	struct kt_trace_buffer_meta *meta;

	meta = mmap(NULL, (size_t)psize, PROT_READ, MAP_SHARED, r->fd, 0);
	if (meta == MAP_FAILED)
		return -1;
	r->map_len = meta->meta_page_size + (size_t)meta->subbuf_size * meta->nr_subbufs;
	munmap(meta, (size_t)psize);
	r->meta = mmap(NULL, r->map_len, PROT_READ, MAP_SHARED, r->fd, 0);
	if (r->meta == MAP_FAILED) {
		r->meta = NULL;
		return -1;
	}
	/* on from where the kernel's reader stands: past the sub-buffer's header (a u64 time
	 * stamp and a long commit) and the bytes it counts as read */
	r->id = r->meta->reader.id;
	r->off = (int)(sizeof(uint64_t) + sizeof(long)) + (int)r->meta->reader.read;
	return 0;
}

/* --mmap: every sub-buffer the kernel holds for one CPU, one ioctl each; the writer's own
 * goes on from where the last look ended. Returns -1 on an ioctl error. */
static int drain_mapped(struct cpu_reader *r, struct kbuffer *kbuf, struct counts *c)
{
	struct kt_trace_buffer_meta *m = r->meta;
	char *page;
	int end;

	for (;;) {
		if (ioctl(r->fd, KT_TRACE_MMAP_IOCTL_GET_READER) < 0) {
			fprintf(stderr, "bare_reader: cpu%d: ioctl: %s\n", r->cpu, strerror(errno));
			return -1;
		}
		page = (char *)m + m->meta_page_size + (size_t)m->subbuf_size * m->reader.id;
		if (m->reader.id != r->id) {
			r->id = m->reader.id;
			r->off = count_page(kbuf, page, (int)m->subbuf_size, 0, c);
			continue;
		}
		end = count_page(kbuf, page, (int)m->subbuf_size, r->off, c);
		if (end == r->off)
			return 0; /* nothing new: the writer is here */
		r->off = end;
	}
}

/* Reads whole sub-buffers of one CPU until none is left. Returns -1 on a read error. */
static int drain_full_pages(struct cpu_reader *r, struct kbuffer *kbuf, void *page,
			    struct counts *c)
{
	int n;

	for (;;) {
		n = tracefs_cpu_buffered_read(r->tcpu, page, true);
		if (n > 0) {
			count_page(kbuf, page, n, 0, c);
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		fprintf(stderr, "bare_reader: cpu%d: read: %s\n", r->cpu, strerror(errno));
		return -1;
	}
}

/* After tracefs_cpu_stop(): reads what is left, partial sub-buffers included. */
static void flush_cpu(struct cpu_reader *r, struct kbuffer *kbuf, void *page, struct counts *c)
{
	int n;

	drain_full_pages(r, kbuf, page, c); /* empties libtracefs's splice pipe first */
	while ((n = tracefs_cpu_flush(r->tcpu, page)) > 0)
		count_page(kbuf, page, n, 0, c);
}

/* --make: the instance, its size and its one event. NULL with the reason printed. */
static struct tracefs_instance *make_instance(const char *name, const char *kb,
					      const char *event)
{
	struct tracefs_instance *inst;
	char sys[64], *ev;

	if (snprintf(sys, sizeof(sys), "%s", event) >= (int)sizeof(sys) ||
	    !(ev = strchr(sys, ':'))) {
		fprintf(stderr, "bare_reader: '%s' is not SYSTEM:EVENT\n", event);
		return NULL;
	}
	*ev++ = '\0';
	inst = tracefs_instance_create(name);
	if (!inst) {
		fprintf(stderr, "bare_reader: cannot make instance %s: %s\n", name, strerror(errno));
		return NULL;
	}
	if ((strcmp(kb, "-") && tracefs_instance_file_write(inst, "buffer_size_kb", kb) < 0) ||
	    tracefs_event_enable(inst, sys, ev) < 0) {
		fprintf(stderr, "bare_reader: cannot size %s or enable %s: %s\n", name, event,
			strerror(errno));
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
		return NULL;
	}
	return inst;
}

/* The sum of "KEY: N" over every CPU's stats file. */
static unsigned long long stat_sum(struct tracefs_instance *inst, int ncpus, const char *key)
{
	unsigned long long sum = 0;
	char file[64], *text, *at;
	size_t klen = strlen(key);
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(inst, file, NULL);
		for (at = text; at && *at; at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
			if (!strncmp(at, key, klen) && at[klen] == ':')
				sum += strtoull(at + klen + 1, NULL, 10);
		free(text);
	}
	return sum;
}

static int open_cpu(struct tracefs_instance *inst, int cpu, int subbuf_size,
		    struct cpu_reader *r)
{
	char file[64];

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	r->cpu = cpu;
	r->fd = tracefs_instance_file_open(inst, file, O_RDONLY | O_NONBLOCK);
	if (r->fd < 0)
		return -1;
	r->tcpu = tracefs_cpu_alloc_fd(r->fd, subbuf_size, true);
	if (!r->tcpu) {
		close(r->fd);
		return -1;
	}
	return 0;
}

/* The sub-buffer size, as tracefs_cpu_open() works it out (from events/header_page). */
static int subbuf_size_of(struct tracefs_instance *inst)
{
	struct tracefs_cpu *probe;
	int cpu, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF), size = -1;

	for (cpu = 0; cpu < ncpus && size <= 0; cpu++) {
		probe = tracefs_cpu_open(inst, cpu, true);
		if (!probe)
			continue;
		size = tracefs_cpu_read_size(probe);
		tracefs_cpu_close(probe);
	}
	return size;
}

int main(int argc, char **argv)
{
	struct tracefs_instance *inst;
	struct cpu_reader *readers;
	struct pollfd *pfds;
	struct kbuffer *kbuf;
	struct counts c = { 0 };
	struct sigaction sa;
	char pidbuf[32], *end;
	double seconds, deadline;
	int ncpus, nreaders = 0, subbuf, cpu, i, ret = 1;
	const char *make_kb = NULL, *make_event = NULL;
	bool mapped = false;
	void *page;

	if (argc > 1 && !strcmp(argv[1], "--mmap")) {
		mapped = true;
		argv++;
		argc--;
	}
	if (argc == 6 && !strcmp(argv[1], "--make")) {
		make_kb = argv[2];
		make_event = argv[3];
		argv += 3;
		argc -= 3;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: bare_reader [--mmap] [--make KB SYSTEM:EVENT] INSTANCE SECONDS\n");
		return 2;
	}
	errno = 0;
	seconds = strtod(argv[2], &end);
	if (errno || end == argv[2] || *end || !(seconds > 0)) {
		fprintf(stderr, "bare_reader: SECONDS must be a positive number\n");
		return 2;
	}
	if (make_kb) {
		inst = make_instance(argv[1], make_kb, make_event);
		if (!inst)
			return 1;
	} else if (!tracefs_instance_exists(argv[1])) {
		fprintf(stderr, "bare_reader: no tracefs instance '%s'\n", argv[1]);
		return 1;
	} else if (!(inst = tracefs_instance_alloc(NULL, argv[1]))) {
		fprintf(stderr, "bare_reader: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* Do not trace our own reads (the instance is ours alone; appending keeps others). */
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)getpid());
	if (tracefs_instance_file_append(inst, "set_event_notrace_pid", pidbuf) < 0)
		fprintf(stderr, "bare_reader: set_event_notrace_pid: %s (reading anyway)\n",
			strerror(errno));

	subbuf = subbuf_size_of(inst);
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	readers = calloc((size_t)ncpus, sizeof(*readers));
	pfds = calloc((size_t)ncpus, sizeof(*pfds));
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	page = subbuf > 0 ? malloc((size_t)subbuf) : NULL;
	if (!readers || !pfds || !kbuf || !page) {
		fprintf(stderr, "bare_reader: cannot set up (sub-buffer size %d)\n", subbuf);
		goto out;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (open_cpu(inst, cpu, subbuf, &readers[nreaders]) < 0)
			continue; /* an offline CPU has no buffer to read */
		if (mapped && map_cpu(&readers[nreaders]) < 0) {
			fprintf(stderr, "bare_reader: cannot map cpu%d's buffer: %s\n", cpu,
				strerror(errno));
			tracefs_cpu_close(readers[nreaders].tcpu);
			goto out;
		}
		pfds[nreaders].fd = readers[nreaders].fd;
		pfds[nreaders].events = POLLIN;
		nreaders++;
	}
	if (!nreaders) {
		fprintf(stderr, "bare_reader: no readable CPU in '%s'\n", argv[1]);
		goto out;
	}

	ret = 0;
	deadline = now_s() + seconds;
	while (!stop_requested) {
		double left = deadline - now_s();
		int timeout;

		if (left <= 0)
			break;
		timeout = left * 1000 < POLL_TIMEOUT_MS ? (int)(left * 1000) + 1 : POLL_TIMEOUT_MS;
		if (poll(pfds, (nfds_t)nreaders, timeout) < 0 && errno != EINTR) {
			perror("bare_reader: poll");
			ret = 1;
			break;
		}
		/* Whatever woke us, empty every CPU: one wake-up, as many pages as there are. */
		for (i = 0; i < nreaders; i++)
			if ((mapped ? drain_mapped(&readers[i], kbuf, &c) :
				      drain_full_pages(&readers[i], kbuf, page, &c)) < 0)
				ret = 1;
		if (ret)
			break;
	}

	for (i = 0; i < nreaders; i++) {
		if (mapped) {
			drain_mapped(&readers[i], kbuf, &c);
			continue;
		}
		tracefs_cpu_stop(readers[i].tcpu);
		flush_cpu(&readers[i], kbuf, page, &c);
	}

	printf("events=%llu missed=%llu pages=%llu", c.events, c.missed, c.pages);
	if (c.missed_unknown_pages)
		printf(" missed_unknown_pages=%llu", c.missed_unknown_pages);
	if (make_kb) { /* what is left unread is the backlog, not what comes after */
		tracefs_instance_file_write(inst, "tracing_on", "0");
		printf(" lost=%llu unread=%llu",
		       stat_sum(inst, ncpus, "overrun") + stat_sum(inst, ncpus, "dropped events"),
		       stat_sum(inst, ncpus, "entries"));
	}
	printf("\n");
	fflush(stdout);

out:
	for (i = 0; i < nreaders; i++) {
		if (readers[i].meta)
			munmap(readers[i].meta, readers[i].map_len);
		tracefs_cpu_close(readers[i].tcpu);
	}
	if (kbuf)
		kbuffer_free(kbuf);
	free(page);
	free(pfds);
	free(readers);
	if (make_kb && tracefs_instance_destroy(inst) < 0) {
		fprintf(stderr, "bare_reader: cannot remove %s: %s\n", argv[1], strerror(errno));
		ret = 1;
	}
	tracefs_instance_free(inst);
	return ret;
}
