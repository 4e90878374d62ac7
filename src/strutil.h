/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small string helpers shared by the config, theme and tracefs parsers. */
#ifndef KTOP_STRUTIL_H
#define KTOP_STRUTIL_H

/* s without leading and trailing white space: trailing space is cut in place, the return
 * value points past the leading space. */
char *str_trim(char *s);

#endif
