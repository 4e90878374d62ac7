// SPDX-License-Identifier: GPL-2.0-or-later
/* The screen manager (htop ScreenManager_run, tmux server_client_loop): runs the main loop,
 * routes keys and the mouse, ticks the panes, and has what is dirty redrawn at most ten
 * times a second. The panes' life is pane.c's, the drawing screen_draw.c's, the prompt
 * screen_prompt.c's. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "util/log.h"
#include "ktoprc.h"
#include "app/options.h"
#include "app/signals.h"
#include "util/testhooks.h"
#include "source/source.h"
#include "ui/action.h"
#include "ui/help.h"
#include "ui/motion.h"
#include "ui/pane.h"
#include "ui/screen.h"
#include "ui/ui.h"
#include "ui/ui_arm.h"
#include "ui/view.h"
#include "util/clock.h"

#define NSEC_PER_MSEC 1000000ULL
/* Ten redraws a second at most, however fast records arrive. Tests make it a minute
 * (KTOP_TEST_REDRAW_MIN_MS) to show which frames it holds back. */
#define REDRAW_MIN_NS (100 * NSEC_PER_MSEC)

static unsigned long long redraw_min_ns(void)
{
	const char *env = test_hook_env("KTOP_TEST_REDRAW_MIN_MS");

	return env ? strtoull(env, NULL, 10) * NSEC_PER_MSEC : REDRAW_MIN_NS;
}

/* Whether the store holds a record yet. Until it does a frame is cheap and the next may
 * bring the first rows, which must not wait out REDRAW_MIN_NS: a recording's opening frame
 * is drawn before its index publishes, and its first screen came 100 ms late. */
static bool store_has_records(struct kt_store *st)
{
	bool any;

	store_lock(st);
	any = store_browse_end(st) > store_first(st);
	store_unlock(st);
	return any;
}

char *ui_ov_hide(struct kt_ui *ui, size_t *len)
{
	*len = sizeof(ui->ov_hide);
	return ui->ov_hide;
}

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

void ui_broadcast(struct kt_ui *ui, enum kt_view_event ev)
{
	int i;

	for (i = 0; i < ui->lay.n; i++) {
		if (ui->views[i]->ops->notify)
			ui->views[i]->ops->notify(ui->views[i], ev);
		/* every title says whether its pane follows the range (ui_range_unscoped) */
		if (ev == KT_EV_RANGE)
			ui->views[i]->dirty = true;
	}
	if (ev == KT_EV_EVENTS) {
		header_refresh(&ui->header, ui->app);
		ui->header_dirty = true;
	}
	if (ev == KT_EV_PAUSE || ev == KT_EV_RESUME)
		ui->header_dirty = true;
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
	snprintf(s->ov_hide, sizeof(s->ov_hide), "%s", ui->ov_hide);
}

void screen_confirm(struct kt_ui *ui, const char *question, void (*yes)(struct kt_ui *ui),
		    const char *no_msg)
{
	ui_message(ui, true, "%s", question);
	ui->confirm_yes = yes;
	ui->confirm_no = no_msg;
}

/* The key after a screen_confirm question: y answers yes, anything else no. */
static void confirm_key(struct kt_ui *ui, int key)
{
	void (*yes)(struct kt_ui *ui) = ui->confirm_yes;

	ui->confirm_yes = NULL;
	if (key == 'y' || key == 'Y')
		yes(ui);
	else
		ui_message(ui, false, "%s", ui->confirm_no);
}

static void help_keypress(struct kt_ui *ui, int key)
{
	const struct kt_motion *m = motion_of(key, ui->helpst.typing);

	if (key == KEY_F(10)) {
		ui->quit = true;
		return;
	}
	if (help_key(&ui->helpst, m ? m->code : key)) {
		ui->help_dirty = true;
		return;
	}
	/* Any other key closes the help; the panes under it are redrawn. */
	ui->help = false;
	ui->full = true;
}

/* A click focuses the pane under it and goes to the pane (the picker toggles the event
 * clicked), its release too (a drag); the wheel scrolls the pane under it by three rows, or
 * goes to its wheel op. */
static void ui_mouse_event(struct kt_ui *ui, const MEVENT *me)
{
	int i, n;

	log_debug("%s: %d,%d %#lx", __func__, me->y, me->x, (unsigned long)me->bstate);
	if (ui->prompt.active)
		return;
	if (ui->help) {
		if (me->bstate & BUTTON1_PRESSED) {
			ui->help = false;
			ui->full = true;
		}
		return;
	}
	for (i = 0; i < ui->lay.n; i++) {
		struct kt_view *v = ui->views[i];
		int by, bx;

		if (!v->win || !wenclose(v->win, me->y, me->x))
			continue;
		getbegyx(v->win, by, bx);
		if ((me->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) && v->ops->wheel) {
			v->ops->wheel(v, me->y - by, me->x - bx, me->bstate & BUTTON4_PRESSED);
			v->dirty = true;
		} else if (me->bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			for (n = 0; n < 3; n++)
				v->ops->key(v, (me->bstate & BUTTON4_PRESSED) ? KEY_UP : KEY_DOWN);
			v->dirty = true;
		} else if (me->bstate & BUTTON1_PRESSED) {
			if (i != ui->lay.focus)
				pane_focus(ui, i);
			if (v->ops->click)
				v->ops->click(v, me->y - by, me->x - bx);
		} else if ((me->bstate & BUTTON1_RELEASED) && v->ops->release) {
			v->ops->release(v, me->y - by, me->x - bx);
			v->dirty = true;
		}
		return;
	}
}

/* One KEY_MOUSE can stand for several events: when a press and its release arrive in one
 * read, ncurses queues both and returns KEY_MOUSE once. getmouse() pops the newest, so
 * take them all and handle them oldest first, or the press is lost under its release. */
static void ui_mouse(struct kt_ui *ui)
{
	MEVENT me[16];
	int n = 0;

	while (n < (int)(sizeof(me) / sizeof(me[0])) && getmouse(&me[n]) == OK)
		n++;
	if (!n)
		log_debug("%s: KEY_MOUSE with no event", __func__);
	while (n-- > 0)
		ui_mouse_event(ui, &me[n]);
}

/* A movement, as its curses code; half a page as rows, for every pane has rows. */
static int move_key(struct kt_view *v, int code)
{
	int n = (v->h - 2) / 2, r = 0;

	if (code != KT_MOTION_HALF_UP && code != KT_MOTION_HALF_DOWN)
		return v->ops->key(v, code);
	while (n-- > 0)
		r |= v->ops->key(v, code == KT_MOTION_HALF_UP ? KEY_UP : KEY_DOWN);
	return r & KT_KEY_HANDLED;
}

static void ui_key(struct kt_ui *ui, int key)
{
	const struct kt_motion *m;
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
	if (ui->confirm_yes) {
		confirm_key(ui, key);
		return;
	}
	if (ui->help) {
		help_keypress(ui, key);
		return;
	}
	if (ui->prompt.active) {
		screen_prompt_key(ui, key);
		return;
	}
	if (ui->msg[0]) {
		ui->msg[0] = '\0';
		ui->status_dirty = true;
	}
	v = ui->views[ui->lay.focus];
	m = motion_of(key, v->ops->typing && v->ops->typing(v));
	r = m ? move_key(v, m->code) : v->ops->key(v, key);
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
	struct kt_source_desc d;
	int i;

	app_tick(ui->app);
	ui_arm_poll(ui);
	/* a remote agent's command wrote to its stderr: its last line, as an error */
	source_describe(ui->app->source, &d);
	if (d.note_seq != ui->note_seq) {
		ui->note_seq = d.note_seq;
		ui_message(ui, true, "remote stderr: %s", d.note);
	}
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
	ui_arm_end(ui);
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
	struct kt_view *flame = NULL, *first = NULL;
	struct kt_ui ui;
	unsigned long long delay_ns, next_tick, last_redraw = 0, now;
	const unsigned long long redraw_min = redraw_min_ns();
	char err[256];
	bool busy = false, rec_ok;
	size_t h;
	int key;

	memset(&ui, 0, sizeof(ui));
	ui.app = app;
	settings_start(app->opts, &ui.start, ui.msg, sizeof(ui.msg));
	snprintf(ui.ov_hide, sizeof(ui.ov_hide), "%s", ui.start.ov_hide);
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
	/* nothing named: the overview is the first screen, alone (issue 32), unless ktoprc
	 * says overview = no */
	if (!flame && options_landing(app->opts) &&
	    (app->opts->top || !app->opts->config || app->opts->config->overview != 0)) {
		first = pane_open(&ui, "overview", true);
		ui.start.picker = false;
		ui.start.zoom = first != NULL;
	}
	if (ui.start.counters)
		pane_open(&ui, "counters", false);
	if (ui.start.picker)
		pane_open(&ui, "events", false);
	/* --hist: a pane for each, beside the stream; one asked for alone (no event) takes
	 * the screen rather than sit beside an empty stream */
	for (h = 0; h < app->opts->n_hists && ui.lay.n < KT_LAYOUT_MAX; h++) {
		struct kt_view *hist = pane_open(&ui, "hist", true);

		view_hist_build(hist, app->opts->hists[h]);
		if (hist && app->opts->n_hists == 1 && !flame &&
		    source_enabled_count(app->source) <= 0) {
			first = hist;
			ui.start.zoom = true;
		}
	}
	if (flame)
		first = flame;
	pane_focus(&ui, first ? pane_index(&ui, first) : 0);
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
	screen_layout(&ui);
	ui_arm_start(&ui);
	next_tick = clock_mono_ns() + delay_ns;

	while (!ui.quit && !signals_pending()) {
		struct pollfd pfd[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = app->wake_rd, .events = POLLIN },
		};
		int timeout, n;

		if (ui.relayout)
			screen_layout(&ui);
		now = clock_mono_ns();
		if (screen_dirty(&ui) && now >= last_redraw + redraw_min) {
			screen_redraw(&ui);
			if (store_has_records(app->store))
				last_redraw = now;
		}
		timeout = ms_until(now, next_tick);
		if (screen_dirty(&ui) && ms_until(now, last_redraw + redraw_min) < timeout)
			timeout = ms_until(now, last_redraw + redraw_min);
		if (busy)
			timeout = 0;
		n = poll(pfd, app->wake_rd >= 0 ? 2 : 1, timeout);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && (pfd[1].revents & POLLIN)) {
			app_drain_wake(app);
			ui_broadcast(&ui, KT_EV_DATA);
			ui_record_pump(&ui, &ui.rec);
			if (app_can(app, KT_CAP_SEEK)) /* the header counts what is read so far */
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
