/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation that aborts: for UI and application code, where running out of memory has no
 * sensible recovery. Backend code returns errors instead. */
#ifndef KTOP_XALLOC_H
#define KTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
