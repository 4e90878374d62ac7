# make bench: ktop against the tools a user would pick instead, same workload, same run.
EXTRA_PROGRAMS += tests/bench/bare_reader
tests_bench_bare_reader_SOURCES = tests/bench/bare_reader.c
tests_bench_bare_reader_CFLAGS = $(AM_CFLAGS)
tests_bench_bare_reader_LDADD = $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)
EXTRA_DIST += tests/bench/run.sh

bench: ktop tests/bench/bare_reader tests/helpers/workload
	KTOP=$(abs_top_builddir)/ktop BARE=$(abs_top_builddir)/tests/bench/bare_reader \
	WORKLOAD=$(abs_top_builddir)/tests/helpers/workload \
	$(SHELL) $(top_srcdir)/tests/bench/run.sh
.PHONY: bench
