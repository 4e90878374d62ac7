# Issue #4: pid/comm scoping from the keyboard (the tracer pane's Scope row, key s).
TERM_TESTS += tests/term/scope_keys.sh
