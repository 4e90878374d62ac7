// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The off-CPU stack programs (src/probes/offcpustack.bpf.c), for tests only
 * (tests/term/flame_offcpu_fail.sh), loaded with KTOP_TEST_BPF_OBJECT=offcpustack:FILE:
 * the programs count into a map of another name, and the map ktop reads as "counts" is a
 * ring buffer, which has no keys to walk: every poll of the profile fails, with the
 * kernel's ENOTSUPP, as a real read failure would.
 */
#define counts counts_kept
#include "offcpustack.bpf.c"
#undef counts

#define RINGBUF 27 /* BPF_MAP_TYPE_RINGBUF, which ktop's small vmlinux.h does not name */

struct {
	__uint(type, RINGBUF);
	__uint(max_entries, 4096);
} counts SEC(".maps");
