// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Batch mode's overview (batch_top.h): every interval, the system strip and one row per
 * process that did anything, busiest first, as top -b prints them; --json one object per
 * interval. Counts are over the interval, not rates, so a script can add them up. Over an
 * agent (-H, --via) the remote source's overview (ovsrc.h) counts there and each of its
 * ticks is printed as it comes; over several, each host's strip, then one table of every
 * host's rows, a HOST column (JSON: "hosts" and each task's "host").
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "batch_top.h"
#include "util/clock.h"
#include "util/json.h"
#include "app/options.h"
#include "source/ovsrc.h"
#include "app/signals.h"

struct run {
	const struct kt_options *o;
	int wake[2]; /* a signal writes it: the wait ends at once */
	FILE *out;
	struct kt_ovsrc *src;
	struct kt_app app; /* over an agent: the remote source (app_open_remote) */
	bool remote;
	bool said; /* what columns lack was said */
	struct kt_ov_snap snap;
	struct kt_sysstrip sys;
	const struct kt_ov_row **rows;
	size_t nrows;
};

/* Over its host's interval (several agents tick each on its own). */
static double cpu_pct(struct run *r, const struct kt_ov_row *t)
{
	double interval_s = ovsrc_row_interval(r->src, &r->snap, t);

	return interval_s > 0 ? 100.0 * (double)t->oncpu_ns / (interval_s * 1e9) : 0;
}

/* Several hosts: row t's host's label; else NULL. */
static const char *host_of(struct run *r, const struct kt_ov_row *t)
{
	struct kt_ovsrc_host h;

	return ovsrc_hosts(r->src) > 1 && ovsrc_host(r->src, t->host, &h) ? h.label : NULL;
}

static bool active(const struct kt_ov_row *r)
{
	return r->oncpu_ns || r->runq_ns || r->syscalls || r->minflt || r->majflt ||
	       r->read_bytes || r->write_bytes || r->vol_ctxsw || r->invol_ctxsw || r->migrations;
}

static bool wanted(const struct kt_options *o, const struct kt_ov_row *r)
{
	size_t i;

	if (!o->n_pids)
		return active(r);
	for (i = 0; i < o->n_pids; i++)
		if ((int)o->pids[i] == r->pid)
			return true;
	return false;
}

static int busiest_first(const void *a, const void *b)
{
	const struct kt_ov_row *x = *(const struct kt_ov_row *const *)a;
	const struct kt_ov_row *y = *(const struct kt_ov_row *const *)b;

	if (x->oncpu_ns != y->oncpu_ns)
		return x->oncpu_ns < y->oncpu_ns ? 1 : -1;
	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	return (x->host > y->host) - (x->host < y->host);
}

/* The rows to print, busiest first. */
static void pick_rows(struct run *r)
{
	size_t i;

	r->rows = realloc(r->rows, (r->snap.nprocs + 1) * sizeof(*r->rows));
	r->nrows = 0;
	for (i = 0; i < r->snap.nprocs; i++)
		if (wanted(r->o, &r->snap.procs[i]))
			r->rows[r->nrows++] = &r->snap.procs[i];
	if (r->nrows)
		qsort(r->rows, r->nrows, sizeof(*r->rows), busiest_first);
}

/* A disk: /proc/diskstats' counts and mean (avg_ms), and the latency counted in the kernel
 * (lat_from "bpf"), or null figures and lat_from "diskstats" where it is not. */
static void json_disk(struct run *r, const struct kt_sys_disk *d, bool comma)
{
	fprintf(r->out, "%s{\"name\":", comma ? "," : "");
	json_string(r->out, d->name);
	fprintf(r->out, ",\"reads\":%llu,\"writes\":%llu,\"read_bytes\":%llu,"
		"\"write_bytes\":%llu,\"avg_ms\":%.3f", (unsigned long long)d->reads,
		(unsigned long long)d->writes, (unsigned long long)d->read_bytes,
		(unsigned long long)d->write_bytes, d->avg_ms);
	if (d->lat_counted)
		fprintf(r->out, ",\"lat_from\":\"bpf\",\"lat_count\":%llu,\"lat_mean_ms\":%.3f,"
			"\"p99_ms\":%.3f,\"lat_max_ms\":%.3f}", (unsigned long long)d->lat_count,
			d->lat_mean_ms, d->p99_ms, d->lat_max_ms);
	else
		fputs(",\"lat_from\":\"diskstats\",\"lat_count\":null,\"lat_mean_ms\":null,"
		      "\"p99_ms\":null,\"lat_max_ms\":null}", r->out);
}

/* One machine's: s and snap's system-wide figures, counted by source. */
static void json_system(struct run *r, const struct kt_sysstrip *s, const struct kt_ov_snap *snap,
			const char *source)
{
	int i;

	fprintf(r->out,
		"\"system\":{\"cpus\":%d,\"cpu_pct\":%.1f,\"cpu_pct_per_cpu\":[", s->ncpus,
		s->cpu_pct);
	for (i = 0; i < s->ncpus; i++)
		fprintf(r->out, "%s%.1f", i ? "," : "", s->cpu_busy[i]);
	fprintf(r->out,
		"],\"procs_running\":%u,\"procs_blocked\":%u,\"runq_waits\":%llu,"
		"\"runq_wait_ns\":%llu,\"runq_wait_p99_ns\":%llu,\"mem_total_kb\":%llu,"
		"\"mem_available_kb\":%llu,\"psi_cpu_some\":%.2f,\"psi_mem_some\":%.2f,"
		"\"psi_mem_full\":%.2f,\"psi_io_some\":%.2f,\"psi_io_full\":%.2f,\"disks\":[",
		s->procs_running, s->procs_blocked, (unsigned long long)snap->cpu_switches,
		(unsigned long long)snap->cpu_runq_ns,
		(unsigned long long)overview_quantile(snap->cpu_runq_slots, 0.99),
		(unsigned long long)s->mem_total_kb, (unsigned long long)s->mem_available_kb,
		s->psi_cpu_some, s->psi_mem_some, s->psi_mem_full, s->psi_io_some, s->psi_io_full);
	for (i = 0; i < s->ndisks; i++)
		json_disk(r, &s->disks[i], i > 0);
	fprintf(r->out,
		"],\"net_rx_packets\":%llu,\"net_tx_packets\":%llu,\"net_rx_bytes\":%llu,"
		"\"net_tx_bytes\":%llu,\"net_drops\":%llu,\"ktop_cpu_pct\":%.1f,"
		"\"ktop_rss_kb\":%lu,\"source\":",
		(unsigned long long)s->net_rx_packets, (unsigned long long)s->net_tx_packets,
		(unsigned long long)s->net_rx_bytes, (unsigned long long)s->net_tx_bytes,
		(unsigned long long)s->net_drops, s->self.cpu_pct, s->self.rss_kb);
	json_string(r->out, source);
	/* BPF's alone: null from /proc, or when the kernel does not count the hooks */
	fputs(",\"runq_len_per_cpu\":", r->out);
	if (!snap->ncpus)
		fputs("null", r->out);
	for (i = 0; i < snap->ncpus; i++)
		fprintf(r->out, "%s%.3f", i ? "," : "[", snap->cpu_runq_len[i]);
	if (snap->ncpus)
		fputc(']', r->out);
	if (snap->hooks_known)
		fprintf(r->out, ",\"hooks_ns\":%llu}", (unsigned long long)snap->hooks_ns);
	else
		fputs(",\"hooks_ns\":null}", r->out);
}

/* A count, or null where the overview has no figure for its column (/proc lacks it). */
static void json_count(struct run *r, const char *key, enum kt_ov_col c, unsigned long long v)
{
	if (*ovsrc_missing(r->src, c))
		fprintf(r->out, ",\"%s\":null", key);
	else
		fprintf(r->out, ",\"%s\":%llu", key, v);
}

static void json_ms(struct run *r, const char *key, enum kt_ov_col c, uint64_t ns)
{
	if (*ovsrc_missing(r->src, c))
		fprintf(r->out, ",\"%s\":null", key);
	else
		fprintf(r->out, ",\"%s\":%.3f", key, (double)ns / 1e6);
}

static void json_task(struct run *r, const struct kt_ov_row *t)
{
	const char *host = host_of(r, t);

	fputc('{', r->out);
	if (host) {
		fputs("\"host\":", r->out);
		json_string(r->out, host);
		fputc(',', r->out);
	}
	fprintf(r->out, "\"pid\":%d,\"comm\":", t->pid);
	json_string(r->out, t->comm);
	fputs(",\"user\":", r->out);
	json_string(r->out, t->user);
	fputs(",\"cgroup\":", r->out);
	json_string(r->out, t->cgroup);
	fprintf(r->out, ",\"cpu_pct\":%.2f,\"runq_wait_ms\":%.3f", cpu_pct(r, t),
		(double)t->runq_ns / 1e6);
	json_ms(r, "offcpu_ms", KT_OVC_OFFCPU, t->sleep_ns + t->disk_ns);
	json_ms(r, "offcpu_d_ms", KT_OVC_OFFCPU, t->disk_ns);
	json_count(r, "syscalls", KT_OVC_SYSCALLS, t->syscalls);
	json_count(r, "syscall_errors", KT_OVC_SYSCALLS, t->syscall_errors);
	json_count(r, "syscall_p99_ns", KT_OVC_SYSLAT, overview_quantile(t->sys_slots, 0.99));
	json_count(r, "minflt", KT_OVC_FAULTS, t->minflt);
	json_count(r, "majflt", KT_OVC_FAULTS, t->majflt);
	json_count(r, "read_bytes", KT_OVC_IO, t->read_bytes);
	json_count(r, "write_bytes", KT_OVC_IO, t->write_bytes);
	json_count(r, "vol_ctxsw", KT_OVC_CTXSW, t->vol_ctxsw);
	json_count(r, "invol_ctxsw", KT_OVC_CTXSW, t->invol_ctxsw);
	json_count(r, "migrations", KT_OVC_MIGR, t->migrations);
	fputc('}', r->out);
}

static void print_json(struct run *r)
{
	size_t i;

	struct kt_ovsrc_host h;
	unsigned n = ovsrc_hosts(r->src), k = 0;

	fprintf(r->out, "{\"interval_s\":%.3f,", r->snap.interval_s);
	if (n == 1)
		json_system(r, &r->sys, &r->snap, ovsrc_source(r->src));
	/* several hosts: each one's machine, those whose tick is in this line's tasks */
	for (unsigned j = 0; n > 1 && j < n; j++) {
		if (!ovsrc_host(r->src, j, &h) || !h.fresh)
			continue;
		fputs(k++ ? ",{\"host\":" : "\"hosts\":[{\"host\":", r->out);
		json_string(r->out, h.label);
		fprintf(r->out, ",\"interval_s\":%.3f,", h.snap->interval_s);
		json_system(r, h.sys, h.snap, h.source);
		fputc('}', r->out);
	}
	if (k)
		fputc(']', r->out);
	fputs(",\"tasks\":[", r->out);
	for (i = 0; i < r->nrows; i++) {
		if (i)
			fputc(',', r->out);
		json_task(r, r->rows[i]);
	}
	fputs("]}\n", r->out);
}

/* A disk's line: its p99 counted in the kernel, else /proc/diskstats' mean, marked so. */
static void text_disk(struct run *r, const struct kt_sys_disk *d, double psi_io)
{
	fprintf(r->out, "Disk %s  %llu r %llu w  %llu KiB read %llu KiB written  ", d->name,
		(unsigned long long)d->reads, (unsigned long long)d->writes,
		(unsigned long long)d->read_bytes / 1024, (unsigned long long)d->write_bytes / 1024);
	if (d->lat_counted)
		fprintf(r->out, "p99 %.2f ms (diskstats mean %.2f)", d->p99_ms, d->avg_ms);
	else
		fprintf(r->out, "%.2f ms avg (diskstats)", d->avg_ms);
	fprintf(r->out, "  PSI io %.1f\n", psi_io);
}

/* One machine's strip (host: its label, several hosts; else NULL). */
static void text_system(struct run *r, const char *host, const struct kt_sysstrip *s,
			const struct kt_ov_snap *snap, const char *source)
{
	char when[16];
	time_t now = time(NULL);
	char hooks[64];
	int i;

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	fprintf(r->out, "ktop - %s%s%s  interval %.2f s  via %s\n", when, host ? "  host " : "",
		host ? host : "", snap->interval_s, source);
	fprintf(r->out, "CPU  %5.1f%% (", s->cpu_pct);
	for (i = 0; i < s->ncpus && i < 16; i++)
		fprintf(r->out, "%s%.0f", i ? " " : "", s->cpu_busy[i]);
	fprintf(r->out, ")  running %u  runq p99 %.2f ms  PSI cpu %.1f", s->procs_running,
		(double)overview_quantile(snap->cpu_runq_slots, 0.99) / 1e6, s->psi_cpu_some);
	for (i = 0; i < snap->ncpus && i < 16; i++)
		fprintf(r->out, "%s%.1f", i ? " " : "  runq length (", snap->cpu_runq_len[i]);
	fputs(snap->ncpus ? ")\n" : "\n", r->out);
	fprintf(r->out, "Mem  %llu MiB available of %llu  PSI some %.1f full %.1f\n",
		(unsigned long long)s->mem_available_kb / 1024,
		(unsigned long long)s->mem_total_kb / 1024, s->psi_mem_some, s->psi_mem_full);
	for (i = 0; i < s->ndisks; i++)
		text_disk(r, &s->disks[i], s->psi_io_some);
	fprintf(r->out, "Net  %llu/%llu packets in/out  %llu/%llu KiB  %llu drops\n",
		(unsigned long long)s->net_rx_packets, (unsigned long long)s->net_tx_packets,
		(unsigned long long)s->net_rx_bytes / 1024,
		(unsigned long long)s->net_tx_bytes / 1024, (unsigned long long)s->net_drops);
	overview_hooks_text(snap, hooks, sizeof(hooks));
	fprintf(r->out, "ktop %.1f%% CPU  %lu KiB resident%s%s\n\n", s->self.cpu_pct, s->self.rss_kb,
		hooks[0] ? "  " : "", hooks);
}

/* A figure in a text column w wide: "-" where the overview has none (/proc lacks it). */
static void text_cell(struct run *r, int w, enum kt_ov_col c, const char *fmt, double v)
{
	if (*ovsrc_missing(r->src, c))
		fprintf(r->out, " %*s", w, "-");
	else
		fprintf(r->out, fmt, w, v);
}

static void text_row(struct run *r, const struct kt_ov_row *t)
{
	const char *host = host_of(r, t);

	if (host)
		fprintf(r->out, "%-12.12s ", host);
	fprintf(r->out, "%7d %-8.8s %-12.12s %6.1f %8.1f", t->pid, t->user, t->cgroup,
		cpu_pct(r, t), (double)t->runq_ns / 1e6);
	text_cell(r, 8, KT_OVC_OFFCPU, " %*.1f", (double)(t->sleep_ns + t->disk_ns) / 1e6);
	text_cell(r, 8, KT_OVC_OFFCPU, " %*.1f", (double)t->disk_ns / 1e6);
	text_cell(r, 8, KT_OVC_SYSCALLS, " %*.0f", (double)t->syscalls);
	text_cell(r, 6, KT_OVC_SYSCALLS, " %*.0f", (double)t->syscall_errors);
	text_cell(r, 8, KT_OVC_SYSLAT, " %*.1f",
		  (double)overview_quantile(t->sys_slots, 0.99) / 1e3);
	/* a recording has none of these: "-" as /proc's missing columns */
	text_cell(r, 7, KT_OVC_FAULTS, " %*.0f", (double)t->minflt);
	text_cell(r, 6, KT_OVC_FAULTS, " %*.0f", (double)t->majflt);
	text_cell(r, 9, KT_OVC_IO, " %*.0f", (double)t->read_bytes);
	text_cell(r, 9, KT_OVC_IO, " %*.0f", (double)t->write_bytes);
	text_cell(r, 7, KT_OVC_CTXSW, " %*.0f", (double)t->vol_ctxsw);
	text_cell(r, 7, KT_OVC_CTXSW, " %*.0f", (double)t->invol_ctxsw);
	text_cell(r, 5, KT_OVC_MIGR, " %*.0f", (double)t->migrations);
	fprintf(r->out, " %s%s\n", t->comm, t->exited ? " (exited)" : "");
}

static void print_text(struct run *r)
{
	struct kt_ovsrc_host h;
	unsigned n = ovsrc_hosts(r->src);
	size_t i;

	if (n == 1)
		text_system(r, NULL, &r->sys, &r->snap, ovsrc_source(r->src));
	for (unsigned j = 0; n > 1 && j < n; j++) /* the hosts whose tick the rows hold */
		if (ovsrc_host(r->src, j, &h) && h.fresh)
			text_system(r, h.label, h.sys, h.snap, h.source);
	if (n > 1)
		fprintf(r->out, "%-12s ", "HOST");
	fprintf(r->out, "%7s %-8s %-12s %6s %8s %8s %8s %8s %6s %8s %7s %6s %9s %9s %7s %7s "
		"%5s %s\n", "PID", "USER", "CGROUP", "CPU%", "RUNQ_MS", "OFF_MS", "D_MS", "SYSCALLS",
		"ERRS", "P99_US", "MINFLT", "MAJFLT", "READ_B", "WRITE_B", "VCSW", "ICSW", "MIGR",
		"COMMAND");
	for (i = 0; i < r->nrows; i++)
		text_row(r, r->rows[i]);
	fputc('\n', r->out);
}

/* What a column cannot show, once, on stderr: the table stays a table. */
static void say_missing(struct run *r)
{
	int c;

	r->said = true;
	for (c = 0; c < KT_OVC_N; c++)
		if (*ovsrc_missing(r->src, (enum kt_ov_col)c)) {
			fprintf(stderr, "ktop: overview via %s\n", ovsrc_source(r->src));
			return;
		}
}

/* Prints the tick that came (each one an agent sent); false when none had. */
static bool snapshot(struct run *r)
{
	if (!ovsrc_update(r->src, &r->snap, &r->sys))
		return false;
	if (!r->said) /* an agent's say what they lack with their first tick */
		say_missing(r);
	pick_rows(r);
	if (r->o->json)
		print_json(r);
	else
		print_text(r);
	fflush(r->out);
	return true;
}

/* A snapshot every interval until --duration's end or a signal. */
static void capture(struct run *r)
{
	struct pollfd pfd = { .fd = r->wake[0], .events = POLLIN };
	unsigned long long next, now, until, deadline = 0;
	unsigned long long step = r->o->top_interval > 0 ?
		(unsigned long long)(r->o->top_interval * 1e9) :
		(unsigned long long)r->o->delay_ms * 1000000ull;

	/* an agent's ticks are its own: looked for every 20 ms, each printed */
	if (r->src->paced)
		step = 20000000ull;

	now = clock_mono_ns();
	if (r->o->duration > 0)
		deadline = now + (unsigned long long)(r->o->duration * 1e9);
	next = now + step;
	for (;;) {
		now = clock_mono_ns();
		if (signals_pending())
			break;
		if (now >= next) {
			while (snapshot(r) && r->src->paced)
				;
			/* a snapshot slower than the interval skips the ticks it overran */
			next += step * ((now - next) / step + 1);
			now = clock_mono_ns();
		}
		if (deadline && now + 1000000ull >= deadline)
			break;
		until = deadline && deadline < next ? deadline : next;
		pfd.revents = 0;
		if (now < until &&
		    poll(&pfd, 1, (int)((until - now) / 1000000ull) + 1) < 0 && errno != EINTR)
			break;
	}
}

/* The overview where the options say: an agent's (one -H or --via), a recording's (-i, from
 * its events), or this machine's.
 * Returns 0, or -1 with the line said. */
static int open_src(struct run *r)
{
	const struct kt_options *o = r->o;
	char err[1024];

	if (!o->n_remotes && !o->input_path) {
		r->src = ovsrc_local_open(o->top_via, true);
		return 0;
	}
	r->remote = true; /* an app of its own: an agent's, or the recording's */
	if ((o->input_path ? app_open_recording(&r->app, o, err, sizeof(err)) :
			     app_open_remote(&r->app, o, err, sizeof(err))) != KT_EXIT_OK ||
	    !(r->src = source_overview_open(r->app.source, o->top_via, err, sizeof(err)))) {
		fprintf(stderr, "ktop: %s\n", err);
		return -1;
	}
	return 0;
}

static void close_src(struct run *r)
{
	ovsrc_close(r->src);
	r->src = NULL;
	if (r->remote)
		app_close(&r->app);
}

int batch_top_run(const struct kt_options *o, FILE *out)
{
	struct run r = { .o = o, .out = out };

	if (open_src(&r) < 0) {
		close_src(&r);
		return KT_EXIT_FAILURE;
	}
	if (o->top_via && strcmp(o->top_via, "proc") &&
	    strncmp(ovsrc_source(r.src), "bpf", 3)) {
		fprintf(stderr, "ktop: --top=%s: %s\n", o->top_via, ovsrc_source(r.src));
		close_src(&r);
		return KT_EXIT_FAILURE;
	}
	if (!r.src->paced) {
		say_missing(&r);
		sysstrip_sample(&r.sys); /* the first tick's baseline */
	}
	if (pipe2(r.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "ktop: cannot create a pipe: %s\n", strerror(errno));
		close_src(&r);
		return KT_EXIT_FAILURE;
	}
	signals_install(r.wake[1]);
	if (o->input_path)
		snapshot(&r); /* a recording is one tick, as long as the file */
	else
		capture(&r);
	close(r.wake[0]);
	close(r.wake[1]);
	overview_snap_free(&r.snap);
	free(r.rows);
	close_src(&r);
	return KT_EXIT_OK;
}
