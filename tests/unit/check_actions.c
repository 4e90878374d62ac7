// SPDX-License-Identifier: GPL-2.0-or-later
/* The action table (src/ui/action.c) and what is derived from it: unique names and keys, a
 * help line per action, every action bindable in ktoprc, bindings before the own keys, the
 * function bar and its n/a labels on a recording. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktoprc.h"
#include "options.h"
#include "ui/action.h"
#include "ui/crt.h"
#include "ui/funcbar.h"
#include "ui/help.h"
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

START_TEST(test_help_lists_every_action)
{
	const struct kt_action *a;
	const char *keys, *desc;
	int i, l, found;

	for (i = 0; (a = action_at(i)); i++) {
		found = 0;
		for (l = 0; help_line(l, &keys, &desc); l++)
			if (keys && !strcmp(keys, a->keys) && !strcmp(desc, a->help))
				found++;
		ck_assert_msg(found == 1, "the help lists %s (%s) %d times", a->name, a->keys,
			      found);
	}
	/* the global keys come first, under their title */
	ck_assert(help_line(0, &keys, &desc));
	ck_assert_ptr_null(keys);
	ck_assert_str_eq(desc, "Global keys");
	ck_assert(help_line(1, &keys, &desc));
	ck_assert_str_eq(keys, action_at(0)->keys);
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
	const struct funcbar_item *items;
	char key[8];
	int n, i;

	n = funcbar_actions(false, &items);
	ck_assert_int_eq(n, 11);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "F%d", i + 1);
		ck_assert_str_eq(items[i].key, key);
		ck_assert_str_eq(items[i].label, live[i]);
	}
	/* a recording: what needs a live kernel says n/a */
	n = funcbar_actions(true, &items);
	ck_assert_int_eq(n, 11);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(items[i].label,
				 i == 6 || i == 7 || i == 10 ? "n/a" : live[i]);
	ck_assert_str_eq(action_find("pause")->offline,
			 "a recording does not change: nothing to pause");
	ck_assert_ptr_null(action_find("tree")->offline);
}
END_TEST

static Suite *actions_suite(void)
{
	Suite *s = suite_create("actions");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_unique);
	tcase_add_test(tc, test_help_lists_every_action);
	tcase_add_test(tc, test_every_action_bindable);
	tcase_add_test(tc, test_bindings);
	tcase_add_test(tc, test_funcbar);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(actions_suite());
}
