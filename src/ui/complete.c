// SPDX-License-Identifier: GPL-2.0-or-later
/* Tab completion (see complete.h). */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ui/complete.h"

static int word_char(char c, const char *extra)
{
	return isalnum((unsigned char)c) || c == '_' || (c && extra && strchr(extra, c));
}

size_t complete_word_start(const char *buf, size_t cur, const char *extra)
{
	while (cur > 0 && word_char(buf[cur - 1], extra))
		cur--;
	return cur;
}

size_t complete_word(char *buf, size_t size, size_t *len, size_t *cur, const char *extra,
		     const char *const *cands, size_t n, char *list, size_t listlen)
{
	size_t start = complete_word_start(buf, *cur, extra), wl = *cur - start, i, matches = 0;
	size_t common = 0, add, used = 0;
	const char *first = NULL;

	if (list && listlen)
		list[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *c = cands[i];
		size_t k;

		if (strncmp(c, buf + start, wl))
			continue;
		if (!first) {
			first = c;
			common = strlen(c);
		} else {
			for (k = 0; k < common && c[k] == first[k]; k++)
				;
			common = k;
		}
		if (list && used + strlen(c) + 2 < listlen)
			used += (size_t)snprintf(list + used, listlen - used, "%s%s",
						 used ? " " : "", c);
		matches++;
	}
	if (!matches || common <= wl)
		return matches;
	add = common - wl;
	if (*len + add + 1 > size)
		return matches;
	memmove(buf + *cur + add, buf + *cur, *len - *cur + 1);
	memcpy(buf + *cur, first + wl, add);
	*len += add;
	*cur += add;
	return matches;
}
