/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parser fuzz targets (tests/fuzz/fuzz_*.c but fuzz_recording) share: the input as
 * the C string a parser takes, and the checks of what every parser promises on any input.
 * A broken promise aborts, so libFuzzer keeps the input as it keeps a crash. */
#ifndef KTOP_FUZZ_PARSER_H
#define KTOP_FUZZ_PARSER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond, ...)                                                           \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                    \
			fputc('\n', stderr);                                             \
			abort();                                                         \
		}                                                                        \
	} while (0)

/* data as the C string a file parser takes, malloc'd (text past a NUL is never seen). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* data up to its first line break, as a prompt hands a line over (Enter ends it). */
static inline char *fuzz_line(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);

	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* A refusal: a one-line reason, never empty. */
static inline void fuzz_check_reason(const char *text, const char *err)
{
	FUZZ_ASSERT(err[0], "no reason given for refusing '%s'", text);
	FUZZ_ASSERT(!strchr(err, '\n'), "reason over several lines: '%s'", err);
}

/* A caret position: inside text or just past its end. */
static inline void fuzz_check_pos(const char *text, int pos)
{
	FUZZ_ASSERT(pos >= 0 && (size_t)pos <= strlen(text), "error position %d outside '%s'",
		    pos, text);
}

#endif
