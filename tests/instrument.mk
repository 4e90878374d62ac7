# Issue #4, the interactive side: filter checking and completion, the stream's own
# pid/comm/CPU filter, the tracer pane with its function-filter picker, the probe editor.
check_PROGRAMS += tests/unit/check_filtercheck
tests_unit_check_filtercheck_SOURCES = tests/unit/check_filtercheck.c
tests_unit_check_filtercheck_CFLAGS = $(UNIT_CFLAGS) -DFIXTURES='"$(abs_top_srcdir)/tests/unit/fixtures"'
tests_unit_check_filtercheck_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_filtercheck

TERM_TESTS += tests/term/row_filter.sh tests/term/filter_check.sh tests/term/probe_editor.sh \
	tests/term/tracer_pane.sh

check_PROGRAMS += tests/unit/check_rowfilter tests/unit/check_namefilter
tests_unit_check_rowfilter_SOURCES = tests/unit/check_rowfilter.c
tests_unit_check_rowfilter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_rowfilter_LDADD = $(UNIT_LDADD)
tests_unit_check_namefilter_SOURCES = tests/unit/check_namefilter.c
tests_unit_check_namefilter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_namefilter_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_rowfilter tests/unit/check_namefilter
