# The time axis (issue 33): the timeline and heat-map panes and the range the stream
# follows, against trace-cmd report of a recording made in the test, and live.
TERM_TESTS += tests/term/timeline.sh
EXTRA_DIST += tests/helpers/timeline_expect.py
TERM_TESTS += tests/term/range_panes.sh
TERM_TESTS += tests/term/timeline_wheel.sh
TERM_TESTS += tests/term/timeline_drag.sh
TERM_TESTS += tests/term/timeline_marks.sh
TERM_TESTS += tests/term/hist_recording_latency.sh
UNIT_CHECKS += tests/unit/check_packlog
# make bench: the timeline on the 1 GiB recording (first screen, a zoom/pan frame, the index's
# memory), run by tests/bench/recording.sh on the file it makes.
check_PROGRAMS += tests/bench/timeline_bench
tests_bench_timeline_bench_SOURCES = tests/bench/timeline_bench.c
tests_bench_timeline_bench_CFLAGS = $(AM_CFLAGS)
tests_bench_timeline_bench_LDADD = $(KTOP_LIBS)
CLEANFILES += tests/bench/timeline_bench$(EXEEXT)
bench: tests/bench/timeline_bench$(EXEEXT)
