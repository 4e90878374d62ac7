# --top-level (src/backend/tracefs/toplevel.c): its refusals on this host; the kernel lab runs the
# rest (tests/lab/tests/50-call-trees.sh, 55-top-level-kill9.sh).
TESTS += tests/live/top_level.sh
EXTRA_DIST += tests/live/top_level.sh
# A dead ktop's saved top level is not replayed over a tracer another tool set since.
TESTS += tests/live/toplevel_stale.sh
EXTRA_DIST += tests/live/toplevel_stale.sh
