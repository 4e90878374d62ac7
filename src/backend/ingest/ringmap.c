// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A CPU's ring buffer, memory-mapped (Documentation/trace/ring-buffer-map.rst): the meta page
 * at offset 0, the sub-buffers after it, ordered by id. The kernel fills in the meta page at
 * the mapping and at each TRACE_MMAP_IOCTL_GET_READER.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ringmap.h"
#include "trace_mmap.h"

/* The commit word's flags (the kernel's RB_MISSED_EVENTS, RB_MISSED_STORED); the rest is
 * the data's length. */
#define COMMIT_FLAGS (3ul << 30)

struct kt_ringmap {
	int fd;
	void *base; /* the whole mapping */
	volatile struct kt_trace_buffer_meta *meta;
	char *data;
	size_t len; /* the meta page and every sub-buffer */
	uint32_t subbuf_size;
};

struct kt_ringmap *ringmap_open(int fd, char *err, size_t errlen)
{
	struct kt_ringmap *m = calloc(1, sizeof(*m));
	long page = sysconf(_SC_PAGESIZE);
	void *meta, *all;
	int e;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* The meta page says how big the whole is; then all of it in one mapping. */
	meta = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		e = errno;
		snprintf(err, errlen, "mmap of trace_pipe_raw: %s%s", strerror(e),
			 e == EBUSY ? " (the instance has a snapshot buffer or a latency tracer)" :
			 e == ENODEV || e == EINVAL ? " (the kernel predates ring-buffer mapping, 6.10)" :
						       "");
		free(m);
		return NULL;
	}
	m->subbuf_size = ((struct kt_trace_buffer_meta *)meta)->subbuf_size;
	m->len = ((struct kt_trace_buffer_meta *)meta)->meta_page_size +
		 (size_t)m->subbuf_size * ((struct kt_trace_buffer_meta *)meta)->nr_subbufs;
	munmap(meta, (size_t)page);
	all = mmap(NULL, m->len, PROT_READ, MAP_SHARED, fd, 0);
	if (all == MAP_FAILED) {
		snprintf(err, errlen, "mmap of %zu bytes of trace_pipe_raw: %s", m->len,
			 strerror(errno));
		free(m);
		return NULL;
	}
	m->fd = fd;
	m->base = all;
	m->meta = all;
	m->data = (char *)all + m->meta->meta_page_size;
	return m;
}

void ringmap_close(struct kt_ringmap *m)
{
	if (!m)
		return;
	munmap(m->base, m->len);
	free(m);
}

void *ringmap_get_reader(struct kt_ringmap *m, uint32_t *id)
{
	if (ioctl(m->fd, KT_TRACE_MMAP_IOCTL_GET_READER) < 0)
		return NULL;
	*id = m->meta->reader.id;
	return ringmap_page(m, *id);
}

void *ringmap_page(const struct kt_ringmap *m, uint32_t id)
{
	return m->data + (size_t)m->subbuf_size * id;
}

void ringmap_reader(const struct kt_ringmap *m, uint32_t *id, uint32_t *read)
{
	*id = m->meta->reader.id;
	*read = m->meta->reader.read;
}

uint32_t ringmap_subbufs(const struct kt_ringmap *m)
{
	return m->meta->nr_subbufs;
}

uint32_t ringmap_subbuf_size(const struct kt_ringmap *m)
{
	return m->subbuf_size;
}

void ringmap_counters(const struct kt_ringmap *m, uint64_t *entries, uint64_t *overrun,
		      uint64_t *read)
{
	*entries = m->meta->entries;
	*overrun = m->meta->overrun;
	*read = m->meta->read;
}

int ringmap_copy(void *dst, const void *src, size_t subbuf_size, int end)
{
	unsigned long commit;

	/* The writer publishes data before the commit that covers it. */
	commit = __atomic_load_n((const unsigned long *)((const char *)src + sizeof(uint64_t)),
				 __ATOMIC_ACQUIRE);
	memcpy(dst, src, subbuf_size);
	if (end > 0 && RINGMAP_HEADER + (long)(commit & ~COMMIT_FLAGS) > end)
		commit = (commit & COMMIT_FLAGS) | (unsigned long)(end - RINGMAP_HEADER);
	memcpy((char *)dst + sizeof(uint64_t), &commit, sizeof(commit));
	return RINGMAP_HEADER + (int)(commit & ~COMMIT_FLAGS);
}
