#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The filter prompt checks as you type and completes field names (80x24): Tab after
# "prev_p" lists prev_pid and prev_prio, "i" Tab completes prev_pid; "prev_pid >" shows
# ktop's reason with a caret under the '>' while typing; Enter on it sends nothing: the
# filter in force (prev_pid >= 0, set before) stays in the kernel and on screen, and rows keep
# arriving; a misspelt field is named with its caret; a good filter then goes through.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

tmux_start 80 24 -- -d 1 -e sched:sched_switch --filter 'prev_pid >= 0'
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
F="$(instance_dir "$pid")/events/sched/sched_switch/filter"
expect_text "sched_switch +[A-Z|+]+ ==> " 10 "no sched_switch rows in the stream"

tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text sched:sched_switch
expect_text "\[x\] +sched_switch" 10 "the picker does not show sched_switch ticked"
tmux_keys Enter
expect_text "sched:sched_switch +filter: prev_pid >= 0" 5 "the detail does not show the filter"
expect_text "^filter sched:sched_switch> prev_pid >= 0" 5 "no filter prompt with the filter"
tmux_keys C-u

# Completion of field names.
tmux_text 'prev_p'
tmux_keys Tab
expect_text "Tab: prev_pid prev_prio" 5 "Tab did not list the two candidates"
tmux_text 'i'
tmux_keys Tab
expect_text "^filter sched:sched_switch> prev_pid *$" 5 "Tab did not complete prev_pid"

# The check with its caret, live.
tmux_text ' >'
expect_text "'>' needs a value after it" 5 "no live reason for an unfinished comparison"
screen=$(tmux_screen)
expr_line=$(grep -m1 'Expr: prev_pid >' <<<"$screen") || fail "no Expr line"
caret_line=$(grep -A1 -m1 'Expr: prev_pid >' <<<"$screen" | sed -n 2p)
[[ $caret_line =~ ^\ *\^\ *$ ]] || fail "no caret line under the expression: '$caret_line'"
gt_prefix=${expr_line%%>*}
caret_prefix=${caret_line%%^*}
[ "${#caret_prefix}" = "${#gt_prefix}" ] ||
	fail "the caret (column ${#caret_prefix}) is not under the '>' (column ${#gt_prefix})"

# Enter sends nothing: the old filter stays, in the kernel and on screen.
tmux_keys Enter
expect_text "filter not set: '>' needs a value after it \(the old filter stays\)" 5 \
	"no status message for the unchecked filter"
[ "$(cat "$F")" = "prev_pid >= 0" ] || fail "the kernel's filter became '$(cat "$F")'"
expect_text "sched:sched_switch +filter: prev_pid >= 0" 3 "the old filter is not shown"
event_enabled "$pid" sched sched_switch || fail "sched_switch was disabled"
held() { tmux_screen | sed -n 's/.* \([0-9][0-9]*\) held .*/\1/p' | head -n1; }
h1=$(held)
_more() { [ "$(held)" -gt "$h1" ]; }
wait_until 5 _more || fail "rows stopped arriving after the unchecked filter"

# A misspelt field: named, caret at its start.
tmux_keys Enter C-u
tmux_text 'prev_pd == 1'
expect_text "'prev_pd' is not a field of sched_switch" 5 "no reason for a misspelt field"
tmux_keys Escape
wait_for_no_text "is not a field" 3 || fail "Esc left the reason on screen"
[ "$(cat "$F")" = "prev_pid >= 0" ] || fail "Esc changed the kernel's filter"

# A good one goes through.
tmux_keys Enter C-u
tmux_text 'prev_pid > 1 && prev_comm != "x"'
tmux_keys Enter
expect_text "filter on sched:sched_switch: prev_pid > 1" 5 "the good filter was not set"
[ "$(cat "$F")" = 'prev_pid > 1 && prev_comm != "x"' ] || fail "kernel filter is '$(cat "$F")'"

tmux_keys F10
tmux_wait_exit 10 || fail "F10 did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after F10"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
