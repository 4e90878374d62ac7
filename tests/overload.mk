# Issue #13's fault campaign: a two-minute getppid storm against a small --memory and buffer
# (memory, loss, keys; KTOP_OVERLOAD_SECS shortens it by hand), --duration while printing
# lags a storm, and every event at once.
OVERLOAD_TESTS = tests/live/overload.sh tests/live/batch_deadline.sh tests/live/all_events.sh
TESTS += $(OVERLOAD_TESTS)
EXTRA_DIST += $(OVERLOAD_TESTS)
