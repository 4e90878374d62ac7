#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 7: the histogram shows its whole tail (80x24). --hist alone opens the
# histogram on the whole screen, not beside an empty stream; the stats line starts with what
# it counts (last tick, since start after i); a workload's 1.5 s sleeps (nanosleep) reach
# the 1.1s bucket ([1.07 s, 2.1 s)), below buckets from its fast calls: more buckets than
# rows, so the last row says which are shown, PgDn scrolls down to the 1.1s one and PgUp
# back to the first.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux

# calls from a few hundred nanoseconds (getppid) to 1.5 s (sleep)
bash -c 'while :; do for d in 0.001 0.01 0.1 1.5; do sleep $d; cat /dev/null; done; done' &
spread=$!
CLEANUP_PIDS+=("$spread")

tmux_start 80 24 -- --hist syscall-latency
expect_text "Hist syscall-latency \[" 10 "--hist opened no histogram pane"
expect_text "^last tick \\| all [0-9]+ keys: n=" 5 "the stats line does not say it counts the last tick"
_screen_lacks "Events: all CPUs" || fail "--hist alone: the histogram shares the screen with the stream"
tmux_keys i
expect_text "^since start \\| all [0-9]+ keys: n=" 3 "i: the stats line does not say since start"
expect_text "bars total" 3 "i: the title does not say total"
expect_text "^ buckets 1-[0-9]+ of [0-9]+ \\(PgUp PgDn\\)" 15 "no line says which buckets show"
_screen_lacks "^ +1\\.1s" || fail "the 1.1s bucket is on the first screen, beside the fast ones"
# PgDn until the bottom shows the 1.1s bucket (it fills once a sleep has ended)
_tail() { tmux_keys PgDn; _screen_has "^ +1\\.1s +[1-9]"; }
wait_until 15 _tail || fail "PgDn did not scroll down to the 1.1s bucket: $(tmux_screen | tail -6)"
_screen_lacks "^ buckets 1-" || fail "PgDn did not move the buckets shown"
tmux_keys PgUp
expect_text "^ buckets 1-[0-9]+ of" 3 "PgUp did not scroll back to the first bucket"
tmux_quit_clean
_end_pid "$spread"
assert_clean
pass
