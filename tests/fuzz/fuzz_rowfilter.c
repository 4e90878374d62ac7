// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the stream's row filter (src/ui/panes/rowfilter.c), as its prompt hands
 * the text over. A refusal gives a one-line reason and leaves the filter as it was; an
 * accepted filter's canonical text (shown in the pane's title, put in the prompt to edit)
 * reads back to itself, and when cut to fit, never to another filter.
 */
#include "config.h"

#include "fuzz_parser.h"
#include "ui/panes/rowfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_line(data, size), err[256] = "", canon[16384], again[16384];
	char cut[128]; /* the prompt's and the message's size (view_stream.c) */
	struct kt_rowfilter f, g, before;

	memset(&f, 0x5a, sizeof(f));
	before = f;
	if (rowfilter_parse(&f, text, err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
		FUZZ_ASSERT(!memcmp(&f, &before, sizeof(f)), "a refused filter changed it");
	} else {
		rowfilter_text(&f, canon, sizeof(canon));
		FUZZ_ASSERT(rowfilter_parse(&g, canon, err, sizeof(err)) == 0,
			    "'%s' shown as '%s', which is refused: %s", text, canon, err);
		rowfilter_text(&g, again, sizeof(again));
		FUZZ_ASSERT(!strcmp(canon, again), "'%s' reads back as '%s'", canon, again);
		FUZZ_ASSERT(rowfilter_active(&f) == rowfilter_active(&g), "active changes");
		rowfilter_text(&f, cut, sizeof(cut));
		FUZZ_ASSERT(!strcmp(cut, canon) || rowfilter_parse(&g, cut, err, sizeof(err)) < 0,
			    "'%s' cut to '%s' reads as another filter", canon, cut);
		(void)rowfilter_match(&f, 1, "bash", 0);
		(void)rowfilter_match(&f, 1, NULL, KT_RF_MAX_CPUS + 1);
	}
	free(text);
	return 0;
}
