/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A ring-buffer page as the kernel writes it (u64 timestamp, a commit word of the kernel's
 * long size, the data), checked before kbuffer or libtracecmd reads it: both trust the
 * commit word's size and read past the page when it lies. The one check of that word, for
 * pages from a file (tdat_check.c) and from an agent (remote/client.c) alike.
 */
#ifndef KTOP_RINGPAGE_H
#define KTOP_RINGPAGE_H

#include <stdbool.h>
#include <stddef.h>

/* The header's size: the timestamp and the commit word. */
size_t ringpage_header_size(unsigned long_size);
/* Checks the page at hdr, size bytes of which are there (at least its header): the data its
 * commit word says it holds, and the missed-events count the kernel may store after it,
 * must fit them. long_size 4 or 8, big_endian: the writing machine's. Returns 0, or -1 with
 * "it says it holds N bytes, a page holds M" in err. */
int ringpage_check(const unsigned char *hdr, size_t size, unsigned long_size, bool big_endian,
		   char *err, size_t errlen);

#endif
