# make bench: ktop against the tools a user would pick instead, same workload, same run.
# Needs root; takes about two minutes; prints a table, never fails on the numbers. A ktop
# that does not build yet is reported as "not available" instead of stopping the bench.
EXTRA_PROGRAMS += tests/bench/bare_reader
tests_bench_bare_reader_SOURCES = tests/bench/bare_reader.c
tests_bench_bare_reader_CFLAGS = $(AM_CFLAGS)
tests_bench_bare_reader_LDADD = $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)
EXTRA_DIST += tests/bench/run.sh tests/bench/hist.sh tests/bench/README.md
CLEANFILES += tests/bench/bare_reader$(EXEEXT)

bench: tests/bench/bare_reader$(EXEEXT) tests/helpers/workload$(EXEEXT)
	@if $(MAKE) $(AM_MAKEFLAGS) ktop$(EXEEXT); then \
		ktop='$(abs_top_builddir)/ktop$(EXEEXT)'; \
	else \
		ktop=; echo "bench: ktop does not build; its columns will say 'not available'"; \
	fi; \
	KTOP=$$ktop BARE='$(abs_top_builddir)/tests/bench/bare_reader$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/run.sh'
.PHONY: bench
