#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The stream's event stacks as a flame graph (80x24): with --stack syscalls:sys_enter_getppid
# the workload's 7 calls are 7 rows with a stack; I opens the flame pane on them (not on an
# on-CPU profile): titled "event stacks (events)", the root's total exactly 7 events, and
# the syscall path (do_syscall_64) among the frames. Each tick adds the new rows: 5 more
# calls make 12. C goes round: on-CPU, off-CPU, the event stacks again (12). q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

EV=syscalls:sys_enter_getppid
root_total() { tmux_screen | sed -n 's/^all  total \([0-9]*\) events.*/\1/p'; }
_total_is() { [ "$(root_total)" = "$1" ]; }

tmux_start 80 24 -- -d 1 --stack "$EV" --filter 'comm ~ "ktfe-*"'
wait_capturing "$KTOP_PID" syscalls sys_enter_getppid
"$KTOP_WORKLOAD" count 7 ktfe-a >/dev/null
expect_count "ktfe-a-[0-9]+ +sys_enter_getppid\*( |$)" 7 10 "7 rows with a stack not shown"
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not open the pane on the rows' stacks"
tmux_keys z # the pane alone: room for the syscall path
wait_until 5 _total_is 7 || fail "the root holds $(root_total) events, not the 7 rows':
$(tmux_screen)"
expect_text "do_syscall_64" 5 "the syscall path is not in the graph"

# ---- live: the next rows are added ---------------------------------------------------------
"$KTOP_WORKLOAD" count 5 ktfe-b >/dev/null
wait_until 10 _total_is 12 || fail "after 5 more calls the root holds $(root_total) events, not 12"
expect_text "ktfe-b" 5 "the new task is not in the graph"

# ---- C: on-CPU, off-CPU, the event stacks again (all the rows held) --------------------------
tmux_keys C
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "C did not go from the events to on-CPU"
tmux_keys C
expect_text "Flame graph: off-CPU" 10 "C did not go from on-CPU to off-CPU"
tmux_keys C
expect_text "Flame graph: event stacks \\(events\\)" 10 "C did not come back to the event stacks"
wait_until 5 _total_is 12 || fail "back on the events, the root holds $(root_total), not 12"
tmux_quit_clean
assert_clean
pass
