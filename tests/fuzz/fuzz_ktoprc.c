// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for ktoprc and profiles (config_parse in src/ui/ktoprc.c), each input read
 * as both. A refusal gives "FILE:LINE: reason" on one line and leaves the defaults; an
 * accepted file, written back as ktop saves it, reads back to the same settings.
 */
#include "config.h"

#include "fuzz_parser.h"
#include "ui/ktoprc.h"

static void check(const char *text, bool profile)
{
	struct kt_config c, again, none;
	char err[512] = "", *saved = NULL;
	size_t len = 0;
	FILE *f;

	config_init(&none);
	if (config_parse(&c, text, "fuzz", profile, err, sizeof(err)) < 0) {
		fuzz_check_reason(text, err);
		FUZZ_ASSERT(!strncmp(err, "fuzz:", 5), "no file:line in '%s'", err);
		FUZZ_ASSERT(config_equal(&c, &none), "settings kept from a refused file");
		return;
	}
	f = open_memstream(&saved, &len);
	FUZZ_ASSERT(f, "out of memory");
	config_write(&c, f, profile);
	FUZZ_ASSERT(fclose(f) == 0, "out of memory");
	FUZZ_ASSERT(config_parse(&again, saved, "saved", profile, err, sizeof(err)) == 0,
		    "ktop writes a file it refuses: %s", err);
	FUZZ_ASSERT(config_equal(&c, &again), "settings change when saved and read back");
	config_free(&again);
	config_free(&c);
	free(saved);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);

	check(text, false);
	check(text, true);
	free(text);
	return 0;
}
