# Unit tests (Check), live tests (root + tracefs) and terminal tests (tmux).
# Live and terminal tests exit 77 when they cannot run; KTOP_REQUIRE_LIVE=1 (CI) makes that
# a failure.
#
# A unit test is one line, UNIT_CHECKS += tests/unit/check_NAME: automake builds it from
# tests/unit/check_NAME.c with LDADD (libktop and Check) and the flags below, which every
# object gets (FIXTURES and THEMES are names only the tests use). A program that is not a
# unit test and links nothing of ktop's says so with an empty _LDADD.
UNIT_CFLAGS = $(AM_CFLAGS)
UNIT_LDADD = $(KTOP_LIBS) $(CHECK_LIBS)
LDADD = $(UNIT_LDADD)
AM_CFLAGS += $(CHECK_CFLAGS)
AM_CPPFLAGS += -DFIXTURES='"$(abs_top_srcdir)/tests/unit/fixtures"' \
	-DTHEMES='"$(abs_top_srcdir)/themes"'
check_PROGRAMS += $(UNIT_CHECKS)

UNIT_CHECKS = tests/unit/check_store tests/unit/check_options tests/unit/check_catalog \
	tests/unit/check_loss tests/unit/check_layout tests/unit/check_decode
UNIT_CHECKS += tests/unit/check_evtext
UNIT_CHECKS += tests/unit/check_pmu
# The JSON string writer every JSON output shares.
UNIT_CHECKS += tests/unit/check_json
# Themes, ktoprc and profiles.
UNIT_CHECKS += tests/unit/check_theme tests/unit/check_config
# The time axis: typed times and ranges, per-CPU task slices from sched_switch.
UNIT_CHECKS += tests/unit/check_timeaxis
# The action table: key dispatch, help, function bar and ktoprc bindings derived from it.
UNIT_CHECKS += tests/unit/check_actions
# The source seam: capabilities from the ops tables present, refusals from one place.
UNIT_CHECKS += tests/unit/check_source

# Helpers the live tests and benchmarks run: a workload with a known number of syscalls.
check_PROGRAMS += tests/helpers/workload
tests_helpers_workload_SOURCES = tests/helpers/workload.c
# frame pointers in any build: the kernel walks a user stack by them (--user-stacks'
# tests name the workload's callers; -O2 alone uses the register and the walk stops)
tests_helpers_workload_CFLAGS = $(AM_CFLAGS) -fno-omit-frame-pointer
tests_helpers_workload_LDADD = -lpthread

UNIT_TESTS = $(UNIT_CHECKS)
# The test hooks only where configure was asked for them (a shell test: reads the binary).
UNIT_TESTS += tests/unit/test_hooks.sh
EXTRA_DIST += tests/unit/test_hooks.sh
LIVE_TESTS = \
	tests/live/enable_disable.sh \
	tests/live/reader_exact.sh \
	tests/live/loss_overload.sh \
	tests/live/exit_paths.sh \
	tests/live/stale_cleanup.sh \
	tests/live/pidns_owner.sh \
	tests/live/coexist.sh \
	tests/live/batch_json.sh \
	tests/live/bad_input.sh \
	tests/live/batch_escapes.sh \
	tests/live/doctor.sh \
	tests/live/mount.sh \
	tests/live/comm_exec.sh \
	tests/live/task_names.sh \
	tests/live/sideband_lost.sh \
	tests/live/buffer_sized.sh
TERM_TESTS = \
	tests/term/stream_picker.sh \
	tests/term/search_pause.sh \
	tests/term/resize_layout.sh \
	tests/term/filter_error.sh
# Performance counters: software counters against workloads of known size, the pane.
LIVE_TESTS += tests/live/pmu_counters.sh
TERM_TESTS += tests/term/pmu_pane.sh
TERM_TESTS += tests/term/pmu_busy.sh
TERM_TESTS += tests/term/stream_cpu_axis.sh
# Themes, ktoprc, profiles, the mouse, terminal types.
TERM_TESTS += tests/term/themes.sh
# Every action rebindable, the refusals on a recording through a rebound key.
TERM_TESTS += tests/term/action_keys.sh
# The ring-buffer pane: the kernel's per-CPU stats and the reader's, figure for figure.
TERM_TESTS += tests/term/rings_pane.sh
# The stream read as trace-cmd, strace and perf trace show events (issue 39).
TERM_TESTS += tests/term/stream_render.sh tests/term/stream_syscalls.sh
# What cannot be undone is asked first (issue 39).
TERM_TESTS += tests/term/clear_confirm.sh
# Search keys as in less and vim: / forward, ? backward, n and N (issue 39).
TERM_TESTS += tests/term/search_keys.sh
# Counts on one screen agree: header and title, a filter showing none, END, widths (issue 39).
TERM_TESTS += tests/term/stream_counts.sh
# ktop's own threads left out of the stream, M to show them (issue 39).
TERM_TESTS += tests/term/self_hidden.sh
# Movement keys move in every pane; the help generated from the key tables (issue 39).
TERM_TESTS += tests/term/movement_keys.sh tests/term/help_full.sh
EXTRA_DIST += tests/mkrec-lib.sh
# The flame graph leaves the idle task out (i shows it); labels that read (issue 39).
TERM_TESTS += tests/term/flame_idle.sh tests/term/flame_labels.sh
# The histogram's whole tail, scrolled; --hist alone takes the screen (issue 39).
TERM_TESTS += tests/term/hist_buckets.sh
# The ring-buffer pane's every column at 80 columns, scrolled (issue 39).
TERM_TESTS += tests/term/rings_narrow.sh
# A recording's events pane narrows by typed letters, as the live picker (issue 39).
TERM_TESTS += tests/term/record_picker.sh
# The same keys live and on a recording: refused ones said, in the help too (issue 39).
TERM_TESTS += tests/term/record_keys.sh
# The user guide's landing overview, help and timeline, kept with KTOP_CAPTURE_DIR (issue 39).
TERM_TESTS += tests/term/guide_screens.sh
TESTS += $(UNIT_TESTS) $(LIVE_TESTS) $(TERM_TESTS)
EXTRA_DIST += tests/README.md tests/lib.sh tests/kernel-lib.sh tests/live/live-lib.sh \
	tests/term/tmux-lib.sh tests/term/editor-lib.sh tests/remote/remote-lib.sh \
	tests/record/record-lib.sh $(LIVE_TESTS) $(TERM_TESTS) tests/unit/fixtures tests/unit/check_main.h
AM_TESTS_ENVIRONMENT = KTOP=$(abs_top_builddir)/ktop; \
	KTOP_WORKLOAD=$(abs_top_builddir)/tests/helpers/workload; \
	KTOP_SRCDIR=$(abs_top_srcdir); export KTOP KTOP_WORKLOAD KTOP_SRCDIR;

# The suite itself: no fail inside $(...), where it would only end a subshell.
TESTS += tests/lint/fail_in_subshell.sh
EXTRA_DIST += tests/lint/fail_in_subshell.sh tests/lint/fail_in_subshell.py
