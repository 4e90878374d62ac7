// SPDX-License-Identifier: GPL-2.0-or-later
/* The agent's pages decoded and merged by time for the viewer (pages.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "fmtcheck.h"
#include "pages.h"
#include "recq.h"
#include "util/xalloc.h"

/* Records waiting for a watermark past this go out unordered (a storm the agent's reader
 * never catches up with sends none). */
#define RPAGES_QUEUE_MAX (64u << 20)

struct rp_queue {
	struct kt_recq q;
	struct kt_reader_stats st;
};

struct kt_rpages {
	struct tep_handle *tep;
	kt_rpages_emit emit;
	void *ctx;
	struct kt_hello hello;
	struct kbuffer *kbuf;
	uint8_t *page;
	size_t page_size;
	struct rp_queue *queues; /* per CPU, hello.ncpus of them */
	size_t queued; /* bytes in them */
	struct kt_cpu_stats *cpu_stats; /* the last loss frame's */
	uint32_t ncpu_stats;
	uint64_t lost;
	struct kt_rbacklog backlog;
	struct kt_fmtcheck *check; /* formats tried in a child first, made at the first */
};

struct kt_rpages *rpages_new(struct tep_handle *tep, kt_rpages_emit emit, void *ctx)
{
	struct kt_rpages *p = xcalloc(1, sizeof(*p));

	p->tep = tep;
	p->emit = emit;
	p->ctx = ctx;
	return p;
}

void rpages_free(struct kt_rpages *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; p->queues && i < p->hello.ncpus; i++)
		recq_free(&p->queues[i].q);
	free(p->queues);
	free(p->cpu_stats);
	if (p->kbuf)
		kbuffer_free(p->kbuf);
	free(p->page);
	fmtcheck_free(p->check);
	free(p);
}

void rpages_hello(struct kt_rpages *p, const struct kt_hello *h)
{
	if (p->queues) /* one hello per agent */
		return;
	p->hello = *h;
	tep_set_long_size(p->tep, h->long_size);
	tep_set_page_size(p->tep, (int)h->page_size);
	tep_set_file_bigendian(p->tep, h->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	p->page_size = h->page_size;
	p->page = xrealloc(p->page, h->page_size ? h->page_size : 1);
	p->kbuf = kbuffer_alloc(h->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				h->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	p->queues = xcalloc(h->ncpus ? h->ncpus : 1, sizeof(*p->queues));
}

/* libtraceevent's parsers write into their input: a NUL-terminated copy. */
static char *rp_text(const uint8_t *t, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, t, n);
	s[n] = '\0';
	return s;
}

void rpages_header_page(struct kt_rpages *p, const uint8_t *text, size_t n)
{
	char *s = rp_text(text, n);

	tep_parse_header_page(p->tep, s, n, p->hello.long_size);
	free(s);
}

int rpages_format(struct kt_rpages *p, const char *system, const uint8_t *text, size_t n)
{
	char *s = rp_text(text, n);
	int ret = -1;

	if (!p->check)
		p->check = fmtcheck_new();
	if (fmtcheck_ok(p->check, system, s, n))
		ret = tep_parse_event(p->tep, s, n, system) ? -1 : 0;
	free(s);
	return ret;
}

void rpages_flush(struct kt_rpages *p, uint64_t until)
{
	uint64_t ts, best;
	struct kt_rec r;
	uint32_t cpu, at;
	bool found;

	for (;;) {
		found = false;
		best = at = 0;
		for (cpu = 0; p->queues && cpu < p->hello.ncpus; cpu++) {
			if (recq_key(&p->queues[cpu].q, &ts) && ts < until && (!found || ts < best)) {
				found = true;
				best = ts;
				at = cpu;
			}
		}
		if (!found)
			return;
		recq_peek(&p->queues[at].q, &r, &ts);
		p->emit(p->ctx, &r);
		p->queued -= recq_pop(&p->queues[at].q);
	}
}

void rpages_page(struct kt_rpages *p, uint32_t cpu, const uint8_t *page, size_t len)
{
	struct kt_rec r = { 0 };
	unsigned long long ts;
	struct rp_queue *q;
	int missed;
	void *data;

	if (!p->queues || cpu >= p->hello.ncpus || len > p->page_size)
		return;
	q = &p->queues[cpu];
	memset(p->page, 0, p->page_size);
	memcpy(p->page, page, len);
	if (kbuffer_load_subbuffer(p->kbuf, p->page) < 0)
		return;
	q->st.pages++;
	missed = kbuffer_missed_events(p->kbuf);
	for (data = kbuffer_read_event(p->kbuf, &ts); data;
	     data = kbuffer_next_event(p->kbuf, &ts)) {
		if (missed) {
			struct kt_rec m = { .ts = ts, .cpu = cpu, .flags = KT_REC_LOST,
					    .lost = missed > 0 ? missed : -1 };

			if (missed > 0)
				q->st.missed += (uint64_t)missed;
			else
				q->st.missed_unknown++;
			p->queued += recq_put(&q->q, &m, ts);
			missed = 0;
		}
		r.ts = ts;
		r.cpu = cpu;
		r.size = (uint32_t)kbuffer_event_size(p->kbuf);
		r.data = data;
		/* kbuffer trusts each event's length: one that ends past the page's bytes (the
		 * commit word was checked, client.c) ends it */
		if ((size_t)((uint8_t *)data - p->page) + r.size > len)
			break;
		q->st.events++;
		p->queued += recq_put(&q->q, &r, ts);
	}
	if (p->queued > RPAGES_QUEUE_MAX)
		rpages_flush(p, UINT64_MAX);
}

void rpages_loss(struct kt_rpages *p, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		 const struct kt_backlog *bl)
{
	struct kt_rbacklog *b = &p->backlog;
	uint64_t lost = 0, unread = 0;

	p->cpu_stats = xreallocarray(p->cpu_stats, ncpus ? ncpus : 1, sizeof(*p->cpu_stats));
	p->ncpu_stats = ncpus;
	for (uint32_t i = 0; i < ncpus; i++) {
		lost += cpus[i].overrun + cpus[i].commit_overrun + cpus[i].dropped;
		unread += cpus[i].unread;
		p->cpu_stats[i] = (struct kt_cpu_stats){ .entries = cpus[i].entries,
							 .overrun = cpus[i].overrun,
							 .commit_overrun = cpus[i].commit_overrun,
							 .dropped_events = cpus[i].dropped,
							 .read_events = cpus[i].read,
							 .bytes = cpus[i].unread };
	}
	p->lost = lost;
	b->bytes = bl->queued + unread;
	b->age_ns = bl->age_ns;
	if (b->bytes > b->max_bytes)
		b->max_bytes = b->bytes;
	if (b->age_ns > b->max_age_ns)
		b->max_age_ns = b->age_ns;
}

void rpages_backlog(const struct kt_rpages *p, struct kt_rbacklog *out)
{
	*out = p->backlog;
}

void rpages_stats(const struct kt_rpages *p, struct kt_reader_stats *all,
		  struct kt_reader_stats *cpu, uint32_t ncpus, uint64_t *kernel_lost)
{
	*all = (struct kt_reader_stats){ 0 };
	for (uint32_t i = 0; p->queues && i < p->hello.ncpus; i++) {
		const struct kt_reader_stats *s = &p->queues[i].st;

		all->pages += s->pages;
		all->events += s->events;
		all->missed += s->missed;
		all->missed_unknown += s->missed_unknown;
		if (cpu && i < ncpus)
			cpu[i] = *s;
	}
	*kernel_lost = p->lost;
}

const struct kt_cpu_stats *rpages_cpu_stats(const struct kt_rpages *p, uint32_t *n)
{
	*n = p->ncpu_stats;
	return p->cpu_stats;
}

uint32_t rpages_ncpus(const struct kt_rpages *p)
{
	return p->hello.ncpus;
}
