/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explorer's global actions, in one table (htop Action_setBindings, tmux's key tables):
 * each has a name (ktoprc's key.NAME), its own keys, a label for the function bar, a help
 * line, why it cannot run on a recording (-i), its handler, and whether it runs on a
 * folded-stacks file (--flame). The key dispatch, the help
 * overlay's global keys, the function bar, ktoprc's key bindings and -i's refusals are all
 * read from it. Callers need no curses; the handlers act on the screen (screen.h). */
#ifndef KTOP_UI_ACTION_H
#define KTOP_UI_ACTION_H

#include <stdbool.h>

struct kt_options;
struct kt_ui;

struct kt_action {
	const char *name;    /* key.NAME in ktoprc */
	const char *keys;    /* its own keys, space-separated, spelled as in ktoprc ("F1 h ?",
			      * "^L"; also Tab and S-Tab): the help shows them as written */
	const char *bar;     /* the label after its F-key on the function bar, or NULL */
	const char *help;    /* its line in the help overlay */
	const char *offline; /* NULL: works on a recording; else why not, said when pressed */
	void (*run)(struct kt_ui *ui, const struct kt_action *a);
	bool stacks_file;    /* also works on ktop --flame FILE, where there are no events */
};

/* The i-th action, in help order (help, the pane kinds' (pane.c), the others); NULL past
 * the last. */
const struct kt_action *action_at(int i);
/* The action called name, or NULL. */
const struct kt_action *action_find(const char *name);
/* The key code (curses) of a key name: "q", "F10", "^L", "Tab", "S-Tab"; -1 for none. */
int action_key_code(const char *name);
/* The F-key among a's own keys (1 to 12), 0 when it has none. */
int action_fkey(const struct kt_action *a);
/* The action key runs: a ktoprc binding (key.NAME = KEY) first, unless ktoprc did not parse,
 * then the actions' own keys. NULL: none. */
const struct kt_action *action_for_key(const struct kt_options *o, int key);
/* Runs key's action, if any, on the screen; with -i a live-only one says why not instead,
 * and with --flame one that needs events. */
void action_key(struct kt_ui *ui, int key);

#endif
