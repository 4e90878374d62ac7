#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# x (F8) clears the whole capture, which cannot be undone: it asks first, on the status line
# as htop asks before a kill (80x24). A workload makes exactly 6 getppid calls, captured;
# x asks "Clear all 6 stored records? ... (y/n)" and the 6 rows stay; n and Esc answer no
# ("nothing cleared", still 6 held); F8 then y clears them (0 held, no rows).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

workload_start wl count 6 wlclear
tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid --filter "common_pid == $WL_PID"
wait_capturing "$KTOP_PID" syscalls sys_enter_getppid
workload_go wl 10
expect_count "wlclear-$WL_PID +sys_enter_getppid" 6 10 "the 6 calls are not in the stream"
expect_text " 6 held " 3 "the title does not hold the 6 calls"

for no in n Escape; do
	tmux_keys x
	expect_text "Clear all 6 stored records\? There is no undo\. \(y/n\)" 3 "x did not ask first"
	expect_count "wlclear-$WL_PID +sys_enter_getppid" 6 3 "x cleared before the answer"
	tmux_keys "$no"
	expect_text "nothing cleared" 3 "$no did not answer no"
	expect_count "wlclear-$WL_PID +sys_enter_getppid" 6 3 "$no cleared the stream"
done

tmux_keys F8
expect_text "Clear all 6 stored records\?" 3 "F8 did not ask first"
tmux_keys y
expect_text "stored events cleared" 3 "y did not clear"
expect_text " 0 held " 3 "the title still holds records after y"
expect_count "wlclear-$WL_PID" 0 3 "rows stayed after y"

tmux_quit_clean
assert_clean
pass
