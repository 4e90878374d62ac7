// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview's BPF side (overview_local.h): the object loaded tp_btf first, then raw_tp;
 * its records read into each thread's counts since it was first seen, with the stretch it is
 * in now added (a thread that never leaves the CPU still counts its time), the records of
 * threads that died deleted once read. overview_bpf_stub.c under --disable-bpf.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "backend/bpf/bpfobj.h"
#include "overview_local.h"
#include "backend/tracefs/privs.h"
#include "util/clock.h"
#include "util/log.h"
#include "src/probes/overview.h"
#include "util/xalloc.h"


/* The hooks in the order of OV_HOOKS; the two syscall hooks are SYS_FIRST and the next. */
static const char *const hook_names[OV_HOOKS] = { "switch",    "wakeup",   "wakeup_new", "migrate",
						  "sys_enter", "sys_exit", "bio",	"rq_done" };
#define SYS_FIRST 4
#define HOOK_BIO 6

static const char *const variants[] = { "tp_btf", "raw_tp" };

static void prog_name(char *buf, size_t len, const char *via, int hook)
{
	snprintf(buf, len, "%s_%s", strcmp(via, "tp_btf") ? "raw" : "btf", hook_names[hook]);
}

static void detach(struct kt_overview *ov, int from, int to)
{
	int i;

	for (i = from; i < to; i++) {
		bpf_link__destroy(ov->links[i]);
		ov->links[i] = NULL;
	}
}

static void unload(struct kt_overview *ov)
{
	detach(ov, 0, OV_HOOKS);
	bpf_object__close(ov->obj);
	ov->obj = NULL;
}

/* Attaches hooks [from, to). 0, or -errno. */
static int attach(struct kt_overview *ov, int from, int to)
{
	char name[64];
	int i;

	for (i = from; i < to; i++) {
		prog_name(name, sizeof(name), ov->via, i);
		ov->links[i] = bpf_program__attach(bpfobj_program(ov->obj, name));
		if (!ov->links[i]) {
			int e = -errno;

			detach(ov, from, i);
			return e;
		}
	}
	return 0;
}

/* Opens, loads and attaches variant via. 0, or -1 with why in err. */
static int try_variant(struct kt_overview *ov, const char *via, char *err, size_t errlen)
{
	char names[OV_HOOKS][64];
	const char *want[OV_HOOKS + 1];
	int i, r;

	ov->obj = bpfobj_open("overview");
	if (!ov->obj) {
		snprintf(err, errlen, "cannot open the BPF object overview: %s", strerror(errno));
		return -1;
	}
	ov->via = via;
	for (i = 0; i < OV_HOOKS; i++) {
		prog_name(names[i], sizeof(names[i]), via, i);
		want[i] = names[i];
	}
	want[OV_HOOKS] = NULL;
	bpfobj_autoload_only(ov->obj, want);
	bpfobj_log_capture();
	r = bpf_object__load(ov->obj);
	/* the first interval starts as the hooks do */
	ov->last_ns = clock_mono_ns();
	if (!r)
		r = attach(ov, 0, SYS_FIRST);
	if (!r)
		r = attach(ov, HOOK_BIO, OV_HOOKS);
	if (r) {
		bpfobj_failure_reason(-r, err, errlen);
		return -1;
	}
	bpfobj_log_release();
	ov->tasks_fd = bpf_object__find_map_fd_by_name(ov->obj, "tasks");
	ov->other_fd = bpf_object__find_map_fd_by_name(ov->obj, "other");
	ov->cpus_fd = bpf_object__find_map_fd_by_name(ov->obj, "cpus");
	ov->disks_fd = bpf_object__find_map_fd_by_name(ov->obj, "disks");
	return 0;
}

/* The BPF object, or why not in why. */
int ov_bpf_open(struct kt_overview *ov, const char *only, char *why, size_t whylen)
{
	struct kt_privs pv;
	size_t i, used = 0;
	char err[400];

	privs_read(&pv);
	if (privs_bpf_refusal(&pv, why, whylen))
		return -1;
	*why = '\0';
	for (i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		if (only && strcmp(only, variants[i]))
			continue;
		if (try_variant(ov, variants[i], err, sizeof(err)) == 0) {
			ov->ncpus = libbpf_num_possible_cpus();
			ov->percpu = xcalloc((size_t)ov->ncpus, sizeof(struct kt_ov_task));
			ov->percpu_cpus = xcalloc((size_t)ov->ncpus, sizeof(struct kt_ov_cpu));
			ov->prev_cpus = xcalloc((size_t)ov->ncpus, sizeof(struct kt_ov_cpu));
			return 0;
		}
		log_debug("%s: %s: %s", __func__, variants[i], err);
		used += (size_t)snprintf(why + used, used < whylen ? whylen - used : 0, "%s%s: %s",
					 used ? "; " : "", variants[i], err);
		unload(ov);
	}
	return -1;
}

void ov_bpf_close(struct kt_overview *ov)
{
	unload(ov);
	free(ov->percpu);
	free(ov->percpu_cpus);
	free(ov->prev_cpus);
}

int ov_bpf_syscalls(struct kt_overview *ov, bool on, char *err, size_t errlen)
{
	int r;

	if (!on) {
		detach(ov, SYS_FIRST, SYS_FIRST + 2);
		return 0;
	}
	r = attach(ov, SYS_FIRST, SYS_FIRST + 2);
	if (r) {
		snprintf(err, errlen, "the raw_syscalls hooks: %s", strerror(-r));
		return -1;
	}
	return 0;
}

/* The record's stretch in progress, as of now, added to its time in that state; the time on
 * a CPU from the CPUs' slots (the thread each last switched to, since when), not from the
 * record, whose switch-out the hook may not have seen. */
static void add_inflight(struct kt_overview *ov, struct kt_ov_row *w, const struct kt_ov_task *t,
			 unsigned int tid, unsigned long long now)
{
	const struct kt_ov_cpu *c = ov->percpu_cpus;
	unsigned long long d = now > t->since ? now - t->since : 0;
	int i;

	switch (t->state) {
	case KT_OV_RUNNING:
		for (i = 0; i < ov->ncpus; i++)
			if (c[i].tid == tid && now > c[i].since)
				w->oncpu_ns += now - c[i].since;
		break;
	case KT_OV_RUNNABLE: w->runq_ns += d; break;
	case KT_OV_SLEEP: w->sleep_ns += d; break;
	case KT_OV_DISK: w->disk_ns += d; break;
	default: break;
	}
}

static unsigned int top_errno(const struct kt_ov_task *t)
{
	unsigned int i, best = 0;

	for (i = 1; i < KT_OV_ERRNOS; i++)
		if (t->errnos[i].count > t->errnos[best].count)
			best = i;
	return t->errnos[best].count ? t->errnos[best].err : 0;
}

static void to_row(struct kt_ov_row *w, unsigned int tid, const struct kt_ov_task *t)
{
	w->tid = (int)tid;
	w->pid = (int)t->tgid;
	w->exited = t->state == KT_OV_DEAD;
	w->born = t->born;
	memcpy(w->comm, t->comm, sizeof(w->comm));
	w->comm[sizeof(w->comm) - 1] = '\0';
	w->oncpu_ns = t->oncpu_ns;
	w->runq_ns = t->runq_ns;
	w->sleep_ns = t->sleep_ns;
	w->disk_ns = t->disk_ns;
	w->vol_ctxsw = t->vol_ctxsw;
	w->invol_ctxsw = t->invol_ctxsw;
	w->migrations = t->migrations;
	w->minflt = t->minflt;
	w->majflt = t->majflt;
	w->syscalls = t->syscalls;
	w->syscall_errors = t->syscall_errors;
	w->top_errno = top_errno(t);
	w->read_bytes = t->read_bytes;
	w->write_bytes = t->write_bytes;
	memcpy(w->runq_slots, t->runq_slots, sizeof(w->runq_slots));
	memcpy(w->sys_slots, t->sys_slots, sizeof(w->sys_slots));
}

static void read_other(struct kt_overview *ov)
{
	const struct kt_ov_task *v = ov->percpu;
	struct kt_ov_row one, *w;
	unsigned int zero = 0;
	int c;

	if (bpf_map_lookup_elem(ov->other_fd, &zero, ov->percpu) < 0)
		return;
	w = ov_rows_add(&ov->cur);
	w->tid = -1;
	w->other = true;
	snprintf(w->comm, sizeof(w->comm), "[other]");
	for (c = 0; c < ov->ncpus; c++) {
		to_row(&one, 0, &v[c]);
		overview_row_add(w, &one);
	}
}

/* A thread whose last switch the hook did not see (it was not named prev) keeps its record:
 * every GONE_EVERY reads, a record not on a CPU is checked against the kernel's threads, and
 * one whose thread is gone goes out as exited and is deleted. */
#define GONE_EVERY 8
static bool gone(const struct kt_overview *ov, unsigned int tid, const struct kt_ov_task *t)
{
	if (ov->reads % GONE_EVERY || t->state == KT_OV_RUNNING)
		return false;
	return kill((pid_t)tid, 0) < 0 && errno == ESRCH;
}

/* Every thread's record into ov->cur; the dead ones' deleted once read. */
static void read_tasks(struct kt_overview *ov, unsigned long long now)
{
	unsigned int key, next;
	struct kt_ov_task t;
	bool first = true;
	struct kt_ov_row *w;

	ov->cur.n = 0;
	while (bpf_map_get_next_key(ov->tasks_fd, first ? NULL : &key, &next) == 0) {
		first = false;
		key = next;
		if (bpf_map_lookup_elem(ov->tasks_fd, &next, &t) < 0)
			continue;
		w = ov_rows_add(&ov->cur);
		to_row(w, next, &t);
		if (!w->exited && gone(ov, next, &t))
			w->exited = true; /* without its time in flight: it ended unseen */
		else
			add_inflight(ov, w, &t, next, now);
	}
	/* deleting while walking would restart the walk: after it */
	for (size_t i = 0; i < ov->cur.n; i++) {
		key = (unsigned int)ov->cur.v[i].tid;
		if (ov->cur.v[i].exited)
			bpf_map_delete_elem(ov->tasks_fd, &key);
	}
	read_other(ov);
}

#define DELTA(f) (v[c].f >= p[c].f ? v[c].f - p[c].f : 0)

/* The CPUs' slots into ov->percpu_cpus, their run-queue figures over the tick into s: each
 * CPU's run-queue length, every CPU's waits summed. */
static void read_cpus(struct kt_overview *ov, struct kt_ov_snap *s)
{
	struct kt_ov_cpu *v = ov->percpu_cpus, *p = ov->prev_cpus;
	unsigned int zero = 0;
	size_t i;
	int c;

	memset(s->cpu_runq_slots, 0, sizeof(s->cpu_runq_slots));
	s->cpu_runq_ns = s->cpu_switches = 0;
	memcpy(p, v, (size_t)ov->ncpus * sizeof(*v));
	if (bpf_map_lookup_elem(ov->cpus_fd, &zero, ov->percpu_cpus) < 0)
		memcpy(v, p, (size_t)ov->ncpus * sizeof(*v)); /* nothing this tick */
	s->ncpus = ov->ncpus < KT_OV_MAX_CPUS ? ov->ncpus : KT_OV_MAX_CPUS;
	for (c = 0; c < ov->ncpus; c++) {
		s->cpu_runq_ns += DELTA(runq_ns);
		s->cpu_switches += DELTA(switches);
		for (i = 0; i < KT_OV_ROW_SLOTS; i++)
			s->cpu_runq_slots[i] += DELTA(runq_slots[i]);
		if (c < s->ncpus)
			s->cpu_runq_len[c] = s->interval_s > 0 ?
				(double)DELTA(runq_ns) / (s->interval_s * 1e9) : 0;
	}
	if (bpfobj_read_bss(ov->obj, "other_threads", (unsigned long long *)&s->other_threads) < 0)
		s->other_threads = 0;
}

#undef DELTA

/* The hooks' run time over the tick, when the kernel counts it (bpf_stats_enabled). */
static void read_cost(struct kt_overview *ov, struct kt_ov_snap *s)
{
	struct bpf_prog_info info;
	struct bpf_program *prog;
	unsigned long long ns = 0;
	__u32 len;
	char on = '0';
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");

	if (f) {
		on = (char)fgetc(f);
		fclose(f);
	}
	s->hooks_known = on == '1';
	s->hooks_ns = 0;
	if (!s->hooks_known)
		return;
	bpf_object__for_each_program(prog, ov->obj) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_program__fd(prog) >= 0 &&
		    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) == 0)
			ns += info.run_time_ns;
	}
	/* the programs count from their load, or from when the stats came on */
	s->hooks_ns = ns >= ov->hooks_ns ? ns - ov->hooks_ns : 0;
	ov->hooks_ns = ns;
}

/* dev's counts as read the last time, NULL the first time it is seen. */
static const struct kt_ov_disklat *disk_prev(const struct kt_overview *ov, unsigned int dev)
{
	for (int i = 0; i < ov->ndisk_prev; i++)
		if (ov->disk_prev[i].dev == dev)
			return &ov->disk_prev[i];
	return NULL;
}

/* Each disk's counts since load into ov->disk_prev, the tick's (the difference) into s. */
void ov_bpf_read_disks(struct kt_overview *ov, struct kt_ov_snap *s)
{
	struct kt_ov_disklat cur[KT_OV_SNAP_DISKS], *d;
	const struct kt_ov_disklat *p;
	unsigned int key, next;
	struct kt_ov_disk k;
	int n = 0;

	while (n < KT_OV_SNAP_DISKS &&
	       bpf_map_get_next_key(ov->disks_fd, n ? &key : NULL, &next) == 0) {
		key = next;
		if (bpf_map_lookup_elem(ov->disks_fd, &next, &k) < 0)
			continue;
		cur[n].dev = next;
		cur[n].count = k.count;
		cur[n].sum_ns = k.sum_ns;
		memcpy(cur[n].slots, k.slots, sizeof(cur[n].slots));
		p = disk_prev(ov, next);
		d = &s->disks[n++];
		*d = cur[n - 1];
		if (!p)
			continue;
		d->count -= p->count;
		d->sum_ns -= p->sum_ns;
		for (size_t i = 0; i < KT_OV_ROW_SLOTS; i++)
			d->slots[i] -= p->slots[i];
	}
	s->ndisks = n;
	memcpy(ov->disk_prev, cur, (size_t)n * sizeof(cur[0]));
	ov->ndisk_prev = n;
}

void ov_bpf_read(struct kt_overview *ov, struct kt_ov_snap *s, unsigned long long now)
{
	read_cpus(ov, s);
	read_cost(ov, s);
	read_tasks(ov, now);
}
