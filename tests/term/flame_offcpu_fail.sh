#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# An off-CPU profile that cannot be read, in the flame graph pane (80x24): with
# KTOP_TEST_BPF_OBJECT=offcpustack:FILE the map ktop reads the counts from is a ring buffer
# (tests/helpers/offcpu_badcounts.bpf.c), so every poll fails. The status line says so once;
# the failure, the same each tick, does not take the status line back from what a key said
# after it (s on the root: "select a frame of a task first"). q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
OBJ=$(dirname "$KTOP_WORKLOAD_BIN")/offcpu_badcounts.bpf.o
[ -s "$OBJ" ] || fail "no test object at $OBJ (make check builds it)"

"$KTOP_WORKLOAD" sleep 50 2400 flameoffbad >/dev/null &
WL=$!
KTOP_PIDS+=("$WL")
tmux_start 80 24 "KTOP_TEST_BPF_OBJECT=offcpustack:$OBJ" -- -d 1 -p "$WL"
expect_text "No events enabled" 10 "ktop did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I did not start the on-CPU profile"
tmux_keys C
expect_text "Flame graph: off-CPU, tp_btf \\(ns\\)" 10 "C did not load the test object"
expect_text "^off-CPU profile: reading its counts: " 5 "the failing poll was not said"
tmux_keys s
expect_text "^select a frame of a task first" 3 "s on the root said nothing"
# thirty ticks of 0.1 s: the same failure is not said again over it
if wait_until 3 _screen_has "reading its counts"; then
	fail "the same failure took the status line again:
$(tmux_screen)"
fi
tmux_quit_clean
kill "$WL" && wait "$WL" 2>/dev/null
assert_clean
pass
