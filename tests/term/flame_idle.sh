#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 5: the flame graph leaves the idle task (swapper, pid 0) out, as perf top
# does, and says how much it left out; i shows it (80x24, no colour: frames start with '|').
#   - a file of 1000 samples, 900 of them swapper's: app (60) and bg (40) share the whole
#     width, bg at 60% of 80 columns; the title says "idle 90% hidden", the root 100 samples;
#   - i: swapper takes 90% of the width after app and bg, the root 1000 samples; i hides it
#     again;
#   - live (root): the on-CPU graph shows no swapper frame while hidden.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

printf 'swapper;do_idle;cpu_idle 900\napp;main 60\nbg;loop 40\n' >"$T/idle.folded"
KTOP_TEST_TERM=vt100 flame_start -- --flame idle.folded
expect_text "Flame graph: idle\.folded \(samples\) +idle 90% hidden \(i\)" 3 \
	"the title does not say the idle task is hidden"
expect_col 5 "|app" 0 "app does not start the row"
expect_col 5 "|bg" 48 "bg is not at 60 of 100 samples"
_screen_lacks "swapper" || fail "the idle task is drawn"
expect_text "^all  total 100 samples" 3 "the root does not count the shown samples"
tmux_keys i
expect_col 5 "|swapper" 8 "i did not show swapper after app and bg"
expect_text "^all  total 1000 samples" 3 "the root does not count the idle task's samples"
wait_for_no_text "hidden \(i\)" 3 || fail "the title still says the idle task is hidden"
tmux_keys i
expect_col 5 "|bg" 48 "i again did not hide swapper"
tmux_quit_clean
tmux_kill_server

require_root_tracefs
tmux_start 80 24 -- -d 1
wait_until 10 instance_exists "$KTOP_PID" || fail "no instance ktop-$KTOP_PID"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I opened no on-CPU graph"
expect_text "^all  total [1-9][0-9]* samples" 10 "no samples in the live graph"
_screen_lacks "swapper" || fail "the live graph draws the idle task"
tmux_quit_clean
assert_clean
pass
