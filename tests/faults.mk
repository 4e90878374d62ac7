# Fault campaign (issue 13): real faults, each proved by a test that failed before its fix.
# A reader whose start fails part way (RLIMIT_NOFILE lowered under the explorer).
TERM_TESTS += tests/term/reader_restart.sh
