// SPDX-License-Identifier: GPL-2.0-or-later
/* The OVROWS frame's codec (ovrows.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ovrows.h"
#include "util/xalloc.h"

/* The fewest bytes a row takes: ids and flags, three empty strings, its counts, its errno
 * and two empty bucket sets. */
#define ROW_MIN (4 * 4 + 1 + 8 + 3 * 4 + 13 * 8 + 4 + 2)

enum { ROW_EXITED = 1, ROW_OTHER = 2 };

static void put_slots(struct kt_wbuf *b, const uint32_t *slots)
{
	uint8_t n = 0;

	for (unsigned i = 0; i < KT_OV_ROW_SLOTS; i++)
		n += slots[i] != 0;
	wbuf_u8(b, n);
	for (unsigned i = 0; i < KT_OV_ROW_SLOTS; i++) {
		if (!slots[i])
			continue;
		wbuf_u8(b, (uint8_t)i);
		wbuf_u32(b, slots[i]);
	}
}

static void get_slots(struct kt_rbuf *r, uint32_t *slots)
{
	unsigned n = rbuf_u8(r), slot;

	if (n > KT_OV_ROW_SLOTS)
		r->bad = true;
	for (unsigned i = 0; i < n && !r->bad; i++) {
		slot = rbuf_u8(r);
		if (slot >= KT_OV_ROW_SLOTS || slots[slot]) {
			r->bad = true;
			break;
		}
		slots[slot] = rbuf_u32(r);
	}
}

static void put_row(struct kt_wbuf *b, const struct kt_ov_row *t)
{
	const uint64_t counts[] = { t->oncpu_ns, t->runq_ns, t->sleep_ns, t->disk_ns,
				    t->vol_ctxsw, t->invol_ctxsw, t->migrations, t->minflt,
				    t->majflt, t->syscalls, t->syscall_errors, t->read_bytes,
				    t->write_bytes };
	char comm[sizeof(t->comm) + 1];

	wbuf_u32(b, (uint32_t)t->pid);
	wbuf_u32(b, (uint32_t)t->tid);
	wbuf_u32(b, t->uid);
	wbuf_u32(b, t->nthreads);
	wbuf_u8(b, (uint8_t)((t->exited ? ROW_EXITED : 0) | (t->other ? ROW_OTHER : 0)));
	wbuf_u64(b, t->born);
	memcpy(comm, t->comm, sizeof(t->comm));
	comm[sizeof(t->comm)] = '\0';
	wbuf_str(b, comm);
	wbuf_str(b, t->user);
	wbuf_str(b, t->cgroup);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		wbuf_u64(b, counts[i]);
	wbuf_u32(b, t->top_errno);
	put_slots(b, t->runq_slots);
	put_slots(b, t->sys_slots);
}

static void get_row(struct kt_rbuf *r, struct kt_ov_row *t)
{
	uint64_t *counts[] = { &t->oncpu_ns, &t->runq_ns, &t->sleep_ns, &t->disk_ns,
			       &t->vol_ctxsw, &t->invol_ctxsw, &t->migrations, &t->minflt,
			       &t->majflt, &t->syscalls, &t->syscall_errors, &t->read_bytes,
			       &t->write_bytes };
	char comm[sizeof(t->comm) + 1] = ""; /* a full name has no NUL in the row */
	uint8_t flags;

	memset(t, 0, sizeof(*t));
	t->pid = (int)rbuf_u32(r);
	t->tid = (int)rbuf_u32(r);
	t->uid = rbuf_u32(r);
	t->nthreads = rbuf_u32(r);
	flags = rbuf_u8(r);
	t->exited = flags & ROW_EXITED;
	t->other = flags & ROW_OTHER;
	t->born = rbuf_u64(r);
	rbuf_str(r, comm, sizeof(comm));
	memcpy(t->comm, comm, sizeof(t->comm));
	rbuf_str(r, t->user, sizeof(t->user));
	rbuf_str(r, t->cgroup, sizeof(t->cgroup));
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		*counts[i] = rbuf_u64(r);
	t->top_errno = rbuf_u32(r);
	get_slots(r, t->runq_slots);
	get_slots(r, t->sys_slots);
}

static void put_sys(struct kt_wbuf *b, const struct kt_sysstrip *s)
{
	const double psi[] = { s->psi_cpu_some, s->psi_mem_some, s->psi_mem_full,
			       s->psi_io_some, s->psi_io_full };
	const uint64_t net[] = { s->net_rx_packets, s->net_tx_packets, s->net_rx_bytes,
				 s->net_tx_bytes, s->net_drops };
	int ncpus = s->ncpus < 0 ? 0 : s->ncpus > KT_SYS_MAX_CPUS ? KT_SYS_MAX_CPUS : s->ncpus;

	wbuf_f64(b, s->interval_s);
	wbuf_f64(b, s->cpu_pct);
	wbuf_u32(b, (uint32_t)ncpus);
	for (int i = 0; i < ncpus; i++)
		wbuf_f64(b, s->cpu_busy[i]);
	wbuf_u32(b, s->procs_running);
	wbuf_u32(b, s->procs_blocked);
	wbuf_u64(b, s->mem_total_kb);
	wbuf_u64(b, s->mem_available_kb);
	for (size_t i = 0; i < sizeof(psi) / sizeof(psi[0]); i++)
		wbuf_f64(b, psi[i]);
	wbuf_u32(b, (uint32_t)s->ndisks);
	for (int i = 0; i < s->ndisks && i < KT_SYS_MAX_DISKS; i++) {
		wbuf_str(b, s->disks[i].name);
		wbuf_u64(b, s->disks[i].reads);
		wbuf_u64(b, s->disks[i].writes);
		wbuf_u64(b, s->disks[i].read_bytes);
		wbuf_u64(b, s->disks[i].write_bytes);
		wbuf_f64(b, s->disks[i].avg_ms);
		wbuf_u32(b, s->disks[i].dev);
		wbuf_u32(b, s->disks[i].lat_counted);
		wbuf_u64(b, s->disks[i].lat_count);
		wbuf_f64(b, s->disks[i].lat_mean_ms);
		wbuf_f64(b, s->disks[i].p99_ms);
		wbuf_f64(b, s->disks[i].lat_max_ms);
	}
	for (size_t i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		wbuf_u64(b, net[i]);
	wbuf_f64(b, s->self.cpu_pct);
	wbuf_u64(b, s->self.rss_kb);
}

static void get_sys(struct kt_rbuf *r, struct kt_sysstrip *s)
{
	double *psi[] = { &s->psi_cpu_some, &s->psi_mem_some, &s->psi_mem_full,
			  &s->psi_io_some, &s->psi_io_full };
	uint64_t *net[] = { &s->net_rx_packets, &s->net_tx_packets, &s->net_rx_bytes,
			    &s->net_tx_bytes, &s->net_drops };
	uint32_t n;

	s->interval_s = rbuf_f64(r);
	s->cpu_pct = rbuf_f64(r);
	n = rbuf_u32(r);
	if (n > KT_SYS_MAX_CPUS)
		r->bad = true;
	s->ncpus = r->bad ? 0 : (int)n;
	for (int i = 0; i < s->ncpus; i++)
		s->cpu_busy[i] = rbuf_f64(r);
	s->procs_running = rbuf_u32(r);
	s->procs_blocked = rbuf_u32(r);
	s->mem_total_kb = rbuf_u64(r);
	s->mem_available_kb = rbuf_u64(r);
	for (size_t i = 0; i < sizeof(psi) / sizeof(psi[0]); i++)
		*psi[i] = rbuf_f64(r);
	n = rbuf_u32(r);
	if (n > KT_SYS_MAX_DISKS)
		r->bad = true;
	s->ndisks = r->bad ? 0 : (int)n;
	for (int i = 0; i < s->ndisks; i++) {
		rbuf_str(r, s->disks[i].name, sizeof(s->disks[i].name));
		s->disks[i].reads = rbuf_u64(r);
		s->disks[i].writes = rbuf_u64(r);
		s->disks[i].read_bytes = rbuf_u64(r);
		s->disks[i].write_bytes = rbuf_u64(r);
		s->disks[i].avg_ms = rbuf_f64(r);
		s->disks[i].dev = rbuf_u32(r);
		s->disks[i].lat_counted = rbuf_u32(r) != 0;
		s->disks[i].lat_count = rbuf_u64(r);
		s->disks[i].lat_mean_ms = rbuf_f64(r);
		s->disks[i].p99_ms = rbuf_f64(r);
		s->disks[i].lat_max_ms = rbuf_f64(r);
	}
	for (size_t i = 0; i < sizeof(net) / sizeof(net[0]); i++)
		*net[i] = rbuf_u64(r);
	s->self.cpu_pct = rbuf_f64(r);
	s->self.rss_kb = (unsigned long)rbuf_u64(r);
}

void msg_ovrows_encode(struct kt_wbuf *b, const struct kt_ovrows *o)
{
	const struct kt_ov_snap *s = &o->snap;

	wbuf_u32(b, o->id);
	wbuf_str(b, o->source);
	wbuf_u8(b, o->syscalls);
	for (int c = 0; c < KT_OVC_N; c++)
		wbuf_str(b, o->missing[c]);
	put_sys(b, &o->sys);
	wbuf_f64(b, s->interval_s);
	put_slots(b, s->cpu_runq_slots);
	wbuf_u64(b, s->cpu_runq_ns);
	wbuf_u64(b, s->cpu_switches);
	wbuf_u64(b, s->other_threads);
	wbuf_u32(b, (uint32_t)s->ncpus);
	for (int i = 0; i < s->ncpus; i++)
		wbuf_f64(b, s->cpu_runq_len[i]);
	wbuf_u8(b, s->hooks_known);
	wbuf_u64(b, s->hooks_ns);
	wbuf_u32(b, (uint32_t)s->nprocs);
	for (size_t i = 0; i < s->nprocs; i++)
		put_row(b, &s->procs[i]);
	wbuf_u32(b, (uint32_t)s->nthreads);
	for (size_t i = 0; i < s->nthreads; i++)
		put_row(b, &s->threads[i]);
}

/* Each CPU's run-queue length. */
static void get_runq_len(struct kt_rbuf *r, struct kt_ov_snap *s)
{
	uint32_t n = rbuf_u32(r);

	if (n > KT_OV_MAX_CPUS)
		r->bad = true;
	s->ncpus = r->bad ? 0 : (int)n;
	for (int i = 0; i < s->ncpus; i++)
		s->cpu_runq_len[i] = rbuf_f64(r);
}

/* A count of rows, then the rows, into *v (NULL when none). */
static size_t get_rows(struct kt_rbuf *r, struct kt_ov_row **v)
{
	uint32_t n = rbuf_u32(r);

	*v = NULL;
	if (r->bad || n > r->left / ROW_MIN) {
		r->bad = true;
		return 0;
	}
	*v = n ? xcalloc(n, sizeof(**v)) : NULL;
	for (uint32_t i = 0; i < n && !r->bad; i++)
		get_row(r, &(*v)[i]);
	return n;
}

int msg_ovrows_decode(const uint8_t *p, size_t n, struct kt_ovrows *o)
{
	struct kt_ov_snap *s = &o->snap;
	struct kt_rbuf r;

	memset(o, 0, sizeof(*o));
	rbuf_init(&r, p, n);
	o->id = rbuf_u32(&r);
	rbuf_str(&r, o->source, sizeof(o->source));
	o->syscalls = rbuf_u8(&r) != 0;
	for (int c = 0; c < KT_OVC_N; c++)
		rbuf_str(&r, o->missing[c], sizeof(o->missing[c]));
	get_sys(&r, &o->sys);
	s->interval_s = rbuf_f64(&r);
	get_slots(&r, s->cpu_runq_slots);
	s->cpu_runq_ns = rbuf_u64(&r);
	s->cpu_switches = rbuf_u64(&r);
	s->other_threads = rbuf_u64(&r);
	get_runq_len(&r, s);
	s->hooks_known = rbuf_u8(&r) != 0;
	s->hooks_ns = rbuf_u64(&r);
	s->nprocs = s->cap_procs = get_rows(&r, &s->procs);
	s->nthreads = s->cap_threads = get_rows(&r, &s->threads);
	if (r.bad || r.left || s->interval_s < 0) {
		msg_ovrows_free(o);
		return -1;
	}
	return 0;
}

void msg_ovrows_free(struct kt_ovrows *o)
{
	free(o->snap.procs);
	free(o->snap.threads);
	o->snap.procs = o->snap.threads = NULL;
	o->snap.nprocs = o->snap.nthreads = o->snap.cap_procs = o->snap.cap_threads = 0;
}
