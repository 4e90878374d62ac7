// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void __attribute__((noreturn)) xalloc_fail(size_t size)
{
	fprintf(stderr, "ktop: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xalloc_fail(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xalloc_fail(nmemb * size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > (size_t)-1 / size)
		xalloc_fail((size_t)-1);
	p = realloc(ptr, nmemb * size != 0 ? nmemb * size : 1);
	if (!p)
		xalloc_fail(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	return xreallocarray(ptr, 1, size);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		xalloc_fail(strlen(s) + 1);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_fail(0);
	return p;
}
