#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The flame graph pane on a live on-CPU profile (80x24): I on a live session starts
# sampling (the title names the event: cycles, or cpu-clock without a PMU) and the graph
# grows each tick; a task spinning on a CPU (workload rate 0, comm flamewl) shows up as a
# frame under all. Z freezes it: the samples stop growing until Z again. Esc closes the
# pane and the profile with it: ktop holds no sampling fds afterwards; q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

sampling_fds() { find "/proc/$KTOP_PID/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l; }
# the root's total samples, from the status line once the root is selected
# shellcheck disable=SC2119 # the whole screen, no capture options
root_total() { tmux_screen | sed -n 's/^all  total \([0-9]*\) samples.*/\1/p'; }
_total_is() { [ "$(root_total)" = "$1" ]; }
_total_moved() { local t; t=$(root_total); [ -n "$t" ] && [ "$t" != "$1" ]; }
_fds_back() { [ "$(sampling_fds)" -le "$before" ]; }

tmux_start 80 24 -- -d 2
expect_text "No events enabled" 10 "ktop did not start"
before=$(sampling_fds)
WORKLOAD_CPU=any "$KTOP_WORKLOAD" rate 0 120 flamewl >/dev/null &
WL=$!
KTOP_PIDS+=("$WL")
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock) \\(samples\\)" 10 "I did not start a profile in the pane"
[ "$(sampling_fds)" -gt "$before" ] || fail "the pane's profile holds no sampling fds"
expect_text "▏fla(mewl|\.\.|mew\.\.)" 15 "the spinning task never showed up in the graph" # its label, cut to a narrow frame
t0=$(root_total)
wait_until 10 _total_moved "$t0" || fail "the samples did not grow from $t0"
# frozen: the total stays (ten ticks of 0.2 s pass)
tmux_keys Z
expect_text "FROZEN" 3 "Z did not freeze"
t1=$(root_total)
sleep 2
_total_is "$t1" || fail "frozen, yet the samples went from $t1 to $(root_total)"
tmux_keys Z
wait_until 10 _total_moved "$t1" || fail "unfrozen, the samples stayed at $t1"
tmux_keys Escape
wait_for_no_text "Flame graph:" 3 || fail "Esc did not close the pane"
wait_until 5 _fds_back ||
	fail "the profile's fds stayed open after the pane closed: $(sampling_fds) > $before"
tmux_quit_clean
kill "$WL" && wait "$WL" 2>/dev/null
assert_clean
pass
