// SPDX-License-Identifier: GPL-2.0-or-later
/* The help (see help.h): its lines are the key tables' rows, laid out in columns. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "app/app.h"
#include "app/options.h"
#include "ui/action.h"
#include "ui/help.h"
#include "ui/motion.h"
#include "ui/pane.h"
#include "ui/view.h"

static const struct kt_keyhelp prompt_keys[] = {
	{ "Enter Esc", "accept / cancel" },
	{ "^U ^W", "kill the line / the word" },
	{ "Tab", "complete a field, a function" },
	{ "click", "focus a pane, toggle an event" },
	{ "wheel", "scroll the pane under it" },
	{ NULL, NULL },
};

static void add(struct kt_help *h, const char *keys, const char *desc)
{
	if (h->n < HELP_MAX_LINES)
		h->lines[h->n++] = (struct kt_help_line){ keys, desc };
}

static void add_section(struct kt_help *h, const char *title, const struct kt_keyhelp *k)
{
	if (h->n)
		add(h, "", "");
	add(h, NULL, title);
	for (; k && k->keys; k++)
		add(h, k->keys, k->help);
}

/* Why a key of this source does nothing here (NULL: it works): the source's refusal, or
 * a folded-stacks file's. */
static const char *refused(const struct kt_app *app, const struct kt_action *a)
{
	if (!app)
		return NULL;
	if (app->opts->flame_path && !a->stacks_file)
		return "a folded-stacks file has no events, only its flame graph";
	return app_can(app, a->needs) ? NULL : app_refusal(app, a->needs);
}

/* Adds text after keys, cut at spaces into lines that fit the help's column (copied: a
 * source may give its lines from one buffer). */
static void add_wrapped(struct kt_help *h, const char *keys, const char *text)
{
	const int room = HELP_COL_W - HELP_KEYS_W - 2;
	int len, cut;

	while (*text && h->nwhy < HELP_MAX_REFUSED) {
		len = (int)strlen(text);
		cut = len;
		if (len > room)
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
		if (cut <= 0)
			cut = room;
		snprintf(h->why[h->nwhy], sizeof(h->why[0]), "%.*s", cut, text);
		add(h, keys, h->why[h->nwhy++]);
		keys = "";
		text += cut;
		while (*text == ' ')
			text++;
	}
}

/* The refused actions last, each with its reason, so the lists above name only keys that
 * act here. */
static void add_refused(struct kt_help *h, const struct kt_app *app)
{
	const struct kt_action *a;
	const char *why;
	bool any = false;
	int i;

	for (i = 0; (a = action_at(i)); i++) {
		why = refused(app, a);
		if (!why)
			continue;
		if (!any)
			add_section(h, "Not here (why, and the way out)", NULL);
		any = true;
		add_wrapped(h, a->keys, why);
	}
}

void help_open(struct kt_help *h, const struct kt_view_ops *first, const struct kt_app *app)
{
	const struct kt_view_ops *ops;
	const struct kt_pane_kind *k;
	const struct kt_motion *m;
	const struct kt_action *a;
	int i;

	h->n = h->scroll = h->nwhy = 0;
	h->typing = false;
	h->note[0] = '\0';
	if (first && first->keys)
		add_section(h, first->title, first->keys);
	if (h->n)
		add(h, "", "");
	add(h, NULL, "Movement (every pane; typed text keeps its letters)");
	for (i = 0; (m = motion_at(i)); i++)
		add(h, m->keys, m->help);
	add(h, "", "");
	add(h, NULL, "Global keys");
	for (i = 0; (a = action_at(i)); i++)
		if (!refused(app, a))
			add(h, a->keys, a->help);
	add_section(h, "Prompt and mouse", prompt_keys);
	for (i = 0; (k = pane_kind_at(i)); i++) {
		/* the pane this source opens there (a recording's events in the picker's place) */
		ops = k->factory && app ? k->factory(app) : k->ops;
		if (ops != first && ops->keys && !refused(app, &k->act))
			add_section(h, ops->title, ops->keys);
	}
	add_refused(h, app);
}

static bool matches(const struct kt_help_line *l, const char *q)
{
	return strcasestr(l->desc, q) || (l->keys && strcasestr(l->keys, q));
}

/* The next line matching the query from line from on, dir 1 or -1, wrapping; -1: none. */
static int find(const struct kt_help *h, int from, int dir)
{
	int i, l;

	for (i = 0; i < h->n; i++) {
		l = ((from + dir * i) % h->n + h->n) % h->n;
		if (matches(&h->lines[l], h->query))
			return l;
	}
	return -1;
}

static void search(struct kt_help *h, int from, int dir)
{
	int l;

	if (!h->query[0])
		return;
	l = find(h, from, dir);
	if (l < 0)
		snprintf(h->note, sizeof(h->note), "pattern not found: %s", h->query);
	else
		h->scroll = l;
}

/* A key while / is being typed: Enter searches, Esc gives up. */
static void query_key(struct kt_help *h, int key)
{
	size_t len = strlen(h->query);

	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		h->typing = false;
		search(h, h->scroll, 1);
	} else if (key == 27) {
		h->typing = false;
	} else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len) {
		h->query[len - 1] = '\0';
	} else if (key >= ' ' && key < 0x7f && len + 1 < sizeof(h->query)) {
		h->query[len] = (char)key;
		h->query[len + 1] = '\0';
	}
}

bool help_key(struct kt_help *h, int key)
{
	int page = h->page > 1 ? h->page - 1 : 1;

	h->note[0] = '\0';
	if (h->typing) {
		query_key(h, key);
		return true;
	}
	switch (key) {
	case KEY_UP: h->scroll--; break;
	case KEY_DOWN: h->scroll++; break;
	case KEY_PPAGE: h->scroll -= page; break;
	case KEY_NPAGE: h->scroll += page; break;
	case KT_MOTION_HALF_UP: h->scroll -= page / 2; break;
	case KT_MOTION_HALF_DOWN: h->scroll += page / 2; break;
	case KEY_HOME: h->scroll = 0; break;
	case KEY_END: h->scroll = h->n; break;
	case KEY_LEFT: case KEY_RIGHT: break;
	case '/': h->typing = true; h->query[0] = '\0'; break;
	case 'n': search(h, h->scroll + 1, 1); break;
	case 'N': search(h, h->scroll - 1, -1); break;
	default: return false;
	}
	return true;
}

static void draw_line(WINDOW *win, int y, int x, int w, const struct kt_help_line *l)
{
	if (!l->keys) {
		wattrset(win, crt_attr(CRT_SYSTEM));
		crt_put(win, y, x + 1, l->desc, w - 1);
		return;
	}
	wattrset(win, crt_attr(CRT_HELP_KEY));
	crt_put(win, y, x + 1, l->keys, HELP_KEYS_W - 1);
	wattrset(win, crt_attr(CRT_HELP));
	crt_put(win, y, x + HELP_KEYS_W + 1, l->desc, w - HELP_KEYS_W - 2);
}

static void draw_bottom(struct kt_help *h, WINDOW *win, int y, int w, bool more)
{
	char hint[160];

	if (h->typing)
		snprintf(hint, sizeof(hint), "/%s", h->query);
	else if (h->note[0])
		snprintf(hint, sizeof(hint), " %s", h->note);
	else
		snprintf(hint, sizeof(hint), " Esc q F1: close  %s/ n N: search", more ?
			 "Up Down PgUp PgDn g G: scroll  " : "");
	wattrset(win, crt_attr(h->note[0] ? CRT_ERROR : CRT_DIM));
	crt_fill(win, y, 0, w);
	crt_put(win, y, 0, hint, w);
}

void help_draw(struct kt_help *h, WINDOW *win, int w, int rows)
{
	int ncol = w / HELP_COL_W > 1 ? w / HELP_COL_W : 1, colw = w / ncol;
	int body = rows > 2 ? rows - 2 : 1, c, r, l;

	h->page = body * ncol;
	if (h->scroll > h->n - h->page)
		h->scroll = h->n - h->page;
	if (h->scroll < 0)
		h->scroll = 0;
	wattrset(win, crt_attr(CRT_HELP));
	for (r = 0; r < rows; r++)
		crt_fill(win, r, 0, w);
	wattrset(win, crt_attr(CRT_HELP_TITLE));
	crt_fill(win, 0, 0, w);
	crt_put(win, 0, 0, " ktop help: every key", w);
	for (c = 0; c < ncol; c++)
		for (r = 0; r < body; r++) {
			l = h->scroll + c * body + r;
			if (l < h->n)
				draw_line(win, 1 + r, c * colw, colw, &h->lines[l]);
		}
	if (rows >= 2)
		draw_bottom(h, win, rows - 1, w, h->n > h->page);
	wattrset(win, A_NORMAL);
}
