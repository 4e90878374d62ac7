// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for theme files (src/ui/theme.c), read both ways ktop reads them: from
 * text (theme_parse) and from a file (theme_parse_file, as theme_load does), which must
 * agree. A refusal gives "FILE:LINE: reason" on one line and the default theme; every
 * colour of an accepted theme fits each terminal's palette as crt.c asks for it.
 */
#include "config.h"

#include "fuzz_parser.h"
#include "ui/theme.h"

static void check_fit(int c)
{
	static const int ncolours[] = { 0, 8, 16, 88, 256, 1 << 24 };
	size_t i;
	int fit;

	for (i = 0; i < sizeof(ncolours) / sizeof(ncolours[0]); i++) {
		fit = theme_colour_fit(c, ncolours[i], NULL);
		FUZZ_ASSERT(fit == KT_COLOUR_DEFAULT || (fit >= 0 && fit < ncolours[i]),
			    "colour %#x fits %d colours as %d", c, ncolours[i], fit);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), err[512] = "", ferr[512] = "";
	struct kt_theme t, ft, def;
	int r, fr, i;
	FILE *f;

	r = theme_parse(&t, text, "fuzz", err, sizeof(err));
	f = fmemopen(text, strlen(text) + 1, "r");
	FUZZ_ASSERT(f, "fmemopen failed");
	fr = theme_parse_file(&ft, f, "fuzz", ferr, sizeof(ferr));
	fclose(f);
	FUZZ_ASSERT(r == fr && !strcmp(err, ferr) && !memcmp(&t, &ft, sizeof(t)),
		    "the text says %d '%s', the file %d '%s'", r, err, fr, ferr);
	if (r < 0) {
		fuzz_check_reason(text, err);
		FUZZ_ASSERT(!strncmp(err, "fuzz:", 5), "no file:line in '%s'", err);
		theme_default(&def);
		FUZZ_ASSERT(!memcmp(&t, &def, sizeof(t)), "not the default theme after '%s'", err);
	} else {
		for (i = 0; i < KT_THEME_NELEM; i++) {
			check_fit(t.style[i].fg);
			check_fit(t.style[i].bg);
		}
	}
	free(text);
	return 0;
}
