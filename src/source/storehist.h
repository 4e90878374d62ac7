/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A field histogram (field:SYSTEM:EVENT.FIELD) or a latency one (syscall-latency,
 * latency:SYS:START[.FIELD]->SYS:END[.FIELD], and the built-ins that expand to one: a start
 * to the next end of its thread or field value, storelat.h) counted from the stored events
 * rather than in the kernel: a recording's, where no kernel counts them. Stored events have
 * times, so it follows the time range (histsrc.h's range op): the rows are made again from
 * the range's records (a latency's start before the range is not seen). A field counts
 * what BPF's field_hist would have (tphist.bpf.c): a negative value is an error return and
 * not counted; the same buckets, keyed by tid, comm, cpu (syscall) or a field. A bounded run of records per update, so a big recording's first rows come at once
 * and the rest on the next ticks.
 */
#ifndef KTOP_STOREHIST_H
#define KTOP_STOREHIST_H

#include <stddef.h>

struct kt_decoder;
struct kt_histsrc;
struct kt_store;

/* Opens text on the records of store (decoded by d). NULL with one line in err: a kind
 * that needs the kernel, an unknown event or field. */
struct kt_histsrc *storehist_open(struct kt_store *store, struct kt_decoder *d,
				  const char *text, char *err, size_t errlen);

#endif
