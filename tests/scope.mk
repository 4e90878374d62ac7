# Issue #4: pid/comm scoping from the keyboard (the tracer pane's Scope row, key s).
src_libktop_a_SOURCES += src/ui/scopespec.c src/ui/scopespec.h
TERM_TESTS += tests/term/scope_keys.sh
