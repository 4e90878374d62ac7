// SPDX-License-Identifier: GPL-2.0-or-later
/* The tracer pane (R): the tracers ktop's instance offers, the current one marked, Enter
 * switches to the selected one; a tracer the kernel lacks or refuses keeps its reason under
 * its row and nothing else changes. Below, the four function lists (set_ftrace_filter,
 * set_ftrace_notrace, set_graph_function, set_graph_notrace); Enter on one opens the
 * function picker: typing narrows available_filter_functions (or kallsyms when that is
 * locked) fuzzily, best first (over an agent the names are its kernel's: typed whole);
 * Enter adds the selected name, or the typed text when it is a glob, a :mod: form or a
 * trigger; !ENTRY removes; ^K empties the list. Every entry is
 * checked as it is typed (tracers_filter_check), with a caret. On top, the scope; s opens
 * a prompt "pid=PID[,PID] [children]" / "comm=NAME [children]" /
 * empty that limits the instance to those processes (set_event_pid, app_set_scope); a bad
 * scope leaves the one in force. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "backend/symbols/symlist.h"
#include "backend/tracefs/tracers.h"
#include "util/log.h"
#include "source/source.h"
#include "ui/funcbar.h"
#include "namefilter.h"
#include "scopespec.h"
#include "ui/view.h"
#include "util/xalloc.h"
#include "util/clock.h"

#define BEST_MAX 256
#define TEXT_MAX 200
#define PROMPT_SCOPE 1
/* Tracers worth naming when the kernel does not offer them: their absence is news. */
static const char *const wanted_tracers[] = { "function", "function_graph", NULL };

struct trow {
	char *name;
	bool missing; /* not in available_tracers */
	char *why;    /* the kernel's refusal, once tried */
};

struct tpane {
	struct trow *tr;
	int ntr;
	char *current;
	char list_state[KT_FTRACE_NLISTS][256];
	bool list_bad[KT_FTRACE_NLISTS];
	int sel, top;

	/* the function picker */
	bool fmode;
	enum kt_ftrace_list which;
	struct kt_symlist *syms;
	struct kt_namefilter nf; /* over syms */
	char symnote[256];
	char **entries;
	char entries_err[256];
	char text[TEXT_MAX];
	size_t best[BEST_MAX];
	size_t nbest;
	int fsel, ftop;
	char check[256];
	int check_pos;
	char last[512]; /* the last add/remove: the kernel's answer */
	bool last_error;
};

static struct tpane *TP(struct kt_view *v)
{
	return v->data;
}

static int nrows(struct tpane *tp)
{
	return tp->ntr + KT_FTRACE_NLISTS;
}

static void free_rows(struct tpane *tp)
{
	int i;

	for (i = 0; i < tp->ntr; i++) {
		free(tp->tr[i].name);
		free(tp->tr[i].why);
	}
	free(tp->tr);
	tp->tr = NULL;
	tp->ntr = 0;
	free(tp->current);
	tp->current = NULL;
}

static void add_row(struct tpane *tp, const char *name, bool missing)
{
	tp->tr = xreallocarray(tp->tr, tp->ntr + 1, sizeof(*tp->tr));
	tp->tr[tp->ntr++] = (struct trow){ .name = xstrdup(name), .missing = missing };
}

static void load_lists(struct kt_view *v, struct tpane *tp)
{
	char err[256];
	char **e;
	int w, n;

	for (w = 0; w < KT_FTRACE_NLISTS; w++) {
		tp->list_bad[w] = true;
		if (!source_list_exists(v->app->source, w)) {
			snprintf(tp->list_state[w], sizeof(tp->list_state[w]),
				 "not in ktop's instance (top level only here)");
			continue;
		}
		e = source_list_get(v->app->source, w, err, sizeof(err));
		if (!e) {
			snprintf(tp->list_state[w], sizeof(tp->list_state[w]), "%s", err);
			continue;
		}
		for (n = 0; e[n]; n++)
			;
		tp->list_bad[w] = false;
		if (n)
			snprintf(tp->list_state[w], sizeof(tp->list_state[w]), "%d entr%s", n,
				 n == 1 ? "y" : "ies");
		else
			snprintf(tp->list_state[w], sizeof(tp->list_state[w]), "empty%s",
				 w == KT_FTRACE_FILTER ? ": all functions" : "");
		tracers_free_names(e);
	}
}

/* Reads the tracers again; the reasons already learned stay with their rows. */
static void load(struct kt_view *v, struct tpane *tp)
{
	struct trow *old = tp->tr;
	int nold = tp->ntr, i, j;
	char err[256], **avail;

	tp->tr = NULL;
	tp->ntr = 0;
	free(tp->current);
	tp->current = source_tracer(v->app->source);
	avail = source_tracers_available(v->app->source, err, sizeof(err));
	for (i = 0; avail && avail[i]; i++)
		add_row(tp, avail[i], false);
	for (i = 0; wanted_tracers[i]; i++) {
		for (j = 0; avail && avail[j] && strcmp(avail[j], wanted_tracers[i]); j++)
			;
		if (!avail || !avail[j])
			add_row(tp, wanted_tracers[i], true);
	}
	tracers_free_names(avail);
	for (i = 0; i < nold; i++) {
		for (j = 0; j < tp->ntr; j++)
			if (!strcmp(tp->tr[j].name, old[i].name) && old[i].why && !tp->tr[j].why)
				tp->tr[j].why = xstrdup(old[i].why);
		free(old[i].name);
		free(old[i].why);
	}
	free(old);
	load_lists(v, tp);
}

static void tracers_init(struct kt_view *v)
{
	struct tpane *tp = xcalloc(1, sizeof(*tp));

	v->data = tp;
	if (app_can(v->app, KT_CAP_TRACER))
		load(v, tp);
}

static void leave_fmode(struct tpane *tp)
{
	tracers_free_names(tp->entries);
	tp->entries = NULL;
	tp->fmode = false;
	tp->text[0] = '\0';
	tp->check[0] = '\0';
	tp->last[0] = '\0';
}

static void tracers_free(struct kt_view *v)
{
	struct tpane *tp = TP(v);

	leave_fmode(tp);
	namefilter_done(&tp->nf);
	symlist_free(tp->syms);
	free_rows(tp);
	free(tp);
	v->data = NULL;
}

static void tracers_resize(struct kt_view *v)
{
	(void)v;
}

/* --- drawing --- */

/* The tracer list is drawn as lines first, then the window onto them scrolls so the
 * selected row and the reason under it stay in view, however short the pane. */
struct tline {
	int row; /* the selectable row it belongs to, -1: none */
	enum crt_elem elem;
	bool selectable;
	int x;
	char text[256];
};

#define TLINES_MAX 128

static int add_line(struct tline *ls, int n, int row, enum crt_elem e, bool sel, int x,
		    const char *text)
{
	if (n >= TLINES_MAX)
		return n;
	ls[n] = (struct tline){ .row = row, .elem = e, .selectable = sel, .x = x };
	snprintf(ls[n].text, sizeof(ls[n].text), "%s", text);
	return n + 1;
}

/* Cuts the next line of at most room bytes off *text (l bytes left) into buf, breaking at a
 * space in its second half when there is one, and skips the spaces after it. */
static void wrap_take(const char **text, size_t *l, int room, char *buf, size_t buflen)
{
	size_t cut = *l <= (size_t)room ? *l : (size_t)room;

	if (cut < *l) {
		size_t sp = cut;

		while (sp > (size_t)room / 2 && (*text)[sp] != ' ')
			sp--;
		if ((*text)[sp] == ' ')
			cut = sp;
	}
	snprintf(buf, buflen, "%.*s", (int)cut, *text);
	*text += cut;
	*l -= cut;
	while (*l && **text == ' ') {
		(*text)++;
		(*l)--;
	}
}

/* text wrapped to room cells into lines from column x, at most maxrows of them. */
static int add_wrapped(struct tline *ls, int n, int row, enum crt_elem e, int x, int room,
		       const char *text, int maxrows)
{
	size_t l = strlen(text);
	int used = 0;
	char buf[256];

	if (room < 8)
		room = 8;
	while (l && used < maxrows) {
		wrap_take(&text, &l, room, buf, sizeof(buf));
		n = add_line(ls, n, row, e, false, x, buf);
		used++;
	}
	return n;
}

static void draw_tracers(struct kt_view *v, struct tpane *tp)
{
	attr_t cursor = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	struct tline *ls = xcalloc(TLINES_MAX, sizeof(*ls));
	int n = 0, i, first = -1, last = -1, h = v->h - 2, top;
	char buf[256];

	/* The scope first: it stays in view however the list scrolls. */
	snprintf(buf, sizeof(buf), "Scope: %s  ",
		 v->app->scope_desc[0] ? v->app->scope_desc : "all processes");
	wattrset(v->win, crt_attr(v->app->scope_desc[0] ? CRT_ENABLED : CRT_NORMAL));
	i = crt_put(v->win, 1, 1, buf, v->w - 2);
	wattrset(v->win, crt_attr(CRT_DIM));
	crt_put(v->win, 1, 1 + i, "s: scope  Enter: switch / edit list  Esc: close",
		v->w - 2 - i);
	for (i = 0; i < tp->ntr; i++) {
		const struct trow *r = &tp->tr[i];
		bool cur = tp->current && !strcmp(tp->current, r->name);

		snprintf(buf, sizeof(buf), "%s %-15s %s", cur ? "(*)" : "( )", r->name,
			 cur ? "current" : r->missing ? "not offered by this kernel" : "");
		n = add_line(ls, n, i, r->missing ? CRT_DIM : cur ? CRT_ENABLED : CRT_NORMAL,
			     true, 1, buf);
		if (r->why)
			n = add_wrapped(ls, n, i, CRT_ERROR, 5, v->w - 6, r->why, 4);
	}
	n = add_line(ls, n, -1, CRT_NORMAL, false, 1, "");
	n = add_line(ls, n, -1, CRT_SYSTEM, false, 1, "Function lists of ktop's instance");
	for (i = 0; i < KT_FTRACE_NLISTS; i++) {
		n = add_line(ls, n, tp->ntr + i, CRT_NORMAL, true, 1, tracers_list_file(i));
		n = add_wrapped(ls, n, tp->ntr + i, tp->list_bad[i] ? CRT_ERROR : CRT_DIM, 5,
				v->w - 6, tp->list_state[i], 4);
	}
	for (i = 0; i < n; i++)
		if (ls[i].row == tp->sel) {
			if (first < 0)
				first = i;
			last = i;
		}
	top = tp->top;
	if (last >= top + h)
		top = last - h + 1;
	if (first >= 0 && first < top)
		top = first;
	if (top < 0)
		top = 0;
	tp->top = top;
	for (i = 0; i < h && top + i < n; i++) {
		const struct tline *l = &ls[top + i];
		bool sel = l->selectable && l->row == tp->sel;

		wattrset(v->win, sel ? cursor : crt_attr(l->elem));
		crt_put(v->win, 2 + i, l->x, l->text, v->w - l->x - 1);
		if (sel && v->focused)
			crt_fill(v->win, 2 + i, l->x + (int)strlen(l->text),
				 v->w - 1 - l->x - (int)strlen(l->text));
	}
	wattrset(v->win, A_NORMAL);
	free(ls);
}

/* text wrapped into at most maxrows rows of the pane from column x; returns rows used. */
static int put_wrapped(struct kt_view *v, int y, int ymax, int x, const char *text, int maxrows)
{
	int room = v->w - x - 1, used = 0;
	size_t l = strlen(text);

	if (room < 8)
		return 0;
	while (l && used < maxrows && y + used < ymax) {
		char buf[512];

		wrap_take(&text, &l, room, buf, sizeof(buf));
		crt_put(v->win, y + used, x, buf, room);
		used++;
	}
	return used;
}

static void draw_fmode(struct kt_view *v, struct tpane *tp)
{
	attr_t cursor = crt_attr(v->focused ? CRT_CURSOR : CRT_CURSOR_DIM);
	int y, i, list_h, ymax = v->h, bottom;
	char buf[512];

	/* Row 1: what is typed; row 2: its check, caret under the offending byte. */
	wattrset(v->win, crt_attr(CRT_PROMPT));
	crt_put(v->win, 1, 1, "> ", v->w - 1);
	crt_put(v->win, 1, 3, tp->text, v->w - 4);
	if (tp->check[0]) {
		int x = 3 + tp->check_pos;

		if (x > v->w - 2)
			x = v->w - 2;
		wattrset(v->win, crt_attr(CRT_ERROR));
		snprintf(buf, sizeof(buf), "^ %s", tp->check);
		crt_put(v->win, 2, x, buf, v->w - x - 1);
	} else {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, 2, 1, "Enter: add  !NAME: remove  ^K: empty  Tab: take",
			v->w - 2);
	}
	y = 3;
	if (tp->symnote[0] && y < ymax) {
		wattrset(v->win, crt_attr(CRT_DIM));
		y += put_wrapped(v, y, ymax, 1, tp->symnote, 2);
	}
	/* The bottom: the kernel's last answer and what the list holds. */
	bottom = ymax - 2 - (tp->last[0] ? 1 : 0);
	list_h = bottom - y;
	if (list_h < 1)
		list_h = 1;
	if (tp->fsel < tp->ftop)
		tp->ftop = tp->fsel;
	if (tp->fsel >= tp->ftop + list_h)
		tp->ftop = tp->fsel - list_h + 1;
	for (i = 0; i < list_h && tp->ftop + i < (int)tp->nbest && y < ymax; i++, y++) {
		bool sel = tp->ftop + i == tp->fsel;

		wattrset(v->win, sel ? cursor : crt_attr(CRT_NORMAL));
		crt_put(v->win, y, 3, tp->syms->names[tp->best[tp->ftop + i]], v->w - 4);
	}
	if (!tp->nbest && tp->syms && y < ymax) {
		wattrset(v->win, crt_attr(CRT_DIM));
		crt_put(v->win, y, 3, "no function matches (a glob or :mod: is added as typed)",
			v->w - 4);
	}
	y = bottom;
	if (tp->last[0] && y < ymax) {
		wattrset(v->win, crt_attr(tp->last_error ? CRT_ERROR : CRT_ENABLED));
		crt_put(v->win, y++, 1, tp->last, v->w - 2);
	}
	if (y < ymax) {
		size_t n = 0;

		wattrset(v->win, crt_attr(CRT_BORDER));
		crt_fill(v->win, y, 0, v->w);
		crt_put(v->win, y++, 1, "in the list:", v->w - 2);
		wattrset(v->win, crt_attr(tp->entries ? CRT_NORMAL : CRT_ERROR));
		if (!tp->entries) {
			snprintf(buf, sizeof(buf), "%s", tp->entries_err);
		} else {
			buf[0] = '\0';
			for (i = 0; tp->entries[i]; i++)
				if (n + strlen(tp->entries[i]) + 2 < sizeof(buf))
					n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
							      i ? " " : "", tp->entries[i]);
			if (!i)
				snprintf(buf, sizeof(buf), "nothing%s",
					 tp->which == KT_FTRACE_FILTER ? " (all functions)" : "");
		}
		if (y < ymax)
			crt_put(v->win, y, 1, buf, v->w - 2);
	}
	wattrset(v->win, A_NORMAL);
}

static void tracers_draw(struct kt_view *v)
{
	struct tpane *tp = TP(v);
	char right[96];

	if (!app_can(v->app, KT_CAP_TRACER)) {
		view_draw_title(v, "Tracers", NULL);
		return;
	}
	if (tp->fmode) {
		snprintf(right, sizeof(right), "%zu names", tp->syms ? tp->syms->count : 0);
		view_draw_title(v, tracers_list_file(tp->which), right);
		draw_fmode(v, tp);
		return;
	}
	snprintf(right, sizeof(right), "current: %s", tp->current ? tp->current : "?");
	view_draw_title(v, "Tracers", right);
	draw_tracers(v, tp);
}

/* --- the function picker --- */

/* Fuzzy matches of the typed text's function part (no '!', nothing from the first ':'). */
static void narrow(struct tpane *tp)
{
	char pat[TEXT_MAX];
	const char *p = tp->text[0] == '!' ? tp->text + 1 : tp->text;
	unsigned long long t0 = clock_mono_ns();

	snprintf(pat, sizeof(pat), "%.*s", (int)strcspn(p, ":"), p);
	tp->nbest = tp->syms ? namefilter_best(&tp->nf, pat, tp->best, BEST_MAX) : 0;
	tp->fsel = tp->ftop = 0;
	log_debug("%s: '%s' over %zu names: %zu shown in %llu us", __func__, pat,
		  tp->syms ? tp->syms->count : 0, tp->nbest, (clock_mono_ns() - t0) / 1000);
}

static void check_text(struct tpane *tp)
{
	const char *t = tp->text[0] == '!' ? tp->text + 1 : tp->text;
	int pos = 0;

	tp->check[0] = '\0';
	if (!*t)
		return;
	if (tracers_filter_check(tp->which, t, tp->check, sizeof(tp->check), &pos) < 0)
		tp->check_pos = pos + (t != tp->text);
	else
		tp->check[0] = '\0';
}

static void reload_entries(struct kt_view *v, struct tpane *tp)
{
	tracers_free_names(tp->entries);
	tp->entries = source_list_get(v->app->source, tp->which, tp->entries_err,
				      sizeof(tp->entries_err));
}

static void enter_fmode(struct kt_view *v, struct tpane *tp, enum kt_ftrace_list which)
{
	tp->fmode = true;
	tp->which = which;
	tp->text[0] = tp->check[0] = tp->last[0] = '\0';
	if (!tp->syms) {
		unsigned long long t0 = clock_mono_ns();

		/* the source's kernel's (none of another machine's: its agent checks what is
		 * typed), with the note on them */
		tp->symnote[0] = '\0';
		tp->syms = source_tracer_functions(v->app->source, tp->symnote,
						   sizeof(tp->symnote));
		if (tp->syms && namefilter_init(&tp->nf, tp->syms) < 0) {
			symlist_free(tp->syms);
			tp->syms = NULL;
			snprintf(tp->symnote, sizeof(tp->symnote), "no function names: out of memory");
		}
		log_debug("%s: %zu function names in %llu ms", __func__,
			  tp->syms ? tp->syms->count : 0, (clock_mono_ns() - t0) / 1000000);
	}
	reload_entries(v, tp);
	if (!tp->entries)
		ui_message(v->ui, true, "%s", tp->entries_err);
	narrow(tp);
}

/* What Enter adds: a pattern, :mod: form or trigger as typed; else the selected name. */
static const char *entry_to_add(struct tpane *tp)
{
	if (strpbrk(tp->text, "*?[:") || !tp->nbest)
		return tp->text;
	return tp->syms->names[tp->best[tp->fsel]];
}

static void apply_entry(struct kt_view *v, struct tpane *tp)
{
	const char *file = tracers_list_file(tp->which);
	char err[512] = "", entry[TEXT_MAX];
	int n;

	if (tp->text[0] == '!') {
		snprintf(entry, sizeof(entry), "%s", tp->text + 1);
		if (source_list_remove(v->app->source, tp->which, entry, err, sizeof(err)) < 0)
			goto failed;
		snprintf(tp->last, sizeof(tp->last), "removed %s from %s", entry, file);
	} else {
		if (!tp->text[0] && !tp->nbest)
			return;
		snprintf(entry, sizeof(entry), "%s", entry_to_add(tp));
		if (tp->check[0]) {
			snprintf(err, sizeof(err), "%s", tp->check);
			goto failed;
		}
		n = source_list_add(v->app->source, tp->which, entry, err, sizeof(err));
		if (n < 0)
			goto failed;
		snprintf(tp->last, sizeof(tp->last), "added %s: %s holds %d", entry, file, n);
	}
	tp->last_error = false;
	ui_message(v->ui, false, "%s", tp->last);
	tp->text[0] = '\0';
	reload_entries(v, tp);
	narrow(tp);
	check_text(tp);
	load_lists(v, tp);
	return;
failed:
	/* The list stays as it was; the reason stays in the pane and the status line. */
	snprintf(tp->last, sizeof(tp->last), "%s", err);
	tp->last_error = true;
	ui_message(v->ui, true, "%s", err);
}

static void clear_list(struct kt_view *v, struct tpane *tp)
{
	char err[512] = "";

	if (source_list_clear(v->app->source, tp->which, err, sizeof(err)) < 0) {
		snprintf(tp->last, sizeof(tp->last), "%s", err);
		tp->last_error = true;
		ui_message(v->ui, true, "%s", err);
		return;
	}
	snprintf(tp->last, sizeof(tp->last), "%s emptied", tracers_list_file(tp->which));
	tp->last_error = false;
	ui_message(v->ui, false, "%s", tp->last);
	reload_entries(v, tp);
	load_lists(v, tp);
}

static int fmode_key(struct kt_view *v, struct tpane *tp, int key)
{
	size_t len = strlen(tp->text);

	switch (key) {
	case 27:
		leave_fmode(tp);
		break;
	case KEY_UP:
		if (tp->fsel > 0)
			tp->fsel--;
		break;
	case KEY_DOWN:
		if (tp->fsel + 1 < (int)tp->nbest)
			tp->fsel++;
		break;
	case KEY_PPAGE:
		tp->fsel = tp->fsel > 10 ? tp->fsel - 10 : 0;
		break;
	case KEY_NPAGE:
		tp->fsel = tp->fsel + 10 < (int)tp->nbest ? tp->fsel + 10 :
			   (tp->nbest ? (int)tp->nbest - 1 : 0);
		break;
	case '\t':
		if (tp->nbest)
			snprintf(tp->text, sizeof(tp->text), "%s%s", tp->text[0] == '!' ? "!" : "",
				 tp->syms->names[tp->best[tp->fsel]]);
		check_text(tp);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		apply_entry(v, tp);
		break;
	case 'K' & 0x1f:
		clear_list(v, tp);
		break;
	case 'U' & 0x1f:
		tp->text[0] = '\0';
		narrow(tp);
		check_text(tp);
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (!len)
			break;
		tp->text[len - 1] = '\0';
		narrow(tp);
		check_text(tp);
		break;
	default:
		if (key > ' ' && key < 0x7f) {
			if (len + 1 < sizeof(tp->text)) {
				tp->text[len] = (char)key;
				tp->text[len + 1] = '\0';
				/* only the function part changes the matches */
				if (!strchr(tp->text, ':') || key == ':')
					narrow(tp);
				check_text(tp);
			}
			break;
		}
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

/* --- tracers --- */

static void switch_tracer(struct kt_view *v, struct tpane *tp)
{
	struct trow *r = &tp->tr[tp->sel];
	char err[512] = "";

	/* the current one again restarts a capture that stopped (a reader that could not start) */
	if (tp->current && !strcmp(tp->current, r->name) && v->app->reader) {
		ui_message(v->ui, false, "%s is the current tracer already", r->name);
		return;
	}
	if (app_set_tracer(v->app, r->name, err, sizeof(err)) < 0) {
		free(r->why);
		r->why = xstrdup(err[0] ? err : "refused");
		load(v, tp); /* the tracer as it is now */
		ui_message(v->ui, true, "%s (tracer: %s)", err[0] ? err : "refused",
			   tp->current ? tp->current : "unknown");
	} else {
		free(r->why);
		r->why = NULL;
		ui_message(v->ui, false, "ktop's instance now traces with %s", r->name);
		load(v, tp);
	}
	ui_broadcast(v->ui, KT_EV_EVENTS); /* the header names the tracer */
}

static void open_scope_prompt(struct kt_view *v)
{
	ui_prompt_open(v->ui, v, PROMPT_SCOPE,
		       "scope (pid=1,2 [children] | comm=NAME | cgroup=PATH | empty)> ", "");
}

/* The scope goes to the source, which checks the pids, resolves the command and the cgroup
 * where its kernel is (an agent's on its machine, naming its host when it refuses). */
static void apply_scope(struct kt_view *v, const char *text)
{
	struct kt_scopespec spec;
	struct kt_source_desc d;
	char kind[32], *arg, err[1024] = "", note[1024] = "";
	const char *was = v->app->scope_desc[0] ? v->app->scope_desc : "all processes";

	if (scopespec_parse(text, &spec, err, sizeof(err)) < 0) {
		ui_message(v->ui, true, "%s (scope left as %s)", err, was);
		return;
	}
	source_describe(v->app->source, &d);
	scopespec_request(&spec, kind, sizeof(kind), &arg);
	if (app_set_source_scope(v->app, kind, arg, note, sizeof(note), err, sizeof(err)) < 0)
		ui_message(v->ui, true, "%s (scope left as %s)", err[0] ? err : "refused", was);
	else if (note[0])
		ui_message(v->ui, true, "the agents now record only %s; %s", v->app->scope_desc,
			   note);
	else if (v->app->scope_desc[0])
		ui_message(v->ui, false, "%s instance now records only %s%s", d.instance_of,
			   v->app->scope_desc, spec.cgroup[0] ? " and its forks (histograms and "
			   "counters opened from now on too)" : "");
	else
		ui_message(v->ui, false, "%s instance records all processes again", d.instance_of);
	free(arg);
	scopespec_free(&spec);
	ui_broadcast(v->ui, KT_EV_EVENTS); /* the header shows the scope */
	v->dirty = true;
}

static void tracers_prompt(struct kt_view *v, int id, const char *text, enum kt_prompt_event ev)
{
	if (id == PROMPT_SCOPE && ev == KT_PROMPT_ACCEPT)
		apply_scope(v, text);
}

static int tracers_key(struct kt_view *v, int key)
{
	struct tpane *tp = TP(v);

	if (!app_can(v->app, KT_CAP_TRACER))
		return key == 27 ? KT_KEY_CLOSE : KT_KEY_IGNORED;
	if (tp->fmode)
		return fmode_key(v, tp, key);
	switch (key) {
	case KEY_UP:
		if (tp->sel > 0)
			tp->sel--;
		break;
	case KEY_DOWN:
		if (tp->sel + 1 < nrows(tp))
			tp->sel++;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (tp->sel < tp->ntr)
			switch_tracer(v, tp);
		else
			enter_fmode(v, tp, tp->sel - tp->ntr);
		break;
	case 's':
		open_scope_prompt(v);
		break;
	case 27:
		return KT_KEY_CLOSE;
	default:
		return KT_KEY_IGNORED;
	}
	v->dirty = true;
	return KT_KEY_HANDLED;
}

static const struct funcbar_item tracer_items[] = {
	{ "F1", "Help" }, { "Enter", "Switch/Edit" }, { "s", "Scope" }, { "Esc", "Back" },
	{ "Tab", "Focus" }, { "F9", "Zoom" },	      { "F10", "Quit" },
};

static const struct funcbar_item fmode_items[] = {
	{ "Enter", "Add" }, { "Tab", "Take" }, { "^K", "Empty" }, { "^U", "Clear" },
	{ "Esc", "Back" },  { "F10", "Quit" },
};

static int tracers_funcbar(struct kt_view *v, const struct funcbar_item **items)
{
	if (TP(v)->fmode) {
		*items = fmode_items;
		return (int)(sizeof(fmode_items) / sizeof(fmode_items[0]));
	}
	*items = tracer_items;
	return (int)(sizeof(tracer_items) / sizeof(tracer_items[0]));
}

static const struct kt_keyhelp tracers_keys[] = {
	{ "Enter", "switch tracer / edit the list" },
	{ "s", "scope: pid=1,2 [children] comm= cgroup=" },
	{ "letters Tab", "list: narrow / take a function" },
	{ "^K ^U", "list: empty it / clear the text" },
	{ "Esc", "leave the list, close the pane" },
	{ NULL, NULL },
};

/* Its function list takes typed text. */
static bool tracers_typing(struct kt_view *v)
{
	return TP(v)->fmode;
}

const struct kt_view_ops view_tracers_ops = {
	.name = "tracers",
	.title = "Tracers (R)",
	.keys = tracers_keys,
	.typing = tracers_typing,
	.pref_width = 48,
	.init = tracers_init,
	.free = tracers_free,
	.resize = tracers_resize,
	.draw = tracers_draw,
	.key = tracers_key,
	.prompt = tracers_prompt,
	.funcbar = tracers_funcbar,
};
