# Fault campaign (issue 13): real faults, each proved by a test that failed before its fix.
# A reader whose start fails part way (RLIMIT_NOFILE lowered under the explorer).
TERM_TESTS += tests/term/reader_restart.sh
# Every path that opens a trace.dat checks it as ktop -i does: the call-tree pane's O.
TERM_TESTS += tests/term/tree_bad_files.sh
EXTRA_DIST += tests/record/bad-lib.sh
# A disk that fills under ktop -b -o, and paths that cannot be written (tmpfs file systems in
# the test's own mount namespace).
LIVE_TESTS += tests/live/record_full.sh
TERM_TESTS += tests/term/record_full.sh
