// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"

char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void str_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

bool str_has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = text; n && p && (p = strstr(p, word)); p += n)
		if ((p == text || isspace((unsigned char)p[-1])) &&
		    (!p[n] || isspace((unsigned char)p[n])))
			return true;
	return false;
}

char *str_join(const char *const *words, size_t n)
{
	size_t len = 1, off = 0;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, len - off, "%s%s", i ? " " : "", words[i]);
	return s;
}

char *str_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}
