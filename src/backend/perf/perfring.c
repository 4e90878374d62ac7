// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfring.h"

#define REC_MAX 65536 /* header.size is 16 bits */

int perfring_map(struct kt_perfring *r, int fd, size_t pages)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	r->size = pages * r->page;
	r->base = mmap(NULL, r->page + r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return -1;
	}
	return 0;
}

void perfring_close(struct kt_perfring *r)
{
	if (r->base)
		munmap(r->base, r->page + r->size);
	if (r->fd >= 0)
		close(r->fd);
	free(r->scratch);
	r->base = NULL;
	r->scratch = NULL;
	r->fd = -1;
}

void perfring_begin(struct kt_perfring *r)
{
	struct perf_event_mmap_page *meta = r->base;

	r->head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	r->tail = meta->data_tail;
}

/* Copies len bytes from ring offset off, wrapping at the end. */
static void copy_out(const struct kt_perfring *r, size_t off, void *to, size_t len)
{
	const char *data = (const char *)r->base + r->page;
	size_t first = r->size - off < len ? r->size - off : len;

	memcpy(to, data + off, first);
	memcpy((char *)to + first, data, len - first);
}

const struct perf_event_header *perfring_peek(struct kt_perfring *r)
{
	size_t off = (size_t)(r->tail % r->size);
	struct perf_event_header h;

	if (r->tail >= r->head)
		return NULL;
	copy_out(r, off, &h, sizeof(h));
	if (h.size < sizeof(h) || h.size > r->head - r->tail)
		return NULL; /* never written by the kernel; stop rather than spin */
	if (off + h.size <= r->size)
		return (const struct perf_event_header *)((const char *)r->base + r->page + off);
	if (!r->scratch && !(r->scratch = malloc(REC_MAX)))
		return NULL;
	copy_out(r, off, r->scratch, h.size);
	return (const struct perf_event_header *)r->scratch;
}

void perfring_skip(struct kt_perfring *r)
{
	struct perf_event_header h;

	copy_out(r, (size_t)(r->tail % r->size), &h, sizeof(h));
	r->tail += h.size;
}

void perfring_end(struct kt_perfring *r)
{
	struct perf_event_mmap_page *meta = r->base;

	__atomic_store_n(&meta->data_tail, r->tail, __ATOMIC_RELEASE);
}
