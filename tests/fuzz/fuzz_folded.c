// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for folded stacks (src/backend/stacks/folded.c), what ktop --flame reads. A
 * refusal gives "NAME:LINE: reason" or "NAME: reason" on one line and no tree; an accepted
 * file gives a tree whose root holds every count, which writes back as folded text that
 * reads again to the same text.
 */
#include "config.h"

#include "backend/stacks/folded.h"
#include "fuzz_parser.h"

static char *write_folded(const struct kt_stacks *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	FUZZ_ASSERT(f, "open_memstream failed");
	FUZZ_ASSERT(stacks_write_folded(st, f) == 0, "writing folded text failed");
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kt_stacks *st, *again;
	char err[512] = "", *in = fuzz_string(data, size), *out, *out2;
	FILE *f = size ? fmemopen(in, size, "r") : NULL;

	FUZZ_ASSERT(f || !size, "fmemopen failed");
	st = f ? folded_read(f, "fuzz", err, sizeof(err)) : NULL;
	if (f)
		fclose(f);
	free(in);
	if (!f)
		return 0;
	if (!st) {
		fuzz_check_reason("(input)", err);
		FUZZ_ASSERT(!strncmp(err, "fuzz:", 5), "no file name in '%s'", err);
		return 0;
	}
	FUZZ_ASSERT(stacks_root(st)->total > 0, "a tree with no weight was accepted");
	out = write_folded(st);
	f = fmemopen(out, strlen(out), "r");
	FUZZ_ASSERT(f, "fmemopen failed");
	again = folded_read(f, "again", err, sizeof(err));
	fclose(f);
	FUZZ_ASSERT(again, "its own folded output refused: %s", err);
	FUZZ_ASSERT(stacks_root(again)->total == stacks_root(st)->total, "totals differ");
	out2 = write_folded(again);
	FUZZ_ASSERT(!strcmp(out, out2), "folded output changed on a second read");
	free(out);
	free(out2);
	stacks_free(again);
	stacks_free(st);
	return 0;
}
