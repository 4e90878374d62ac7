/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The explorer's global actions, in one table (htop Action_setBindings, tmux's key tables):
 * each has a name (ktoprc's key.NAME), its own keys, a label for the function bar, a help
 * line, what it needs of the event source (source.h: a recording refuses the live-only
 * ones with its reason), its handler, and whether it runs on a folded-stacks file (--flame).
 * The key dispatch, the help overlay's global keys, the function bar, ktoprc's key bindings
 * and the sources' refusals are all read from it. Callers need no curses; the handlers act
 * on the screen (screen.h). */
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
	unsigned int needs;  /* the capabilities (enum kt_cap) it needs of the event source:
			      * without them it says the source's reason when pressed */
	void (*run)(struct kt_ui *ui, const struct kt_action *a);
	bool stacks_file;    /* also works on ktop --flame FILE, where there are no events */
};

/* The i-th action, in help order (help, the pane kinds' (pane.c), the others); NULL past
 * the last. */
const struct kt_action *action_at(int i);
/* Whether the focused pane may take a's keys for its own kind of a (search in that pane,
 * its own CPU choice): view.h's kt_keyhelp. Every other action's keys are no pane's. */
bool action_per_pane(const struct kt_action *a);
/* The action called name, or NULL. */
const struct kt_action *action_find(const char *name);
/* The key code (curses) of a key name: "q", "F10", "^L", "Tab", "S-Tab"; the key tables'
 * (motion.h, the panes') also "Enter", "Esc", "Space", "Backspace", "Del", "Up", "Down",
 * "Left", "Right", "PgUp", "PgDn", "Home", "End". -1 for none. */
int action_key_code(const char *name);
/* The i-th key named in keys (space-separated names, as above) as a curses code; -1 past
 * the last. */
int action_keys_at(const char *keys, int i);
/* The F-key among a's own keys (1 to 12), 0 when it has none. */
int action_fkey(const struct kt_action *a);
/* The action key runs: a ktoprc binding (key.NAME = KEY) first, unless ktoprc did not parse,
 * then the actions' own keys. NULL: none. */
const struct kt_action *action_for_key(const struct kt_options *o, int key);
/* Runs key's action, if any, on the screen; with --flame one that needs events says why
 * not instead, and so does one that needs what the event source cannot do (-i: live-only
 * actions), with the source's reason. */
void action_key(struct kt_ui *ui, int key);

#endif
