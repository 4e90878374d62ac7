#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The tracer pane (80x24): R lists the tracers of ktop's instance with the current one (nop)
# marked; Enter on function, which this host refuses (EPERM), shows the kernel's reason
# under its row and in the status line, and nothing else changes: the instance still
# traces with nop, the header says so, the enabled event keeps arriving. The function-list
# picker over set_ftrace_filter narrows tens of thousands of names as typed, checks the
# entry with a caret, and shows the kernel's refusal in one line; Esc Esc closes; q quits
# clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
grep -qw function "$TRACEFS/available_tracers" ||
	skip "this kernel offers no function tracer (the kernel lab tests the switch)"

tmux_start 80 24 -- -d 1 -e sched:sched_switch
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
tracer() { cat "$(instance_dir "$pid")/current_tracer"; }

tmux_keys R
expect_text "Tracers +current: nop" 5 "R did not open the tracer pane"
expect_text "\(\*\) nop +current" 5 "nop is not marked current"
expect_text "\( \) function *$" 5 "function is not listed"
grep -qw function_graph "$TRACEFS/available_tracers" ||
	expect_text "function_graph +not offered by this kernel" 5 "the missing function_graph is not named"

# The rows are in available_tracers order; go down to function.
row=$(tr ' ' '\n' <"$(instance_dir "$pid")/available_tracers" | grep -v '^$' | grep -nx function | cut -d: -f1)
for ((i = 1; i < row; i++)); do tmux_keys Down; done
tmux_keys Enter
expect_text "function tracer refused by the kernel" 5 "no reason for the refused function tracer"
expect_text "Operation not permitted" 5 "the reason does not name EPERM"
[ "$(tracer)" = nop ] || fail "the instance's tracer became '$(tracer)'"
expect_text "tracer: nop" 3 "the header no longer says nop"
expect_text "\(\*\) nop +current" 3 "nop is no longer marked current"
event_enabled "$pid" sched sched_switch || fail "sched_switch was disabled by the refusal"
held() { tmux_screen | sed -n 's/.* \([0-9][0-9]*\) held .*/\1/p' | head -n1; }
h1=$(held)
_more() { [ "$(held)" -gt "$h1" ]; }
wait_until 5 _more || fail "rows stopped arriving after the refusal"

# The function-list picker on set_ftrace_filter.
ntr=$(wc -w <"$(instance_dir "$pid")/available_tracers")
extra=$(grep -qw function_graph "$TRACEFS/available_tracers" && echo 0 || echo 1)
for ((i = row - 1; i < ntr + extra; i++)); do tmux_keys Down; done
tmux_keys Enter
expect_text "set_ftrace_filter +[0-9]+ names" 5 "Enter did not open the function picker"
tmux_text 'vfs_rea'
expect_text "^ +vfs_read" 5 "typing did not narrow to vfs_read"
tmux_text 'd:bogus'
expect_text "\^ " 5 "no caret for a bad entry"
tmux_keys BSpace BSpace BSpace BSpace BSpace BSpace
tmux_keys Enter
expect_text "Operation not permitted|not writable|EPERM" 5 "no reason for the refused set_ftrace_filter"
tmux_keys Escape Escape
wait_for_no_text "set_ftrace_filter" 3 || fail "Esc Esc did not close the pane"
[ "$(tracer)" = nop ] || fail "the instance's tracer became '$(tracer)'"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
