/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One live histogram aggregated in the kernel by BPF: loads the program its spec needs with
 * the first variant this kernel accepts, attaches it, and reads its map on the tick.
 * Programs, maps and links are owned by file descriptors and never pinned, so they are gone
 * when ktop is, however it ends. libbpf's messages go to the log; a failure comes back as
 * one line (the verifier's last words when the verifier said no).
 */
#ifndef KTOP_BACKEND_BPFHIST_H
#define KTOP_BACKEND_BPFHIST_H

#include <stdint.h>
#include <stddef.h>

#include "histdata.h"
#include "histspec.h"

struct kt_bpfhist;

/* Loads and attaches. Returns NULL with a one-line reason in err. Free with bpfhist_free. */
struct kt_bpfhist *bpfhist_open(const struct kt_hist_spec *spec, char *err, size_t errlen);
/* Detaches and closes every fd. NULL is fine. */
void bpfhist_free(struct kt_bpfhist *h);
/* Reads the map (in batches where the kernel allows) and works out the interval since the
 * previous read. Returns 0, or -1 with the reason in err. */
int bpfhist_read(struct kt_bpfhist *h, char *err, size_t errlen);
const struct kt_hist_spec *bpfhist_spec(const struct kt_bpfhist *h);
/* How it is attached: "tp_btf", "raw_tp", "tracepoint", "fentry", "kprobe". */
const char *bpfhist_variant(const struct kt_bpfhist *h);
/* The keys, by cumulative count, most first; valid until the next read. */
size_t bpfhist_rows(const struct kt_bpfhist *h, const struct kt_hist_row **rows);
/* Runs of its programs the kernel skipped (recursion, or a BPF map syscall holding the CPU),
 * and lock-contention's waits inside its own map updates, as of the last read: samples the
 * histogram lacks. */
uint64_t bpfhist_missed(const struct kt_bpfhist *h);
/* All keys together. */
const struct kt_hist_row *bpfhist_total(const struct kt_bpfhist *h);

#endif
