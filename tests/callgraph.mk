# function_graph call trees: the builder's unit tests on the lab's recordings, and the tree
# pane's fold state
# (tests/fixtures/lab/, read with libtracecmd) and its throughput benchmark.
CALLGRAPH_FIXTURES = tests/fixtures/lab
EXTRA_DIST += $(CALLGRAPH_FIXTURES)
if HAVE_LIBTRACECMD
check_PROGRAMS += tests/unit/check_callgraph
tests_unit_check_callgraph_SOURCES = tests/unit/check_callgraph.c \
	tests/unit/fixture_dat.c tests/unit/fixture_dat.h
tests_unit_check_callgraph_CFLAGS = $(UNIT_CFLAGS) $(TRACECMD_CFLAGS) \
	-DLAB_FIXTURES='"$(abs_top_srcdir)/$(CALLGRAPH_FIXTURES)"'
tests_unit_check_callgraph_LDADD = $(UNIT_LDADD) $(TRACECMD_LIBS)
TESTS += tests/unit/check_callgraph

endif

# make bench also prints the builder's throughput on a replayed lab recording.
check_PROGRAMS += tests/bench/callgraph_bench
tests_bench_callgraph_bench_SOURCES = tests/bench/callgraph_bench.c \
	tests/unit/fixture_dat.c tests/unit/fixture_dat.h
tests_bench_callgraph_bench_CFLAGS = $(AM_CFLAGS) $(TRACECMD_CFLAGS)
tests_bench_callgraph_bench_LDADD = $(KTOP_LIBS) $(TRACECMD_LIBS)
CLEANFILES += tests/bench/callgraph_bench$(EXEEXT)
if HAVE_LIBTRACECMD
CALLGRAPH_BENCH = tests/bench/callgraph_bench$(EXEEXT)
endif
bench: bench-callgraph
bench-callgraph: $(CALLGRAPH_BENCH)
	@if test -n '$(CALLGRAPH_BENCH)'; then \
		$(CALLGRAPH_BENCH) '$(abs_top_srcdir)/$(CALLGRAPH_FIXTURES)/irq.dat'; \
	else echo "bench: no call-tree benchmark without libtracecmd"; fi
.PHONY: bench-callgraph

# The call-tree pane on a lab recording, in a real terminal.
TERM_TESTS += tests/term/tree_pane.sh
# ktop -b --tree against the live kernel (its refusal where function_graph is missing).
LIVE_TESTS += tests/live/tree_batch.sh
