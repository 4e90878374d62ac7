// SPDX-License-Identifier: GPL-2.0-or-later
/* The event picker pane: every available event, grouped by system under foldable headers,
 * narrowed by fuzzy typing (best first). Space enables or disables an event (or a whole
 * system) live; Enter shows the event's fields and asks for a filter expression, and a
 * rejected filter shows the kernel's own message, caret included, in the pane. Ctrl-T asks
 * for a trigger on the event ("traceoff:1 if prev_pid == 1", or "stop [if FILTER]" for the
 * stop-when recipe), Ctrl-R removes its triggers; an event's triggers show beside it. Ctrl-K
 * puts the event's kernel stack on each of its rows (a stacktrace trigger), or takes it off. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "app/app.h"
#include "backend/tracefs/catalog.h"
#include "backend/ingest/decode.h"
#include "backend/callgraph/evstack.h"
#include "backend/tracefs/filtercheck.h"
#include "backend/tracefs/triggers.h"
#include "util/log.h"
#include "source/source.h"
#include "app/stopwhen.h"
#include "ui/complete.h"
#include "ui/funcbar.h"
#include "ui/view.h"
#include "util/xalloc.h"
#include "util/clock.h"

#define PROMPT_FILTER 1
#define PROMPT_TRIGGER 2
#define TEXT_MAX 128

struct pgroup {
	const char *system;
	size_t first, count; /* catalog events [first, first + count) */
	bool open;	     /* unfolded (when not narrowing) */
	int best, nmatch;    /* narrowing: best score, matching events */
};

/* PROW_ALL: while the typed text is a glob (*:*, sched:sched_*), the first row, standing
 * for every event it matches: Space turns them all on or off at once. */
enum prow_kind { PROW_SYS, PROW_EVENT, PROW_ALL };

struct prow {
	enum prow_kind kind;
	int group;
	size_t ev; /* PROW_EVENT: catalog index */
};

struct picker {
	const struct kt_catalog *cat;
	struct pgroup *groups;
	int ngroups;
	signed char *enabled; /* per catalog event: 1, 0, or -1 unknown */
	char **trig;	      /* per catalog event: its triggers as the kernel lists them, joined
			       * by "; ", or NULL (only ktop writes its instance: read at start,
			       * then where ktop adds or removes, counts on the tick) */
	size_t ntrig;	      /* its entries: the catalogue may be gone when they are freed
			       * (a probe made or deleted replaces it first) */
	int *score;	      /* per catalog event while narrowing; -1 no match */
	struct prow *rows;
	int nrows;
	int sel, top;
	char text[TEXT_MAX];  /* what the user typed */

	/* the detail area: fields, filter, the kernel's complaint */
	bool detail;
	size_t dev;
	char **fields; /* "type name" */
	int nfields;
	bool no_format;
	char *filter;  /* in force, or NULL */
	char *error;   /* rejected filter: the kernel's lines (or ktop's check), or NULL */
	struct tep_event *tev; /* the event's parsed format, NULL without one */
	const char **names;    /* what a filter may name (filter_field_names) */
	char hint[256];	       /* Tab's candidates, while several match */
};

static struct picker *P(struct kt_view *v)
{
	return v->data;
}

static const struct kt_event_desc *ev_at(struct picker *pk, size_t i)
{
	return &pk->cat->events[i];
}

static void build_groups(struct picker *pk)
{
	size_t i;

	for (i = 0; i < pk->cat->count; i++) {
		const char *sys = pk->cat->events[i].system;

		if (!pk->ngroups || strcmp(pk->groups[pk->ngroups - 1].system, sys)) {
			pk->groups = xreallocarray(pk->groups, pk->ngroups + 1,
						   sizeof(*pk->groups));
			pk->groups[pk->ngroups] = (struct pgroup){ .system = sys, .first = i };
			pk->ngroups++;
		}
		pk->groups[pk->ngroups - 1].count++;
	}
}

static long find_event(struct picker *pk, const char *sys, const char *name)
{
	int g;
	size_t i;

	for (g = 0; g < pk->ngroups; g++) {
		const struct pgroup *gr = &pk->groups[g];

		if (strcmp(gr->system, sys))
			continue;
		for (i = gr->first; i < gr->first + gr->count; i++)
			if (!strcmp(ev_at(pk, i)->name, name))
				return (long)i;
	}
	return -1;
}

static void mark_enabled(const char *system, const char *event, void *ctx)
{
	struct picker *pk = ctx;
	long i = find_event(pk, system, event);

	if (i >= 0)
		pk->enabled[i] = 1;
}

/* What is enabled, in one read of the instance's set_event. Returns false when the file
 * cannot be read. */
static bool read_set_event(struct kt_view *v, struct picker *pk)
{
	memset(pk->enabled, 0, pk->cat->count * sizeof(*pk->enabled));
	return source_for_each_enabled(v->app->source, mark_enabled, pk) >= 0;
}

static void read_enabled(struct kt_view *v, struct picker *pk)
{
	size_t i;

	if (read_set_event(v, pk))
		return;
	for (i = 0; i < pk->cat->count; i++)
		pk->enabled[i] = source_is_enabled(v->app->source, pk->cat->events[i].system,
						    pk->cat->events[i].name) ? 1 : 0;
}

static int group_state(struct picker *pk, const struct pgroup *g)
{
	size_t i, on = 0, unknown = 0;

	for (i = g->first; i < g->first + g->count; i++) {
		if (pk->enabled[i] < 0)
			unknown++;
		else if (pk->enabled[i])
			on++;
	}
	if (on == g->count)
		return 1;
	if (!on)
		return unknown ? -2 : 0;
	return -1; /* some */
}

static void add_row(struct picker *pk, enum prow_kind kind, int group, size_t ev)
{
	pk->rows[pk->nrows++] = (struct prow){ kind, group, ev };
}

static const struct pgroup *sort_groups_base;
static const int *sort_score;

static int cmp_group(const void *a, const void *b)
{
	const struct pgroup *ga = &sort_groups_base[*(const int *)a];
	const struct pgroup *gb = &sort_groups_base[*(const int *)b];

	if (ga->best != gb->best)
		return gb->best - ga->best;
	return strcmp(ga->system, gb->system);
}

static int cmp_event(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;

	if (sort_score[ia] != sort_score[ib])
		return sort_score[ib] - sort_score[ia];
	return ia < ib ? -1 : ia > ib;
}

static bool text_is_glob(const struct picker *pk)
{
	return strpbrk(pk->text, "*?[") != NULL;
}

/* How many events the typed text selects; the state of all of them like group_state(). */
static int glob_state(struct picker *pk, int *count)
{
	size_t i, n = 0, on = 0;

	for (i = 0; i < pk->cat->count; i++) {
		if (pk->score[i] < 0)
			continue;
		n++;
		on += pk->enabled[i] == 1;
	}
	*count = (int)n;
	return on == n ? 1 : on ? -1 : 0;
}

/* The visible rows: every system, unfolded ones with their events; while narrowing, only
 * systems with matches, best first, and their matching events best first. A glob matches
 * like -e does (every match scores the same) and puts the PROW_ALL row first. */
static void rebuild(struct picker *pk)
{
	char full[256];
	size_t i, j;
	int g, k, *order;
	size_t *evs;

	pk->nrows = 0;
	if (!pk->text[0]) {
		for (g = 0; g < pk->ngroups; g++) {
			add_row(pk, PROW_SYS, g, 0);
			if (pk->groups[g].open)
				for (i = 0; i < pk->groups[g].count; i++)
					add_row(pk, PROW_EVENT, g, pk->groups[g].first + i);
		}
		return;
	}
	order = xcalloc(pk->ngroups ? pk->ngroups : 1, sizeof(*order));
	evs = xcalloc(pk->cat->count ? pk->cat->count : 1, sizeof(*evs));
	for (g = 0, k = 0; g < pk->ngroups; g++) {
		struct pgroup *gr = &pk->groups[g];

		gr->best = -1;
		gr->nmatch = 0;
		for (i = gr->first; i < gr->first + gr->count; i++) {
			snprintf(full, sizeof(full), "%s:%s", ev_at(pk, i)->system,
				 ev_at(pk, i)->name);
			if (text_is_glob(pk))
				pk->score[i] = app_spec_selects(pk->text, ev_at(pk, i)) ? 0 : -1;
			else
				pk->score[i] = catalog_fuzzy_score(pk->text, full);
			if (pk->score[i] < 0)
				continue;
			gr->nmatch++;
			if (pk->score[i] > gr->best)
				gr->best = pk->score[i];
		}
		if (gr->nmatch)
			order[k++] = g;
	}
	sort_groups_base = pk->groups;
	sort_score = pk->score;
	qsort(order, k, sizeof(*order), cmp_group);
	if (k && text_is_glob(pk))
		add_row(pk, PROW_ALL, 0, 0);
	for (j = 0; j < (size_t)k; j++) {
		struct pgroup *gr = &pk->groups[order[j]];
		size_t n = 0;

		add_row(pk, PROW_SYS, order[j], 0);
		for (i = gr->first; i < gr->first + gr->count; i++)
			if (pk->score[i] >= 0)
				evs[n++] = i;
		qsort(evs, n, sizeof(*evs), cmp_event);
		for (i = 0; i < n; i++)
			add_row(pk, PROW_EVENT, order[j], evs[i]);
	}
	free(order);
	free(evs);
}

/* The triggers of event i, read again from the kernel (counts go down as they fire). */
static void read_trigger(struct kt_view *v, struct picker *pk, size_t i)
{
	const struct kt_event_desc *e = ev_at(pk, i);
	char *t = source_trigger_list(v->app->source, e->system, e->name), *p;

	for (p = t; p && (p = strchr(p, '\n')); )
		*p = ';'; /* one line beside the event */
	free(pk->trig[i]);
	pk->trig[i] = t;
}

static void mark_triggers(const char *system, const char *event, void *ctx)
{
	struct kt_view *v = ctx;
	long i = find_event(P(v), system, event);

	if (i >= 0)
		read_trigger(v, P(v), (size_t)i);
}

static void picker_init(struct kt_view *v)
{
	struct picker *pk = xcalloc(1, sizeof(*pk));
	unsigned long long t0;
	size_t n;

	v->data = pk;
	pk->cat = v->app->catalog;
	if (!pk->cat)
		return;
	n = pk->cat->count ? pk->cat->count : 1;
	pk->enabled = xcalloc(n, sizeof(*pk->enabled));
	pk->score = xcalloc(n, sizeof(*pk->score));
	build_groups(pk);
	/* A row per event plus one per system at most. */
	pk->rows = xcalloc(n + pk->ngroups + 1, sizeof(*pk->rows));
	pk->trig = xcalloc(n, sizeof(*pk->trig));
	pk->ntrig = n;
	t0 = clock_mono_ns();
	read_enabled(v, pk);
	source_triggers_for_each(v->app->source, mark_triggers, v);
	log_debug("%s: enable states and triggers of %zu events read in %llu us", __func__,
		  pk->cat->count, (clock_mono_ns() - t0) / 1000);
	rebuild(pk);
}

static void clear_detail(struct picker *pk)
{
	int i;

	for (i = 0; i < pk->nfields; i++)
		free(pk->fields[i]);
	free(pk->fields);
	pk->fields = NULL;
	pk->nfields = 0;
	free(pk->filter);
	pk->filter = NULL;
	free(pk->error);
	pk->error = NULL;
	free(pk->names);
	pk->names = NULL;
	pk->tev = NULL;
	pk->hint[0] = '\0';
	pk->detail = false;
	pk->no_format = false;
}

static void picker_free(struct kt_view *v)
{
	struct picker *pk = P(v);

	clear_detail(pk);
	for (size_t i = 0; i < pk->ntrig; i++)
		free(pk->trig[i]);
	free(pk->trig);
	free(pk->groups);
	free(pk->enabled);
	free(pk->score);
	free(pk->rows);
	free(pk);
	v->data = NULL;
}

static void picker_resize(struct kt_view *v)
{
}

/* --- drawing --- */

/* Rows the kernel's message takes at this width (see draw_error_line). */
static int error_rows(struct kt_view *v, const char *p)
{
	int room = v->w > 3 ? v->w - 2 : 1, n = 0;

	while (*p) {
		int l = (int)strcspn(p, "\n");

		/* wrapping at word boundaries may take a row more than the division says */
		n += *p == ' ' || l <= room ? 1 : l / room + 2;
		p += l;
		if (*p == '\n')
			p++;
	}
	return n;
}

static int detail_height(struct kt_view *v, struct picker *pk)
{
	int want, avail = v->h - 3, max;

	if (!pk->detail || avail < 3)
		return 0;
	/* separator + title + the kernel's complaint + fields (two a row, roughly) */
	want = 2 + (pk->nfields + 1) / 2 + (pk->error ? error_rows(v, pk->error) : 0) +
	       (pk->hint[0] != '\0') + (pk->trig[pk->dev] != NULL);
	/* A rejection matters more than the list: leave the list a single row then. */
	max = pk->error ? avail - 1 : avail / 2;
	if (want > max)
		want = max;
	return want < 3 ? 3 : want;
}

static void draw_mark(struct kt_view *v, int y, int x, int state)
{
	const char *m = state == 1 ? "[x]" : state == -1 ? "[-]" : state == -2 ? "[?]" : "[ ]";

	wattrset(v->win, state == 1 || state == -1 ? crt_attr(CRT_ENABLED) : A_NORMAL);
	crt_put(v->win, y, x, m, v->w - x);
}

static void draw_row(struct kt_view *v, struct picker *pk, int y, const struct prow *r)
{
	const struct crt_glyphs *gl = crt_glyphs();
	bool sel = &pk->rows[pk->sel] == r;
	attr_t cursor = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	char buf[256];
	int x;

	if (r->kind == PROW_ALL) {
		int n, state = glob_state(pk, &n);

		draw_mark(v, y, 1, state);
		snprintf(buf, sizeof(buf), "all %d events matching %s", n, pk->text);
		wattrset(v->win, sel ? cursor : crt_attr(CRT_SYSTEM));
		x = 5 + crt_put(v->win, y, 5, buf, v->w - 5);
	} else if (r->kind == PROW_SYS) {
		const struct pgroup *g = &pk->groups[r->group];
		bool open = pk->text[0] || g->open;

		draw_mark(v, y, 1, group_state(pk, g));
		wattrset(v->win, crt_attr(CRT_BORDER));
		mvwaddstr(v->win, y, 5, open ? gl->unfolded : gl->folded);
		if (pk->text[0])
			snprintf(buf, sizeof(buf), "%s (%d of %zu)", g->system, g->nmatch,
				 g->count);
		else
			snprintf(buf, sizeof(buf), "%s (%zu)", g->system, g->count);
		wattrset(v->win, sel ? cursor : crt_attr(CRT_SYSTEM));
		x = 7 + crt_put(v->win, y, 7, buf, v->w - 7);
	} else {
		draw_mark(v, y, 3, pk->enabled[r->ev]);
		wattrset(v->win, sel ? cursor : crt_attr(CRT_NORMAL));
		x = 7 + crt_put(v->win, y, 7, ev_at(pk, r->ev)->name, v->w - 7);
		if (pk->trig[r->ev] && x + 2 < v->w) {
			snprintf(buf, sizeof(buf), "{%s}", pk->trig[r->ev]);
			wattrset(v->win, sel ? cursor : crt_attr(CRT_ENABLED));
			x += 1 + crt_put(v->win, y, x + 1, buf, v->w - x - 1);
		}
	}
	if (sel && v->focused)
		crt_fill(v->win, y, x, v->w - x);
	wattrset(v->win, A_NORMAL);
}

/* Fields packed into columns of the pane's width. */
static int draw_fields(struct kt_view *v, struct picker *pk, int y, int ymax)
{
	int i, x = 1, cw = 0, ncol;

	for (i = 0; i < pk->nfields; i++) {
		int l = (int)strlen(pk->fields[i]);

		if (l > cw)
			cw = l;
	}
	cw += 2;
	ncol = (v->w - 2) / (cw ? cw : 1);
	if (ncol < 1)
		ncol = 1;
	for (i = 0; i < pk->nfields && y < ymax; i++) {
		crt_put(v->win, y, x, pk->fields[i], v->w - x - 1);
		if ((i + 1) % ncol == 0) {
			y++;
			x = 1;
		} else {
			x += cw;
		}
	}
	return x == 1 ? y : y + 1;
}

/* One line of the kernel's message from p; returns the next. Lines that start with a space
 * (the command and its caret) are drawn verbatim from one column so the caret stays under
 * the offending token; the others (the message) are wrapped at word boundaries. */
static const char *draw_error_line(struct kt_view *v, int *y, int ymax, const char *p)
{
	size_t l = strcspn(p, "\n"), room = v->w > 2 ? (size_t)v->w - 2 : 1, cut;
	const char *next = p[l] == '\n' ? p + l + 1 : p + l;
	char buf[512];

	if (*p == ' ' || l <= room) {
		snprintf(buf, sizeof(buf), "%.*s", (int)l, p);
		crt_put(v->win, (*y)++, 1, buf, v->w - 2);
		return next;
	}
	while (l > 0 && *y < ymax) {
		cut = l <= room ? l : room;
		if (cut < l) {
			size_t sp = cut;

			while (sp > room / 2 && p[sp] != ' ')
				sp--;
			if (p[sp] == ' ')
				cut = sp;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)cut, p);
		crt_put(v->win, (*y)++, 1, buf, v->w - 2);
		p += cut;
		l -= cut;
		while (l > 0 && *p == ' ') {
			p++;
			l--;
		}
	}
	return next;
}

static void draw_detail(struct kt_view *v, struct picker *pk, int y0, int h)
{
	const struct kt_event_desc *e = ev_at(pk, pk->dev);
	const struct crt_glyphs *gl = crt_glyphs();
	int y = y0, ymax = y0 + h, i;
	char buf[512];

	wattrset(v->win, crt_attr(CRT_BORDER));
	for (i = 0; i < v->w; i++)
		mvwaddstr(v->win, y, i, gl->hline);
	y++;
	snprintf(buf, sizeof(buf), "%s:%s  filter: %s", e->system, e->name,
		 pk->filter ? pk->filter : "none");
	wattrset(v->win, crt_attr(CRT_SYSTEM));
	crt_put(v->win, y++, 1, buf, v->w - 2);
	if (pk->trig[pk->dev] && y < ymax) {
		snprintf(buf, sizeof(buf), "triggers: %s", pk->trig[pk->dev]);
		wattrset(v->win, crt_attr(CRT_ENABLED));
		crt_put(v->win, y++, 1, buf, v->w - 2);
	}
	if (pk->error && y < ymax) {
		const char *p = pk->error;

		wattrset(v->win, crt_attr(CRT_ERROR));
		while (*p && y < ymax)
			p = draw_error_line(v, &y, ymax, p);
	}
	if (pk->hint[0] && y < ymax) {
		wattrset(v->win, crt_attr(CRT_DIM));
		snprintf(buf, sizeof(buf), "Tab: %s", pk->hint);
		crt_put(v->win, y++, 1, buf, v->w - 2);
	}
	wattrset(v->win, A_NORMAL);
	if (y >= ymax)
		return;
	if (pk->no_format) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 1, "no format file for this event", v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	draw_fields(v, pk, y, ymax);
}

static int enabled_total(struct picker *pk)
{
	size_t i;
	int n = 0;

	for (i = 0; i < pk->cat->count; i++)
		n += pk->enabled[i] == 1;
	return n;
}

static void picker_draw(struct kt_view *v)
{
	struct picker *pk = P(v);
	char title[128], right[64];
	int list_h, dh, i, y;

	if (!pk->cat) {
		view_draw_title(v, "Event picker", NULL);
		wattrset(v->win, crt_attr(CRT_ERROR));
		crt_put(v->win, 2, 1, "no event catalogue (is tracefs readable?)", v->w - 2);
		wattrset(v->win, A_NORMAL);
		return;
	}
	snprintf(title, sizeof(title), "Event picker");
	snprintf(right, sizeof(right), "%d of %zu enabled", enabled_total(pk), pk->cat->count);
	view_draw_title(v, title, right);
	if (v->h < 2)
		return;
	/* Row 1: what was typed, or how to start. */
	if (pk->text[0]) {
		wattrset(v->win, crt_attr(CRT_PROMPT));
		crt_put(v->win, 1, 1, "> ", v->w - 1);
		crt_put(v->win, 1, 3, pk->text, v->w - 4);
	} else {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 1, 1, "type: narrow  Space: on/off  Enter: filter  ^T ^R: trigger  "
			"^K: stack", v->w - 2);
	}
	wattrset(v->win, A_NORMAL);
	dh = detail_height(v, pk);
	list_h = v->h - 2 - dh;
	if (list_h < 1)
		list_h = 1;
	if (pk->sel >= pk->nrows)
		pk->sel = pk->nrows - 1;
	if (pk->sel < 0)
		pk->sel = 0;
	if (pk->sel < pk->top)
		pk->top = pk->sel;
	if (pk->sel >= pk->top + list_h)
		pk->top = pk->sel - list_h + 1;
	if (pk->top > pk->nrows - list_h)
		pk->top = pk->nrows - list_h;
	if (pk->top < 0)
		pk->top = 0;
	if (!pk->nrows) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 2, 1, "no event matches", v->w - 2);
		wattrset(v->win, A_NORMAL);
	}
	for (i = 0, y = 2; i < list_h && pk->top + i < pk->nrows; i++, y++)
		draw_row(v, pk, y, &pk->rows[pk->top + i]);
	if (dh)
		draw_detail(v, pk, 2 + list_h, dh);
}

/* --- actions --- */

static void select_event(struct picker *pk, size_t ev)
{
	int i;

	for (i = 0; i < pk->nrows; i++)
		if (pk->rows[i].kind == PROW_EVENT && pk->rows[i].ev == ev) {
			pk->sel = i;
			return;
		}
}

static void select_group(struct picker *pk, int g)
{
	int i;

	for (i = 0; i < pk->nrows; i++)
		if (pk->rows[i].kind == PROW_SYS && pk->rows[i].group == g) {
			pk->sel = i;
			return;
		}
}

static void set_text(struct picker *pk, const char *text)
{
	if (text != pk->text)
		snprintf(pk->text, sizeof(pk->text), "%s", text);
	rebuild(pk);
	/* The best match is the first event row; a glob's is the row for all its matches. */
	pk->sel = pk->nrows > 1 && pk->text[0] && !text_is_glob(pk) ? 1 : 0;
	pk->top = 0;
}

static void toggle(struct kt_view *v, struct picker *pk)
{
	const struct prow *r;
	char spec[256], err[512];
	bool on;
	size_t i;
	int n;

	if (!pk->nrows)
		return;
	r = &pk->rows[pk->sel];
	if (r->kind == PROW_ALL) {
		/* all off while any is on: a glob may take in an event the kernel refuses */
		on = glob_state(pk, &n) == 0;
		snprintf(spec, sizeof(spec), "%s", pk->text);
	} else if (r->kind == PROW_SYS) {
		struct pgroup *g = &pk->groups[r->group];

		on = group_state(pk, g) != 1;
		snprintf(spec, sizeof(spec), "%s:*", g->system);
	} else {
		on = pk->enabled[r->ev] != 1;
		snprintf(spec, sizeof(spec), "%s:%s", ev_at(pk, r->ev)->system,
			 ev_at(pk, r->ev)->name);
	}
	err[0] = '\0';
	n = app_set_events(v->app, spec, on, err, sizeof(err));
	if (n < 0 || err[0]) {
		ui_message(v->ui, true, "%s: %s", spec, err[0] ? err : "failed");
		/* Some may have changed before the failure: ask the kernel. */
		read_enabled(v, pk);
	} else {
		if (r->kind == PROW_ALL) {
			read_enabled(v, pk);
		} else if (r->kind == PROW_SYS) {
			const struct pgroup *g = &pk->groups[r->group];

			for (i = g->first; i < g->first + g->count; i++)
				pk->enabled[i] = on;
		} else {
			pk->enabled[r->ev] = on;
		}
		ui_message(v->ui, false, "%s %s", on ? "enabled" : "disabled", spec);
	}
	ui_broadcast(v->ui, KT_EV_EVENTS);
}

static void load_detail(struct kt_view *v, struct picker *pk, size_t ev)
{
	const struct kt_event_desc *e = ev_at(pk, ev);
	struct tep_event *te = NULL;
	struct tep_format_field *f;

	clear_detail(pk);
	pk->detail = true;
	pk->dev = ev;
	if (v->app->decoder && decoder_load(v->app->decoder, e->system, e->name) == 0)
		te = tep_find_event_by_name(decoder_tep(v->app->decoder), e->system, e->name);
	pk->tev = te;
	if (!te) {
		pk->no_format = true;
	} else {
		pk->names = filter_field_names(te);
		for (f = te->format.fields; f; f = f->next) {
			pk->fields = xreallocarray(pk->fields, pk->nfields + 1,
						   sizeof(*pk->fields));
			pk->fields[pk->nfields++] = xasprintf("%s %s", f->type, f->name);
		}
	}
	pk->filter = source_get_filter(v->app->source, e->system, e->name);
}

static void open_filter_prompt(struct kt_view *v, struct picker *pk)
{
	const struct kt_event_desc *e = ev_at(pk, pk->dev);
	char label[256];

	snprintf(label, sizeof(label), "filter %s:%s> ", e->system, e->name);
	ui_prompt_open(v->ui, v, PROMPT_FILTER, label, pk->filter ? pk->filter : "");
}

/* ktop's own check of text (filtercheck.h): NULL when it passes, else the reason over
 * three lines like the kernel's (message, the expression, a caret under the offending
 * token), malloc'd. */
static char *check_filter(struct picker *pk, const char *text)
{
	char err[256];
	int pos;

	if (filter_check(pk->tev, text, err, sizeof(err), &pos) == 0)
		return NULL;
	return xasprintf("%s\n  Expr: %s\n  %*s^", err, text, pos + 6, "");
}

static void set_error(struct picker *pk, char *error)
{
	free(pk->error);
	pk->error = error;
}

static void open_trigger_prompt(struct kt_view *v, struct picker *pk)
{
	const struct kt_event_desc *e = ev_at(pk, pk->dev);
	char label[256];

	snprintf(label, sizeof(label), "trigger %s:%s> ", e->system, e->name);
	ui_prompt_open(v->ui, v, PROMPT_TRIGGER, label, "");
}

/* "stop" or "stop if FILTER": the stop-when recipe on the event; *cond gets the FILTER. */
static bool is_stop(const char *text, const char **cond)
{
	while (*text == ' ')
		text++;
	if (strncmp(text, "stop", 4) || (text[4] && text[4] != ' '))
		return false;
	*cond = strstr(text, " if ");
	return true;
}

/* ktop's checks of a trigger as typed: NULL, or the reason (malloc'd). */
static char *check_trigger(struct picker *pk, const char *text, struct kt_trigger *t)
{
	const struct kt_event_desc *e = ev_at(pk, pk->dev);
	const char *cond;
	char err[512];

	snprintf(t->system, sizeof(t->system), "%s", e->system);
	snprintf(t->event, sizeof(t->event), "%s", e->name);
	if (is_stop(text, &cond))
		return cond ? check_filter(pk, cond + 4) : NULL;
	if (trigger_parse(text, false, t, err, sizeof(err)) < 0)
		return xstrdup(err);
	return t->filter[0] ? check_filter(pk, t->filter) : NULL;
}

static void trigger_accept(struct kt_view *v, struct picker *pk, const char *text)
{
	const struct kt_event_desc *e = ev_at(pk, pk->dev);
	struct kt_trigger t;
	const char *cond;
	char err[1024], spec[KT_TRIGGER_MAX + 256];
	int ret;

	set_error(pk, check_trigger(pk, text, &t));
	if (pk->error) {
		ui_message(v->ui, true, "trigger not set: %.*s", (int)strcspn(pk->error, "\n"),
			   pk->error);
		return;
	}
	err[0] = '\0';
	if (is_stop(text, &cond)) {
		snprintf(spec, sizeof(spec), "%s:%s%s", e->system, e->name, cond ? cond : "");
		ret = stopwhen_arm(v->app, spec, err, sizeof(err));
	} else {
		ret = source_trigger_add(v->app->source, pk->tev, &t, err, sizeof(err));
	}
	read_trigger(v, pk, pk->dev);
	if (ret < 0) {
		set_error(pk, xstrdup(err[0] ? err : "trigger rejected"));
		ui_message(v->ui, true, "%.*s", (int)strcspn(pk->error, "\n"), pk->error);
		return;
	}
	if (v->app->stop && is_stop(text, &cond))
		ui_message(v->ui, false, "capture stops when %s fires", v->app->stop->desc);
	else
		ui_message(v->ui, false, "trigger on %s:%s: %s", e->system, e->name, text);
	ui_broadcast(v->ui, KT_EV_EVENTS);
}

static void trigger_prompt(struct kt_view *v, struct picker *pk, const char *text,
			   enum kt_prompt_event ev)
{
	struct kt_trigger t;

	switch (ev) {
	case KT_PROMPT_CHANGED:
		set_error(pk, text[0] ? check_trigger(pk, text, &t) : NULL);
		return;
	case KT_PROMPT_COMPLETE:
		return;
	case KT_PROMPT_CANCEL:
		set_error(pk, NULL);
		return;
	case KT_PROMPT_ACCEPT:
		trigger_accept(v, pk, text);
		return;
	}
}

/* Ctrl-R: every trigger of the selected event goes (a stop on it too). */
static void remove_triggers(struct kt_view *v, struct picker *pk, size_t i)
{
	const struct kt_event_desc *e = ev_at(pk, i);
	char err[256];
	int n = source_trigger_remove_all(v->app->source, e->system, e->name, err, sizeof(err));

	if (n < 0) {
		ui_message(v->ui, true, "%s", err);
		return;
	}
	if (v->app->stop && !strcmp(v->app->stop->trig.system, e->system) &&
	    !strcmp(v->app->stop->trig.event, e->name))
		stopwhen_disarm(v->app);
	read_trigger(v, pk, i);
	if (n)
		ui_message(v->ui, false, "%d trigger%s removed from %s:%s", n, n == 1 ? "" : "s",
			   e->system, e->name);
	else
		ui_message(v->ui, true, "%s:%s has no trigger to remove", e->system, e->name);
}

/* ^K: the event's kernel stack on each of its rows (the event on too), or no more. */
static void toggle_stack(struct kt_view *v, struct picker *pk, size_t i)
{
	const struct kt_event_desc *e = ev_at(pk, i);
	bool on = !source_stacks_enabled(v->app->source, e->system, e->name);
	char spec[256], err[1024] = "";

	snprintf(spec, sizeof(spec), "%s:%s", e->system, e->name);
	if (app_set_stacks(v->app, spec, on, err, sizeof(err)) < 0) {
		ui_message(v->ui, true, "%s", err);
		return;
	}
	read_trigger(v, pk, i);
	if (on) {
		pk->enabled[i] = 1;
		ui_message(v->ui, false, "%s: kernel stack on each row (Enter on a row of the "
			   "stream shows it; ^K again: off)", spec);
	} else {
		ui_message(v->ui, false, "%s: no more stacks (the event stays on)", spec);
	}
	ui_broadcast(v->ui, KT_EV_EVENTS);
}

static void picker_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	struct picker *pk = P(v);
	const struct kt_event_desc *e;
	char err[1024];
	size_t n;
	int ret;

	if (!pk->detail)
		return;
	v->dirty = true;
	if (id == PROMPT_TRIGGER) {
		trigger_prompt(v, pk, text, ev);
		return;
	}
	if (id != PROMPT_FILTER)
		return;
	switch (ev) {
	case KT_PROMPT_CHANGED:
		/* Checked on every key: the reason and its caret show while typing. */
		pk->hint[0] = '\0';
		set_error(pk, check_filter(pk, text));
		return;
	case KT_PROMPT_COMPLETE:
		pk->hint[0] = '\0';
		if (!pk->names)
			return;
		for (n = 0; pk->names[n]; n++)
			;
		n = ui_prompt_complete(v->ui, pk->names, n, NULL, pk->hint, sizeof(pk->hint));
		if (n <= 1)
			pk->hint[0] = '\0';
		if (!n)
			ui_message(v->ui, true, "no field of %s starts so (its fields are listed "
				   "in the pane)", ev_at(pk, pk->dev)->name);
		return;
	case KT_PROMPT_CANCEL:
		pk->hint[0] = '\0';
		set_error(pk, NULL);
		return;
	case KT_PROMPT_ACCEPT:
		break;
	}
	pk->hint[0] = '\0';
	set_error(pk, check_filter(pk, text));
	if (pk->error) {
		/* Not sent: the filter in force and what is captured stay. */
		ui_message(v->ui, true, "filter not set: %.*s (the old filter stays)",
			   (int)strcspn(pk->error, "\n"), pk->error);
		return;
	}
	e = ev_at(pk, pk->dev);
	err[0] = '\0';
	if (source_set_filter(v->app->source, e->system, e->name, text, err, sizeof(err)) < 0) {
		/* The whole message in the pane, its first line in the status line; what is
		 * enabled and captured stays as it was. */
		free(pk->error);
		pk->error = xstrdup(err[0] ? err : "filter rejected");
		ui_message(v->ui, true, "%s%.*s",
			   strncmp(pk->error, "filter rejected", 15) ? "filter rejected: " : "",
			   (int)strcspn(pk->error, "\n"), pk->error);
	} else {
		free(pk->error);
		pk->error = NULL;
		free(pk->filter);
		pk->filter = source_get_filter(v->app->source, e->system, e->name);
		/* its stacks follow the filter (evstack.h) */
		ret = source_stacks_refilter(v->app->source, pk->tev, e->system, e->name, err,
					     sizeof(err));
		read_trigger(v, pk, pk->dev);
		if (ret < 0)
			ui_message(v->ui, true, "filter set, but its stacks are off: %s", err);
		else if (text[0])
			ui_message(v->ui, false, "filter on %s:%s: %s", e->system, e->name, text);
		else
			ui_message(v->ui, false, "filter cleared on %s:%s", e->system, e->name);
	}
	v->dirty = true;
}

static void move_sel(struct picker *pk, int delta)
{
	pk->sel += delta;
	if (pk->sel >= pk->nrows)
		pk->sel = pk->nrows - 1;
	if (pk->sel < 0)
		pk->sel = 0;
}

static void fold(struct picker *pk, bool open)
{
	const struct prow *r;
	int g;

	if (!pk->nrows || pk->text[0])
		return;
	r = &pk->rows[pk->sel];
	g = r->group;
	if (r->kind == PROW_EVENT && open)
		return;
	pk->groups[g].open = open;
	rebuild(pk);
	select_group(pk, g);
}

static int picker_key(struct kt_view *v, int key)
{
	struct picker *pk = P(v);
	int page = v->h - 3 - detail_height(v, pk);
	unsigned int cap;
	size_t len;

	if (!pk->cat)
		return key == 27 ? KT_KEY_CLOSE : KT_KEY_IGNORED;
	if (page < 1)
		page = 1;
	switch (key) {
	case KEY_UP:
		move_sel(pk, -1);
		break;
	case KEY_DOWN:
		move_sel(pk, 1);
		break;
	case KEY_PPAGE:
		move_sel(pk, -page);
		break;
	case KEY_NPAGE:
		move_sel(pk, page);
		break;
	case KEY_HOME:
		pk->sel = 0;
		break;
	case KEY_END:
		pk->sel = pk->nrows - 1;
		break;
	case KEY_LEFT:
		fold(pk, false);
		break;
	case KEY_RIGHT:
		fold(pk, true);
		break;
	case ' ':
		toggle(v, pk);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!pk->nrows || pk->rows[pk->sel].kind == PROW_ALL)
			break;
		if (pk->rows[pk->sel].kind == PROW_SYS) {
			fold(pk, !pk->groups[pk->rows[pk->sel].group].open);
			break;
		}
		load_detail(v, pk, pk->rows[pk->sel].ev);
		open_filter_prompt(v, pk);
		break;
	case 27: /* Esc: one step back at a time */
		if (pk->detail)
			clear_detail(pk);
		else if (pk->text[0])
			set_text(pk, "");
		else
			return KT_KEY_CLOSE;
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		len = strlen(pk->text);
		if (!len)
			break;
		pk->text[len - 1] = '\0';
		set_text(pk, pk->text);
		break;
	case 'U' & 0x1f:
		set_text(pk, "");
		break;
	case 'T' & 0x1f:
	case 'R' & 0x1f:
	case 'K' & 0x1f:
		if (!pk->nrows || pk->rows[pk->sel].kind != PROW_EVENT) {
			ui_message(v->ui, true, "%s belong to one event: select an event",
				   key == ('K' & 0x1f) ? "stacks" : "triggers");
			break;
		}
		cap = key == ('K' & 0x1f) ? KT_CAP_STACKS : KT_CAP_TRIGGERS;
		if (!app_can(v->app, cap)) {
			ui_message(v->ui, true, "%s", app_refusal(v->app, cap));
			break;
		}
		if (key == ('K' & 0x1f)) {
			toggle_stack(v, pk, pk->rows[pk->sel].ev);
			break;
		}
		if (key == ('R' & 0x1f)) {
			remove_triggers(v, pk, pk->rows[pk->sel].ev);
			break;
		}
		load_detail(v, pk, pk->rows[pk->sel].ev);
		open_trigger_prompt(v, pk);
		break;
	default:
		/* Every printable key narrows the list: the picker is a search box first. */
		if (key > ' ' && key < 0x7f) {
			len = strlen(pk->text);
			if (len + 1 < sizeof(pk->text)) {
				pk->text[len] = (char)key;
				pk->text[len + 1] = '\0';
				set_text(pk, pk->text);
			}
			break;
		}
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static void picker_tick(struct kt_view *v)
{
	struct picker *pk = P(v);
	signed char *before;

	if (!pk->cat || !pk->cat->count)
		return;
	/* Globs, -e options, a filter that failed half-way: trust the kernel, once a tick. */
	before = xmalloc(pk->cat->count * sizeof(*before));
	memcpy(before, pk->enabled, pk->cat->count * sizeof(*before));
	if (read_set_event(v, pk) &&
	    memcmp(before, pk->enabled, pk->cat->count * sizeof(*before)))
		v->dirty = true;
	free(before);
	/* the counts the kernel decrements */
	for (size_t i = 0; i < pk->cat->count; i++)
		if (pk->trig[i]) {
			read_trigger(v, pk, i);
			v->dirty = true;
		}
}

/* Probes came or went: the catalogue was reloaded, every index into it is stale. */
static void picker_notify(struct kt_view *v, enum kt_view_event ev)
{
	char text[TEXT_MAX];

	if (ev != KT_EV_CATALOG)
		return;
	snprintf(text, sizeof(text), "%s", P(v)->text);
	if (v->ui && P(v)->detail)
		ui_prompt_drop(v->ui, v);
	picker_free(v);
	picker_init(v);
	if (P(v)->cat)
		set_text(P(v), text);
	v->dirty = true;
}

static const struct funcbar_item picker_items[] = {
	{ "F1", "Help" }, { "Spc", "Toggle" }, { "Enter", "Filter" }, { "Esc", "Back" },
	{ "F2", "Close" }, { "Tab", "Focus" },	{ "F9", "Zoom" },     { "F10", "Quit" },
};

static int picker_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	*items = picker_items;
	return (int)(sizeof(picker_items) / sizeof(picker_items[0]));
}

bool view_picker_edit_filter(struct kt_view *v, const char *spec)
{
	struct picker *pk = P(v);
	size_t i;

	if (!pk->cat)
		return false;
	if (spec) {
		const char *colon = strchr(spec, ':');
		size_t sl = colon ? (size_t)(colon - spec) : 0;

		for (i = 0; colon && i < pk->cat->count; i++) {
			const struct kt_event_desc *e = ev_at(pk, i);

			if (strlen(e->system) == sl && !strncmp(e->system, spec, sl) &&
			    !strcmp(e->name, colon + 1)) {
				int g;

				set_text(pk, "");
				for (g = 0; g < pk->ngroups; g++)
					if (i >= pk->groups[g].first &&
					    i < pk->groups[g].first + pk->groups[g].count)
						pk->groups[g].open = true;
				rebuild(pk);
				select_event(pk, i);
				break;
			}
		}
	}
	v->dirty = true;
	if (!pk->nrows || pk->rows[pk->sel].kind != PROW_EVENT)
		return false;
	load_detail(v, pk, pk->rows[pk->sel].ev);
	open_filter_prompt(v, pk);
	return true;
}

/* A click on a row selects it: an event is toggled, a system folds or unfolds. */
static void picker_click(struct kt_view *v, int y, int x)
{
	struct picker *pk = P(v);
	int list_h = v->h - 2 - detail_height(v, pk), row = pk->top + y - 2;

	(void)x;
	if (!pk->cat || y < 2 || y - 2 >= list_h || row >= pk->nrows)
		return;
	pk->sel = row;
	if (pk->rows[row].kind == PROW_SYS)
		fold(pk, !pk->groups[pk->rows[row].group].open);
	else
		toggle(v, pk);
	v->dirty = true;
}

static const struct kt_keyhelp picker_keys[] = {
	{ "letters", "fuzzy-narrow the list" },
	{ "Backspace ^U", "edit / clear the typed text" },
	{ "Esc", "clear the text, then close" },
	{ "Space", "toggle the event or system" },
	{ "Enter", "its fields and the filter prompt" },
	{ "^T", "trigger (or stop if ...)" },
	{ "^R", "remove the event's triggers" },
	{ "^K", "kernel stack on its rows on / off" },
	{ NULL, NULL },
};

static bool picker_typing(struct kt_view *v)
{
	return true;
}

const struct kt_view_ops view_picker_ops = {
	.name = "picker",
	.title = "Event picker (e)",
	.keys = picker_keys,
	.typing = picker_typing,
	.pref_width = 48, /* "[x] sys_enter_sched_getaffinity" and the fields beside */
	.init = picker_init,
	.free = picker_free,
	.resize = picker_resize,
	.draw = picker_draw,
	.key = picker_key,
	.tick = picker_tick,
	.prompt = picker_prompt,
	.notify = picker_notify,
	.funcbar = picker_funcbar,
	.click = picker_click,
};
