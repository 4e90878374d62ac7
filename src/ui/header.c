// SPDX-License-Identifier: GPL-2.0-or-later
/* The header lines (htop Header/Meter, without the meter zoo). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "source/source.h"
#include "ui/header.h"

int header_lines(const struct kt_app *app)
{
	return KT_HEADER_LINES + (app->opts && app->opts->n_remotes > 1);
}

void header_refresh(struct kt_header *h, struct kt_app *app)
{
	char *t;

	if (!app_can(app, KT_CAP_EVENTS))
		return;
	t = source_tracer(app->source);
	if (t) {
		free(h->tracer);
		h->tracer = t;
	}
	h->enabled = source_enabled_count(app->source);
	h->sampled = true;
}

void header_free(struct kt_header *h)
{
	free(h->tracer);
	h->tracer = NULL;
}

char *header_fmt_count(double v, char *buf, size_t len)
{
	if (v < 0)
		v = 0;
	if (v < 10000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else
		snprintf(buf, len, "%.1fG", v / 1e9);
	return buf;
}

char *header_fmt_bytes(double v, char *buf, size_t len)
{
	static const char units[] = "BKMGT";
	int u = 0;

	if (v < 0)
		v = 0;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0fB", v);
	else
		snprintf(buf, len, v < 10 ? "%.1f%c" : "%.0f%c", v, units[u]);
	return buf;
}

/* "3.2 MiB 1.4 s": how far behind a remote agent is. */
static void fmt_behind(uint64_t bytes, uint64_t ns, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s %.1f s" : "%.0f %s %.1f s", v, units[u], (double)ns / 1e9);
}

/* Appends "label value" at *x if it fits before limit; a field that does not fit is left
 * out whole rather than cut. */
static void field(WINDOW *win, int y, int *x, int limit, const char *label, const char *value,
		  enum crt_elem vattr)
{
	int need = (int)strlen(label) + (int)strlen(value) + 2;

	if (*x + need > limit)
		return;
	wattrset(win, crt_attr(CRT_HEADER_LABEL));
	*x += crt_put(win, y, *x, label, limit - *x);
	wattrset(win, crt_attr(vattr));
	*x += crt_put(win, y, *x, value, limit - *x);
	wattrset(win, crt_attr(CRT_HEADER));
	*x += crt_put(win, y, *x, "  ", limit - *x);
}

/* "+1234ns", "-3.5ms", "12us": ns, short; signed when sign is set. */
static void fmt_ns(int64_t v, bool sign, char *buf, size_t len)
{
	double a = v < 0 ? -(double)v : (double)v;
	const char *s = sign ? (v < 0 ? "-" : "+") : "";

	if (a < 10000)
		snprintf(buf, len, "%s%.0fns", s, a);
	else if (a < 1e7)
		snprintf(buf, len, "%s%.1fus", s, a / 1e3);
	else if (a < 1e10)
		snprintf(buf, len, "%s%.1fms", s, a / 1e6);
	else
		snprintf(buf, len, "%s%.3fs", s, a / 1e9);
}

/* One host: "db-1 +1234ns±56", then ENDED or how far behind, whole at *x if it fits. */
static void host_field(WINDOW *win, int y, int *x, int limit, const struct kt_source_host *h)
{
	const struct crt_glyphs *g = crt_glyphs();
	char off[32] = "offset ?", unc[32] = "", tail[64] = "";
	int need;

	if (h->clock) {
		fmt_ns(h->offset_ns, true, off, sizeof(off));
		fmt_ns((int64_t)h->uncertainty_ns, false, unc, sizeof(unc));
	}
	if (h->ended) {
		snprintf(tail, sizeof(tail), " ENDED");
	} else if (h->behind_ns) {
		snprintf(tail, sizeof(tail), " behind ");
		fmt_behind(h->behind_bytes, h->behind_ns, tail + 8, sizeof(tail) - 8);
	}
	need = (int)(strlen(h->label) + 1 + strlen(off) + strlen(unc) + strlen(tail)) + 2 +
	       (h->clock ? g->plusminus_w : 0);
	if (*x + need > limit)
		return;
	wattrset(win, crt_attr(CRT_HEADER_LABEL));
	*x += crt_put(win, y, *x, h->label, limit - *x);
	*x += crt_put(win, y, *x, " ", limit - *x);
	wattrset(win, crt_attr(CRT_HEADER_VALUE));
	*x += crt_put(win, y, *x, off, limit - *x);
	if (h->clock) {
		mvwaddstr(win, y, *x, g->plusminus);
		*x += g->plusminus_w;
		*x += crt_put(win, y, *x, unc, limit - *x);
	}
	wattrset(win, crt_attr(CRT_HEADER_WARN));
	*x += crt_put(win, y, *x, tail, limit - *x);
	wattrset(win, crt_attr(CRT_HEADER));
	*x += crt_put(win, y, *x, "  ", limit - *x);
}

/* Several remote hosts, on line y, one host_field each in order; from the first that does
 * not fit the line ends with how many were left out ("+3 hosts"). */
static void header_hosts(WINDOW *win, int y, int w, const struct kt_source_desc *d)
{
	char more[32];
	unsigned i;
	int x = 0, before;

	for (i = 0; i < d->n_hosts; i++) {
		before = x;
		/* room for "+N hosts" after all but the last */
		host_field(win, y, &x, i + 1 < d->n_hosts ? w - 11 : w, &d->hosts[i]);
		if (x == before)
			break;
	}
	if (i < d->n_hosts) {
		snprintf(more, sizeof(more), "+%u host%s", d->n_hosts - i,
			 d->n_hosts - i > 1 ? "s" : "");
		field(win, y, &x, w, "", more, CRT_HEADER_WARN);
	}
}

/* An offline source (ktop -i): what the recording is (host, kernel, span, events) in place
 * of the live session's instance, tracer and rate. */
static void header_recording(WINDOW *win, int *x, int limit, struct kt_app *app)
{
	struct kt_source_desc info;
	char a[64], v[160];

	source_describe(app->source, &info);
	wattrset(win, crt_attr(CRT_HEADER_STATE));
	*x += crt_put(win, 0, *x, "RECORDING ", limit - *x);
	wattrset(win, crt_attr(CRT_HEADER_VALUE));
	*x += crt_put(win, 0, *x, info.name, limit - *x);
	*x += crt_put(win, 0, *x, "  ", limit - *x);
	field(win, 0, x, limit, "host: ", info.host[0] ? info.host : "?", CRT_HEADER_VALUE);
	field(win, 0, x, limit, "kernel: ", info.kernel[0] ? info.kernel : "?",
	      CRT_HEADER_VALUE);
	snprintf(v, sizeof(v), "%.3fs",
		 info.last_ts > info.first_ts ? (double)(info.last_ts - info.first_ts) / 1e9 : 0.0);
	field(win, 0, x, limit, "duration: ", v, CRT_HEADER_VALUE);
	snprintf(v, sizeof(v), "%s%s", header_fmt_count((double)info.events, a, sizeof(a)),
		 info.complete ? "" : " (reading...)");
	field(win, 0, x, limit, "events: ", v, CRT_HEADER_VALUE);
	if (info.corrupt_page[0]) /* shown up to there: say so where it cannot be missed */
		field(win, 0, x, limit, "", "CORRUPT (see ktop -b -i)", CRT_HEADER_WARN);
}

void header_draw(struct kt_header *h, WINDOW *win, int w, int lines, struct kt_app *app,
		 const char *state, bool paused)
{
	char a[64], b[64], v[160];
	const char *word = paused ? "PAUSED" : state;
	struct kt_source_desc desc = { 0 };
	int x = 0, y, limit = w, ww;
	uint64_t lost;
	bool unknown;

	wattrset(win, crt_attr(CRT_HEADER));
	for (y = 0; y < lines; y++)
		crt_fill(win, y, 0, w);
	if (lines <= 0)
		return;
	/* The state word is right-aligned and never dropped. */
	if (word) {
		ww = (int)strlen(word);
		if (ww + 1 < w) {
			limit = w - ww - 1;
			wattrset(win, crt_attr(paused ? CRT_PAUSED : CRT_HEADER_STATE));
			crt_put(win, 0, w - ww, word, ww);
		}
	}
	if (app_can(app, KT_CAP_SEEK)) {
		header_recording(win, &x, limit, app);
	} else if (app->opts->flame_path) {
		/* a file of stacks: no tracer, no events, nothing live */
		wattrset(win, crt_attr(CRT_HEADER_VALUE));
		x += crt_put(win, 0, x, "ktop  ", limit);
		field(win, 0, &x, limit, "folded stacks: ", app->opts->flame_path,
		      CRT_HEADER_VALUE);
	} else {
		source_describe(app->source, &desc);
		wattrset(win, crt_attr(CRT_HEADER_VALUE));
		/* at most half the line: a long --via command leaves room for the scope */
		x += crt_put(win, 0, x, desc.name, limit < w / 2 ? limit : w / 2);
		x += crt_put(win, 0, x, "  ", limit - x);
		field(win, 0, &x, limit, "tracer: ", h->tracer ? h->tracer : "?",
		      CRT_HEADER_VALUE);
		if (app->scope_desc[0]) /* the capture is limited: say so */
			field(win, 0, &x, limit, "scope: ", app->scope_desc, CRT_HEADER_WARN);
		snprintf(v, sizeof(v), "%d", h->enabled);
		field(win, 0, &x, limit, "enabled: ", v, CRT_HEADER_VALUE);
		snprintf(v, sizeof(v), "%s/s", header_fmt_count(app->events_per_sec, a, sizeof(a)));
		field(win, 0, &x, limit, "rate: ", v, CRT_HEADER_VALUE);
		/* exact, like lost: the two add up to what the kernel wrote; last, the first
		 * field a narrow terminal leaves out */
		snprintf(v, sizeof(v), "%llu", (unsigned long long)app->rstats.events);
		field(win, 0, &x, limit, "events: ", v, CRT_HEADER_VALUE);
	}

	if (lines < 2) {
		wattrset(win, A_NORMAL);
		return;
	}
	x = 0;
	if (h->range[0]) /* what every pane is scoped to: first, never dropped */
		field(win, 1, &x, w, "range: ", h->range, CRT_HEADER_WARN);
	/* The ring buffer's counters and the pages' missed-events counts describe the same
	 * losses from two sides; the larger one is the better estimate, adding them would
	 * count some losses twice. The kernel's counters are complete (every page that says
	 * it missed events missed at least one): shown exact, "+?" only when they are not
	 * there (a recording without them) and a page did not say how many it missed. */
	lost = app->kernel_lost > app->rstats.missed ? app->kernel_lost : app->rstats.missed;
	unknown = app->kernel_lost < app->rstats.missed + app->rstats.missed_unknown;
	snprintf(v, sizeof(v), "%llu%s", (unsigned long long)lost, unknown ? "+?" : "");
	field(win, 1, &x, w, "lost: ", v, lost || unknown ? CRT_HEADER_WARN : CRT_HEADER_VALUE);
	if (app->rstats.sideband_lost) { /* names and mappings: only once some are lost */
		snprintf(v, sizeof(v), "%llu", (unsigned long long)app->rstats.sideband_lost);
		field(win, 1, &x, w, "side band lost: ", v, CRT_HEADER_WARN);
	}
	if (desc.behind_ns) { /* a remote agent's backlog, only while it is behind */
		fmt_behind(desc.behind_bytes, desc.behind_ns, v, sizeof(v));
		field(win, 1, &x, w, "behind ", v, CRT_HEADER_WARN);
	}
	/* a recording's store is a window moving over the file: nothing is evicted for good */
	if (!app_can(app, KT_CAP_SEEK)) {
		header_fmt_count((double)app->sstats.evicted, v, sizeof(v));
		field(win, 1, &x, w, "evicted: ", v,
		      app->sstats.evicted ? CRT_HEADER_WARN : CRT_HEADER_VALUE);
	}
	snprintf(v, sizeof(v), "%s/%s", header_fmt_bytes((double)app->sstats.bytes, a, sizeof(a)),
		 header_fmt_bytes((double)app->sstats.budget, b, sizeof(b)));
	field(win, 1, &x, w, "store: ", v, CRT_HEADER_VALUE);
	snprintf(v, sizeof(v), "%.1f%% cpu %s rss", app->self.cpu_pct,
		 header_fmt_bytes((double)app->self.rss_kb * 1024, a, sizeof(a)));
	field(win, 1, &x, w, "ktop: ", v, CRT_HEADER_VALUE);
	if (lines > 2 && desc.n_hosts > 1)
		header_hosts(win, 2, w, &desc);
	wattrset(win, A_NORMAL);
}
