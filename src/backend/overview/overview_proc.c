// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview without BPF: what /proc keeps per thread (schedstat: time on a CPU and
 * waiting for one; stat: faults; status: context switches; io: block bytes), read for
 * every thread on each tick. Four files a thread: dearer than the BPF records, and
 * only the columns /proc has.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overview_local.h"

/* The first line of dir/name into buf. false when unreadable. */
static bool read_file(const char *dir, const char *name, char *buf, size_t len)
{
	char path[128];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n > 0;
}

/* /proc/.../stat: comm between parentheses, then minflt (10th) and majflt (12th). */
static bool parse_stat(const char *buf, struct kt_ov_row *w)
{
	const char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	unsigned long long minflt, majflt;
	size_t n;

	if (!open || !close || close < open)
		return false;
	n = (size_t)(close - open - 1);
	snprintf(w->comm, sizeof(w->comm), "%.*s", (int)n, open + 1);
	if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %llu %*u %llu", &minflt, &majflt) != 2)
		return false;
	w->minflt = minflt;
	w->majflt = majflt;
	return true;
}

static unsigned long long field(const char *buf, const char *name)
{
	const char *p = strstr(buf, name);

	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

static void read_thread(struct kt_overview *ov, int pid, const char *tdir, int tid)
{
	unsigned long long on, wait;
	char buf[4096];
	struct kt_ov_row *w;

	if (!read_file(tdir, "stat", buf, sizeof(buf)))
		return;
	w = ov_rows_add(&ov->cur);
	w->pid = pid;
	w->tid = tid;
	if (!parse_stat(buf, w)) {
		ov->cur.n--;
		return;
	}
	if (read_file(tdir, "schedstat", buf, sizeof(buf)) &&
	    sscanf(buf, "%llu %llu", &on, &wait) == 2) {
		w->oncpu_ns = on;
		w->runq_ns = wait;
	}
	if (read_file(tdir, "status", buf, sizeof(buf))) {
		w->vol_ctxsw = field(buf, "\nvoluntary_ctxt_switches:");
		w->invol_ctxsw = field(buf, "\nnonvoluntary_ctxt_switches:");
	}
	if (read_file(tdir, "io", buf, sizeof(buf))) {
		w->read_bytes = field(buf, "\nread_bytes:");
		w->write_bytes = field(buf, "\nwrite_bytes:");
	}
}

static void read_process(struct kt_overview *ov, int pid)
{
	char dir[64], tdir[128];
	struct dirent *d;
	DIR *t;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	t = opendir(dir);
	if (!t)
		return;
	while ((d = readdir(t))) {
		int tid = atoi(d->d_name);

		if (tid <= 0)
			continue;
		snprintf(tdir, sizeof(tdir), "%s/%d", dir, tid);
		read_thread(ov, pid, tdir, tid);
	}
	closedir(t);
}

void overview_proc_read(struct kt_overview *ov)
{
	struct dirent *d;
	DIR *p = opendir("/proc");

	ov->cur.n = 0;
	if (!p)
		return;
	while ((d = readdir(p))) {
		int pid = atoi(d->d_name);

		if (pid > 0)
			read_process(ov, pid);
	}
	closedir(p);
}

void overview_proc_missing(struct kt_overview *ov)
{
	static const char why[] = "needs the overview's BPF hooks (see the source line)";
	static const enum kt_ov_col cols[] = { KT_OVC_OFFCPU, KT_OVC_SYSCALLS, KT_OVC_SYSLAT,
					       KT_OVC_MIGR };
	size_t i;

	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
		snprintf(ov->missing[cols[i]], sizeof(ov->missing[0]), "%s", why);
	snprintf(ov->missing[KT_OVC_RUNQ], sizeof(ov->missing[0]),
		 "p99 needs the overview's BPF hooks: /proc has the total wait only");
}
