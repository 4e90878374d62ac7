// SPDX-License-Identifier: GPL-2.0-or-later
/* The action table (src/ui/action.c) and what is derived from it: unique names and keys, a
 * help line per action, every action bindable in ktoprc, bindings before the own keys, the
 * function bar and its n/a labels on a recording; the pane registry whose kinds add their
 * actions to it. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ktoprc.h"
#include "app/options.h"
#include "source/source.h"
#include "ui/action.h"
#include "ui/crt.h"
#include "ui/funcbar.h"
#include "ui/help.h"
#include "ui/motion.h"
#include "ui/pane.h"
#include "ui/view.h"
#include "check_main.h"

/* a's own keys as key codes into codes, each checked to be a key; returns how many. */
static int own_keys(const struct kt_action *a, int *codes, int max)
{
	char buf[64], *tok, *save;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", a->keys);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		ck_assert_msg(n < max, "%s: too many keys", a->name);
		codes[n] = action_key_code(tok);
		ck_assert_msg(codes[n] > 0, "%s: '%s' is not a key", a->name, tok);
		n++;
	}
	ck_assert_msg(n > 0, "%s has no key of its own", a->name);
	return n;
}

START_TEST(test_unique)
{
	const struct kt_action *a, *b;
	int ka[8], kb[8], na, nb, i, j, x, y;

	for (i = 0; (a = action_at(i)); i++) {
		ck_assert_msg(a->name && a->help && a->run, "action %d is incomplete", i);
		ck_assert_msg(strlen(a->name) < sizeof(((struct kt_binding *)0)->action),
			      "%s: too long for a binding", a->name);
		ck_assert_ptr_eq(action_find(a->name), a);
		na = own_keys(a, ka, 8);
		for (x = 0; x < na; x++)
			for (y = x + 1; y < na; y++)
				ck_assert_msg(ka[x] != ka[y], "%s has a key twice", a->name);
		for (j = i + 1; (b = action_at(j)); j++) {
			ck_assert_msg(strcmp(a->name, b->name), "two actions called %s", a->name);
			nb = own_keys(b, kb, 8);
			for (x = 0; x < na; x++)
				for (y = 0; y < nb; y++)
					ck_assert_msg(ka[x] != kb[y], "%s and %s share a key (%s / %s)",
						      a->name, b->name, a->keys, b->keys);
		}
	}
	ck_assert_int_ge(i, 27);
	ck_assert_ptr_null(action_find("fly"));
}
END_TEST

static struct kt_help help; /* too big for check's stack */

START_TEST(test_help_lists_every_action)
{
	const struct kt_pane_kind *k;
	const struct kt_action *a;
	int i, l, found;

	help_open(&help, NULL, NULL);
	ck_assert_int_lt(help.n, HELP_MAX_LINES);
	for (i = 0; (a = action_at(i)); i++) {
		found = 0;
		for (l = 0; l < help.n; l++)
			if (help.lines[l].keys && !strcmp(help.lines[l].keys, a->keys) &&
			    !strcmp(help.lines[l].desc, a->help))
				found++;
		ck_assert_msg(found == 1, "the help lists %s (%s) %d times", a->name, a->keys,
			      found);
	}
	/* the movement keys come first, then the global keys, then each pane's */
	ck_assert_ptr_null(help.lines[0].keys);
	ck_assert_str_eq(help.lines[1].keys, motion_at(0)->keys);
	/* the focused pane's keys before them, and not again */
	k = pane_kind("flame");
	help_open(&help, k->ops, NULL);
	ck_assert_str_eq(help.lines[0].desc, k->ops->title);
	ck_assert_str_eq(help.lines[1].keys, k->ops->keys[0].keys);
	for (found = 0, l = 0; l < help.n; l++)
		found += !help.lines[l].keys && !strcmp(help.lines[l].desc, k->ops->title);
	ck_assert_int_eq(found, 1);
	/* every line whole in one 80-column column */
	for (l = 0; l < help.n; l++) {
		ck_assert_msg(!help.lines[l].keys || strlen(help.lines[l].keys) < HELP_KEYS_W - 1,
			      "keys too wide for the help: %s", help.lines[l].keys);
		ck_assert_msg(strlen(help.lines[l].desc) <= HELP_COL_W - HELP_KEYS_W - 2,
			      "help line too long: %s", help.lines[l].desc);
	}
}
END_TEST

/* Whether the key named name is taken by the movement keys, or a global action that does not
 * let a pane have it; the action's name, "movement", or NULL. */
static const char *taken(const char *name, bool typing)
{
	const struct kt_action *a;
	struct kt_options o;
	int code = action_key_code(name);

	ck_assert_msg(code > 0, "'%s' is no key name", name);
	if (motion_of(code, typing))
		return "movement";
	if (typing && code == '\t')
		return NULL; /* typed text completes with Tab, as in the prompt */
	memset(&o, 0, sizeof(o));
	a = action_for_key(&o, code);
	return a && !action_per_pane(a) ? a->name : NULL;
}

/* ops's own keys: each named, none a movement key nor a global action's. */
static void check_pane_keys(const struct kt_view_ops *ops)
{
	const struct kt_keyhelp *kh;
	char buf[64], *tok, *save;
	const char *why;

	ck_assert_msg(ops->title && ops->keys, "pane %s has no help", ops->name);
	for (kh = ops->keys; kh->keys; kh++) {
		snprintf(buf, sizeof(buf), "%s", kh->keys);
		for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (!strcmp(tok, "letters")) {
				ck_assert_msg(ops->typing, "%s: letters, not typing", ops->name);
				continue;
			}
			why = taken(tok, ops->typing != NULL);
			ck_assert_msg(!why, "%s: '%s' (%s) is %s's", ops->name, tok, kh->help, why);
		}
	}
}

/* Issue 39's point 12: a key means one thing. Every pane's own keys (view.h's kt_keyhelp)
 * are neither movement keys nor a global action's, and no global action takes a movement
 * key. */
START_TEST(test_no_key_collides)
{
	const struct kt_action *a;
	int i, codes[8], n, j;

	for (i = 0; (a = action_at(i)); i++)
		for (n = own_keys(a, codes, 8), j = 0; j < n; j++)
			ck_assert_msg(!motion_of(codes[j], false), "%s takes a movement key (%s)",
				      a->name, a->keys);
	for (i = 0; pane_kind_at(i); i++)
		check_pane_keys(pane_kind_at(i)->ops);
	check_pane_keys(&view_recevents_ops);
	/* the keys the issue saw collide: k moves everywhere, F is only the row filter */
	ck_assert_str_eq(taken("k", false), "movement");
	ck_assert_str_eq(taken("Space", false), "movement");
	ck_assert_ptr_null(taken("Space", true));
	ck_assert_str_eq(taken("F", false), "rowfilter");
	ck_assert_ptr_null(taken("/", false));
}
END_TEST

START_TEST(test_every_action_bindable)
{
	const struct kt_action *a;
	struct kt_config c;
	char text[64], err[1024] = "";
	int i;

	for (i = 0; (a = action_at(i)); i++) {
		snprintf(text, sizeof(text), "key.%s = 7\n", a->name);
		ck_assert_msg(config_parse(&c, text, "ktoprc", false, err, sizeof(err)) == 0,
			      "%s", err);
		ck_assert_str_eq(c.binds[0].action, a->name);
		config_free(&c);
	}
	/* an unknown one is refused naming every action, the newer ones too */
	ck_assert_int_eq(config_parse(&c, "key.fly = x\n", "ktoprc", false, err, sizeof(err)), -1);
	for (i = 0; (a = action_at(i)); i++)
		ck_assert_msg(strstr(err, a->name), "'%s' does not name %s", err, a->name);
	ck_assert_msg(strstr(err, "ktoprc:1: unknown action 'fly' (help, events, "), "%s", err);
	ck_assert_msg(err[strlen(err) - 1] == ')', "%s", err);
}
END_TEST

START_TEST(test_bindings)
{
	struct kt_options o;
	struct kt_config c;
	char err[256] = "";

	memset(&o, 0, sizeof(o));
	ck_assert_str_eq(action_for_key(&o, 'T')->name, "tree");
	ck_assert_str_eq(action_for_key(&o, KEY_F(12))->name, "hist");
	ck_assert_str_eq(action_for_key(&o, KEY_BTAB)->name, "focus-prev");
	ck_assert_str_eq(action_for_key(&o, 0x0c)->name, "redraw");
	ck_assert_str_eq(action_for_key(&o, 'w')->name, "write");
	ck_assert_ptr_null(action_for_key(&o, '3'));

	ck_assert_int_eq(config_parse(&c, "key.tree = 3\nkey.zoom = w\nkey.record = ^R\n"
					  "key.hist = F5\n", "ktoprc", false, err, sizeof(err)), 0);
	o.config = &c;
	ck_assert_str_eq(action_for_key(&o, '3')->name, "tree");
	ck_assert_str_eq(action_for_key(&o, 'T')->name, "tree"); /* its own key stays */
	ck_assert_str_eq(action_for_key(&o, 'w')->name, "zoom"); /* a binding goes first */
	ck_assert_str_eq(action_for_key(&o, 0x12)->name, "record");
	ck_assert_str_eq(action_for_key(&o, KEY_F(5))->name, "hist");
	/* a ktoprc that did not parse binds nothing */
	o.config_bad = true;
	ck_assert_ptr_null(action_for_key(&o, '3'));
	ck_assert_str_eq(action_for_key(&o, 'w')->name, "write");
	config_free(&c);
}
END_TEST

START_TEST(test_funcbar)
{
	static const char *const live[] = { "Help",  "Events", "Search", "Filter",
					    "Layout", "CPUs",   "Pause",  "Clear",
					    "Zoom",   "Quit",   "Counters" };
	struct kt_source *rec = source_recording_new(NULL, NULL); /* its caps need no file */
	const struct funcbar_item *items;
	char key[8];
	int n, i;

	/* a source that can do everything (a live session) */
	n = funcbar_actions(~0u, &items);
	ck_assert_int_eq(n, 11);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "F%d", i + 1);
		ck_assert_str_eq(items[i].key, key);
		ck_assert_str_eq(items[i].label, live[i]);
	}
	/* a recording: what needs a live kernel says n/a */
	n = funcbar_actions(source_caps(rec), &items);
	ck_assert_int_eq(n, 11);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(items[i].label,
				 i == 6 || i == 7 || i == 10 ? "n/a" : live[i]);
	ck_assert_str_eq(source_refusal(rec, action_find("pause")->needs),
			 "a recording does not change: nothing to pause");
	ck_assert_uint_eq(action_find("tree")->needs, 0);
	source_free(rec);
}
END_TEST

/* The pane registry (src/ui/pane.c): every kind complete and named once, the kinds the screen
 * opens by name there, each keyed kind's action in the table right after help, in registry
 * order, running the one generic pane action. */
START_TEST(test_pane_kinds)
{
	static const char *const used[] = { "stream", "events", "counters", "hist", "flame" };
	const struct kt_pane_kind *k, *o;
	const struct kt_action *a;
	int i, j, n = 1;

	for (i = 0; (k = pane_kind_at(i)); i++) {
		const struct kt_view_ops *ops = k->ops;

		ck_assert_msg(ops && ops->name && ops->init && ops->free && ops->resize &&
				      ops->draw && ops->key,
			      "pane kind %s: incomplete ops", k->act.name);
		ck_assert_ptr_eq(pane_kind(k->act.name), k);
		for (j = i + 1; (o = pane_kind_at(j)); j++)
			ck_assert_msg(strcmp(k->act.name, o->act.name), "two kinds %s", o->act.name);
		if (!k->act.keys)
			continue;
		a = action_at(n++);
		ck_assert_ptr_eq(a, &k->act);
		ck_assert_ptr_eq(a->run, pane_kind("events")->act.run);
	}
	ck_assert_int_ge(i, 8);
	for (i = 0; i < (int)(sizeof(used) / sizeof(used[0])); i++)
		ck_assert_msg(pane_kind(used[i]), "no pane kind %s", used[i]);
	ck_assert_ptr_null(pane_kind("stream")->act.keys);
	ck_assert(pane_kind("hist")->many);
	ck_assert(!pane_kind("tree")->many);
	ck_assert_ptr_null(pane_kind("fly"));
}
END_TEST

static Suite *actions_suite(void)
{
	Suite *s = suite_create("actions");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_unique);
	tcase_add_test(tc, test_help_lists_every_action);
	tcase_add_test(tc, test_no_key_collides);
	tcase_add_test(tc, test_every_action_bindable);
	tcase_add_test(tc, test_bindings);
	tcase_add_test(tc, test_funcbar);
	tcase_add_test(tc, test_pane_kinds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(actions_suite());
}
