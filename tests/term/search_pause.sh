#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Search and pause in the stream (80x24 tmux pane):
#   - three "needle" rows far apart (more filler rows between them than the pane holds);
#     ? needle Enter (backwards, as in less) jumps to the newest, highlighted, the view
#     leaves FOLLOW; n goes on to the older one, N back to the newer; a pattern that matches
#     nothing says so;
#   - End follows again; p shows PAUSED, and the rows on screen stop changing while rows
#     keep being captured; p resumes and what was captured meanwhile shows up;
#   - q quits, kernel clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

# One getppid() row per needle, many per filler: each run is a new pid.
needle() { "$KTOP_WORKLOAD" count 1 needle | head -n1; }
filler() { "$KTOP_WORKLOAD" count "$1" "$2" >/dev/null; }

# Only this test's processes (other users of getppid() on the machine would scroll the view).
tmux_start 80 24 -- -d 2 -e syscalls:sys_enter_getppid --filter \
	'comm == "needle" || comm == "filla" || comm == "fillb" || comm == "fillc" || comm == "before" || comm == "during"'
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
expect_text "Events: all CPUs +[0-9]+ held +FOLLOW" 10 "no stream title with FOLLOW"

n1=$(needle); filler 60 filla
n2=$(needle); filler 60 fillb
n3=$(needle); filler 60 fillc
expect_text "fillc-[0-9]+ +(syscalls:)?sys_enter_getppid" 5 "the filler rows do not reach the stream"
_screen_lacks "needle-" || fail "a needle row is on screen before any search (the filler should have pushed them off)"

# ---- ? search ---------------------------------------------------------------------------
tmux_keys '?'
expect_text "^\?" 3 "? opened no search prompt on the status line"
tmux_text needle
expect_text "needle-$n3 " 5 "incremental search did not bring the newest needle (pid $n3) on screen"
tmux_keys Enter
expect_text "Events: all CPUs +[0-9]+ held +SCROLL" 3 "after a search the view should leave FOLLOW"
wait_for_no_text "needle-$n2 " 3 || fail "needle $n2 on screen together with $n3: the filler is too short for this pane"
# The match is highlighted: the attribute changes between "needle" and the "-pid" after it
# (without a highlight the task column is one run of one attribute). Waited for as a whole
# frame: a single coloured capture can catch one half drawn (triggers_picker.sh did).
highlighted() { tmux_screen -e | grep -Eq $'needle(\e\\[[0-9;]*m)+-'"$n3"; }
wait_until 3 highlighted || fail "the match 'needle' is not highlighted on needle-$n3's row"

tmux_keys n
expect_text "needle-$n2 " 5 "n did not move to the older match (needle-$n2)"
wait_for_no_text "needle-$n3 " 3 || fail "after n, the newer match needle-$n3 is still on screen"
tmux_keys n
expect_text "needle-$n1 " 5 "n did not move to the oldest match (needle-$n1)"
tmux_keys N
expect_text "needle-$n2 " 5 "N did not move back to the newer match (needle-$n2)"
wait_for_no_text "needle-$n1 " 3 || fail "after N, needle-$n1 is still on screen"

# A pattern with no match says so and does not move the view.
tmux_keys /
tmux_text zzqqxx
tmux_keys Enter
expect_text "pattern not found: zzqqxx" 5 "no 'pattern not found' message"
expect_text "needle-$n2 " 2 "a failed search moved the view"

# ---- pause ------------------------------------------------------------------------------
tmux_keys End
expect_text "Events: all CPUs +[0-9]+ held +FOLLOW" 3 "End did not return to FOLLOW"
filler 30 before
expect_text "before-[0-9]+ +(syscalls:)?sys_enter_getppid" 5 "rows stopped arriving before the pause"
tmux_keys p
expect_text "PAUSED" 3 "p did not show PAUSED"
expect_text "^ktop-$pid .*PAUSED *$" 3 "the header does not say PAUSED"
expect_text "display paused, capture goes on" 3 "no status message for the pause"
sleep 0.3 # the last redraw before the pause settles (the refresh is 10/s at most)
rows_before=$(tmux_screen | sed -n '4,22p')
wl_during=$(WORKLOAD_GO='' "$KTOP_WORKLOAD" count 40 during | head -n1)
# Capture goes on: the kernel hands the rows to ktop (its instance keeps being read).
sleep 1.5
rows_after=$(tmux_screen | sed -n '4,22p')
[ "$rows_before" = "$rows_after" ] || fail "the stream rows changed while PAUSED: $(diff <(echo "$rows_before") <(echo "$rows_after") | head -4 | tr '\n' ' ')"
_screen_lacks "during-" || fail "rows made during the pause are shown while PAUSED"
event_enabled "$pid" syscalls sys_enter_getppid || fail "pausing the display disabled the event"
tmux_keys p
expect_text "display resumed" 3 "no status message for the resume"
# The rows captured during the pause are there: the capture went on.
expect_text "during-$wl_during +(syscalls:)?sys_enter_getppid" 5 "rows made during the pause were not captured"
wait_for_no_text "PAUSED" 3 || fail "PAUSED still shown after p"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after q"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
