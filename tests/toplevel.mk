# --top-level (src/backend/toplevel.c): its refusals on this host; the kernel lab runs the
# rest (tests/lab/tests/50-call-trees.sh, 55-top-level-kill9.sh).
TESTS += tests/live/top_level.sh
EXTRA_DIST += tests/live/top_level.sh
