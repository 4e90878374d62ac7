/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The viewer's side of the pages (docs/remote.md "Order"): the agent's hello, header_page
 * and formats build a libtraceevent handle; each ring-buffer page is decoded with kbuffer
 * into records (a loss marker first where the page says events were missed), queued per
 * CPU and handed on merged in time order up to each watermark of the agent's (every event
 * older has come). Batch mode prints what it is handed, the explorer's remote source
 * stores it. The agent's loss frames are kept as the kernel's per-CPU counters, and the
 * backlog they report (how far behind the agent is) as the last and the largest.
 *
 * Not thread-safe: one caller at a time (the remote source holds its lock).
 */
#ifndef KTOP_REMOTE_PAGES_H
#define KTOP_REMOTE_PAGES_H

#include <stddef.h>
#include <stdint.h>

#include "backend/ingest/loss.h"
#include "backend/ingest/reader.h"
#include "backend/ingest/store.h"
#include "proto.h"

struct tep_handle;
struct kt_rpages;

/* A record (or loss marker: KT_REC_LOST) in time order; r->data is valid during the call. */
typedef void (*kt_rpages_emit)(void *ctx, const struct kt_rec *r);

/* Decodes into tep (the caller's; it must outlive this). NULL when out of memory. */
struct kt_rpages *rpages_new(struct tep_handle *tep, kt_rpages_emit emit, void *ctx);
void rpages_free(struct kt_rpages *p);
/* The agent's layout: long size, endianness, page size, CPUs. */
void rpages_hello(struct kt_rpages *p, const struct kt_hello *h);
void rpages_header_page(struct kt_rpages *p, const uint8_t *text, size_t n);
/* Parses one event's format. Returns 0, or -1 when libtraceevent refused it. */
int rpages_format(struct kt_rpages *p, const char *system, const uint8_t *text, size_t n);
/* One page of cpu as the kernel wrote it: its records queued (past 64 MiB queued, all of
 * them are handed on unordered, as a storm the agent never catches up with sends no
 * watermark). */
void rpages_page(struct kt_rpages *p, uint32_t cpu, const uint8_t *page, size_t len);
/* Hands on the queued records older than until (UINT64_MAX: all), merged across CPUs. */
void rpages_flush(struct kt_rpages *p, uint64_t until);
/* The agent's loss frame: the kernel's counters and the agent's backlog, kept. */
void rpages_loss(struct kt_rpages *p, const struct kt_loss_cpu *cpus, uint32_t ncpus,
		 const struct kt_backlog *bl);

/* How far behind the agent was, by its loss frames: bytes is its queue plus what the
 * kernel held unread, age the wait of the oldest event not sent yet. */
struct kt_rbacklog {
	uint64_t bytes, age_ns;		/* the last frame's (0 and 0: caught up) */
	uint64_t max_bytes, max_age_ns; /* the largest of each, over all frames */
};
void rpages_backlog(const struct kt_rpages *p, struct kt_rbacklog *out);

/* What came: records and the pages' own loss marks (all CPUs, and per CPU into cpu when it
 * has room for ncpus), the kernel's loss total from the last loss frame. */
void rpages_stats(const struct kt_rpages *p, struct kt_reader_stats *all,
		  struct kt_reader_stats *cpu, uint32_t ncpus, uint64_t *kernel_lost);
/* The last loss frame's counters, *n CPUs of them (0 before any came). */
const struct kt_cpu_stats *rpages_cpu_stats(const struct kt_rpages *p, uint32_t *n);
/* The agent's CPUs (its hello). */
uint32_t rpages_ncpus(const struct kt_rpages *p);

#endif
