// SPDX-License-Identifier: GPL-2.0-or-later
/* ktoprc and profiles: every setting, a write/read round trip, bad lines (file:line, the
 * defaults, the file never written over), the built-in profiles. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ui/ktoprc.h"
#include "check_main.h"

static const char full[] = "# my settings\n"
			   "theme = high-contrast\n"
			   "delay = 5\n"
			   "orientation = stacked\n"
			   "zoom = no\n"
			   "split = 65\n"
			   "picker = yes\n"
			   "counters = off\n"
			   "mouse = 0\n"
			   "overview-hide = cgroup rq99\n"
			   "   key.quit   =   Q  \n"
			   "key.zoom = F12\n"
			   "key.theme = ^T\n";

START_TEST(test_parse_all)
{
	struct kt_config c;
	char err[256] = "";

	ck_assert_msg(config_parse(&c, full, "ktoprc", false, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(c.theme, "high-contrast");
	ck_assert_uint_eq(c.delay_ms, 500);
	ck_assert_int_eq(c.orient, KT_CFG_STACK);
	ck_assert_int_eq(c.zoom, 0);
	ck_assert_int_eq(c.split, 65);
	ck_assert_int_eq(c.picker, 1);
	ck_assert_int_eq(c.counters, 0);
	ck_assert_int_eq(c.mouse, 0);
	ck_assert_str_eq(c.ov_hide, "RQ99 CGROUP");
	ck_assert_int_eq(c.nbinds, 3);
	ck_assert_str_eq(c.binds[0].action, "quit");
	ck_assert_str_eq(c.binds[0].key, "Q");
	ck_assert_str_eq(c.binds[1].key, "F12");
	ck_assert_str_eq(c.binds[2].key, "^T");
	config_free(&c);

	/* empty: nothing set */
	ck_assert_int_eq(config_parse(&c, "", "ktoprc", false, err, sizeof(err)), 0);
	ck_assert_str_eq(c.theme, "");
	ck_assert_uint_eq(c.delay_ms, 0);
	ck_assert_int_eq(c.orient, KT_UNSET);
	ck_assert_int_eq(c.picker, KT_UNSET);
	config_free(&c);
}
END_TEST

START_TEST(test_round_trip)
{
	char dir[] = "/tmp/check_config.XXXXXX", path[4200], err[256] = "";
	struct kt_config a, b;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(config_parse(&a, full, "ktoprc", false, err, sizeof(err)), 0);
	/* the directories are created */
	snprintf(path, sizeof(path), "%s/ktop/ktoprc", dir);
	ck_assert_msg(config_save(&a, path, false, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(config_load(&b, path, false, err, sizeof(err)), 0);
	ck_assert(config_equal(&a, &b));
	ck_assert_int_eq(b.split, 65);
	b.zoom = 1;
	ck_assert(!config_equal(&a, &b));
	b.zoom = a.zoom;
	ck_assert_str_eq(b.ov_hide, "RQ99 CGROUP");
	b.ov_hide[0] = '\0';
	ck_assert(!config_equal(&a, &b));
	snprintf(b.ov_hide, sizeof(b.ov_hide), "%s", a.ov_hide);
	b.split = 0;
	ck_assert(!config_equal(&a, &b));
	config_free(&a);
	config_free(&b);
	/* a profile keeps its events and filter */
	ck_assert_int_eq(config_parse(&a,
				      "event = sched:sched_switch\nevent = block:*\n"
				      "filter = prev_pid != 0 && comm != \"#x\"\npicker = yes\n",
				      "p", true, err, sizeof(err)),
			 0);
	ck_assert_int_eq(a.nevents, 2);
	ck_assert_str_eq(a.filter, "prev_pid != 0 && comm != \"#x\"");
	ck_assert_int_eq(config_save(&a, path, true, err, sizeof(err)), 0);
	ck_assert_int_eq(config_load(&b, path, true, err, sizeof(err)), 0);
	ck_assert(config_equal(&a, &b));
	config_free(&a);
	config_free(&b);
	/* no file: 1, nothing set */
	unlink(path);
	ck_assert_int_eq(config_load(&b, path, false, err, sizeof(err)), 1);
	ck_assert_int_eq(b.picker, KT_UNSET);
	snprintf(path, sizeof(path), "%s/ktop", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

static void bad(const char *text, bool profile, int line, const char *reason)
{
	struct kt_config c;
	char err[256] = "", want[64];

	ck_assert_int_eq(config_parse(&c, text, "rc", profile, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "rc:%d: ", line);
	ck_assert_msg(!strncmp(err, want, strlen(want)), "'%s' does not start with '%s'", err,
		      want);
	ck_assert_msg(strstr(err, reason), "'%s' lacks '%s'", err, reason);
	ck_assert_ptr_null(strchr(err, '\n'));
	/* back to nothing set */
	ck_assert_str_eq(c.theme, "");
	ck_assert_int_eq(c.nevents, 0);
	ck_assert_int_eq(c.nbinds, 0);
}

START_TEST(test_bad_lines)
{
	bad("theme = light\nbogus = 1\n", false, 2, "unknown setting 'bogus'");
	bad("delay = 0\n", false, 1, "delay takes tenths");
	bad("delay = fast\n", false, 1, "delay takes tenths");
	bad("orientation = diagonal\n", false, 1, "orientation takes auto, side or stacked");
	bad("\n# c\nzoom = maybe\n", false, 3, "zoom takes yes or no");
	bad("split = 90\n", false, 1, "split takes auto or the stream pane's share");
	bad("split = half\n", false, 1, "split takes auto or the stream pane's share");
	bad("key.fly = x\n", false, 1, "unknown action 'fly'");
	bad("overview-hide = RUNQ PID\n", false, 1, "overview-hide takes column names other than");
	bad("key.quit = F13\n", false, 1, "is not a key");
	bad("key.quit = ctrl-x\n", false, 1, "is not a key");
	bad("picker yes\n", false, 1, "expected 'key = value'");
	bad("theme = a b\n", false, 1, "theme takes a theme name");
	/* events belong to profiles */
	bad("event = sched:*\n", false, 1, "unknown setting 'event'");
	bad("event = sched:* x\n", true, 1, "event takes system:event");
}
END_TEST

/* The main use: a malformed ktoprc is never written over by a save. */
START_TEST(test_bad_file_kept)
{
	char dir[] = "/tmp/check_config.XXXXXX", path[4200], err[256] = "", buf[256];
	struct kt_config c;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ktoprc", dir);
	f = fopen(path, "w");
	fputs("theme = light\nzoom = perhaps\n", f);
	fclose(f);
	ck_assert_int_eq(config_load(&c, path, false, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "ktoprc:2: zoom takes yes or no"), "%s", err);
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ck_assert_str_eq(buf, "theme = light\nzoom = perhaps\n");
	unlink(path);
	rmdir(dir);
}
END_TEST

/* A file larger than the 1 MiB read: the first MiB is read, exactly, and nothing past it
 * (the bad line after it is not seen; ASan sees any byte written past the buffer). */
START_TEST(test_large_file)
{
	char dir[] = "/tmp/check_config.XXXXXX", path[4200], err[256] = "", line[65];
	struct kt_config c;
	FILE *f;
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ktoprc", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	memset(line, '#', 63);
	line[63] = '\n';
	line[64] = '\0';
	fputs("theme = light\n", f);
	for (i = 0; i < (1 << 20) / 64 - 1; i++)
		fputs(line, f);
	fputs("#2345678901234567890123456789012345678901234567890\nzoom = perhaps\n", f);
	fclose(f);
	ck_assert_msg(config_load(&c, path, false, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(c.theme, "light");
	config_free(&c);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_profiles)
{
	static const char *const names[] = { "sched", "block", "syscalls", "memory", "net" };
	char dir[] = "/tmp/check_config.XXXXXX", path[4200], err[256] = "";
	struct kt_config c;
	size_t i;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ck_assert_msg(config_load_profile(&c, names[i], err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_gt(c.nevents, 0);
		ck_assert_int_eq(c.picker, 1);
		config_free(&c);
	}
	ck_assert_int_eq(config_load_profile(&c, "sched", err, sizeof(err)), 0);
	ck_assert_str_eq(c.events[0], "sched:sched_switch");
	config_free(&c);
	ck_assert_int_eq(config_load_profile(&c, "nope", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "no profile 'nope'") &&
			      strstr(err, "sched, block, syscalls, memory, net"),
		      "%s", err);
	ck_assert_int_eq(config_load_profile(&c, "../ktoprc", err, sizeof(err)), -1);
	/* a user's profile of the same name wins */
	snprintf(path, sizeof(path), "%s/ktop", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/ktop/profiles", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/ktop/profiles/sched", dir);
	f = fopen(path, "w");
	fputs("event = sched:sched_wakeup\nfilter = prio < 100\n", f);
	fclose(f);
	ck_assert_int_eq(config_load_profile(&c, "sched", err, sizeof(err)), 0);
	ck_assert_int_eq(c.nevents, 1);
	ck_assert_str_eq(c.filter, "prio < 100");
	config_free(&c);
	/* a bad one is an error naming its line */
	f = fopen(path, "w");
	fputs("event = sched:sched_wakeup\nlayout = wide\n", f);
	fclose(f);
	ck_assert_int_eq(config_load_profile(&c, "sched", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "profiles/sched:2: unknown setting 'layout'"), "%s", err);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ktop/profiles", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/ktop", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_keys_and_paths)
{
	char buf[4096];

	ck_assert(config_key_valid("q"));
	ck_assert(config_key_valid("F1"));
	ck_assert(config_key_valid("F12"));
	ck_assert(config_key_valid("^L"));
	ck_assert(!config_key_valid("F0"));
	ck_assert(!config_key_valid("F02")); /* one spelling per key: F2 */
	ck_assert(!config_key_valid("F000000000000000012"));
	ck_assert(config_key_valid("^")); /* the caret key itself */
	ck_assert(!config_key_valid("^1"));
	ck_assert(!config_key_valid(" "));
	ck_assert(!config_key_valid("#"));
	ck_assert(!config_key_valid("ab"));
	setenv("XDG_CONFIG_HOME", "/x/y", 1);
	ck_assert_int_eq(config_path(buf, sizeof(buf), "ktoprc"), 0);
	ck_assert_str_eq(buf, "/x/y/ktop/ktoprc");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/u", 1);
	ck_assert_int_eq(config_path(buf, sizeof(buf), "ktoprc"), 0);
	ck_assert_str_eq(buf, "/home/u/.config/ktop/ktoprc");
	unsetenv("HOME");
	ck_assert_int_eq(config_path(buf, sizeof(buf), "ktoprc"), -1);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_all);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_bad_lines);
	tcase_add_test(tc, test_bad_file_kept);
	tcase_add_test(tc, test_large_file);
	tcase_add_test(tc, test_profiles);
	tcase_add_test(tc, test_keys_and_paths);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(config_suite());
}
