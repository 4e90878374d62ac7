// SPDX-License-Identifier: GPL-2.0-or-later
/* A ring-buffer page's commit word checked against the page's size (ringpage.h). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "ringpage.h"

/* The commit word (kernel ring_buffer.c): the data's size in the low 27 bits, flags above. */
#define RINGPAGE_SIZE_MASK ((1ull << 27) - 1)
#define RINGPAGE_MISSED_STORED (1ull << 30)

size_t ringpage_header_size(unsigned long_size)
{
	return 8 + long_size;
}

static uint64_t commit_word(const unsigned char *p, unsigned long_size, bool big_endian)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < long_size; i++)
		v |= (uint64_t)p[big_endian ? i : long_size - 1 - i] << 8 * (long_size - 1 - i);
	return v;
}

int ringpage_check(const unsigned char *hdr, size_t size, unsigned long_size, bool big_endian,
		   char *err, size_t errlen)
{
	size_t head = ringpage_header_size(long_size);
	uint64_t commit, used;

	if (size < head) {
		snprintf(err, errlen, "it has %zu bytes, shorter than its %zu-byte header", size,
			 head);
		return -1;
	}
	commit = commit_word(hdr + 8, long_size, big_endian);
	used = commit & RINGPAGE_SIZE_MASK;
	if (commit & RINGPAGE_MISSED_STORED)
		used += long_size;
	if (used > size - head) {
		snprintf(err, errlen, "it says it holds %llu bytes, a page holds %zu",
			 (unsigned long long)used, size - head);
		return -1;
	}
	return 0;
}
