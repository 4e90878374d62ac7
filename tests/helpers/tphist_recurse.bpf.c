// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The generic tracepoint histogram (src/probes/tphist.bpf.c), for tests only
 * (tests/live/bpf_missed.sh), loaded with KTOP_TEST_BPF_OBJECT=tphist:FILE: every run it
 * counts also sends the current task SIGWINCH (ignored by default), which fires
 * signal:signal_generate inside the run. A histogram of signal_generate then cannot run
 * there (the kernel allows one tracepoint program per CPU at a time) and the kernel counts
 * the skipped run: misses made on purpose, one per run of the first histogram.
 */
#define KT_TPHIST_ON_RUN() bpf_send_signal(28 /* SIGWINCH */)
#include "tphist.bpf.c"
