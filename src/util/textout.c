// SPDX-License-Identifier: GPL-2.0-or-later
/* Batch text output through str_shown() (textout.h). */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "strutil.h"
#include "textout.h"

static ssize_t textout_write(void *cookie, const char *buf, size_t len)
{
	FILE *out = cookie;
	char safe[4096];
	size_t done = 0, n, i;

	while (done < len) {
		n = len - done < sizeof(safe) ? len - done : sizeof(safe);
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)buf[done + i];

			safe[i] = c == '\n' || c == '\t' ? (char)c : str_shown(c);
		}
		if (fwrite(safe, 1, n, out) != n)
			return -1;
		done += n;
	}
	return fflush(out) == 0 ? (ssize_t)len : -1;
}

static int textout_close(void *cookie)
{
	return fflush(cookie);
}

FILE *textout_open(FILE *out)
{
	cookie_io_functions_t io = { .write = textout_write, .close = textout_close };
	FILE *f = fopencookie(out, "w", io);

	/* as stdio buffers a terminal: by line; a pipe or file: by block */
	if (f && isatty(fileno(out)))
		setvbuf(f, NULL, _IOLBF, 0);
	return f;
}
