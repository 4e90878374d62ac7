// SPDX-License-Identifier: GPL-2.0-or-later
/* The flame pane's wakeup chains (flame_wakers.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/stacks/stacks.h"
#include "backend/stacks/wakers.h"
#include "flame_wakers.h"
#include "ui/view.h"
#include "util/xalloc.h"

#define CHAIN_STEPS 16
#define CHAIN_NAME 128

struct chain {
	struct kt_ui *ui;
	struct kt_stacks *profile;  /* the profile's tree, out of the pane */
	struct kt_flame_source live; /* its source, open */
	char live_name[CHAIN_NAME];
	/* step i+1: the wakers of node (a blocked frame of the profile) or, node NULL, of task */
	struct {
		const struct kt_stack_node *node;
		char task[CHAIN_NAME];
	} step[CHAIN_STEPS];
	int steps;
	bool keep; /* a step replaces the one shown: the pane's close of its source is not ours */
};

static void chain_close(void *arg)
{
	struct chain *c = arg;

	if (c->keep)
		return;
	stacks_free(c->profile);
	if (c->live.close)
		c->live.close(c->live.arg);
	free(c);
}

/* Step i's tree, or NULL (said why) when it holds nothing or memory ran out. */
static struct kt_stacks *step_tree(struct chain *c, int i, char *title, size_t len)
{
	struct kt_stacks *st = stacks_new(KT_STACK_NSEC);
	const char *what = c->step[i].node ? c->step[i].node->name : c->step[i].task;
	int r;

	if (!st) {
		ui_message(c->ui, true, "wakers: out of memory");
		return NULL;
	}
	r = c->step[i].node ? wakers_of_node(c->profile, c->step[i].node, st) :
			      wakers_of_task(c->profile, c->step[i].task, st);
	if (r < 0 || !stacks_root(st)->total) {
		ui_message(c->ui, r < 0, r < 0 ? "wakers: out of memory" :
			   "no wakeup of %s seen (yet): nothing woke it while it was counted", what);
		stacks_free(st);
		return NULL;
	}
	snprintf(title, len, "step %d: wakers of %s", i + 1, what);
	return st;
}

static int chain_key(void *arg, struct kt_view *v, int key);
static bool chain_back(void *arg, struct kt_view *v);

/* Shows step c->steps - 1 in the pane, its wakers by time in the status line. */
static bool chain_show(struct chain *c, struct kt_view *v)
{
	struct kt_flame_source src = { NULL, chain_close, chain_key, NULL, c, chain_back, NULL };
	char title[CHAIN_NAME + 32], list[256];
	struct kt_stacks *st = step_tree(c, c->steps - 1, title, sizeof(title));

	if (!st)
		return false;
	c->keep = true;
	view_flame_show(v, st, NULL, title, &src, false);
	c->keep = false;
	wakers_list(st, list, sizeof(list));
	ui_message(c->ui, false, "by time: %s (Y: a waker's wakers, Esc: back)", list);
	return true;
}

/* Y in a step: the selected waker's own wakers, one step on. */
static int chain_key(void *arg, struct kt_view *v, int key)
{
	struct chain *c = arg;
	const struct kt_stack_node *sel = view_flame_selected(v);

	if (key != 'Y')
		return KT_KEY_IGNORED;
	if (!sel || !sel->depth) {
		ui_message(c->ui, false, "select a waker's frame first (Y: its own wakers)");
		return KT_KEY_HANDLED;
	}
	if (c->steps == CHAIN_STEPS) {
		ui_message(c->ui, true, "%d steps along the chain already: Esc goes back one",
			   CHAIN_STEPS);
		return KT_KEY_HANDLED;
	}
	c->step[c->steps].node = NULL;
	snprintf(c->step[c->steps].task, CHAIN_NAME, "%s", wakers_task(sel, false));
	c->steps++;
	if (!chain_show(c, v))
		c->steps--;
	return KT_KEY_HANDLED;
}

/* Esc: the step before, or the profile again (with all the kernel counted meanwhile). */
static bool chain_back(void *arg, struct kt_view *v)
{
	struct chain *c = arg;
	struct kt_flame_source live = c->live;
	struct kt_stacks *profile = c->profile;
	char name[CHAIN_NAME];

	if (--c->steps > 0 && chain_show(c, v))
		return true;
	snprintf(name, sizeof(name), "%s", c->live_name);
	c->profile = NULL;
	c->live.close = NULL;
	view_flame_show(v, profile, NULL, name, &live, false); /* frees c */
	return true;
}

void flame_wakers_open(struct kt_view *v, const char *name)
{
	const struct kt_stack_node *sel = view_flame_selected(v);
	struct chain *c;

	if (!sel || !sel->depth) {
		ui_message(v->ui, false, "select a blocked frame (Y: its wakers) or a waker's");
		return;
	}
	c = xcalloc(1, sizeof(*c));
	c->ui = v->ui;
	snprintf(c->live_name, sizeof(c->live_name), "%s", name);
	if (wakers_in_waker(sel))
		snprintf(c->step[0].task, CHAIN_NAME, "%s", wakers_task(sel, true));
	else
		c->step[0].node = sel;
	c->steps = 1;
	/* the profile's tree goes with the chain; while it is out of the pane it does not change */
	c->profile = view_flame_detach(v, &c->live);
	if (!chain_show(c, v)) {
		c->steps = 0;
		chain_back(c, v);
	}
}
