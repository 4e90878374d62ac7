# Issue #13's fault campaign: a two-minute getppid storm against a small --memory and buffer
# (memory, loss, keys; KTOP_OVERLOAD_SECS shortens it by hand), and every event at once.
TESTS += tests/live/overload.sh tests/live/all_events.sh
EXTRA_DIST += tests/live/overload.sh tests/live/all_events.sh
