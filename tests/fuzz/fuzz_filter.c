// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the filter prompt's check (src/backend/tracefs/filtercheck.c): every input is
 * checked against three real event formats from the unit fixtures (numbers, char arrays, a
 * numeric array) and against no event at all, as the prompt does on every key. A refusal
 * must give a one-line reason and a caret inside the text; an acceptance no caret.
 */
#include "config.h"

#include <traceevent/event-parse.h>

#include "backend/tracefs/filtercheck.h"
#include "fuzz_parser.h"

#ifndef KTOP_FIXTURES
#define KTOP_FIXTURES "tests/unit/fixtures"
#endif

static const char *const formats[][2] = {
	{ "sched", "sched_switch" },
	{ "raw_syscalls", "sys_enter" },
	{ "task", "task_rename" },
};
#define NEVENTS (sizeof(formats) / sizeof(formats[0]))

static struct tep_event *events[NEVENTS + 1]; /* and NULL: no event */

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct tep_handle *tep = tep_alloc();
	char path[512], buf[8192];
	size_t i, n;
	FILE *f;

	for (i = 0; tep && i < NEVENTS; i++) {
		snprintf(path, sizeof(path), "%s/tracing/events/%s/%s/format", KTOP_FIXTURES,
			 formats[i][0], formats[i][1]);
		f = fopen(path, "r");
		FUZZ_ASSERT(f, "cannot open %s", path);
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		FUZZ_ASSERT(tep_parse_event(tep, buf, n, formats[i][0]) == 0,
			    "libtraceevent cannot parse %s", path);
		events[i] = tep_find_event_by_name(tep, formats[i][0], formats[i][1]);
		FUZZ_ASSERT(events[i], "no event in %s", path);
	}
	FUZZ_ASSERT(tep, "out of memory");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = fuzz_line(data, size), err[256];
	size_t i;
	int pos;

	for (i = 0; i <= NEVENTS; i++) {
		pos = -7;
		if (filter_check(events[i], expr, err, sizeof(err), &pos) < 0) {
			fuzz_check_reason(expr, err);
			fuzz_check_pos(expr, pos);
		} else {
			FUZZ_ASSERT(pos == -1, "caret at %d on an accepted filter", pos);
		}
	}
	free(expr);
	return 0;
}
