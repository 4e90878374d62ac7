# Profiles and flame graphs (issue #15): the stack tree they share, folded files read into it.
check_PROGRAMS += tests/unit/check_stacks
tests_unit_check_stacks_SOURCES = tests/unit/check_stacks.c
tests_unit_check_stacks_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_stacks_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_stacks
# The flame graph pane on folded files (ktop --flame): no tracefs.
TERM_TESTS += tests/term/flame_zoom.sh tests/term/flame_search.sh tests/term/flame_diff.sh \
	tests/term/flame_ascii.sh tests/term/flame_mouse.sh tests/term/flame_bad_file.sh
EXTRA_DIST += tests/term/flame-lib.sh
# make bench: the flame graph pane's redraw with 100 k unique stacks, against the frame budget.
EXTRA_PROGRAMS += tests/bench/flame_bench
tests_bench_flame_bench_SOURCES = tests/bench/flame_bench.c
tests_bench_flame_bench_CFLAGS = $(AM_CFLAGS)
tests_bench_flame_bench_LDADD = $(KTOP_LIBS)
CLEANFILES += tests/bench/flame_bench$(EXEEXT)
bench: bench-flame
bench-flame: tests/bench/flame_bench$(EXEEXT)
	@tests/bench/flame_bench$(EXEEXT)
.PHONY: bench-flame
