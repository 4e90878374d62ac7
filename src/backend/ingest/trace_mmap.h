/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ring-buffer mapping ABI of Linux 6.10 and later, for headers that predate it (Debian
 * 12's). Written from the kernel's Documentation/trace/ring-buffer-map.rst and
 * include/uapi/linux/trace_mmap.h: a CPU's trace_pipe_raw maps as one meta page followed by
 * nr_subbufs sub-buffers in the order of their ids; TRACE_MMAP_IOCTL_GET_READER makes the
 * next sub-buffer the reader's (reader.id), and counts what it held as read. Own names, so
 * the real header can sit beside it. */
#ifndef KTOP_TRACE_MMAP_H
#define KTOP_TRACE_MMAP_H

#include <stdint.h>
#include <sys/ioctl.h>

struct kt_trace_buffer_meta {
	uint32_t meta_page_size;  /* bytes before the first sub-buffer */
	uint32_t meta_struct_len; /* the size of this structure as the kernel knows it */
	uint32_t subbuf_size;
	uint32_t nr_subbufs;	  /* the reader's included */
	struct {
		uint64_t lost_events; /* lost at the last reader swap */
		uint32_t id;	      /* the reader's sub-buffer, 0 .. nr_subbufs - 1 */
		uint32_t read;	      /* bytes of its data the kernel counts as read */
	} reader;
	uint64_t flags;
	uint64_t entries; /* the CPU's counters as of the last ioctl */
	uint64_t overrun;
	uint64_t read;
	uint64_t reserved1, reserved2;
};

#define KT_TRACE_MMAP_IOCTL_GET_READER _IO('R', 0x20)

#endif
