// SPDX-License-Identifier: GPL-2.0-or-later
/* The source seam (source.h) without a kernel: a capability is its table's presence, the
 * caps op only narrows what the tables give, and what a source lacks (a table, or one op of
 * a table) is refused with the source's one line from source_refusal. */
#include "config.h"

#include <check.h>
#include <string.h>

#include "app/app.h"
#include "source/source.h"
#include "check_main.h"

static int enabled; /* what the fake's enable was last asked */

static int fake_enable(struct kt_source *s, const char *system, const char *event, bool on,
		       char *err, size_t errlen)
{
	enabled = on;
	return 0;
}

static const char *fake_refusal(struct kt_source *s, enum kt_cap cap)
{
	return cap == KT_CAP_EVENTS ? "fake: events are off now" : "fake: not this";
}

static unsigned int fake_events_off(struct kt_source *s)
{
	return ~(unsigned int)KT_CAP_EVENTS;
}

/* an events table without is_enabled: the capability, one op short */
static const struct kt_source_events_ops fake_events = { .enable = fake_enable };

static const struct kt_source_ops fake_ops = {
	.kind = "fake",
	.flags = KT_CAP_LIVE,
	.refusal = fake_refusal,
	.events = &fake_events,
};

static const struct kt_source_ops fake_off_ops = {
	.kind = "fake",
	.caps = fake_events_off,
	.refusal = fake_refusal,
	.events = &fake_events,
};

START_TEST(test_caps_from_tables)
{
	struct kt_source s = { .ops = &fake_ops };
	char err[128] = "";

	/* the table and the flag, nothing else */
	ck_assert_uint_eq(source_caps(&s), KT_CAP_EVENTS | KT_CAP_LIVE);
	ck_assert_int_eq(source_enable(&s, "sched", "sched_switch", true, err, sizeof(err)), 0);
	ck_assert_int_eq(enabled, 1);
	/* an op the table leaves NULL: nothing called, false */
	ck_assert(!source_is_enabled(&s, "sched", "sched_switch"));
	/* no table: refused with the source's line */
	ck_assert_int_eq(source_set_filter(&s, "sched", NULL, "pid==1", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "fake: not this");
	ck_assert_ptr_null(source_hist_open(&s, "syscalls", err, sizeof(err)));
	ck_assert_str_eq(err, "fake: not this");
	ck_assert_uint_eq(source_probe_count(&s), 0);
}
END_TEST

START_TEST(test_caps_narrowed)
{
	struct kt_source s = { .ops = &fake_off_ops };
	char err[128] = "";

	/* the table is there, but the source says it is not usable now */
	ck_assert_uint_eq(source_caps(&s), 0);
	enabled = -1;
	ck_assert_int_eq(source_enable(&s, "sched", NULL, true, err, sizeof(err)), -1);
	ck_assert_int_eq(enabled, -1);
	ck_assert_str_eq(err, "fake: events are off now");
	ck_assert_str_eq(source_refusal(&s, KT_CAP_EVENTS), "fake: events are off now");
}
END_TEST

/* The three sources' tables give what their capabilities said before the split. */
START_TEST(test_sources_tables)
{
	struct kt_source rec = { .ops = &source_recording_ops };
	struct kt_source rem = { .ops = &source_remote_ops };

	/* the overview from a recording's sched_switch (recording_overview.c), histograms of
	 * its stored events (storehist.c) */
	ck_assert_uint_eq(source_caps(&rec),
			  KT_CAP_SEEK | KT_CAP_HIDE | KT_CAP_OVERVIEW | KT_CAP_HIST);
	/* an unconnected remote source: one host's WRITE waits for the host; the overview
	 * goes over any number of hosts (remote_overview.c) */
	ck_assert_uint_eq(source_caps(&rem),
			  KT_CAP_EVENTS | KT_CAP_FILTER | KT_CAP_TRACER | KT_CAP_PROBES |
				  KT_CAP_HIST | KT_CAP_COUNTERS | KT_CAP_PROFILE | KT_CAP_STACKS |
				  KT_CAP_SCOPE | KT_CAP_LIVE | KT_CAP_CLEAR | KT_CAP_KBUF |
				  KT_CAP_TRIGGERS | KT_CAP_OVERVIEW);
}
END_TEST

/* What the panes ask without a branch on the kind of source (the tracer switch, the
 * lists' function names, USDT probes, the probe editor's names, whether a probe kind is
 * supported, the probe group, the scope): the live and the remote source both fill each
 * op in. */
START_TEST(test_live_remote_same_ops)
{
	const struct kt_source_ops *both[] = { &source_live_ops, &source_remote_ops };

	for (size_t i = 0; i < 2; i++) {
		const struct kt_source_ops *o = both[i];

		ck_assert_msg(o->tracer->set_tracer && o->tracer->functions, "%s", o->kind);
		ck_assert_msg(o->probes->usdt_create && o->probes->names, "%s", o->kind);
		ck_assert_msg(o->probes->supported && o->probes->group, "%s", o->kind);
		ck_assert_msg(o->scope->set_scope, "%s", o->kind);
	}
}
END_TEST

/* A recording has none of them: each is refused in one place (source.c, from the missing
 * table) with the recording's own line. */
START_TEST(test_recording_refuses_new_ops)
{
	struct kt_source rec = { .ops = &source_recording_ops };
	const char *tracer_why = source_refusal(&rec, KT_CAP_TRACER);
	const char *probes_why = source_refusal(&rec, KT_CAP_PROBES);
	char err[256] = "", group[64] = "x", events[128];

	ck_assert_str_ne(tracer_why, "not available from this source");
	ck_assert_int_eq(source_set_tracer(&rec, "function", err, sizeof(err)), -1);
	ck_assert_str_eq(err, tracer_why);
	err[0] = '\0';
	ck_assert_ptr_null(source_tracer_functions(&rec, err, sizeof(err)));
	ck_assert_str_eq(err, tracer_why);
	err[0] = '\0';
	ck_assert(!source_probe_supported(&rec, KT_PROBE_KPROBE, err, sizeof(err)));
	ck_assert_str_eq(err, probes_why);
	err[0] = '\0';
	ck_assert_ptr_null(source_names(&rec, "ksyms", "", err, sizeof(err)));
	ck_assert_str_eq(err, probes_why);
	err[0] = '\0';
	ck_assert_int_eq(source_usdt_create(&rec, "/bin/true:p:q", events, sizeof(events), err,
					    sizeof(err)),
			 -1);
	ck_assert_str_eq(err, probes_why);
	source_probe_group(&rec, group, sizeof(group));
	ck_assert_str_eq(group, "");
	err[0] = '\0';
	ck_assert_int_eq(source_set_scope(&rec, "pid", "1", group, sizeof(group), events,
					  sizeof(events), err, sizeof(err)),
			 -1);
	ck_assert_str_eq(err, source_refusal(&rec, KT_CAP_SCOPE));
}
END_TEST

/* A live source without tracefs (app->session NULL: a batch run of counters alone) lacks
 * the tracer and the probes: its ops are refused with its line, never called. */
START_TEST(test_live_without_tracefs_refuses)
{
	struct kt_app app;
	struct kt_source live = { .ops = &source_live_ops, .app = &app };
	char note[256] = "";

	memset(&app, 0, sizeof(app));
	ck_assert(!source_can(&live, KT_CAP_TRACER));
	ck_assert_ptr_null(source_tracer_functions(&live, note, sizeof(note)));
	ck_assert_str_eq(note, source_refusal(&live, KT_CAP_TRACER));
	ck_assert_ptr_nonnull(strstr(note, "tracefs"));
	ck_assert(!source_probe_supported(&live, KT_PROBE_UPROBE, note, sizeof(note)));
}
END_TEST

static Suite *source_suite(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("caps");

	tcase_add_test(tc, test_caps_from_tables);
	tcase_add_test(tc, test_caps_narrowed);
	tcase_add_test(tc, test_sources_tables);
	tcase_add_test(tc, test_live_remote_same_ops);
	tcase_add_test(tc, test_recording_refuses_new_ops);
	tcase_add_test(tc, test_live_without_tracefs_refuses);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(source_suite());
}
