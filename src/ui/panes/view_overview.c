// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview pane (O; the landing screen when nothing is named on the command line): what
 * this machine does and who suffers, counted in the kernel (src/backend/overview/overview.h). On top
 * the system strip (sysstrip.h), then one row per process, threads folded (u unfolds), its
 * figures per second over the last tick, sorted by any column (s or > next, < back, r
 * reverses), filtered by typing after / (name, user, cgroup), * pins a process at the
 * top, C chooses the columns (kept in ktoprc), the shown rows' total at the bottom. Enter
 * opens the pane behind the cell under the cursor in the sorted column, scoped to that
 * process: CPU% its on-CPU flame graph, RUNQ and RQ99 its run-queue latency, OFF and D its
 * off-CPU flame graph, SYS/s, ERR and P99 its syscall latency by syscall, MINFLT and MAJFLT
 * its page faults' stacks (a flame graph of every fault), IO its block requests' latency by
 * disk; on another column Enter then a key picks one (l, q, b, g, o, f, or e its events in
 * the stream). Esc there comes back here, the cursor where it was. Over several agents
 * (-H a,b) every host's rows are in the one table, a HOST column first, and the strip is
 * one compact line per host.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "source/ovsrc.h"
#include "source/source.h"
#include "flame_live.h"
#include "ui/funcbar.h"
#include "ui/ovtable.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define STRIP_LINES 3
#define STRIP_HOSTS_MAX 6 /* several hosts: a line each, up to this many */
#define PROMPT_FILTER 1

struct ov_view {
	struct kt_ovsrc *src; /* this machine's, or the agent's (ovsrc.h) */
	struct kt_ov_snap snap;
	struct kt_sysstrip sys;
	struct kt_ovtable t;
	bool off[OVT_NCOLS]; /* hidden by the user */
	bool on[OVT_NCOLS];  /* shown at this width */
	size_t cursor, top;
	int cur_pid, cur_tid; /* the selected row, kept across ticks */
	unsigned int cur_host;
	bool drill;	      /* Enter was pressed: the next key picks the pane */
	bool choosing;	      /* C: the column chooser is open */
	int choice;	      /* its cursor, a column */
	bool counted;	      /* a tick has been read */
	bool syscalls_refused; /* the syscall hooks could not attach: not tried again */
	char filter_before[64];
	char refusal[256];
};

#define OVV(v) ((struct ov_view *)(v)->data)

static void host_labels(struct ov_view *o);

static void ovv_init(struct kt_view *v)
{
	struct ov_view *o = xcalloc(1, sizeof(*o));
	char err[256];
	size_t len;

	v->data = o;
	o->t.sort = OVT_CPU;
	o->cur_pid = o->cur_tid = -1;
	/* ktoprc's overview-hide, checked as it was read */
	if (ovtable_hide_parse(ui_ov_hide(v->ui, &len), o->off, err, sizeof(err)) < 0)
		memset(o->off, 0, sizeof(o->off));
	o->src = source_overview_open(v->app->source, v->app->opts->top_via, o->refusal, sizeof(o->refusal));
	if (o->src)
		host_labels(o); /* several hosts: the strip's lines while their first ticks come */
	if (o->src && !o->src->paced)
		sysstrip_sample(&o->sys); /* the first tick's baseline */
}

static void ovv_free(struct kt_view *v)
{
	struct ov_view *o = OVV(v);

	ui_prompt_drop(v->ui, v);
	ovsrc_close(o->src);
	overview_snap_free(&o->snap);
	ovtable_free(&o->t);
	free(o);
}

static void ovv_resize(struct kt_view *v)
{
	v->dirty = true;
}

/* Several hosts: how many (the table's). */
static unsigned hosts(const struct ov_view *o)
{
	return o->t.nhosts > 1 ? o->t.nhosts : 1;
}

/* The strip's lines: three for one host, one per host (STRIP_HOSTS_MAX at most). */
static int strip_lines(const struct ov_view *o)
{
	return hosts(o) == 1 ? STRIP_LINES :
	       hosts(o) > STRIP_HOSTS_MAX ? STRIP_HOSTS_MAX : (int)hosts(o);
}

/* The title, the strip, the column names. */
static int head_lines(const struct ov_view *o)
{
	return 1 + strip_lines(o) + 1;
}

static int rows_room(const struct kt_view *v)
{
	return v->h - head_lines(OVV(v)) - 1; /* the totals row */
}

/* The cursor back on the row it was on (by pid and tid), or kept in range. */
static void find_cursor(struct ov_view *o)
{
	size_t i;

	for (i = 0; i < o->t.nrows; i++)
		if (o->t.rows[i]->pid == o->cur_pid && o->t.rows[i]->tid == o->cur_tid &&
		    o->t.rows[i]->host == o->cur_host) {
			o->cursor = i;
			return;
		}
	if (o->cursor >= o->t.nrows)
		o->cursor = o->t.nrows ? o->t.nrows - 1 : 0;
}

static void note_cursor(struct ov_view *o)
{
	if (o->cursor < o->t.nrows) {
		o->cur_pid = o->t.rows[o->cursor]->pid;
		o->cur_tid = o->t.rows[o->cursor]->tid;
		o->cur_host = o->t.rows[o->cursor]->host;
	}
}

/* Several hosts: their labels for the table (HOST, the filter). */
static void host_labels(struct ov_view *o)
{
	struct kt_ovsrc_host h;
	unsigned n = ovsrc_hosts(o->src);

	o->t.nhosts = n > KT_OVT_HOSTS ? KT_OVT_HOSTS : n;
	for (unsigned i = 0; i < o->t.nhosts; i++)
		o->t.hosts[i] = ovsrc_host(o->src, i, &h) ? h.label : NULL;
}

static void rebuild(struct kt_view *v)
{
	struct ov_view *o = OVV(v);

	if (o->src)
		host_labels(o);
	ovtable_build(&o->t, &o->snap);
	find_cursor(o);
	v->dirty = true;
}

static void ovv_tick(struct kt_view *v)
{
	struct ov_view *o = OVV(v);

	bool got = false;

	if (!o->src || ui_paused(v->ui))
		return;
	/* an agent's ticks: the newest of those that came */
	while (ovsrc_update(o->src, &o->snap, &o->sys)) {
		got = true;
		if (!o->src->paced)
			break;
	}
	if (!got)
		return;
	o->counted = true;
	rebuild(v);
}

static void strip_cpu(const struct kt_sysstrip *s, const struct kt_ov_snap *snap, char *buf,
		      size_t len)
{
	size_t n;
	int i;

	n = (size_t)snprintf(buf, len, "CPU %5.1f%% [", s->cpu_pct);
	for (i = 0; i < s->ncpus && i < 8 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%.0f", i ? " " : "", s->cpu_busy[i]);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s] run %u blk %u", s->ncpus > 8 ? " ..." : "",
				      s->procs_running, s->procs_blocked);
	/* each CPU's run-queue length (tasks waiting there, on average over the tick) */
	for (i = 0; i < snap->ncpus && i < 8 && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%.1f", i ? " " : " rq [",
				      snap->cpu_runq_len[i]);
	if (snap->ncpus && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s]", snap->ncpus > 8 ? " ..." : "");
	if (n < len)
		snprintf(buf + n, len - n, "  runq p99 %.1fms  PSI %.1f",
			 (double)overview_quantile(snap->cpu_runq_slots, 0.99) / 1e6,
			 s->psi_cpu_some);
}

/* Every disk's requests and bytes over the tick, and the slowest one's latency: its p99
 * counted in the kernel (*counted), else /proc's mean. */
struct disk_sum {
	uint64_t r, w, rb, wb;
	double lat;
	bool counted;
};

static struct disk_sum disk_sum(const struct kt_sysstrip *s)
{
	struct disk_sum d = { 0 };

	for (int i = 0; i < s->ndisks; i++) {
		const struct kt_sys_disk *k = &s->disks[i];
		double lat = k->lat_counted ? k->p99_ms : k->avg_ms;

		d.r += k->reads;
		d.w += k->writes;
		d.rb += k->read_bytes;
		d.wb += k->write_bytes;
		d.counted = k->lat_counted;
		if (lat > d.lat)
			d.lat = lat;
	}
	return d;
}

static void strip_mem_io(const struct kt_sysstrip *s, char *buf, size_t len)
{
	double iv = s->interval_s > 0 ? s->interval_s : 1;
	struct disk_sum d = disk_sum(s);

	snprintf(buf, len, "Mem %.1fG avail/%.1fG PSI %.1f/%.1f  Disk %.0f r/s %.0f w/s %.0fK/s "
		 "%s %.1fms PSI io %.1f", (double)s->mem_available_kb / 1048576.0,
		 (double)s->mem_total_kb / 1048576.0, s->psi_mem_some, s->psi_mem_full,
		 (double)d.r / iv, (double)d.w / iv, (double)(d.rb + d.wb) / 1024 / iv,
		 d.counted ? "p99" : "avg", d.lat, s->psi_io_some);
}

static void strip_net_self(const struct kt_sysstrip *s, const struct kt_ov_snap *snap,
			   const char *source, char *buf, size_t len)
{
	double iv = s->interval_s > 0 ? s->interval_s : 1;
	char hooks[64];

	overview_hooks_text(snap, hooks, sizeof(hooks));
	snprintf(buf, len, "Net %.0f/%.0f pkt/s %.0fK/%.0fK/s drop %llu  ktop %.1f%% %luM  %s%s%s",
		 (double)s->net_rx_packets / iv, (double)s->net_tx_packets / iv,
		 (double)s->net_rx_bytes / 1024 / iv, (double)s->net_tx_bytes / 1024 / iv,
		 (unsigned long long)s->net_drops, s->self.cpu_pct, s->self.rss_kb / 1024, hooks,
		 hooks[0] ? "  " : "", source);
}

/* Several hosts: one host's strip in one line, most telling first (what does not fit the
 * width is cut from the end): CPU and its saturation, memory, disks, network, and where
 * its figures come from. Three full lines a host would leave an 80x24 screen no rows. */
static void strip_host(const struct kt_ovsrc_host *h, char *buf, size_t len)
{
	const struct kt_sysstrip *s = h->sys;
	double iv = s->interval_s > 0 ? s->interval_s : 1;
	struct disk_sum d = disk_sum(s);

	snprintf(buf, len, "%-10.10s CPU %5.1f%% run %u rq99 %.1fms | Mem %.1fG/%.1fG | "
		 "Disk %.0fr %.0fw/s %s %.1fms | Net %.0f/%.0f pkt/s | %s%s", h->label, s->cpu_pct,
		 s->procs_running, (double)overview_quantile(h->snap->cpu_runq_slots, 0.99) / 1e6,
		 (double)s->mem_available_kb / 1048576.0, (double)s->mem_total_kb / 1048576.0,
		 (double)d.r / iv, (double)d.w / iv, d.counted ? "p99" : "avg", d.lat,
		 (double)s->net_rx_packets / iv, (double)s->net_tx_packets / iv, h->source,
		 h->fresh ? "" : " (no tick this time)");
}

/* The strip from line 1: one host's in three lines, several hosts' a line each. */
static void draw_strip(struct kt_view *v, struct ov_view *o)
{
	struct kt_ovsrc_host h;
	char line[512];
	int y = 1;

	if (hosts(o) == 1) {
		strip_cpu(&o->sys, &o->snap, line, sizeof(line));
		crt_put_pad(v->win, 1, 0, line, v->w);
		strip_mem_io(&o->sys, line, sizeof(line));
		crt_put_pad(v->win, 2, 0, line, v->w);
		strip_net_self(&o->sys, &o->snap, ovsrc_source(o->src), line, sizeof(line));
		crt_put_pad(v->win, 3, 0, line, v->w);
		return;
	}
	for (unsigned i = 0; i < hosts(o) && y <= strip_lines(o); i++, y++) {
		if (y == strip_lines(o) && i + 1 < hosts(o)) {
			snprintf(line, sizeof(line), "... %u more hosts: their rows are in the "
				 "table (HOST)", hosts(o) - i);
		} else if (ovsrc_host(o->src, i, &h)) {
			strip_host(&h, line, sizeof(line));
		} else {
			snprintf(line, sizeof(line), "%-10.10s waiting for its first tick",
				 o->t.hosts[i] ? o->t.hosts[i] : "");
		}
		crt_put_pad(v->win, y, 0, line, v->w);
	}
}

static bool col_missing(const struct ov_view *o, enum kt_ovt_col c)
{
	const struct kt_ovt_colinfo *ci = ovtable_col(c);

	return ci->src != KT_OVC_N && *ovsrc_missing(o->src, ci->src);
}

/* One row's cells into line; name_w: COMMAND's width. */
static void format_row(const struct ov_view *o, const struct kt_ov_row *r, int name_w,
		       bool thread, char *line, size_t len)
{
	/* a thread under its process; a pinned process */
	const char *mark = thread ? "`" :
			   r->tid > 0 && ovtable_pinned(&o->t, r->host, r->pid) ? "*" : "";
	char cell[64];
	size_t n = 0;
	int c, w;

	line[0] = '\0';
	for (c = 0; c < OVT_NCOLS && n < len; c++) {
		if (!o->on[c])
			continue;
		/* a row's counts are over its host's tick */
		ovtable_cell((enum kt_ovt_col)c, r,
			     r->tid > 0 ? ovsrc_row_interval(o->src, &o->snap, r) :
					  o->snap.interval_s,
			     col_missing(o, c), cell, sizeof(cell));
		if (c == OVT_HOST) /* the total is every host's */
			snprintf(cell, sizeof(cell), "%s", r->tid > 0 ? ovtable_host(&o->t, r) : "");
		w = ovtable_col(c)->width;
		if (c == OVT_COMM)
			n += (size_t)snprintf(line + n, len - n, "%s%.*s%s", mark,
					      name_w - (int)strlen(mark), cell,
					      r->exited ? " (exited)" : "");
		else if (c == OVT_USER || c == OVT_CGROUP || c == OVT_HOST)
			n += (size_t)snprintf(line + n, len - n, "%-*.*s ", w, w, cell);
		else
			n += (size_t)snprintf(line + n, len - n, "%*.*s ", w, w, cell);
	}
}

static void draw_head(struct kt_view *v, struct ov_view *o)
{
	char line[512];
	size_t n = 0;
	int c, x = 0, w;

	for (c = 0; c < OVT_NCOLS; c++) {
		if (!o->on[c])
			continue;
		w = c == OVT_COMM ? v->w - x : ovtable_col(c)->width;
		n = (size_t)snprintf(line, sizeof(line), c == OVT_USER || c == OVT_CGROUP ||
				     c == OVT_COMM || c == OVT_HOST ? "%-*s" : "%*s", w,
				     ovtable_col(c)->head);
		wattrset(v->win, crt_attr(c == (int)o->t.sort ? CRT_CURSOR : CRT_DIM));
		crt_put_pad(v->win, head_lines(o) - 1, x, line, v->w - x);
		x += (int)n + 1;
		if (x >= v->w)
			break;
	}
	wattrset(v->win, A_NORMAL);
}

/* C: every column on the header line, hidden ones in lower case and dim, the chooser's
 * cursor on its column; scrolled so that it shows. */
static void draw_chooser(struct kt_view *v, struct ov_view *o)
{
	char head[16];
	int c, x, first = 0, w = 0;

	for (c = o->choice; c >= 0 && w + (int)strlen(ovtable_col(c)->head) + 1 <= v->w; c--) {
		w += (int)strlen(ovtable_col(c)->head) + 1;
		first = c;
	}
	for (c = first, x = 0; c < OVT_NCOLS && x < v->w; c++) {
		snprintf(head, sizeof(head), "%s", ovtable_col(c)->head);
		for (char *p = head; o->off[c] && *p; p++)
			*p = (char)tolower((unsigned char)*p);
		wattrset(v->win, crt_attr(c == o->choice ? CRT_CURSOR : o->off[c] ? CRT_DIM :
							   CRT_NORMAL));
		crt_put_pad(v->win, head_lines(o) - 1, x, head, v->w - x);
		x += (int)strlen(head) + 1;
	}
	wattrset(v->win, A_NORMAL);
}

/* A thread's row (unfolded), not its process's. */
static bool is_thread(const struct ov_view *o, const struct kt_ov_row *r)
{
	return r >= o->snap.threads && r < o->snap.threads + o->snap.nthreads;
}

static void draw_rows(struct kt_view *v, struct ov_view *o)
{
	int room = rows_room(v), y, name_w = v->w;
	char line[512];
	size_t i;

	for (i = 0; i < OVT_NCOLS - 1; i++)
		if (o->on[i])
			name_w -= ovtable_col((enum kt_ovt_col)i)->width + 1;
	if (o->cursor < o->top)
		o->top = o->cursor;
	if (room > 0 && o->cursor >= o->top + (size_t)room)
		o->top = o->cursor - (size_t)room + 1;
	for (i = o->top, y = head_lines(o); i < o->t.nrows && y < head_lines(o) + room;
	     i++, y++) {
		const struct kt_ov_row *r = o->t.rows[i];

		format_row(o, r, name_w, is_thread(o, r), line, sizeof(line));
		wattrset(v->win, i == o->cursor ? crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM) :
						  A_NORMAL);
		crt_put_pad(v->win, y, 0, line, v->w);
	}
	wattrset(v->win, crt_attr(CRT_TITLE));
	format_row(o, &o->t.total, name_w, false, line, sizeof(line));
	crt_put_pad(v->win, v->h - 1, 0, line, v->w);
	wattrset(v->win, A_NORMAL);
}

/* The syscall hooks, the dearest, run only while a column shows what they count. */
static void syscall_hooks(struct kt_view *v, struct ov_view *o)
{
	bool want = o->on[OVT_SYSC] || o->on[OVT_ERR] || o->on[OVT_P99];
	char err[256];

	if (o->syscalls_refused || want == ovsrc_syscalls_on(o->src))
		return;
	/* refused once (no BPF: /proc has no syscalls), said once */
	if (ovsrc_set_syscalls(o->src, want, err, sizeof(err)) < 0 && want) {
		o->syscalls_refused = true;
		if (strncmp(ovsrc_source(o->src), "/proc", 5))
			ui_message(v->ui, true, "overview: %s", err);
	}
}

static void ovv_draw(struct kt_view *v)
{
	struct ov_view *o = OVV(v);
	char title[160], of[32] = "";

	if (hosts(o) > 1)
		snprintf(of, sizeof(of), " of %u hosts", hosts(o));
	snprintf(title, sizeof(title), "Overview: %zu %s%s by %s%s%s%s%s", o->t.nrows,
		 o->t.threads ? "rows" : "processes", of, ovtable_col(o->t.sort)->head,
		 o->t.ascending ? " (up)" : "", o->t.filter[0] ? ", filter '" : "", o->t.filter,
		 o->t.filter[0] ? "'" : "");
	werase(v->win);
	view_draw_title(v, title, o->drill ? "pane? l q b g o f e" :
				  o->choosing ? "columns: Left Right, Space, Enter" : NULL);
	if (o->refusal[0]) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put_pad(v->win, 1, 1, o->refusal, v->w - 1);
		wattrset(v->win, A_NORMAL);
		return;
	}
	draw_strip(v, o);
	/* several hosts: HOST first, in a width the others fit beside */
	ovtable_fit(hosts(o) > 1 ? v->w - ovtable_col(OVT_HOST)->width - 1 : v->w, o->off, o->on);
	o->on[OVT_HOST] = hosts(o) > 1;
	syscall_hooks(v, o);
	if (o->choosing)
		draw_chooser(v, o);
	else
		draw_head(v, o);
	if (!o->counted) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put_pad(v->win, head_lines(o), 1, "counting: the first figures come after one "
			    "tick (-d)", v->w - 1);
		wattrset(v->win, A_NORMAL);
		return;
	}
	draw_rows(v, o);
}

/* The next (step 1) or previous (-1) column as the sort key, among those shown. */
static void next_sort(struct ov_view *o, int step)
{
	int c = (int)o->t.sort, i;

	for (i = 0; i < OVT_NCOLS; i++) {
		c = (c + step + OVT_NCOLS) % OVT_NCOLS;
		if (o->on[c])
			break;
	}
	o->t.sort = (enum kt_ovt_col)c;
	/* names read best A to Z, figures biggest first */
	o->t.ascending = c == OVT_USER || c == OVT_CGROUP || c == OVT_COMM || c == OVT_PID ||
			 c == OVT_HOST;
}

/* Enter, then k: the pane for the selected process. */
static void drill(struct kt_view *v, struct ov_view *o, int k)
{
	const struct kt_ov_row *r = o->t.rows[o->cursor];
	char spec[96], err[256];
	struct kt_view *to = NULL;
	pid_t pid = r->pid;

	o->drill = false;
	switch (k) {
	case 'l':
	case 'q':
		snprintf(spec, sizeof(spec), k == 'l' ? "syscall-latency,pid=%d,by=syscall" :
			 "runq-latency,pid=%d", (int)pid);
		to = ui_drill(v->ui, v, "hist");
		if (to)
			view_hist_build(to, spec);
		break;
	case 'b':
		/* the requests it issued, by disk: where its read/write bytes went, how slowly */
		snprintf(spec, sizeof(spec), "bio-latency,pid=%d,by=dev", (int)pid);
		to = ui_drill(v->ui, v, "hist");
		if (to)
			view_hist_build(to, spec);
		break;
	case 'g':
	case 'o':
		to = ui_drill(v->ui, v, "flame");
		if (to)
			flame_live_open_pid(to, pid, k == 'o');
		break;
	case 'f':
		to = ui_drill(v->ui, v, "flame");
		if (to)
			flame_live_open_faults(to, pid);
		break;
	case 'e':
		if (app_set_scope(v->app, &pid, 1, false, err, sizeof(err)) < 0 ||
		    (source_enabled_count(v->app->source) <= 0 &&
		     app_set_events(v->app, "sched:sched_switch", true, err, sizeof(err)) < 0)) {
			ui_message(v->ui, true, "%s", err);
			break;
		}
		ui_drill(v->ui, v, "stream");
		ui_message(v->ui, false, "the stream shows pid %d only (O: back to the overview)",
			   (int)pid);
		break;
	default:
		ui_message(v->ui, false, "no pane on '%c': l syscall latency, q run-queue latency,"
			   " b block I/O latency, g on-CPU, o off-CPU, f faults flame graph, e events",
			   k);
	}
	/* the panes open on every agent: the row's host's figures are under its label */
	if (to && hosts(o) > 1 && k != 'e')
		ui_message(v->ui, false, "pid %d of %s: its figures are those under %s (each "
			   "host's pid %d under its label)", (int)pid, ovtable_host(&o->t, r),
			   ovtable_host(&o->t, r), (int)pid);
}

/* The pane behind a column's cells, as drill's key; 0: none (Enter asks for one). */
static int cell_pane(enum kt_ovt_col c)
{
	switch (c) {
	case OVT_CPU: return 'g';
	case OVT_RUNQ: case OVT_RUNQ_P99: return 'q';
	case OVT_OFF: case OVT_OFF_D: return 'o';
	case OVT_SYSC: case OVT_ERR: case OVT_P99: return 'l';
	case OVT_MINFLT: case OVT_MAJFLT: return 'f';
	case OVT_IO: return 'b';
	default: return 0;
	}
}

/* Enter: the pane behind the cell (the cursor's row, the sorted column), or the choice. */
static void enter(struct kt_view *v, struct ov_view *o)
{
	const struct kt_ov_row *r = o->t.rows[o->cursor];
	int k = cell_pane(o->t.sort);

	if (k) {
		drill(v, o, k);
		return;
	}
	o->drill = true;
	ui_message(v->ui, false, "%s%s%d %s: l syscall latency, q run-queue, b block I/O, g on-CPU, "
		   "o off-CPU, f faults flame graph, e events (Esc: none)", ovtable_host(&o->t, r),
		   hosts(o) > 1 ? ": " : "", r->pid, r->comm);
}

/* *: the cursor's process pinned at the top, or no longer (Space pages, as everywhere). */
static void pin(struct kt_view *v, struct ov_view *o)
{
	const struct kt_ov_row *r = o->t.rows[o->cursor];

	if (!ovtable_pin(&o->t, r->host, r->pid)) {
		ui_message(v->ui, true, "%d processes are pinned already: * on one unpins it",
			   KT_OVT_PINS);
		return;
	}
	ui_message(v->ui, false, "%s%s%d %s %s", ovtable_host(&o->t, r), hosts(o) > 1 ? ": " : "",
		   r->pid, r->comm, ovtable_pinned(&o->t, r->host, r->pid) ?
		   "pinned at the top (*: unpin)" : "unpinned");
	rebuild(v);
}

/* The chooser's keys: Left and Right move, Space shows or hides (PID and COMMAND stay),
 * Enter, Esc or C close it. Every key is its while it is open. */
static int choose_key(struct kt_view *v, struct ov_view *o, int key)
{
	size_t len;
	char *keep;

	switch (key) {
	case KEY_LEFT: case 'h': o->choice = (o->choice + OVT_NCOLS - 1) % OVT_NCOLS; break;
	case KEY_RIGHT: case 'l': o->choice = (o->choice + 1) % OVT_NCOLS; break;
	case ' ':
		if (o->choice == OVT_PID || o->choice == OVT_COMM || o->choice == OVT_HOST) {
			ui_message(v->ui, true, "PID, COMMAND and (several hosts) HOST always show");
			break;
		}
		o->off[o->choice] = !o->off[o->choice];
		keep = ui_ov_hide(v->ui, &len);
		ovtable_hide_text(o->off, keep, len);
		ui_message(v->ui, false, "%s %s (S saves it, as the exit does)",
			   ovtable_col(o->choice)->head, o->off[o->choice] ? "hidden" : "shown");
		break;
	case '\n': case '\r': case KEY_ENTER: case 27: case 'C':
		o->choosing = false;
		break;
	default:
		break;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static int move_key(struct ov_view *o, int key, int room)
{
	size_t page = room > 1 ? (size_t)room - 1 : 1;

	switch (key) {
	case KEY_UP: case 'k': if (o->cursor) o->cursor--; break;
	case KEY_DOWN: case 'j': o->cursor++; break;
	case KEY_PPAGE: o->cursor = o->cursor > page ? o->cursor - page : 0; break;
	case KEY_NPAGE: o->cursor += page; break;
	case KEY_HOME: case 'g': o->cursor = 0; break;
	case KEY_END: case 'G': o->cursor = o->t.nrows; break;
	default: return KT_KEY_IGNORED;
	}
	if (o->cursor >= o->t.nrows)
		o->cursor = o->t.nrows ? o->t.nrows - 1 : 0;
	note_cursor(o);
	return KT_KEY_HANDLED;
}

static int ovv_key(struct kt_view *v, int key)
{
	struct ov_view *o = OVV(v);

	if (o->refusal[0])
		return KT_KEY_IGNORED;
	if (o->choosing)
		return choose_key(v, o, key);
	if (o->drill) {
		if (key != 27 && o->cursor < o->t.nrows)
			drill(v, o, key);
		o->drill = false;
		v->dirty = true;
		return KT_KEY_HANDLED;
	}
	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		if (o->cursor < o->t.nrows)
			enter(v, o);
		break;
	case '*':
		if (o->cursor < o->t.nrows)
			pin(v, o);
		break;
	case 'C':
		o->choosing = true;
		o->choice = OVT_CPU;
		ui_message(v->ui, false, "columns: Left and Right pick one, Space shows or hides it, "
			   "Enter done");
		break;
	case 's': case '>': next_sort(o, 1); rebuild(v); break;
	case '<': next_sort(o, -1); rebuild(v); break;
	case 'r': o->t.ascending = !o->t.ascending; rebuild(v); break;
	case 'u': o->t.threads = !o->t.threads; rebuild(v); break;
	case '/':
		snprintf(o->filter_before, sizeof(o->filter_before), "%s", o->t.filter);
		ui_prompt_open(v->ui, v, PROMPT_FILTER, "Overview filter (name, user, cgroup): ",
			       o->t.filter);
		break;
	default:
		if (move_key(o, key, rows_room(v)) == KT_KEY_IGNORED)
			return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void ovv_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	struct ov_view *o = OVV(v);

	if (id != PROMPT_FILTER)
		return;
	snprintf(o->t.filter, sizeof(o->t.filter), "%s",
		 ev == KT_PROMPT_CANCEL ? o->filter_before : text);
	o->cursor = 0;
	rebuild(v);
	note_cursor(o);
}

static const struct funcbar_item ov_items[] = {
	{ "Enter", "Drill" }, { "s", "Sort" },	  { "r", "Reverse" }, { "/", "Filter" },
	{ "u", "Threads" },   { "*", "Pin" },	  { "C", "Columns" }, { "F10", "Quit" },
};

static int ovv_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	(void)v;
	*items = ov_items;
	return (int)(sizeof(ov_items) / sizeof(ov_items[0]));
}

static const struct kt_keyhelp overview_keys[] = {
	{ "Enter", "then l q b g o f e: syscall / run-queue /" },
	{ "", "block I/O latency, on-/off-CPU / faults" },
	{ "", "flame graph, events of the selected task" },
	{ "s < >", "sort column" },
	{ "r", "reverse the order" },
	{ "u", "threads / processes" },
	{ "/", "filter: name, user, cgroup" },
	{ "*", "pin the process at the top / unpin" },
	{ "C", "columns: Left Right pick, Space hides" },
	{ NULL, NULL },
};

/* After Enter the next letter picks the pane; the column chooser takes Space and h l as
 * its own. */
static bool overview_typing(struct kt_view *v)
{
	return OVV(v)->drill || OVV(v)->choosing;
}

const struct kt_view_ops view_overview_ops = {
	.name = "overview",
	.title = "Overview (O)",
	.keys = overview_keys,
	.typing = overview_typing,
	.init = ovv_init,
	.free = ovv_free,
	.resize = ovv_resize,
	.draw = ovv_draw,
	.key = ovv_key,
	.tick = ovv_tick,
	.prompt = ovv_prompt,
	.funcbar = ovv_funcbar,
};
