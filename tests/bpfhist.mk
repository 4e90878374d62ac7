# BPF histograms: the parser and bucket arithmetic (unit), live histograms against
# workloads of known shape, the pane driven from the keyboard (tmux).
check_PROGRAMS += tests/unit/check_hist tests/helpers/histwork
tests_unit_check_hist_SOURCES = tests/unit/check_hist.c
tests_unit_check_hist_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_hist_LDADD = $(UNIT_LDADD)
tests_helpers_histwork_SOURCES = tests/helpers/histwork.c
tests_helpers_histwork_CFLAGS = $(AM_CFLAGS)
HIST_LIVE_TESTS = tests/live/bpf_hist.sh
HIST_TERM_TESTS = tests/term/hist_pane.sh
TESTS += tests/unit/check_hist $(HIST_LIVE_TESTS) $(HIST_TERM_TESTS)
EXTRA_DIST += tests/hist-lib.sh $(HIST_LIVE_TESTS) $(HIST_TERM_TESTS)
