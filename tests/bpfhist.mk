# BPF histograms: the parser and bucket arithmetic (unit), live histograms against
# workloads of known shape, the pane driven from the keyboard (tmux).
check_PROGRAMS += tests/helpers/histwork
tests_helpers_histwork_SOURCES = tests/helpers/histwork.c
tests_helpers_histwork_CFLAGS = $(AM_CFLAGS)
tests_helpers_histwork_LDADD =
UNIT_CHECKS += tests/unit/check_hist
LIVE_TESTS += tests/live/bpf_hist.sh
TERM_TESTS += tests/term/hist_pane.sh
# ktop's own process left out of the histograms, ",self" counts it (issue 39).
TERM_TESTS += tests/term/hist_self.sh
EXTRA_DIST += tests/hist-lib.sh tests/offcpu-lib.sh
# The I/O built-ins through each variant (a loop device of the test's own for block I/O).
LIVE_TESTS += tests/live/bpf_hist_io.sh
# lock-contention through each variant against kernel lock contention of our own making,
# counted against the kernel's own instance.
check_PROGRAMS += tests/helpers/lockwork
tests_helpers_lockwork_SOURCES = tests/helpers/lockwork.c
tests_helpers_lockwork_CFLAGS = $(AM_CFLAGS)
tests_helpers_lockwork_LDADD =
LIVE_TESTS += tests/live/bpf_hist_lock.sh
# tcp-connect-latency, the first kind added as one row of src/backend/bpf/histkind.c
LIVE_TESTS += tests/live/bpf_hist_tcp.sh
# offcpu and syscall-latency forget the tasks that exit (their start maps would fill).
LIVE_TESTS += tests/live/bpf_hist_exit.sh

# A verifier rejection through ktop's real loader and the real kernel: an object with
# syslat's programs and maps that the verifier refuses, loaded in its place with
# KTOP_TEST_BPF_OBJECT (batch: bpf_verifier.sh; the pane: hist_reject.sh).
LIVE_TESTS += tests/live/bpf_verifier.sh
TERM_TESTS += tests/term/hist_reject.sh
#
# Runs the kernel skips, made on purpose: the generic histogram's object with a hook that
# makes a second histogram recurse (tests/helpers/tphist_recurse.bpf.c, bpf_missed.sh).
LIVE_TESTS += tests/live/bpf_missed.sh
# Samples a program's map refused, counted as missed (tests/helpers/tphist_onerow.bpf.c).
LIVE_TESTS += tests/live/bpf_dropped.sh
#
# An off-CPU profile whose every poll fails (tests/helpers/offcpu_badcounts.bpf.c): the pane
# says it once, not every tick (flame_offcpu_fail.sh).
TERM_TESTS += tests/term/flame_offcpu_fail.sh
EXTRA_DIST += tests/helpers/verifier_reject.bpf.c tests/helpers/tphist_recurse.bpf.c \
	tests/helpers/tphist_onerow.bpf.c tests/helpers/offcpu_badcounts.bpf.c
CLEANFILES += tests/helpers/verifier_reject.bpf.o tests/helpers/tphist_recurse.bpf.o \
	tests/helpers/tphist_onerow.bpf.o \
	tests/helpers/offcpu_badcounts.bpf.o \
	tests/helpers/*.tmp
if ENABLE_BPF
tests/live/bpf_verifier.log tests/term/hist_reject.log: tests/helpers/verifier_reject.bpf.o
tests/live/bpf_missed.log: tests/helpers/tphist_recurse.bpf.o
tests/live/bpf_dropped.log: tests/helpers/tphist_onerow.bpf.o
tests/term/flame_offcpu_fail.log: tests/helpers/offcpu_badcounts.bpf.o
# A test object stands in for the built-in NAME its header names (KTOP_TEST_BPF_OBJECT=NAME:).
# Its .rodata must be NAME's, byte for byte, or the loader's tunables would land elsewhere:
# the two skeletons' .rodata structs are compared.
BPF_TEST_OBJECT = $(AM_V_GEN)$(MKDIR_P) tests/helpers && \
	name=`sed -n 's/.*KTOP_TEST_BPF_OBJECT=\([a-z]*\):.*/\1/p' $< | sed -n 1p` && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && \
	$(BPFTOOL) gen skeleton $@.tmp name ktop_$$name | sed -n '/rodata {/,/\*rodata;/p' \
		>$@.ro.tmp && \
	{ sed -n '/rodata {/,/\*rodata;/p' src/probes/$$name.skel.h | cmp -s - $@.ro.tmp || \
	  { echo "$@: its .rodata is not $$name's" >&2; exit 1; }; } && \
	rm -f $@.ro.tmp && mv -f $@.tmp $@
tests/helpers/verifier_reject.bpf.o: tests/helpers/verifier_reject.bpf.c $(BPF_HDRS) \
		src/probes/syslat.skel.h
	$(BPF_TEST_OBJECT)
tests/helpers/tphist_recurse.bpf.o: tests/helpers/tphist_recurse.bpf.c src/probes/tphist.bpf.c \
		$(BPF_HDRS) src/probes/tphist.skel.h
	$(BPF_TEST_OBJECT)
tests/helpers/tphist_onerow.bpf.o: tests/helpers/tphist_onerow.bpf.c src/probes/tphist.bpf.c \
		$(BPF_HDRS) src/probes/tphist.skel.h
	$(BPF_TEST_OBJECT)
tests/helpers/offcpu_badcounts.bpf.o: tests/helpers/offcpu_badcounts.bpf.c \
		src/probes/offcpustack.bpf.c $(BPF_HDRS) src/probes/offcpustack.skel.h
	$(BPF_TEST_OBJECT)
endif
