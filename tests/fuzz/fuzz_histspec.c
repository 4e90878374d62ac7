// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for histogram specs (src/backend/bpf/histspec.c), as --hist and the pane's
 * prompt hand them over. A refusal gives a one-line reason; an accepted spec keeps the text
 * as written and names what it is keyed by.
 */
#include "config.h"

#include "backend/bpf/histspec.h"
#include "fuzz_parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_line(data, size), err[256] = "";
	struct kt_hist_spec s;

	if (histspec_parse(text, &s, err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
	} else {
		FUZZ_ASSERT(!strcmp(s.text, text), "text '%s' kept as '%s'", text, s.text);
		FUZZ_ASSERT(s.kind >= KT_HIST_SYSCALL && s.kind <= KT_HIST_USDT, "kind %d",
			    (int)s.kind);
		FUZZ_ASSERT(histspec_by_name(&s) != NULL, "no key name");
		FUZZ_ASSERT(s.step > 0, "a step of 0");
	}
	free(text);
	return 0;
}
