// SPDX-License-Identifier: GPL-2.0-or-later
/* The screen's layout and redraw (screen.h): windows made for the terminal's size and the
 * layout, then only what is dirty drawn and copied with wnoutrefresh; doupdate() sends the
 * difference, so a slow SSH link gets only what changed. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/options.h"
#include "ui/funcbar.h"
#include "ui/help.h"
#include "ui/screen.h"
#include "ui/view.h"

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
void screen_layout(struct kt_ui *ui)
{
	int i;

	getmaxyx(stdscr, ui->lines, ui->cols);
	layout_fix(&ui->lay);
	for (i = 0; i < ui->lay.n; i++)
		ui->lay.want_w[i] = ui->views[i]->ops->pref_width;
	layout_screen(ui->cols, ui->lines, header_lines(ui->app), &ui->rects);
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

bool screen_dirty(const struct kt_ui *ui)
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
		n = funcbar_actions(source_caps(ui->app->source), &items);
	}
	funcbar_draw(ui->fbar_win, ui->cols, items, n);
}

static void draw_help(struct kt_ui *ui)
{
	int w, h;

	if (!ui->help_win) {
		ui->help_win = newwin(ui->lines, ui->cols, 0, 0);
		if (!ui->help_win)
			return;
	}
	getmaxyx(ui->help_win, h, w);
	help_draw(&ui->helpst, ui->help_win, w, h);
}

/* One redraw: only what is dirty is drawn and copied to the virtual screen; doupdate()
 * sends the difference. */
void screen_redraw(struct kt_ui *ui)
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
