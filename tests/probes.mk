# Tracers, function lists, scoping and dynamic probes (issue #4): a uprobe target with known
# calls, unit tests of the parsers, live tests of uprobes and of the error paths.
check_PROGRAMS += tests/helpers/probe_target
tests_helpers_probe_target_SOURCES = tests/helpers/probe_target.c
# No sanitizers (ASan would answer atoi itself, and libc's would never be called); -O1 and
# no sibling calls: the probed calls stay real calls.
tests_helpers_probe_target_CFLAGS = $(KTOP_WARN_CFLAGS) -O1 -fno-inline \
	-fno-optimize-sibling-calls
tests_helpers_probe_target_LDFLAGS =
tests_helpers_probe_target_LDADD =

AM_TESTS_ENVIRONMENT += KTOP_PROBE_TARGET=$(abs_top_builddir)/tests/helpers/probe_target; \
	export KTOP_PROBE_TARGET;

check_PROGRAMS += tests/unit/check_probes
tests_unit_check_probes_SOURCES = tests/unit/check_probes.c
tests_unit_check_probes_CFLAGS = $(UNIT_CFLAGS) \
	-DPROBE_TARGET='"$(abs_top_builddir)/tests/helpers/probe_target"'
tests_unit_check_probes_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_probes
LIVE_TESTS += tests/live/uprobes.sh
LIVE_TESTS += tests/live/probe_errors.sh
# uprobes' hit counts (uprobe_profile): batch's `# probe` lines, the probe editor's rows
LIVE_TESTS += tests/live/uprobe_hits.sh
TERM_TESTS += tests/term/uprobe_hits.sh
