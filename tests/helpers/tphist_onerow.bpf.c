// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The generic tracepoint histogram (src/probes/tphist.bpf.c), for tests only
 * (tests/live/bpf_dropped.sh), loaded with KTOP_TEST_BPF_OBJECT=tphist:FILE: its histogram
 * map holds one row, so every sample of a second key is one the map refuses. The program
 * must count each as dropped, and ktop report them in missed=, or they vanish unsaid.
 */
#include "hist.h"
#undef KT_HIST_MAX_KEYS
#define KT_HIST_MAX_KEYS 1
#include "tphist.bpf.c"
