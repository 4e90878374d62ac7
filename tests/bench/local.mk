# make bench: ktop against the tools a user would pick instead, same workload, same run.
# Needs root; takes about two minutes; prints a table, never fails on the numbers. A ktop
# that does not build yet is reported as "not available" instead of stopping the bench.
# The bench programs are check_PROGRAMS: make check builds them, so a change that breaks
# one fails the test command, not a later make bench (flame_bench did, unseen, after the pane
# registry took view_flame_ops out of view.h).
check_PROGRAMS += tests/bench/bare_reader
tests_bench_bare_reader_SOURCES = tests/bench/bare_reader.c
tests_bench_bare_reader_CFLAGS = $(AM_CFLAGS)
tests_bench_bare_reader_LDADD = $(TRACEFS_LIBS) $(TRACEEVENT_LIBS)
EXTRA_DIST += tests/bench/run.sh tests/bench/hist.sh tests/bench/lib.sh tests/bench/README.md \
	tests/bench/hist_floor.bpf.c tests/bench/hist_hooks.bpf.c tests/bench/remote.sh \
	tests/bench/mmap.sh
CLEANFILES += tests/bench/bare_reader$(EXEEXT)
# The CPU a tool ran, from wait4(): perf stat's task-clock counts a VM's steal time.
check_PROGRAMS += tests/bench/rusage
tests_bench_rusage_SOURCES = tests/bench/rusage.c
tests_bench_rusage_CFLAGS = $(AM_CFLAGS)
CLEANFILES += tests/bench/rusage$(EXEEXT)

# The histogram bench's floor: a hand-written pair of BPF programs and their loader.
if ENABLE_BPF
EXTRA_PROGRAMS += tests/bench/hist_floor
tests_bench_hist_floor_SOURCES = tests/bench/hist_floor.c
tests_bench_hist_floor_CFLAGS = $(AM_CFLAGS)
tests_bench_hist_floor_LDADD = $(LIBBPF_LIBS)
tests/bench/hist_floor.bpf.o: tests/bench/hist_floor.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) tests/bench && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
# The hooks alone, empty but for a count, as tp_btf and as plain tracepoint programs: what
# any histogram on them costs at least; and the tp_btf hooks with the two clock reads any
# latency needs (hist_floor loads these too).
tests/bench/hist_hooks.bpf.o: tests/bench/hist_hooks.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) tests/bench && \
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp && $(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
tests/bench/hist_hooks_tp.bpf.o: tests/bench/hist_hooks.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) tests/bench && \
	$(CLANG) $(BPF_CFLAGS) -DKT_HOOKS_TRACEPOINT -c $< -o $@.tmp && \
	$(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
tests/bench/hist_hooks_clock.bpf.o: tests/bench/hist_hooks.bpf.c $(BPF_HDRS)
	$(AM_V_GEN)$(MKDIR_P) tests/bench && \
	$(CLANG) $(BPF_CFLAGS) -DKT_HOOKS_CLOCK -c $< -o $@.tmp && \
	$(LLVM_STRIP) -g $@.tmp && mv -f $@.tmp $@
HIST_FLOOR = tests/bench/hist_floor$(EXEEXT) tests/bench/hist_floor.bpf.o
HIST_HOOKS = tests/bench/hist_hooks.bpf.o tests/bench/hist_hooks_tp.bpf.o \
	tests/bench/hist_hooks_clock.bpf.o
CLEANFILES += $(HIST_FLOOR) $(HIST_HOOKS) tests/bench/*.tmp
endif

# The recording part (tests/bench/recording.sh) runs inside run.sh, so that its row joins
# the targets table; make bench-recording runs it alone.
bench: tests/bench/bare_reader$(EXEEXT) tests/bench/rusage$(EXEEXT) tests/helpers/workload$(EXEEXT) \
		tests/helpers/mkrecording$(EXEEXT) $(HIST_FLOOR) $(HIST_HOOKS)
	@if $(MAKE) $(AM_MAKEFLAGS) ktop$(EXEEXT); then \
		ktop='$(abs_top_builddir)/ktop$(EXEEXT)'; \
	else \
		ktop=; echo "bench: ktop does not build; its columns will say 'not available'"; \
	fi; \
	KTOP=$$ktop BARE='$(abs_top_builddir)/tests/bench/bare_reader$(EXEEXT)' \
	RUSAGE='$(abs_top_builddir)/tests/bench/rusage$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	HIST_FLOOR='$(if $(HIST_FLOOR),$(abs_top_builddir)/tests/bench/hist_floor$(EXEEXT) $(abs_top_builddir)/tests/bench/hist_floor.bpf.o)' \
	HIST_HOOKS='$(if $(HIST_HOOKS),$(addprefix $(abs_top_builddir)/,$(HIST_HOOKS)))' \
	MKRECORDING='$(abs_top_builddir)/tests/helpers/mkrecording$(EXEEXT)' \
	FIXTURES='$(abs_top_srcdir)/tests/unit/fixtures/tracing' \
	bash '$(top_srcdir)/tests/bench/run.sh'
.PHONY: bench

# The path through an agent (tests/bench/remote.sh) runs inside run.sh; make bench-remote
# runs it alone.
bench-remote: ktop$(EXEEXT) tests/helpers/workload$(EXEEXT) tests/bench/rusage$(EXEEXT)
	KTOP='$(abs_top_builddir)/ktop$(EXEEXT)' \
	RUSAGE='$(abs_top_builddir)/tests/bench/rusage$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/remote.sh'
.PHONY: bench-remote

# The overview's CPU beside top -b and htop, idle and with 10,000 threads
# (tests/bench/overview.sh, issue 32), alone.
bench-overview: ktop$(EXEEXT) tests/bench/rusage$(EXEEXT) tests/helpers/workload$(EXEEXT)
	KTOP='$(abs_top_builddir)/ktop$(EXEEXT)' \
	RUSAGE='$(abs_top_builddir)/tests/bench/rusage$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/overview.sh'
.PHONY: bench-overview
EXTRA_DIST += tests/bench/overview.sh
# The mapped ring buffer against the bare readers (tests/bench/mmap.sh) runs inside run.sh;
# make bench-mmap runs it alone.
bench-mmap: ktop$(EXEEXT) tests/bench/bare_reader$(EXEEXT) tests/bench/rusage$(EXEEXT) \
		tests/helpers/workload$(EXEEXT)
	KTOP='$(abs_top_builddir)/ktop$(EXEEXT)' \
	BARE='$(abs_top_builddir)/tests/bench/bare_reader$(EXEEXT)' \
	RUSAGE='$(abs_top_builddir)/tests/bench/rusage$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/mmap.sh'
.PHONY: bench-mmap
# The flight recorder unattended for an hour (tests/bench/flightrec_soak.sh, issue 34): RSS
# and the incidents' disk sampled every 30 s; alone, never in make bench (an hour).
# FLIGHTREC_SOAK_SECONDS shortens it.
bench-flightrec: ktop$(EXEEXT) tests/helpers/workload$(EXEEXT)
	KTOP='$(abs_top_builddir)/ktop$(EXEEXT)' \
	WORKLOAD='$(abs_top_builddir)/tests/helpers/workload$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/flightrec_soak.sh' $(FLIGHTREC_SOAK_SECONDS)
.PHONY: bench-flightrec
EXTRA_DIST += tests/bench/flightrec_soak.sh
