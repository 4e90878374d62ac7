// SPDX-License-Identifier: GPL-2.0-or-later
/* The screen manager (htop ScreenManager_run, tmux server_client_loop): owns the panes and
 * the fixed regions, runs the main loop, routes keys, and redraws what is dirty, at most
 * ten times a second and only with wnoutrefresh + doupdate, so a slow SSH link gets only
 * what changed. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "log.h"
#include "options.h"
#include "signals.h"
#include "ui/action.h"
#include "ui/complete.h"
#include "ui/funcbar.h"
#include "ui/help.h"
#include "ui/pane.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "ui/view.h"
#include "xalloc.h"
#include "clock.h"

#define NSEC_PER_MSEC 1000000ULL
/* Ten redraws a second at most, however fast records arrive. */
#define REDRAW_MIN_NS (100 * NSEC_PER_MSEC)

bool ui_paused(const struct kt_ui *ui)
{
	return ui->paused;
}

void ui_message(struct kt_ui *ui, bool error, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	/* One line: a multi-line kernel message belongs in a pane's message area. */
	for (p = ui->msg; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	ui->msg_error = error;
	ui->status_dirty = true;
}

void ui_prompt_open(struct kt_ui *ui, struct kt_view *owner, int id, const char *label,
		    const char *initial)
{
	prompt_open(&ui->prompt, label, initial);
	ui->prompt_owner = owner;
	ui->prompt_id = id;
	ui->msg[0] = '\0';
	ui->status_dirty = true;
	ui->fbar_dirty = true;
}

size_t ui_prompt_complete(struct kt_ui *ui, const char *const *cands, size_t n,
			  const char *extra, char *list, size_t listlen)
{
	struct kt_prompt *p = &ui->prompt;
	size_t before = p->len, m;
	char text[KT_PROMPT_MAX];

	m = complete_word(p->buf, sizeof(p->buf), &p->len, &p->cur, extra, cands, n, list,
			  listlen);
	ui->status_dirty = true;
	if (p->len != before && ui->prompt_owner && ui->prompt_owner->ops->prompt) {
		snprintf(text, sizeof(text), "%s", p->buf);
		ui->prompt_owner->ops->prompt(ui->prompt_owner, ui->prompt_id, text,
					      KT_PROMPT_CHANGED);
	}
	return m;
}

void ui_prompt_drop(struct kt_ui *ui, struct kt_view *owner)
{
	if (!ui->prompt.active || ui->prompt_owner != owner)
		return;
	prompt_close(&ui->prompt);
	ui->prompt_owner = NULL;
	ui->status_dirty = ui->fbar_dirty = true;
}

size_t ui_prompt_cursor(const struct kt_ui *ui)
{
	return ui->prompt.cur;
}

void ui_broadcast(struct kt_ui *ui, enum kt_view_event ev)
{
	int i;

	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i]->ops->notify)
			ui->views[i]->ops->notify(ui->views[i], ev);
	if (ev == KT_EV_EVENTS) {
		header_refresh(&ui->header, ui->app);
		ui->header_dirty = true;
	}
	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME)
		ui->header_dirty = true;
}

void view_draw_title(struct kt_view *v, const char *title, const char *right)
{
	int rw = right ? (int)strlen(right) : 0, x;

	wattrset(v->win, crt_attr(v->focused ? CRT_TITLE_FOCUS : CRT_TITLE));
	crt_fill(v->win, 0, 0, v->w);
	x = crt_put(v->win, 0, 1, title, v->w - 1 - (rw ? rw + 2 : 0));
	if (rw && rw + x + 3 <= v->w)
		crt_put(v->win, 0, v->w - rw - 1, right, rw);
	wattrset(v->win, A_NORMAL);
}

/* (Re)creates every window for the current terminal size and layout. */
static void ui_layout(struct kt_ui *ui)
{
	int i;

	getmaxyx(stdscr, ui->lines, ui->cols);
	layout_fix(&ui->lay);
	for (i = 0; i < ui->lay.n; i++)
		ui->lay.want_w[i] = ui->views[i]->ops->pref_width;
	layout_screen(ui->cols, ui->lines, KT_HEADER_LINES, &ui->rects);
	layout_compute(&ui->lay, ui->rects.panes, ui->pane, &ui->side);

#define REWIN(win, r)                                                           \
	do {                                                                    \
		if (win)                                                        \
			delwin(win);                                            \
		win = (r).w > 0 && (r).h > 0 ? newwin((r).h, (r).w, (r).y, (r).x) : NULL; \
	} while (0)
	REWIN(ui->header_win, ui->rects.header);
	REWIN(ui->status_win, ui->rects.status);
	REWIN(ui->fbar_win, ui->rects.funcbar);
#undef REWIN
	for (i = 0; i < ui->lay.n; i++) {
		struct kt_view *v = ui->views[i];
		struct kt_rect r = ui->pane[i];

		if (v->win)
			delwin(v->win);
		v->win = NULL;
		v->w = v->h = 0;
		if (r.w > 0 && r.h > 0)
			v->win = newwin(r.h, r.w, r.y, r.x);
		if (v->win) {
			v->w = r.w;
			v->h = r.h;
			v->ops->resize(v);
		}
		v->dirty = true;
	}
	if (ui->help_win)
		delwin(ui->help_win);
	ui->help_win = NULL;
	ui->relayout = false;
	ui->full = true;
	ui->header_dirty = ui->status_dirty = ui->fbar_dirty = ui->help_dirty = true;
}

static bool ui_dirty(const struct kt_ui *ui)
{
	int i;

	if (ui->full || ui->header_dirty || ui->status_dirty || ui->fbar_dirty || ui->help_dirty)
		return true;
	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i]->win && ui->views[i]->dirty)
			return true;
	return false;
}

static void draw_separators(struct kt_ui *ui)
{
	const struct crt_glyphs *g = crt_glyphs();
	int i, y;

	/* stdscr is the backdrop under the panes: blank, plus the separator columns. */
	werase(stdscr);
	if (!ui->side)
		return;
	wattrset(stdscr, crt_attr(CRT_BORDER));
	for (i = 0; i + 1 < ui->lay.n; i++) {
		struct kt_rect r = ui->pane[i];

		if (!r.w)
			continue;
		for (y = r.y; y < r.y + r.h; y++)
			mvwaddstr(stdscr, y, r.x + r.w, g->vline);
	}
	wattrset(stdscr, A_NORMAL);
}

static void draw_status(struct kt_ui *ui)
{
	WINDOW *w = ui->status_win;

	if (ui->prompt.active) {
		prompt_draw(&ui->prompt, w, ui->cols);
		return;
	}
	wattrset(w, crt_attr(ui->msg_error ? CRT_ERROR : CRT_STATUS));
	crt_put_pad(w, 0, 0, ui->msg, ui->cols);
	wattrset(w, A_NORMAL);
}

static const struct funcbar_item prompt_items[] = {
	{ "Enter", "Accept" }, { "Esc", "Cancel" }, { "^U", "Clear" }, { "F10", "Quit" },
};

static void draw_funcbar(struct kt_ui *ui)
{
	const struct funcbar_item *items;
	struct kt_view *f = ui->views[ui->lay.focus];
	int n;

	if (ui->prompt.active) {
		items = prompt_items;
		n = (int)(sizeof(prompt_items) / sizeof(prompt_items[0]));
	} else if (f->ops->funcbar) {
		n = f->ops->funcbar(f, &items);
	} else {
		n = funcbar_actions(ui->app->recording != NULL, &items);
	}
	funcbar_draw(ui->fbar_win, ui->cols, items, n);
}

static void draw_help(struct kt_ui *ui)
{
	struct kt_rect a = { 0, 0, ui->cols, ui->lines - (ui->rects.funcbar.h ? 1 : 0) };
	int w, h;

	if (!ui->help_win) {
		help_size(a.w, a.h, &w, &h);
		if (w <= 0 || h <= 0)
			return;
		ui->help_win = newwin(h, w, a.y + (a.h - h) / 2, (a.w - w) / 2);
		if (!ui->help_win)
			return;
	}
	getmaxyx(ui->help_win, h, w);
	help_draw(ui->help_win, w, h, &ui->help_scroll);
}

/* One redraw: only what is dirty is drawn and copied to the virtual screen; doupdate()
 * sends the difference. */
static void ui_redraw(struct kt_ui *ui)
{
	struct kt_view *sv = ui->stream;
	bool any = false;
	int i;

	if (ui->full) {
		draw_separators(ui);
		wnoutrefresh(stdscr);
		any = true;
	}
	if (ui->header_win && (ui->header_dirty || ui->full)) {
		header_draw(&ui->header, ui->header_win, ui->cols, ui->rects.header.h, ui->app,
			    ui_record_state(&ui->rec) ? ui_record_state(&ui->rec) :
			    sv->ops->state && !ui->app->opts->flame_path ? sv->ops->state(sv) :
			    NULL, ui->paused);
		wnoutrefresh(ui->header_win);
		any = true;
	}
	for (i = 0; i < ui->lay.n; i++) {
		struct kt_view *v = ui->views[i];

		if (!v->win || !(v->dirty || ui->full))
			continue;
		werase(v->win);
		v->ops->draw(v);
		wnoutrefresh(v->win);
		v->dirty = false;
		any = true;
	}
	if (ui->fbar_win && (ui->fbar_dirty || ui->full)) {
		draw_funcbar(ui);
		wnoutrefresh(ui->fbar_win);
		any = true;
	}
	/* The overlay goes over whatever was just copied below it. */
	if (ui->help && (any || ui->help_dirty)) {
		draw_help(ui);
		if (ui->help_win) {
			touchwin(ui->help_win);
			wnoutrefresh(ui->help_win);
		}
	}
	/* Last, so the terminal cursor ends up in the prompt. */
	if (ui->status_win && (ui->status_dirty || ui->full || ui->prompt.active)) {
		draw_status(ui);
		wnoutrefresh(ui->status_win);
	}
	if (ui->cursor_on != (ui->prompt.active && !ui->help)) {
		ui->cursor_on = !ui->cursor_on;
		curs_set(ui->cursor_on ? 1 : 0);
	}
	doupdate();
	ui->full = ui->header_dirty = ui->status_dirty = ui->fbar_dirty = ui->help_dirty = false;
}

void ui_edit_filter(struct kt_ui *ui, const char *spec)
{
	struct kt_view *picker = pane_open(ui, "events", true);

	if (picker && !view_picker_edit_filter(picker, spec))
		ui_message(ui, true, "%s is not in the event picker", spec);
}

/* The settings as they are now, for ktoprc and profiles. */
void screen_settings_now(struct kt_ui *ui, struct kt_ui_settings *s)
{
	*s = ui->start;
	snprintf(s->theme, sizeof(s->theme), "%s", crt_theme_name());
	s->orient = (int)ui->lay.orient;
	s->zoom = ui->lay.zoom;
	s->split = ui->lay.first_pct;
	s->picker = pane_find(ui, "events") != NULL;
	s->counters = pane_find(ui, "counters") != NULL;
}

static void help_key(struct kt_ui *ui, int key)
{
	switch (key) {
	case KEY_UP:
	case 'k':
		ui->help_scroll--;
		break;
	case KEY_DOWN:
	case 'j':
		ui->help_scroll++;
		break;
	case KEY_PPAGE:
		ui->help_scroll -= 10;
		break;
	case KEY_NPAGE:
	case ' ':
		ui->help_scroll += 10;
		break;
	case KEY_F(10):
		ui->quit = true;
		return;
	default:
		/* Any other key closes the overlay; the panes under it are redrawn. */
		ui->help = false;
		ui->full = true;
		return;
	}
	ui->help_dirty = true;
}

static void prompt_key_event(struct kt_ui *ui, int key)
{
	struct kt_view *owner = ui->prompt_owner;
	enum kt_prompt_result r = prompt_key(&ui->prompt, key);
	char text[KT_PROMPT_MAX];

	if (key == KEY_F(10)) {
		ui->quit = true;
		return;
	}
	ui->status_dirty = true;
	snprintf(text, sizeof(text), "%s", ui->prompt.buf);
	switch (r) {
	case KT_PR_CHANGED:
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text, KT_PROMPT_CHANGED);
		break;
	case KT_PR_COMPLETE:
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text, KT_PROMPT_COMPLETE);
		break;
	case KT_PR_ACCEPT:
	case KT_PR_CANCEL:
		/* Closed first: the owner may open the next prompt or leave a message. */
		prompt_close(&ui->prompt);
		ui->prompt_owner = NULL;
		ui->fbar_dirty = true;
		if (!owner && ui->prompt_id == UI_PROMPT_PROFILE && r == KT_PR_ACCEPT) {
			struct kt_ui_settings now;
			bool error;

			screen_settings_now(ui, &now);
			settings_save_profile(ui->app, text, &now, ui->msg, sizeof(ui->msg),
					      &error);
			ui->msg_error = error;
		}
		if (!owner && ui->prompt_id != UI_PROMPT_PROFILE && r == KT_PR_ACCEPT)
			ui_record_prompt(ui, ui->app, &ui->rec, ui->prompt_id, text);
		if (owner && owner->ops->prompt)
			owner->ops->prompt(owner, ui->prompt_id, text,
					   r == KT_PR_ACCEPT ? KT_PROMPT_ACCEPT : KT_PROMPT_CANCEL);
		break;
	default:
		break;
	}
}

/* A click focuses the pane under it and goes to the pane (the picker toggles the event
 * clicked); the wheel scrolls the pane under it by three rows. */
static void ui_mouse(struct kt_ui *ui)
{
	MEVENT me;
	int i, n;

	if (getmouse(&me) != OK) {
		log_debug("%s: KEY_MOUSE with no event", __func__);
		return;
	}
	log_debug("%s: %d,%d %#lx", __func__, me.y, me.x, (unsigned long)me.bstate);
	if (ui->prompt.active)
		return;
	if (ui->help) {
		if (me.bstate & BUTTON1_PRESSED) {
			ui->help = false;
			ui->full = true;
		}
		return;
	}
	for (i = 0; i < ui->lay.n; i++) {
		struct kt_view *v = ui->views[i];
		int by, bx;

		if (!v->win || !wenclose(v->win, me.y, me.x))
			continue;
		getbegyx(v->win, by, bx);
		if (me.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			for (n = 0; n < 3; n++)
				v->ops->key(v, (me.bstate & BUTTON4_PRESSED) ? KEY_UP : KEY_DOWN);
			v->dirty = true;
		} else if (me.bstate & BUTTON1_PRESSED) {
			if (i != ui->lay.focus)
				pane_focus(ui, i);
			if (v->ops->click)
				v->ops->click(v, me.y - by, me.x - bx);
		}
		return;
	}
}

static void ui_key(struct kt_ui *ui, int key)
{
	struct kt_view *v;
	int r;

	log_debug("%s: %d", __func__, key);
	if (key == KEY_RESIZE) {
		ui->relayout = true;
		/* The terminal may have dropped what it showed (tmux does, through a 1x1
		 * resize, and curses cannot know when the size comes back the same): repaint
		 * everything. */
		clearok(curscr, TRUE);
		return;
	}
	if (key == KEY_MOUSE) {
		ui_mouse(ui);
		return;
	}
	if (ui->help) {
		help_key(ui, key);
		return;
	}
	if (ui->prompt.active) {
		prompt_key_event(ui, key);
		return;
	}
	if (ui->msg[0]) {
		ui->msg[0] = '\0';
		ui->status_dirty = true;
	}
	v = ui->views[ui->lay.focus];
	r = v->ops->key(v, key);
	if (v->ops->funcbar)
		ui->fbar_dirty = true; /* its hints may follow its mode */
	if (r & KT_KEY_CLOSE)
		pane_close(ui, v);
	if (r & (KT_KEY_HANDLED | KT_KEY_CLOSE))
		return;
	action_key(ui, key);
}

static void ui_tick(struct kt_ui *ui)
{
	int i;

	app_tick(ui->app);
	header_refresh(&ui->header, ui->app);
	ui->header_dirty = true;
	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i]->ops->tick)
			ui->views[i]->ops->tick(ui->views[i]);
}

static bool ui_work(struct kt_ui *ui)
{
	bool busy = false;
	int i;

	for (i = 0; i < ui->lay.n; i++)
		if (ui->views[i]->ops->work && ui->views[i]->ops->work(ui->views[i]))
			busy = true;
	return busy;
}

static void ui_free(struct kt_ui *ui)
{
	pane_close_all(ui);
	if (ui->header_win)
		delwin(ui->header_win);
	if (ui->status_win)
		delwin(ui->status_win);
	if (ui->fbar_win)
		delwin(ui->fbar_win);
	if (ui->help_win)
		delwin(ui->help_win);
	header_free(&ui->header);
}

static int ms_until(unsigned long long now, unsigned long long when)
{
	if (when <= now)
		return 0;
	return (int)((when - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC);
}

int ui_run(struct kt_app *app)
{
	struct kt_ui_settings end;
	struct kt_view *flame = NULL;
	struct kt_ui ui;
	unsigned long long delay_ns, next_tick, last_redraw = 0, now;
	char err[256];
	bool busy = false, rec_ok;
	size_t h;
	int key;

	memset(&ui, 0, sizeof(ui));
	ui.app = app;
	settings_start(app->opts, &ui.start, ui.msg, sizeof(ui.msg));
	ui.msg_error = ui.msg[0] != '\0';
	if (!ui.msg[0] && app->start_warning[0])
		ui_message(&ui, true, "%s", app->start_warning);
	if (crt_init(app->opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "ktop: %s\n", err);
		return KT_EXIT_FAILURE;
	}
	delay_ns = (app->opts->delay_ms ? app->opts->delay_ms : 1000) * NSEC_PER_MSEC;
	layout_init(&ui.lay);
	ui.stream = pane_open(&ui, "stream", true);
	/* --flame: a file's stacks, nothing live; the pane fills the screen */
	if (app->flame) {
		flame = pane_open(&ui, "flame", true);
		view_flame_show(flame, app->flame, app->flame_base, app->opts->flame_path, NULL,
				true);
		app->flame = app->flame_base = NULL;
		ui.start.counters = ui.start.picker = false;
		ui.start.zoom = true;
	}
	if (ui.start.counters)
		pane_open(&ui, "counters", false);
	if (ui.start.picker)
		pane_open(&ui, "events", false);
	/* --hist: a pane for each, beside the stream */
	for (h = 0; h < app->opts->n_hists && ui.lay.n < KT_LAYOUT_MAX; h++)
		view_hist_build(pane_open(&ui, "hist", true), app->opts->hists[h]);
	pane_focus(&ui, flame ? pane_index(&ui, flame) : 0);
	ui.lay.orient = (enum kt_orient)ui.start.orient;
	ui.lay.zoom = ui.start.zoom && ui.lay.n > 1;
	ui.lay.first_pct = ui.start.split;
	ui.start.zoom = ui.lay.zoom;
	ui.mouse = ui.start.mouse;
	/* The xterm mouse protocol only: on TERM=linux ncurses would load libgpm, which
	 * leaks, and over SSH the console's mouse is not there anyway. */
	if (ui.mouse && (!getenv("TERM") || !strncmp(getenv("TERM"), "linux", 5)))
		ui.mouse = false;
	if (ui.mouse) {
		/* presses, not clicks: no wait to tell a click from a double click */
		mouseinterval(0);
		/* releases too: ncurses reads on, blocking, past an event not in the mask */
		mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
	}
	header_refresh(&ui.header, app);
	ui_layout(&ui);
	next_tick = clock_mono_ns() + delay_ns;

	while (!ui.quit && !signals_pending()) {
		struct pollfd pfd[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = app->wake_rd, .events = POLLIN },
		};
		int timeout, n;

		if (ui.relayout)
			ui_layout(&ui);
		now = clock_mono_ns();
		if (ui_dirty(&ui) && now >= last_redraw + REDRAW_MIN_NS) {
			ui_redraw(&ui);
			last_redraw = now;
		}
		timeout = ms_until(now, next_tick);
		if (ui_dirty(&ui) && ms_until(now, last_redraw + REDRAW_MIN_NS) < timeout)
			timeout = ms_until(now, last_redraw + REDRAW_MIN_NS);
		if (busy)
			timeout = 0;
		n = poll(pfd, app->wake_rd >= 0 ? 2 : 1, timeout);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pfd[1].revents & POLLIN)) {
			app_drain_wake(app);
			ui_broadcast(&ui, KT_EV_DATA);
			ui_record_pump(&ui, &ui.rec);
			if (app->recording) /* the header counts what is read so far */
				ui.header_dirty = true;
		}
		if (n > 0 && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
		    !(pfd[0].revents & POLLIN))
			break; /* the terminal is gone; SIGHUP will say so too */
		/* A resize (SIGWINCH also writes the wake pipe) becomes KEY_RESIZE on the next
		 * read, so read on every wake-up; nodelay makes it one cheap syscall. */
		if (n != 0)
			while ((key = getch()) != ERR && !ui.quit)
				ui_key(&ui, key);
		now = clock_mono_ns();
		if (now >= next_tick) {
			ui_tick(&ui);
			next_tick += delay_ns;
			if (next_tick <= now)
				next_tick = now + delay_ns;
		}
		busy = ui_work(&ui);
	}

	screen_settings_now(&ui, &end);
	rec_ok = ui_record_stop(&ui.rec, err, sizeof(err));
	ui_free(&ui);
	crt_done();
	if (!rec_ok)
		fprintf(stderr, "ktop: %s\n", err);
	/* after crt_done: an error reaches the terminal; --flame's forced layout is not the
	 * user's to keep */
	if (!app->opts->flame_path)
		settings_exit(app->opts, &ui.start, &end);
	return KT_EXIT_OK;
}
