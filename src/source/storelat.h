/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The starts a latency histogram of stored events waits on (storehist.c): per match key (a
 * thread, or the start event's field value) the time of the start not yet ended and what it
 * was (a syscall's number), as the BPF programs keep them in a map (tphist.bpf.c, syslat.bpf.c):
 * a new start of a key replaces the one before, an end takes its start away. No curses, no
 * locks. */
#ifndef KTOP_STORELAT_H
#define KTOP_STORELAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_starts {
	struct kt_start {
		uint64_t key, ts;
		long id;
		bool used;
	} *slot;
	size_t cap, n; /* cap a power of two */
};

void starts_put(struct kt_starts *s, uint64_t key, uint64_t ts, long id);
/* The start of key, taken away. false: none. */
bool starts_take(struct kt_starts *s, uint64_t key, uint64_t *ts, long *id);
void starts_clear(struct kt_starts *s);
void starts_free(struct kt_starts *s);

#endif
