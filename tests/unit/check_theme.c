// SPDX-License-Identifier: GPL-2.0-or-later
/* Theme files: colours, attributes, whole files, bad input (file:line, back to the
 * default), the shipped themes, and the colour fallback RGB -> 256 -> 16 -> 8. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/theme.h"
#include "check_main.h"

#ifndef THEMES
#define THEMES "themes"
#endif

static int colour(const char *s)
{
	int c = -99;

	ck_assert_int_eq(theme_parse_colour(s, &c), 0);
	return c;
}

START_TEST(test_colours)
{
	int c;

	ck_assert_int_eq(colour("default"), KT_COLOUR_DEFAULT);
	ck_assert_int_eq(colour("black"), 0);
	ck_assert_int_eq(colour("Red"), 1);
	ck_assert_int_eq(colour("white"), 7);
	ck_assert_int_eq(colour("brightred"), 9);
	ck_assert_int_eq(colour("brightwhite"), 15);
	ck_assert_int_eq(colour("grey"), 8);
	ck_assert_int_eq(colour("42"), 42);
	ck_assert_int_eq(colour("colour255"), 255);
	ck_assert_int_eq(colour("color0"), 0);
	ck_assert_int_eq(colour("#ff8000"), KT_COLOUR_RGB | 0xff8000);
	ck_assert_int_eq(colour("#FFFFFF"), KT_COLOUR_RGB | 0xffffff);
	ck_assert_int_eq(theme_parse_colour("256", &c), -1);
	ck_assert_int_eq(theme_parse_colour("-1", &c), -1);
	ck_assert_int_eq(theme_parse_colour("#ff80", &c), -1);
	ck_assert_int_eq(theme_parse_colour("#ff80zz", &c), -1);
	ck_assert_int_eq(theme_parse_colour("purple", &c), -1);
	ck_assert_int_eq(theme_parse_colour("colour", &c), -1);
	ck_assert_int_eq(theme_parse_colour("", &c), -1);
}
END_TEST

START_TEST(test_attrs)
{
	unsigned a = 0;

	ck_assert_int_eq(theme_parse_attr("bold", &a), 0);
	ck_assert_int_eq(theme_parse_attr("REVERSE", &a), 0);
	ck_assert_int_eq(theme_parse_attr("underline", &a), 0);
	ck_assert_int_eq(theme_parse_attr("dim", &a), 0);
	ck_assert_int_eq(theme_parse_attr("normal", &a), 0);
	ck_assert_uint_eq(a, KT_ATTR_BOLD | KT_ATTR_REVERSE | KT_ATTR_UNDERLINE | KT_ATTR_DIM);
	ck_assert_int_eq(theme_parse_attr("blink", &a), -1);
}
END_TEST

START_TEST(test_elements)
{
	int i;

	ck_assert_str_eq(theme_elem_name(0), "normal");
	ck_assert_str_eq(theme_elem_name(KT_THEME_NELEM - 1), "flame_task");
	ck_assert_ptr_null(theme_elem_name(KT_THEME_NELEM));
	for (i = 0; i < KT_THEME_NELEM; i++)
		ck_assert_int_eq(theme_elem_find(theme_elem_name(i)), i);
	ck_assert_int_eq(theme_elem_find("nonesuch"), -1);
}
END_TEST

START_TEST(test_parse_good)
{
	struct kt_theme t, d;
	char err[256] = "";
	int cursor = theme_elem_find("cursor"), hdr = theme_elem_find("header_label");

	ck_assert_int_eq(theme_parse(&t,
				     "# a comment\n"
				     "\n"
				     "name = mine\n"
				     "  cursor =  #102030   colour200 bold  underline   # trailing\n"
				     "header_label=brightcyan default\n",
				     "mine.theme", err, sizeof(err)),
			 0);
	ck_assert_str_eq(t.name, "mine");
	ck_assert_int_eq(t.style[cursor].fg, KT_COLOUR_RGB | 0x102030);
	ck_assert_int_eq(t.style[cursor].bg, 200);
	ck_assert_uint_eq(t.style[cursor].attrs, KT_ATTR_BOLD | KT_ATTR_UNDERLINE);
	ck_assert_int_eq(t.style[hdr].fg, 14);
	/* elements not named keep the default's style */
	theme_default(&d);
	ck_assert_int_eq(t.style[0].fg, d.style[0].fg);
	ck_assert_int_eq(t.style[theme_elem_find("error")].fg, 1);
	ck_assert_uint_eq(t.style[theme_elem_find("error")].attrs, KT_ATTR_BOLD);
}
END_TEST

/* Each bad line: -1, "file:line: reason", and the theme is the default again; read from
 * text and from a file (as theme_load reads it) alike. */
static void bad(const char *text, int line, const char *reason)
{
	struct kt_theme t, d;
	char err[256] = "", want[64], *copy = strdup(text);
	FILE *f;
	int from_file;

	theme_default(&d);
	snprintf(want, sizeof(want), "x.theme:%d: ", line);
	for (from_file = 0; from_file < 2; from_file++) {
		if (from_file) {
			f = fmemopen(copy, strlen(copy), "r");
			ck_assert_ptr_nonnull(f);
			ck_assert_int_eq(theme_parse_file(&t, f, "x.theme", err, sizeof(err)), -1);
			fclose(f);
		} else {
			ck_assert_int_eq(theme_parse(&t, text, "x.theme", err, sizeof(err)), -1);
		}
		ck_assert_msg(!strncmp(err, want, strlen(want)), "'%s' does not start with '%s'",
			      err, want);
		ck_assert_msg(strstr(err, reason), "'%s' lacks '%s'", err, reason);
		ck_assert_ptr_null(strchr(err, '\n'));
		ck_assert_mem_eq(&t, &d, sizeof(t));
	}
	free(copy);
}

START_TEST(test_parse_bad)
{
	bad("cursor = red blue\nfoo = red blue\n", 2, "unknown element 'foo'");
	bad("cursor = purple blue\n", 1, "bad colour 'purple'");
	bad("\n\ncursor = red #12345\n", 3, "bad colour '#12345'");
	bad("cursor = red blue blink\n", 1, "bad attribute 'blink'");
	bad("cursor = red\n", 1, "needs a foreground and a background");
	bad("cursor red blue\n", 1, "expected 'element = fg bg");
	bad("name =\n", 1, "theme name");
	bad("cursor = 300 0\n", 1, "bad colour '300'");
	{
		/* a line longer than the reader's buffer: refused whole, not cut or split */
		char text[1200];

		snprintf(text, sizeof(text), "cursor = red blue\nnormal = red blue%1100s\n", "bold");
		bad(text, 2, "line too long");
	}
}
END_TEST

/* The compiled-in default is themes/default.theme, and every shipped theme parses. */
START_TEST(test_shipped)
{
	static const char *const names[] = { "default", "light", "mono", "high-contrast" };
	struct kt_theme t, d;
	char path[4096], err[256] = "";
	size_t i;
	FILE *f;

	theme_default(&d);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.theme", THEMES, names[i]);
		f = fopen(path, "r");
		ck_assert_msg(f != NULL, "cannot open %s", path);
		ck_assert_msg(theme_parse_file(&t, f, path, err, sizeof(err)) == 0, "%s", err);
		fclose(f);
		ck_assert_str_eq(t.name, names[i]);
		if (i == 0)
			ck_assert_mem_eq(&t, &d, sizeof(t));
		else
			ck_assert_msg(memcmp(&t, &d, sizeof(t)) != 0, "%s is the default",
				      names[i]);
	}
}
END_TEST

START_TEST(test_load_and_list)
{
	char dir[] = "/tmp/check_theme.XXXXXX", sub[4200], path[4300], err[256] = "";
	char names[16][KT_THEME_NAME_MAX];
	struct kt_theme t;
	FILE *f;
	int n, i, found = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
	setenv("KTOP_THEMES_DIR", THEMES, 1);
	snprintf(sub, sizeof(sub), "%s/ktop", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/ktop/themes", dir);
	mkdir(sub, 0700);
	snprintf(path, sizeof(path), "%s/zebra.theme", sub);
	f = fopen(path, "w");
	fputs("cursor = black #ffffff\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/broken.theme", sub);
	f = fopen(path, "w");
	fputs("# fine\ncursor = black nocolour\n", f);
	fclose(f);

	ck_assert_int_eq(theme_load(&t, "zebra", err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "zebra");
	ck_assert_int_eq(theme_load(&t, "light", err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "light");
	ck_assert_int_eq(theme_load(&t, "broken", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "broken.theme:2: bad colour 'nocolour'"), "%s", err);
	ck_assert_str_eq(t.name, "default");
	ck_assert_int_eq(theme_load(&t, "nonesuch", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "no theme 'nonesuch'"), "%s", err);
	ck_assert_int_eq(theme_load(&t, "../etc/passwd", err, sizeof(err)), -1);

	n = theme_list(names, 16);
	ck_assert_int_ge(n, 6);
	ck_assert_str_eq(names[0], "default");
	ck_assert_str_eq(names[1], "light");
	ck_assert_str_eq(names[2], "mono");
	ck_assert_str_eq(names[3], "high-contrast");
	for (i = 4; i < n; i++)
		found += !strcmp(names[i], "zebra") || !strcmp(names[i], "broken");
	ck_assert_int_eq(found, 2);

	unlink(path);
	snprintf(path, sizeof(path), "%s/zebra.theme", sub);
	unlink(path);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/ktop", dir);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

START_TEST(test_fallback)
{
	bool bold = false;

	/* exact cube colours and greys */
	ck_assert_int_eq(theme_rgb_to_256(0x000000), 16);
	ck_assert_int_eq(theme_rgb_to_256(0xffffff), 231);
	ck_assert_int_eq(theme_rgb_to_256(0x5f87af), 16 + 36 * 1 + 6 * 2 + 3);
	ck_assert_int_eq(theme_rgb_to_256(0x808080), 244);
	ck_assert_int_eq(theme_rgb_to_256(0xff0000), 196);
	/* tmux's table */
	ck_assert_int_eq(theme_256_to_16(196), 9);
	ck_assert_int_eq(theme_256_to_16(21), 12);
	ck_assert_int_eq(theme_256_to_16(232), 0);
	ck_assert_int_eq(theme_256_to_16(255), 15);
	ck_assert_int_eq(theme_256_to_16(5), 5);

	ck_assert_int_eq(theme_colour_fit(KT_COLOUR_DEFAULT, 256, &bold), KT_COLOUR_DEFAULT);
	ck_assert_int_eq(theme_colour_fit(KT_COLOUR_RGB | 0xff0000, 256, &bold), 196);
	ck_assert_int_eq(theme_colour_fit(KT_COLOUR_RGB | 0xff0000, 16, &bold), 9);
	ck_assert(!bold);
	/* 8 colours: the bright colour becomes its base colour, bold */
	ck_assert_int_eq(theme_colour_fit(KT_COLOUR_RGB | 0xff0000, 8, &bold), 1);
	ck_assert(bold);
	bold = false;
	ck_assert_int_eq(theme_colour_fit(196, 8, &bold), 1);
	ck_assert(bold);
	bold = false;
	ck_assert_int_eq(theme_colour_fit(3, 8, &bold), 3);
	ck_assert(!bold);
	ck_assert_int_eq(theme_colour_fit(200, 256, &bold), 200);
	/* no colours at all */
	ck_assert_int_eq(theme_colour_fit(3, 0, &bold), KT_COLOUR_DEFAULT);
	ck_assert_int_eq(theme_colour_fit(3, -1, NULL), KT_COLOUR_DEFAULT);
	/* a background never asks for bold */
	ck_assert_int_eq(theme_colour_fit(12, 8, NULL), 4);
}
END_TEST

static Suite *theme_suite(void)
{
	Suite *s = suite_create("theme");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_colours);
	tcase_add_test(tc, test_attrs);
	tcase_add_test(tc, test_elements);
	tcase_add_test(tc, test_parse_good);
	tcase_add_test(tc, test_parse_bad);
	tcase_add_test(tc, test_shipped);
	tcase_add_test(tc, test_load_and_list);
	tcase_add_test(tc, test_fallback);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(theme_suite());
}
