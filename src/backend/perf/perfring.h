/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ring buffer of one perf event, as perf_event_open(2) maps it: a metadata page, then
 * a power-of-two number of data pages the kernel writes records into. Reading takes the
 * records the kernel had written when perfring_begin looked, one at a time, a record that
 * wraps past the end copied whole into a scratch buffer; perfring_end hands the space back.
 */
#ifndef KTOP_PERFRING_H
#define KTOP_PERFRING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct kt_perfring {
	int fd;
	void *base;	  /* the metadata page, then the data pages */
	size_t page;	  /* bytes */
	size_t size;	  /* of the data pages */
	uint64_t head, tail;
	char *scratch;	  /* 64 KiB, for a record that wraps; allocated when one does */
};

/* Maps pages (a power of two) data pages of fd, which r then owns (closed by
 * perfring_close, even when mapping fails). Returns 0, or -1 with errno. */
int perfring_map(struct kt_perfring *r, int fd, size_t pages);
void perfring_close(struct kt_perfring *r);

/* Notes how far the kernel has written. */
void perfring_begin(struct kt_perfring *r);
/* The next record up to that point, or NULL at its end (or on a record the kernel could
 * not have written). Valid until the next perfring_peek after perfring_skip. */
const struct perf_event_header *perfring_peek(struct kt_perfring *r);
void perfring_skip(struct kt_perfring *r);
/* Gives the kernel back the space of the records skipped. */
void perfring_end(struct kt_perfring *r);

#endif
