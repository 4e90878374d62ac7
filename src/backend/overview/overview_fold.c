// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview's threads folded into processes, and each process named: its user and a
 * readable cgroup (cgname.h), looked up once while it lives (kept by pid, forgotten when a
 * read no longer sees it), so a tick reads /proc once per new process, not per row.
 */
#include "config.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/tracefs/cgname.h"
#include "overview_local.h"
#include "util/xalloc.h"

static int pid_tid_cmp(const void *a, const void *b)
{
	const struct kt_ov_row *x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static void look_up(struct ov_name *n, int pid)
{
	char dir[32];
	struct passwd *pw;
	FILE *f;
	struct stat st;

	n->pid = pid;
	snprintf(dir, sizeof(dir), "/proc/%d", pid);
	n->uid = stat(dir, &st) == 0 ? st.st_uid : 0;
	pw = getpwuid(n->uid);
	if (pw)
		snprintf(n->user, sizeof(n->user), "%s", pw->pw_name);
	else
		snprintf(n->user, sizeof(n->user), "%u", n->uid);
	cgname_of_pid(pid, n->cgroup, sizeof(n->cgroup));
	snprintf(dir, sizeof(dir), "/proc/%d/comm", pid);
	f = fopen(dir, "re");
	n->comm[0] = '\0';
	if (f) {
		if (fgets(n->comm, sizeof(n->comm), f))
			n->comm[strcspn(n->comm, "\n")] = '\0';
		fclose(f);
	}
}

/* pid's names, looked up when new; the table stays sorted by pid. */
static const struct ov_name *name_of(struct kt_overview *ov, int pid)
{
	size_t lo = 0, hi = ov->nnames, mid;
	struct ov_name *n;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (ov->names[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ov->nnames || ov->names[lo].pid != pid) {
		if (ov->nnames == ov->capnames) {
			ov->capnames = ov->capnames ? ov->capnames * 2 : 256;
			ov->names = xreallocarray(ov->names, ov->capnames, sizeof(*ov->names));
		}
		memmove(&ov->names[lo + 1], &ov->names[lo], (ov->nnames - lo) * sizeof(*n));
		ov->nnames++;
		look_up(&ov->names[lo], pid);
	}
	n = &ov->names[lo];
	n->seen = ov->reads + 1;
	return n;
}

/* Drops the names of processes this read did not see. */
static void forget_names(struct kt_overview *ov)
{
	size_t i, k = 0;

	for (i = 0; i < ov->nnames; i++)
		if (ov->names[i].seen == ov->reads + 1)
			ov->names[k++] = ov->names[i];
	ov->nnames = k;
}

static void sum_into(struct kt_ov_row *p, const struct kt_ov_row *t)
{
	overview_row_add(p, t);
	p->exited = p->exited && t->exited;
	p->nthreads++;
}

/* A thread's user and cgroup; a process's name, when this is not its main thread: its
 * main thread's (the process's row shows the main thread's name as top does). */
static void name_row(struct kt_overview *ov, struct kt_ov_row *r, char *proc_comm)
{
	const struct ov_name *n;

	if (r->other || r->pid <= 0)
		return;
	n = name_of(ov, r->pid);
	r->uid = n->uid;
	snprintf(r->user, sizeof(r->user), "%s", n->user);
	snprintf(r->cgroup, sizeof(r->cgroup), "%s", n->cgroup);
	if (r->tid != r->pid && n->comm[0])
		memcpy(proc_comm, n->comm, sizeof(n->comm));
}

void overview_fold(struct kt_overview *ov, struct kt_ov_snap *s)
{
	struct kt_ov_row *p = NULL, *t;
	size_t i;

	if (s->nthreads)
		qsort(s->threads, s->nthreads, sizeof(*s->threads), pid_tid_cmp);
	if (s->cap_procs < s->nthreads) {
		s->cap_procs = s->nthreads;
		s->procs = xreallocarray(s->procs, s->cap_procs, sizeof(*s->procs));
	}
	s->nprocs = 0;
	for (i = 0; i < s->nthreads; i++) {
		t = &s->threads[i];
		if (!p || p->pid != t->pid || t->other) {
			p = &s->procs[s->nprocs++];
			*p = *t;
			p->tid = t->pid;
			p->nthreads = 1;
			name_row(ov, t, p->comm);
			p->uid = t->uid;
			memcpy(p->user, t->user, sizeof(p->user));
			memcpy(p->cgroup, t->cgroup, sizeof(p->cgroup));
			continue;
		}
		name_row(ov, t, p->comm);
		sum_into(p, t);
		/* the process is named as its main thread is */
		if (t->tid == t->pid)
			memcpy(p->comm, t->comm, sizeof(p->comm));
	}
	forget_names(ov);
}
