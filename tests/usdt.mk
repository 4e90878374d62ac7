# USDT probes (issue 16): a target with a semaphore-guarded <sys/sdt.h> probe, unit tests of
# the note reader and of the argument specs, live tests against it and python3.11, the
# probe editor's USDT prompt.
check_PROGRAMS += tests/helpers/usdt_target
tests_helpers_usdt_target_SOURCES = tests/helpers/usdt_target.c
# No sanitizers: the probe site stays plain. ktop_test:twice is in a shared library of its
# own (no libtool here: one rule), so a process's libraries are read and probed too.
tests_helpers_usdt_target_CFLAGS = $(KTOP_WARN_CFLAGS)
tests_helpers_usdt_target_LDFLAGS = -Wl,-rpath,$(abs_top_builddir)/tests/helpers
tests_helpers_usdt_target_LDADD = tests/helpers/libktop_usdt_twice.so
CLEANFILES += tests/helpers/libktop_usdt_twice.so
EXTRA_DIST += tests/helpers/usdt_twice.c tests/helpers/usdt_hits.py
tests/helpers/libktop_usdt_twice.so: tests/helpers/usdt_twice.c
	$(AM_V_CCLD)$(MKDIR_P) tests/helpers && \
	$(CC) $(DEFS) -I$(top_builddir) $(KTOP_WARN_CFLAGS) -fPIC -shared \
	-Wl,-soname,libktop_usdt_twice.so -o $@ $<

AM_TESTS_ENVIRONMENT += KTOP_USDT_TARGET=$(abs_top_builddir)/tests/helpers/usdt_target; \
	export KTOP_USDT_TARGET;

check_PROGRAMS += tests/unit/check_usdt
tests_unit_check_usdt_SOURCES = tests/unit/check_usdt.c
tests_unit_check_usdt_CFLAGS = $(UNIT_CFLAGS) \
	-DUSDT_TARGET='"$(abs_top_builddir)/tests/helpers/usdt_target"' \
	-DUSDT_LIB='"$(abs_top_builddir)/tests/helpers/libktop_usdt_twice.so"'
EXTRA_tests_unit_check_usdt_DEPENDENCIES = tests/helpers/libktop_usdt_twice.so
tests_unit_check_usdt_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_usdt
LIVE_TESTS += tests/live/usdt.sh tests/live/usdt_hist.sh tests/live/maps_namespace.sh
TERM_TESTS += tests/term/usdt_editor.sh tests/term/usdt_hist_pane.sh
