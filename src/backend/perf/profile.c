// SPDX-License-Identifier: GPL-2.0-or-later
/* The on-CPU profile. One ring per CPU: system-wide, the CPU's sampling event owns it; with
 * -p, every thread's event on that CPU writes into it (PERF_EVENT_IOC_SET_OUTPUT), as perf
 * record -p does. profile_poll merges the rings by time, so an exec's mappings on one CPU
 * are known before the samples of the new image on another.
 *
 * A sample costs one hash of its raw callchain: samples are counted per unique (pid, task
 * name, callchain) as perf and bpftrace aggregate them, and each unique one is named and
 * added to the tree once, with its count as weight, at the end of the poll, or earlier,
 * before a side-band record changes what an address means (mmap, exec, fork). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/fileio.h"
#include "comms.h"
#include "perfring.h"
#include "pmu.h"
#include "profile.h"
#include "backend/stacks/stacks.h"
#include "backend/symbols/symbolize.h"
#include "taskwatch.h"

/* 512 KiB per CPU, perf record's default: at 999 Hz and 40 frames a sample, some 1.5 s of
 * samples between two polls. */
#define RING_PAGES 128
#define MAX_FRAMES 512 /* perf_event_max_stack is 127 per context by default */
#define NAME_LEN 256
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_CALLCHAIN)

/* A unique raw callchain of this poll, in pend's arena: hashed, counted, named later. */
struct pend {
	uint64_t hash, count;
	int pid;
	uint32_t nr;
	char comm[KT_COMM_LEN];
	uint64_t chain[]; /* nr entries, as the kernel wrote them (context markers included) */
};

/* The chains of this poll: pend records one after another in arena, and an open-addressing
 * table of their offsets + 1 (0: empty). Both are kept between polls, so their size is
 * bounded by what the rings hold. */
struct pending {
	char *arena;
	size_t len, cap;
	size_t *slot;
	size_t nslot, used;
};

struct cpu_ring {
	struct kt_perfring ring;
	int *fds;	/* with -p: the other threads' events, writing into ring */
	size_t nfds;
	const struct perf_event_header *next; /* peeked, not yet taken */
	uint64_t next_time;
};

struct kt_profile {
	struct kt_symbolizer *sym;
	struct kt_comms *comms;
	struct cpu_ring *rings;
	int nrings;
	bool cycles;
	bool faults;	/* page-faults, every one (kt_profile_opts.faults) */
	bool user_only;	/* -p without the privilege to sample the kernel: user space, ":u" */
	unsigned freq;
	char *comm;			/* --comm */
	size_t max_bytes;
	struct kt_profile_scope scope;
	char scope_comm[KT_COMM_LEN];
	struct kt_profile_stats st;
	struct pending pend;
	struct kt_frame frames[MAX_FRAMES];
	char (*names)[NAME_LEN];	/* one per frame */
};

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void fill_attr(struct perf_event_attr *a, bool cycles, unsigned freq, bool inherit,
		      bool user_only)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = cycles ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = cycles ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = freq;
	a->sample_type = SAMPLE_TYPE;
	a->inherit = inherit;
	a->exclude_kernel = user_only;
	a->exclude_callchain_kernel = user_only;
	/* the side band: executable mappings, names (and execs), forks and exits */
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC; /* the instance's trace clock, for recordings */
}

/* Every page fault a sample: a fault profile counts faults, not an estimate of them. */
static void faults_attr(struct perf_event_attr *a)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_PAGE_FAULTS;
	a->freq = 0;
	a->sample_period = 1;
}

/* The one line for a refused open. */
static void open_error(const struct kt_profile *p, int e, bool per_task, int cpu, char *err,
		       size_t errlen)
{
	struct kt_pmu_attr a;
	char why[320];

	pmu_attr_init(&a);
	a.type = p->cycles ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	pmu_reason(e, &a, NULL, per_task, why, sizeof(why));
	snprintf(err, errlen, "cannot sample %s on CPU %d: %s", profile_event_name(p), cpu, why);
	errno = e;
}

/* Whether the machine samples cycles: a PMU takes a cycles event on this very process
 * (user space only: the answer is the PMU's, whatever the privileges). */
static bool has_cycles(unsigned freq)
{
	struct perf_event_attr a;
	int fd;

	fill_attr(&a, true, freq, false, true);
	a.disabled = 1;
	fd = sys_perf_event_open(&a, 0, -1);
	if (fd < 0)
		return false; /* no PMU (ENOENT in a VM without one), or busy: perf uses cpu-clock */
	close(fd);
	return true;
}

static int check_freq(unsigned freq, char *err, size_t errlen)
{
	char buf[32];
	long max;

	if (file_read_trimmed("/proc/sys/kernel/perf_event_max_sample_rate", buf,
			      sizeof(buf)) > 0) {
		max = atol(buf);
		if (max > 0 && freq > (unsigned long)max) {
			snprintf(err, errlen, "-F %u is above kernel.perf_event_max_sample_rate "
				 "(%ld): give -F %ld or less, or raise it (sysctl "
				 "kernel.perf_event_max_sample_rate=%u)", freq, max, max, freq);
			return -1;
		}
	}
	return 0;
}

/* The threads of pids, -1 terminated, malloc'd; NULL with err when a pid is not there. */
static pid_t *threads_of(const pid_t *pids, size_t npids, size_t *n, char *err, size_t errlen)
{
	pid_t *tids = NULL, *nt;
	size_t cap = 0, i;

	*n = 0;
	for (i = 0; i < npids; i++) {
		char path[64];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		d = opendir(path);
		if (!d) {
			snprintf(err, errlen, "-p %d: no such process", (int)pids[i]);
			free(tids);
			return NULL;
		}
		while ((de = readdir(d))) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			if (*n == cap) {
				cap = cap ? cap * 2 : 64;
				nt = realloc(tids, cap * sizeof(*tids));
				if (!nt) {
					closedir(d);
					free(tids);
					snprintf(err, errlen, "out of memory");
					return NULL;
				}
				tids = nt;
			}
			tids[(*n)++] = (pid_t)atoi(de->d_name);
		}
		closedir(d);
	}
	if (!*n)
		snprintf(err, errlen, "-p: the processes have no threads left (they exited)");
	return tids;
}

/* Maps r's ring on fd, which r then owns. */
static int map_ring(struct kt_profile *p, struct cpu_ring *r, int fd, int cpu, char *err,
		    size_t errlen)
{
	if (perfring_map(&r->ring, fd, RING_PAGES) == 0)
		return 0;
	snprintf(err, errlen, "cannot map CPU %d's sample ring: %s (perf_event_mlock_kb too low "
		 "for %d CPUs?)", cpu, strerror(errno), p->nrings + 1);
	return -1;
}

/* Opens CPU cpu's events: one system-wide, or one per thread (inherited by what they
 * start) all writing into the first one's ring, mapped before the others are redirected
 * to it (the kernel redirects into a mapped ring only, as perf record does it). */
static int open_cpu(struct kt_profile *p, struct cpu_ring *r, int cpu, const pid_t *tids,
		    size_t ntids, char *err, size_t errlen)
{
	struct perf_event_attr a;
	size_t i;
	int fd;

	fill_attr(&a, p->cycles, p->freq, ntids > 0, p->user_only);
	if (p->faults)
		faults_attr(&a);
	r->ring.fd = -1;
	if (!ntids) {
		fd = sys_perf_event_open(&a, -1, cpu);
		if (fd < 0) {
			open_error(p, errno, false, cpu, err, errlen);
			return -1;
		}
		return map_ring(p, r, fd, cpu, err, errlen);
	}
	r->fds = calloc(ntids, sizeof(*r->fds));
	if (!r->fds) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < ntids; i++) {
		fd = sys_perf_event_open(&a, tids[i], cpu);
		if (fd < 0) {
			if (errno == ESRCH)
				continue; /* a thread that ended since /proc was read */
			open_error(p, errno, true, cpu, err, errlen);
			return -1;
		}
		if (r->ring.fd < 0) {
			if (map_ring(p, r, fd, cpu, err, errlen) < 0)
				return -1;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->ring.fd) < 0) {
			snprintf(err, errlen, "cannot join thread %d's samples to CPU %d's ring: %s",
				 (int)tids[i], cpu, strerror(errno));
			close(fd);
			return -1;
		} else {
			r->fds[r->nfds++] = fd;
		}
	}
	if (r->ring.fd < 0) {
		snprintf(err, errlen, "-p: every thread exited before sampling began");
		return -1;
	}
	return 0;
}

struct kt_profile *profile_open(const struct kt_profile_opts *o, char *err, size_t errlen)
{
	struct kt_profile *p;
	int *cpus = NULL, ncpus, i;
	pid_t *tids = NULL;
	size_t ntids = 0, k;

	if (check_freq(o->freq ? o->freq : KT_PROFILE_DEFAULT_FREQ, err, errlen) < 0)
		return NULL;
	if (o->npids && !(tids = threads_of(o->pids, o->npids, &ntids, err, errlen)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->names = calloc(MAX_FRAMES, sizeof(*p->names))) ||
	    !(p->comms = comms_new()) || (o->comm && !(p->comm = strdup(o->comm)))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	p->freq = o->freq ? o->freq : KT_PROFILE_DEFAULT_FREQ;
	p->max_bytes = o->max_bytes;
	p->scope.cpu = -1;
	p->sym = symbolizer_new(err, errlen);
	if (!p->sym)
		goto fail;
	if (o->cpus && o->ncpus > 0) {
		ncpus = o->ncpus;
		cpus = malloc((size_t)ncpus * sizeof(*cpus));
		if (cpus)
			memcpy(cpus, o->cpus, (size_t)ncpus * sizeof(*cpus));
	} else {
		ncpus = pmu_online_cpus(&cpus);
	}
	if (ncpus < 1 || !cpus || !(p->rings = calloc((size_t)ncpus, sizeof(*p->rings)))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	p->faults = o->faults;
	p->cycles = !p->faults && has_cycles(p->freq);
	for (i = 0; i < ncpus; i++) {
		if (open_cpu(p, &p->rings[i], cpus[i], tids, ntids, err, errlen) == 0) {
			p->nrings = i + 1;
			continue;
		}
		/* a user's own processes, at kernel.perf_event_paranoid=2: their user space,
		 * as perf record -p samples it then */
		if (!i && ntids && !p->user_only && (errno == EACCES || errno == EPERM)) {
			p->user_only = true;
			for (k = 0; k < p->rings[0].nfds; k++)
				close(p->rings[0].fds[k]);
			free(p->rings[0].fds);
			perfring_close(&p->rings[0].ring);
			memset(&p->rings[0], 0, sizeof(p->rings[0]));
			i--;
			continue;
		}
		p->nrings = i + 1; /* the failed one's fds are closed with the rest */
		goto fail;
	}
	/* after the events opened: a mapping made in between comes in the side band */
	if (o->npids)
		for (k = 0; k < o->npids; k++)
			symbolizer_preload(p->sym, o->pids[k]);
	else /* every process running now: its mappings read before it can exit unnamed */
		symbolizer_preload_all(p->sym);
	free(cpus);
	free(tids);
	return p;
fail:
	free(cpus);
	free(tids);
	profile_close(p);
	return NULL;
}

/* The record's time: in a sample after ip and pid/tid; in any other record, from its
 * sample_id trailer {pid, tid; time; cpu, res}. */
static uint64_t record_time(const struct perf_event_header *h)
{
	const char *at;
	uint64_t t;

	if (h->type == PERF_RECORD_SAMPLE)
		at = (const char *)(h + 1) + 16;
	else if (h->size >= sizeof(*h) + 24)
		at = (const char *)h + h->size - 16;
	else
		return 0;
	memcpy(&t, at, sizeof(t));
	return t;
}

/* The task name a sample is filed under: its name at the time, ":TID" when none is known. */
static void task_name(struct kt_profile *p, int tid, uint64_t ts, char out[KT_COMM_LEN])
{
	if (tid == 0)
		snprintf(out, KT_COMM_LEN, "swapper");
	else if (!taskwatch_name(p->comms, tid, ts, out))
		snprintf(out, KT_COMM_LEN, ":%d", tid);
}

static bool in_scope(struct kt_profile *p, int pid, int cpu, const char *comm)
{
	if (p->comm && strcmp(p->comm, comm))
		return false;
	if (p->scope.cpu >= 0 && p->scope.cpu != cpu)
		return false;
	if (p->scope.pid && p->scope.pid != pid)
		return false;
	return !p->scope_comm[0] || !strcmp(p->scope_comm, comm);
}

/* Names pd's chain and adds it to into with its count as weight. Returns the samples added. */
static size_t add_chain(struct kt_profile *p, const struct pend *pd, struct kt_stacks *into)
{
	uint64_t ctx = 0, chain[MAX_FRAMES];
	size_t i, n = 0, nk = 0, nu = 0, kidx[MAX_FRAMES], uidx[MAX_FRAMES], bad = 0;
	bool exact = true;

	/* leaf first, each context after its marker; return addresses named by the call
	 * before them (addr - 1), so a call that ends a function is not its neighbour's */
	for (i = 0; i < pd->nr; i++) {
		uint64_t v = pd->chain[i];

		chain[i] = v;
		if (v >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = v;
			continue;
		}
		/* the end of a frame-pointer walk, no frame: as "addr - 1" it was the bogus
		 * 0xffffffffffffffff at the root of user stacks */
		if (!v)
			continue;
		if (!exact)
			chain[i] = v - 1;
		exact = false;
		if (ctx == (uint64_t)PERF_CONTEXT_KERNEL)
			kidx[nk++] = i;
		else if (ctx == (uint64_t)PERF_CONTEXT_USER)
			uidx[nu++] = i;
	}
	snprintf(p->names[n], NAME_LEN, "%s", pd->comm);
	p->frames[n] = (struct kt_frame){ p->names[n], KT_FRAME_TASK };
	n++;
	while (nu--) {
		symbolizer_user(p->sym, pd->pid, chain[uidx[nu]], &p->frames[n], p->names[n],
				NAME_LEN);
		n++;
	}
	while (nk--) {
		symbolizer_kernel(p->sym, chain[kidx[nk]], &p->frames[n], p->names[n], NAME_LEN);
		n++;
	}
	for (i = 1; i < n; i++)
		bad += p->frames[i].kind == KT_FRAME_UNRESOLVED;
	p->st.frames_unresolved += bad * pd->count;
	p->st.frames_resolved += (n - 1 - bad) * pd->count;
	if ((p->max_bytes && stacks_bytes_adding(into, p->frames, n) > p->max_bytes &&
	     !stacks_has_path(into, p->frames, n)) || stacks_add(into, p->frames, n, pd->count) < 0) {
		p->st.dropped_memory += pd->count;
		return 0;
	}
	p->st.samples += pd->count;
	return pd->count;
}

/* Names and adds every pending chain, in the order they first came. Returns the samples
 * added. */
static size_t flush(struct kt_profile *p, struct kt_stacks *into)
{
	struct pending *q = &p->pend;
	size_t at, added = 0;

	for (at = 0; at < q->len;) {
		const struct pend *pd = (const struct pend *)(q->arena + at);

		added += add_chain(p, pd, into);
		at += sizeof(*pd) + pd->nr * 8;
	}
	q->len = 0;
	if (q->used)
		memset(q->slot, 0, q->nslot * sizeof(*q->slot));
	q->used = 0;
	return added;
}

static uint64_t hash_chain(int pid, const char *comm, const uint64_t *chain, size_t nr)
{
	uint64_t h = (uint64_t)(unsigned)pid * 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; comm[i]; i++)
		h = (h ^ (unsigned char)comm[i]) * 0x100000001b3ULL;
	for (i = 0; i < nr; i++)
		h = (h ^ chain[i]) * 0xff51afd7ed558ccdULL + (h >> 29);
	return h ^ (h >> 32);
}

static int pending_grow(struct pending *q)
{
	size_t nslot = q->nslot ? q->nslot * 2 : 4096, i, j, *slot;

	slot = calloc(nslot, sizeof(*slot));
	if (!slot)
		return -1;
	for (i = 0; i < q->nslot; i++) {
		const struct pend *pd;

		if (!q->slot[i])
			continue;
		pd = (const struct pend *)(q->arena + q->slot[i] - 1);
		for (j = pd->hash & (nslot - 1); slot[j]; j = (j + 1) & (nslot - 1))
			;
		slot[j] = q->slot[i];
	}
	free(q->slot);
	q->slot = slot;
	q->nslot = nslot;
	return 0;
}

/* Counts chain[0..nr) of pid under comm: one more of a known chain, or a new pending one.
 * -1 when out of memory. */
static int pend_add(struct pending *q, int pid, const char *comm,
		    const uint64_t *chain, size_t nr)
{
	uint64_t h = hash_chain(pid, comm, chain, nr);
	size_t j, need = sizeof(struct pend) + nr * 8;
	struct pend *pd;

	if ((q->used + 1) * 2 > q->nslot && pending_grow(q) < 0)
		return -1;
	for (j = h & (q->nslot - 1); q->slot[j]; j = (j + 1) & (q->nslot - 1)) {
		pd = (struct pend *)(q->arena + q->slot[j] - 1);
		if (pd->hash == h && pd->pid == pid && pd->nr == nr &&
		    !strcmp(pd->comm, comm) && !memcmp(pd->chain, chain, nr * 8)) {
			pd->count++;
			return 0;
		}
	}
	if (q->len + need > q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 1 << 16;
		char *arena;

		while (q->len + need > cap)
			cap *= 2;
		arena = realloc(q->arena, cap);
		if (!arena)
			return -1;
		q->arena = arena;
		q->cap = cap;
	}
	pd = (struct pend *)(q->arena + q->len);
	pd->hash = h;
	pd->count = 1;
	pd->pid = pid;
	pd->nr = (uint32_t)nr;
	memcpy(pd->comm, comm, KT_COMM_LEN);
	memcpy(pd->chain, chain, nr * 8);
	q->slot[j] = q->len + 1;
	q->len += need;
	q->used++;
	return 0;
}

static void take_sample(struct kt_profile *p, const struct perf_event_header *h)
{
	const char *b = (const char *)(h + 1);
	uint32_t ids[2], cpu;
	uint64_t ts, nr, ip, chain[MAX_FRAMES];
	char comm[KT_COMM_LEN];

	if (h->size < sizeof(*h) + 40)
		return;
	memcpy(&ip, b, 8);
	memcpy(ids, b + 8, 8);
	memcpy(&ts, b + 16, 8);
	memcpy(&cpu, b + 24, 4);
	memcpy(&nr, b + 32, 8);
	if (nr > (h->size - sizeof(*h) - 40) / 8)
		return;
	if (nr > MAX_FRAMES - 1)
		nr = MAX_FRAMES - 1; /* the outermost callers go */
	memcpy(chain, b + 40, nr * 8);
	task_name(p, (int)ids[1], ts, comm);
	if (!in_scope(p, (int)ids[0], (int)cpu, comm)) {
		p->st.out_of_scope++;
		return;
	}
	if (!nr) {
		/* no callchain (the kernel could not walk it): the sampled ip alone */
		chain[0] = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL
				   ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER;
		chain[1] = ip;
		nr = 2;
	}
	if (pend_add(&p->pend, (int)ids[0], comm, chain, nr) < 0)
		p->st.dropped_memory++;
}

static size_t take(struct kt_profile *p, const struct perf_event_header *h,
		   struct kt_stacks *into)
{
	uint64_t lost;
	size_t added = 0;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		take_sample(p, h);
		return 0;
	case PERF_RECORD_LOST:
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&lost, (const char *)(h + 1) + 8, 8);
			p->st.lost += lost;
		}
		return 0;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		taskwatch_record(p->comms, h, record_time(h));
		break;
	default:
		break; /* MMAP, EXIT (a process's mappings go once the samples drained with it
			* are named: symbolizer_reap), THROTTLE, ... */
	}
	/* the samples before an mmap, exec or a reused pid's fork are named as they were */
	if (symbolizer_remaps(h))
		added = flush(p, into);
	symbolizer_record(p->sym, h);
	return added;
}

static void ring_peek(struct cpu_ring *r)
{
	r->next = perfring_peek(&r->ring);
	if (r->next)
		r->next_time = record_time(r->next);
}

size_t profile_poll(struct kt_profile *p, struct kt_stacks *into)
{
	size_t added = 0;
	int i, best;

	for (i = 0; i < p->nrings; i++) {
		perfring_begin(&p->rings[i].ring);
		ring_peek(&p->rings[i]);
	}
	for (;;) {
		best = -1;
		for (i = 0; i < p->nrings; i++)
			if (p->rings[i].next &&
			    (best < 0 || p->rings[i].next_time < p->rings[best].next_time))
				best = i;
		if (best < 0)
			break;
		added += take(p, p->rings[best].next, into);
		perfring_skip(&p->rings[best].ring);
		ring_peek(&p->rings[best]);
	}
	for (i = 0; i < p->nrings; i++)
		perfring_end(&p->rings[i].ring);
	added += flush(p, into);
	symbolizer_reap(p->sym);
	return added;
}

void profile_set_scope(struct kt_profile *p, const struct kt_profile_scope *s)
{
	p->scope = *s;
	snprintf(p->scope_comm, sizeof(p->scope_comm), "%s", s->comm ? s->comm : "");
	p->scope.comm = NULL;
}

const char *profile_event_name(const struct kt_profile *p)
{
	if (p->faults)
		return p->user_only ? "page-faults:u" : "page-faults";
	if (p->user_only)
		return p->cycles ? "cycles:u" : "cpu-clock:u";
	return p->cycles ? "cycles" : "cpu-clock";
}

unsigned profile_freq(const struct kt_profile *p)
{
	return p->freq;
}

void profile_stats(const struct kt_profile *p, struct kt_profile_stats *out)
{
	*out = p->st;
	out->kernel_hidden = symbolizer_kernel_hidden(p->sym);
}

struct kt_symbolizer *profile_symbolizer(struct kt_profile *p)
{
	return p->sym;
}

void profile_close(struct kt_profile *p)
{
	int i;
	size_t k;

	if (!p)
		return;
	for (i = 0; i < p->nrings; i++) {
		for (k = 0; k < p->rings[i].nfds; k++)
			close(p->rings[i].fds[k]);
		free(p->rings[i].fds);
		perfring_close(&p->rings[i].ring);
	}
	free(p->rings);
	symbolizer_free(p->sym);
	comms_free(p->comms);
	free(p->comm);
	free(p->names);
	free(p->pend.arena);
	free(p->pend.slot);
	free(p);
}
