# Issue #4, the interactive side: filter checking and completion, the stream's own
# pid/comm/CPU filter, the tracer pane with its function-filter picker, the probe editor.
UNIT_CHECKS += tests/unit/check_filtercheck

TERM_TESTS += tests/term/row_filter.sh tests/term/filter_check.sh tests/term/probe_editor.sh \
	tests/term/tracer_pane.sh

UNIT_CHECKS += tests/unit/check_rowfilter tests/unit/check_namefilter
