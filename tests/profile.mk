# Profiles and flame graphs (issue #15): the stack tree they share, folded files read into it.
UNIT_CHECKS += tests/unit/check_stacks
UNIT_CHECKS += tests/unit/check_wakers
UNIT_CHECKS += tests/unit/check_symbolize
UNIT_CHECKS += tests/unit/check_batch_profile
# The workloads of known CPU shape: frame pointers, no sanitizers (their interceptors would
# be frames of their own).
check_PROGRAMS += tests/helpers/profwork
tests_helpers_profwork_SOURCES = tests/helpers/profwork.c
tests_helpers_profwork_CFLAGS = -O1 -fno-omit-frame-pointer -Wall -pthread
tests_helpers_profwork_LDFLAGS = -pthread
tests_helpers_profwork_LDADD =
# The profile on the live kernel (perf_event_open only: no tracefs writes).
LIVE_TESTS += tests/live/profile_shares.sh tests/live/profile_exit.sh \
	tests/live/profile_jit.sh tests/live/profile_errors.sh tests/live/profile_memory.sh \
	tests/live/profile_record.sh tests/live/profile_user.sh
EXTRA_DIST += tests/profile-lib.sh
# make bench: sampling cost against perf record, symbolizing against perf report.
check_PROGRAMS += tests/bench/symbolize_bench
tests_bench_symbolize_bench_SOURCES = tests/bench/symbolize_bench.c
tests_bench_symbolize_bench_CFLAGS = $(AM_CFLAGS)
tests_bench_symbolize_bench_LDADD = $(KTOP_LIBS)
CLEANFILES += tests/bench/symbolize_bench$(EXEEXT)
EXTRA_DIST += tests/bench/profile.sh
bench: bench-profile
bench-profile: tests/bench/symbolize_bench$(EXEEXT) tests/helpers/profwork$(EXEEXT)
	@if $(MAKE) $(AM_MAKEFLAGS) ktop$(EXEEXT); then \
		ktop='$(abs_top_builddir)/ktop$(EXEEXT)'; else ktop=; fi; \
	KTOP=$$ktop PROFWORK='$(abs_top_builddir)/tests/helpers/profwork$(EXEEXT)' \
	SYMBENCH='$(abs_top_builddir)/tests/bench/symbolize_bench$(EXEEXT)' \
	bash '$(top_srcdir)/tests/bench/profile.sh'
.PHONY: bench-profile
# The flame graph pane on folded files (ktop --flame): no tracefs.
TERM_TESTS += tests/term/flame_zoom.sh tests/term/flame_search.sh tests/term/flame_diff.sh \
	tests/term/flame_ascii.sh tests/term/flame_mouse.sh tests/term/flame_bad_file.sh
# The pane on a live on-CPU profile (I): perf_event_open and a live session.
TERM_TESTS += tests/term/flame_live.sh tests/term/flame_offcpu.sh tests/term/flame_evstacks.sh \
	tests/term/flame_recorded.sh tests/term/flame_cpu.sh tests/term/flame_window.sh
# Wakeup chains in the off-CPU pane: w, W along two steps, Esc back.
TERM_TESTS += tests/term/flame_wakers.sh
EXTRA_DIST += tests/term/flame-lib.sh
# make bench: the flame graph pane's redraw with 100 k unique stacks, against the frame budget.
check_PROGRAMS += tests/bench/flame_bench
tests_bench_flame_bench_SOURCES = tests/bench/flame_bench.c
tests_bench_flame_bench_CFLAGS = $(AM_CFLAGS)
tests_bench_flame_bench_LDADD = $(KTOP_LIBS)
CLEANFILES += tests/bench/flame_bench$(EXEEXT)
bench: bench-flame
bench-flame: tests/bench/flame_bench$(EXEEXT)
	@tests/bench/flame_bench$(EXEEXT)
.PHONY: bench-flame
# The off-CPU profile (src/backend/bpf/offcpu.c, src/batch/batch_offcpu.c): 5 sleeps of 200 ms are 1 s
# under the nanosleep path in every variant, no program left on any exit; its refusals
# (privilege, scope) in one line, and its tracepoint fallback where BTF cannot be read.
LIVE_TESTS += tests/live/offcpu_sleep.sh tests/live/offcpu_errors.sh
# Wakeup chains (--wakers): a wait under its waker's stacks, and the waker's own waker.
LIVE_TESTS += tests/live/offcpu_wakers.sh
# Stacks on events (--stack, the stream's Enter, the picker's ^K, --folded).
LIVE_TESTS += tests/live/evstacks_batch.sh
TERM_TESTS += tests/term/evstacks_stream.sh
UNIT_CHECKS += tests/unit/check_evstacks
