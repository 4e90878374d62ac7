# BPF histograms: the parser and bucket arithmetic (unit), live histograms against
# workloads of known shape, the pane driven from the keyboard (tmux).
check_PROGRAMS += tests/unit/check_hist tests/helpers/histwork
tests_unit_check_hist_SOURCES = tests/unit/check_hist.c
tests_unit_check_hist_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hist_LDADD = $(UNIT_LDADD)
tests_helpers_histwork_SOURCES = tests/helpers/histwork.c
tests_helpers_histwork_CFLAGS = $(AM_CFLAGS)
UNIT_TESTS += tests/unit/check_hist
LIVE_TESTS += tests/live/bpf_hist.sh
TERM_TESTS += tests/term/hist_pane.sh
EXTRA_DIST += tests/hist-lib.sh
# The I/O built-ins through each variant (a loop device of the test's own for block I/O).
LIVE_TESTS += tests/live/bpf_hist_io.sh
