// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <string.h>

#include "json.h"

/* The escaped form of c into e (at most 6 bytes and a NUL); its length. */
static int escape_char(unsigned char c, char e[7])
{
	if (c == '"' || c == '\\')
		return snprintf(e, 7, "\\%c", c);
	if (c < 0x20)
		return snprintf(e, 7, "\\u%04x", c);
	e[0] = (char)c;
	e[1] = '\0';
	return 1;
}

void json_string(FILE *out, const char *s)
{
	char e[7];

	fputc('"', out);
	for (; *s; s++) {
		escape_char((unsigned char)*s, e);
		fputs(e, out);
	}
	fputc('"', out);
}

size_t json_escape(char *out, size_t pos, size_t len, const char *s, size_t n)
{
	char e[7];
	size_t i;
	int k;

	if (!len)
		return 0;
	for (i = 0; i < n && s[i]; i++) {
		k = escape_char((unsigned char)s[i], e);
		if (pos + (size_t)k >= len)
			break;
		memcpy(out + pos, e, (size_t)k);
		pos += (size_t)k;
	}
	out[pos < len ? pos : len - 1] = '\0';
	return pos < len ? pos : len - 1;
}
