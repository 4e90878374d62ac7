/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small string helpers shared by the config, theme and tracefs parsers, and the one-line
 * error formatter of the backend. */
#ifndef KTOP_STRUTIL_H
#define KTOP_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>

/* c as ktop shows it on a terminal: a byte that is not printable ASCII (a control byte, the
 * start of an escape sequence, a C1 control or any byte past ASCII) is drawn as '?'. */
static inline char str_shown(unsigned char c)
{
	return c < 0x20 || c >= 0x7f ? '?' : (char)c;
}

/* s without leading and trailing white space: trailing space is cut in place, the return
 * value points past the leading space. */
char *str_trim(char *s);

/* Formats a one-line error into err (of errlen bytes); does nothing when err is NULL. */
void str_seterr(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether word appears in text as a whole word between white space ("function" is not
 * found in "function_graph"). */
bool str_has_word(const char *text, const char *word);

/* The n words one after the other, a space between each: malloc'd ("" for none), NULL out
 * of memory. */
char *str_join(const char *const *words, size_t n);
/* The directory part of path, malloc'd: "." for a bare name, "/" for one at the root;
 * NULL out of memory. */
char *str_dirname(const char *path);

#endif
