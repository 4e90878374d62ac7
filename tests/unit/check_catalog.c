// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/tracefs/catalog.h"
#include "check_main.h"

/* As the kernel prints available_events: grouped by system, not sorted. */
static const char available_events[] =
	"syscalls:sys_exit_openat\n"
	"syscalls:sys_enter_openat\n"
	"sched:sched_switch\n"
	"sched:sched_wakeup\n"
	"syscalls:sys_enter_open_by_handle_at\n"
	"syscalls:sys_enter_open\n"
	"syscalls:sys_enter_read\n"
	"raw_syscalls:sys_enter\n"
	"sched:sched_wake_idle_without_ipi\n"
	"\n"
	"  irq:irq_handler_entry  \r\n"
	"garbage line without colon\n"
	":no_system\n"
	"no_event:\n"
	"sched:sched_switch\n"
	"raw_syscalls:sys_exit"; /* no final newline */

static const struct kt_event_desc *find(const struct kt_catalog *cat, const char *sys,
					const char *name)
{
	size_t i;

	for (i = 0; i < cat->count; i++)
		if (!strcmp(cat->events[i].system, sys) && !strcmp(cat->events[i].name, name))
			return &cat->events[i];
	return NULL;
}

START_TEST(test_parse_sorts_and_skips)
{
	struct kt_catalog *cat = catalog_parse(available_events);
	size_t i;

	ck_assert_ptr_nonnull(cat);
	/* 12 valid lines, one duplicate. */
	ck_assert_uint_eq(cat->count, 11);
	ck_assert_str_eq(cat->events[0].system, "irq");
	ck_assert_str_eq(cat->events[0].name, "irq_handler_entry");
	ck_assert_str_eq(cat->events[1].system, "raw_syscalls");
	ck_assert_str_eq(cat->events[1].name, "sys_enter");
	ck_assert_str_eq(cat->events[2].name, "sys_exit");
	ck_assert_str_eq(cat->events[3].system, "sched");
	ck_assert_str_eq(cat->events[3].name, "sched_switch");
	ck_assert_str_eq(cat->events[cat->count - 1].system, "syscalls");
	ck_assert_str_eq(cat->events[cat->count - 1].name, "sys_exit_openat");
	for (i = 1; i < cat->count; i++) {
		int c = strcmp(cat->events[i - 1].system, cat->events[i].system);

		ck_assert(c < 0 || (c == 0 && strcmp(cat->events[i - 1].name,
						     cat->events[i].name) < 0));
	}
	ck_assert_ptr_nonnull(find(cat, "sched", "sched_wake_idle_without_ipi"));
	ck_assert_ptr_null(find(cat, "", "no_system"));
	ck_assert_ptr_null(find(cat, "no_event", ""));
	catalog_free(cat);
}
END_TEST

START_TEST(test_parse_empty)
{
	struct kt_catalog *cat = catalog_parse("");

	ck_assert_ptr_nonnull(cat);
	ck_assert_uint_eq(cat->count, 0);
	catalog_free(cat);
	catalog_free(NULL);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/check_catalog.XXXXXX";
	struct kt_catalog *cat;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, available_events, strlen(available_events)),
			 (ssize_t)strlen(available_events));
	close(fd);
	cat = catalog_load_file(path);
	unlink(path);
	ck_assert_ptr_nonnull(cat);
	ck_assert_uint_eq(cat->count, 11);
	catalog_free(cat);

	errno = 0;
	ck_assert_ptr_null(catalog_load_file("/nonexistent/available_events"));
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

static void check_split(const char *spec, int ret, const char *sys, const char *ev)
{
	char *s = (char *)1, *e = (char *)1;

	ck_assert_msg(catalog_split_spec(spec, &s, &e) == ret, "split '%s' should return %d",
		      spec ? spec : "(null)", ret);
	if (sys)
		ck_assert_str_eq(s, sys);
	else
		ck_assert_ptr_null(s);
	if (ev)
		ck_assert_str_eq(e, ev);
	else
		ck_assert_ptr_null(e);
	free(s);
	free(e);
}

START_TEST(test_split_spec)
{
	check_split("sched:sched_switch", 0, "sched", "sched_switch");
	check_split("sched/sched_switch", 0, "sched", "sched_switch");
	check_split("sched_switch", 0, NULL, "sched_switch");
	check_split("syscalls:sys_enter_open*", 0, "syscalls", "sys_enter_open*");
	check_split("*:*", 0, "*", "*");
	check_split("", -1, NULL, NULL);
	check_split(NULL, -1, NULL, NULL);
	check_split("a:b:c", -1, NULL, NULL);
	check_split("a/b:c", -1, NULL, NULL);
	check_split(":event", -1, NULL, NULL);
	check_split("sched:", -1, NULL, NULL);
	check_split("sched: switch", -1, NULL, NULL);
}
END_TEST

START_TEST(test_spec_matches)
{
	struct kt_catalog *cat = catalog_parse(available_events);
	const struct kt_event_desc *open, *openat, *read, *exit_openat, *sw, *raw;

	ck_assert_ptr_nonnull(cat);
	open = find(cat, "syscalls", "sys_enter_open");
	openat = find(cat, "syscalls", "sys_enter_openat");
	read = find(cat, "syscalls", "sys_enter_read");
	exit_openat = find(cat, "syscalls", "sys_exit_openat");
	sw = find(cat, "sched", "sched_switch");
	raw = find(cat, "raw_syscalls", "sys_enter");
	ck_assert(open && openat && read && exit_openat && sw && raw);

	ck_assert(catalog_spec_matches("syscalls:sys_enter_open*", open));
	ck_assert(catalog_spec_matches("syscalls:sys_enter_open*", openat));
	ck_assert(!catalog_spec_matches("syscalls:sys_enter_open*", read));
	ck_assert(!catalog_spec_matches("syscalls:sys_enter_open*", exit_openat));
	ck_assert(!catalog_spec_matches("syscalls:sys_enter_open", openat));
	ck_assert(catalog_spec_matches("syscalls:sys_*_openat", exit_openat));
	ck_assert(catalog_spec_matches("syscalls:sys_enter_rea?", read));
	ck_assert(catalog_spec_matches("sched:sched_switch", sw));
	ck_assert(catalog_spec_matches("sched/sched_switch", sw));
	ck_assert(catalog_spec_matches("sched:*", sw));
	ck_assert(!catalog_spec_matches("sched:*", raw));
	/* A bare event name means any system. */
	ck_assert(catalog_spec_matches("sched_switch", sw));
	ck_assert(catalog_spec_matches("sys_enter", raw));
	ck_assert(!catalog_spec_matches("sys_enter", open));
	/* The system is matched whole, not as a prefix. */
	ck_assert(!catalog_spec_matches("sys*:sys_enter", raw));
	ck_assert(catalog_spec_matches("*sys*:sys_enter", raw));
	ck_assert(!catalog_spec_matches("Sched:sched_switch", sw));
	ck_assert(!catalog_spec_matches("", sw));
	ck_assert(!catalog_spec_matches("a:b:c", sw));
	catalog_free(cat);
}
END_TEST

/* What app_set_events treats as a glob: it may name more than one event. */
START_TEST(test_spec_is_glob)
{
	ck_assert(catalog_spec_is_glob("*:*"));
	ck_assert(catalog_spec_is_glob("syscalls:sys_enter_open*"));
	ck_assert(catalog_spec_is_glob("sched:sched_wak?ng"));
	ck_assert(catalog_spec_is_glob("ktop_*:probe"));
	ck_assert(catalog_spec_is_glob("sched/[a-z]*"));
	ck_assert(catalog_spec_is_glob("sched_switch")); /* any system */
	ck_assert(!catalog_spec_is_glob("sched:sched_switch"));
	ck_assert(!catalog_spec_is_glob("sched/sched_switch"));
	ck_assert(!catalog_spec_is_glob(""));
	ck_assert(!catalog_spec_is_glob("a:b:c"));
}
END_TEST

START_TEST(test_fuzzy_basics)
{
	ck_assert_int_eq(catalog_fuzzy_score("", "sched:sched_switch"), 0);
	ck_assert_int_eq(catalog_fuzzy_score("xyz", "sched:sched_switch"), -1);
	ck_assert_int_eq(catalog_fuzzy_score("switchx", "sched:sched_switch"), -1);
	ck_assert_int_eq(catalog_fuzzy_score("sched:sched_switch_long", "sched:sched_switch"), -1);
	/* Order matters: a subsequence, not a set. */
	ck_assert_int_eq(catalog_fuzzy_score("hcs", "sched"), -1);
	ck_assert_int_gt(catalog_fuzzy_score("sw", "sched:sched_switch"), 0);
	ck_assert_int_gt(catalog_fuzzy_score("ssw", "sched:sched_switch"), 0);
	/* Case-insensitive, both ways. */
	ck_assert_int_eq(catalog_fuzzy_score("SW", "sched:sched_switch"),
			 catalog_fuzzy_score("sw", "sched:sched_switch"));
	ck_assert_int_eq(catalog_fuzzy_score("sw", "SCHED:SCHED_SWITCH"),
			 catalog_fuzzy_score("sw", "sched:sched_switch"));
}
END_TEST

#define ck_assert_better(pat, a, b)                                                          \
	ck_assert_msg(catalog_fuzzy_score(pat, a) > catalog_fuzzy_score(pat, b),               \
		      "'%s': '%s' (%d) should beat '%s' (%d)", pat, a,                          \
		      catalog_fuzzy_score(pat, a), b, catalog_fuzzy_score(pat, b))

START_TEST(test_fuzzy_ordering)
{
	/* A consecutive run beats the same letters scattered over word starts. */
	ck_assert_better("swi", "sched:sched_switch", "sched:sched_wake_idle_without_ipi");
	/* A match at a word start beats one inside a word. */
	ck_assert_better("open", "syscalls:sys_enter_open", "syscalls:sys_enter_fsopen");
	ck_assert_better("read", "syscalls:sys_enter_read", "syscalls:sys_enter_pread64");
	/* Contiguous beats gapped. */
	ck_assert_better("wakeup", "sched:sched_wakeup", "sched:sched_wake_idle_without_ipi");
	/* Word starts beat letters in the middle of words. */
	ck_assert_better("ssw", "sched:sched_switch", "syscalls:sys_enter_newfstat");
	/* Exact name beats a longer name with the same prefix only by the gap that follows:
	 * both match "sys_enter" contiguously at a word start, so they tie. */
	ck_assert_int_eq(catalog_fuzzy_score("sys_enter", "raw_syscalls:sys_enter"),
			 catalog_fuzzy_score("sys_enter", "raw_syscalls:sys_enter_x"));
}
END_TEST

START_TEST(test_fuzzy_picks_best_alignment)
{
	/* Greedy leftmost matching would take the 's' of "sched:" and the first 'w' after it;
	 * the best alignment takes the run "sw" in "switch". The score must be at least that
	 * of the same pattern in a text where only the good alignment exists. */
	ck_assert_int_ge(catalog_fuzzy_score("sw", "sched:sched_switch"),
			 catalog_fuzzy_score("sw", "switch"));
}
END_TEST

static Suite *catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_sorts_and_skips);
	tcase_add_test(tc, test_parse_empty);
	tcase_add_test(tc, test_load_file);
	tcase_add_test(tc, test_split_spec);
	tcase_add_test(tc, test_spec_matches);
	tcase_add_test(tc, test_spec_is_glob);
	tcase_add_test(tc, test_fuzzy_basics);
	tcase_add_test(tc, test_fuzzy_ordering);
	tcase_add_test(tc, test_fuzzy_picks_best_alignment);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(catalog_suite());
}
