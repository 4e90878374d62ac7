/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON strings, escaped one way everywhere ktop writes JSON (events, histograms, counters,
 * call trees, --doctor): '"' and '\' backslashed, other bytes below 0x20 as \u00XX, the
 * rest (UTF-8 included) as is. */
#ifndef KTOP_JSON_H
#define KTOP_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Writes s to out as a quoted JSON string. */
void json_string(FILE *out, const char *s);

/* Appends at most n bytes of s (fewer at a NUL) to out[pos], escaped, without quotes, and
 * NUL-terminates; stops before an escape would not fit in len. Returns the new position. */
size_t json_escape(char *out, size_t pos, size_t len, const char *s, size_t n);

#endif
