/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The registry of pane kinds and the one way panes open and close. A kind is a row of
 * KT_PANES (pane.c): its view_NAME.c's ops, the action that opens it (name = the kind's name
 * and ktoprc's key.NAME; its keys, function-bar label, help line, why not on a recording), and
 * whether its key opens another each time. The screen holds the open panes in one list
 * (kt_ui.views); the stream is always its first. For the screen (screen.c) and the actions
 * (action.c) only: panes see view.h. */
#ifndef KTOP_UI_PANE_H
#define KTOP_UI_PANE_H

#include <stdbool.h>

#include "ui/action.h"

struct kt_app;
struct kt_ui;
struct kt_view;
struct kt_view_ops;

struct kt_pane_kind {
	struct kt_action act; /* act.name: the kind's name; act.keys NULL: no key opens it */
	const struct kt_view_ops *ops;
	/* The ops for this app instead of ops, or NULL (a recording's events in the picker's
	 * place). */
	const struct kt_view_ops *(*factory)(const struct kt_app *app);
	bool many; /* its key opens another each time (histograms); else it opens, focuses or
		    * (focused) closes the one */
};

/* The i-th kind, in registry order; NULL past the last. */
const struct kt_pane_kind *pane_kind_at(int i);
/* The kind called name, or NULL. */
const struct kt_pane_kind *pane_kind(const char *name);

/* The open pane of kind name (the first, for a kind with many), or NULL. */
struct kt_view *pane_find(struct kt_ui *ui, const char *name);
/* Opens a pane of kind name (a kind with one pane: the open one if there is one) and
 * focuses it when asked. NULL when the screen has no room, said on the status line. */
struct kt_view *pane_open(struct kt_ui *ui, const char *name, bool focus);
/* Closes a pane other than the stream (its prompt too); the stream gets the focus. */
void pane_close(struct kt_ui *ui, struct kt_view *v);
/* Closes every pane, the stream last (the explorer is ending). */
void pane_close_all(struct kt_ui *ui);
/* Focuses views[idx] (the function bar follows it). */
void pane_focus(struct kt_ui *ui, int idx);
/* views[] index of v, or -1. */
int pane_index(const struct kt_ui *ui, const struct kt_view *v);

#endif
