/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One CPU's ring buffer mapped into memory (trace_mmap.h, Linux 6.10+): the reader takes its
 * sub-buffers where the kernel wrote them, one ioctl each, instead of a read() copy. */
#ifndef KTOP_RINGMAP_H
#define KTOP_RINGMAP_H

#include <stddef.h>
#include <stdint.h>

struct kt_ringmap;

/* Maps the trace_pipe_raw open on fd (which stays the caller's). NULL with the reason in
 * err: ENODEV/EINVAL on a kernel without mapping, EBUSY while the instance has a snapshot
 * buffer or a latency tracer. */
struct kt_ringmap *ringmap_open(int fd, char *err, size_t errlen);
void ringmap_close(struct kt_ringmap *m);
/* Makes the next sub-buffer the reader's (or leaves the one the writer is still on) and
 * returns it; *id says which, the same id as last time meaning the same sub-buffer, maybe
 * with more data. NULL with errno on failure. */
void *ringmap_get_reader(struct kt_ringmap *m, uint32_t *id);
/* Sub-buffer id, where it is mapped. */
void *ringmap_page(const struct kt_ringmap *m, uint32_t id);
/* The reader's sub-buffer and how many bytes of its data the kernel counts as read, as of
 * the mapping or the last ioctl: where a new mapping of a buffer read before goes on. */
void ringmap_reader(const struct kt_ringmap *m, uint32_t *id, uint32_t *read);
uint32_t ringmap_subbufs(const struct kt_ringmap *m);
uint32_t ringmap_subbuf_size(const struct kt_ringmap *m);
/* The meta page's counters (entries, overrun, read) as of the last ioctl. */
void ringmap_counters(const struct kt_ringmap *m, uint64_t *entries, uint64_t *overrun,
		      uint64_t *read);
/* Copies a mapped sub-buffer the writer may still be adding to: the data as far as its
 * commit said before the copy (and no further than end, the header included, when end > 0),
 * so the copy never claims bytes it did not get. Returns the end of the copy's data, the
 * offset a later look at the sub-buffer goes on from. */
int ringmap_copy(void *dst, const void *src, size_t subbuf_size, int end);
/* The sub-buffer header's size: a u64 time stamp and a long commit (buffer_data_page). */
#define RINGMAP_HEADER ((int)(sizeof(uint64_t) + sizeof(long)))

#endif
