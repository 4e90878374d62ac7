#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 10: the ring-buffer pane (D) at 80 columns reaches its reader's half. A
# workload makes 2000 getppid() calls, captured alone (--filter on its pid); zoomed, the
# title says Right > while the reader's columns are out of the width; l (Right) scrolls the
# figures with the CPU column kept, until "ktop read ... ?pgs" show, each CPU's ktop read
# then the kernel's read events of that CPU (per_cpu/cpuN/stats); h (Left) scrolls back.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

workload_start rings count 2000 ktop-rn
tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid --filter "common_pid == $WL_PID"
wait_capturing "$KTOP_PID" syscalls sys_enter_getppid
workload_go rings 60
tmux_keys D
expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
tmux_keys F9
expect_text "^cpu0 " 3 "the zoomed pane shows no cpu0 row"
expect_text "Ring buffers per CPU.*Right >\$" 3 "the title does not say the figures go on right"
_screen_lacks "ktop read" || fail "the reader's columns fit 80 columns already"
_right() { tmux_keys l; _screen_has "^CPU .*\\|   ktop read   pages   missed  \\?pgs\$"; }
wait_until 5 _right || fail "l did not scroll to the reader's columns: $(tmux_screen | sed -n 4p)"
expect_text "< Left\$" 3 "the title does not say the figures go on left"
# each CPU: ktop read (the field after |) against the kernel's read events
kernel_read() { awk '/^read events:/ { print $3 }' "$(instance_dir "$KTOP_PID")/per_cpu/cpu$1/stats"; }
_reads_match()
{
	local cpu got
	for cpu in $(tmux_screen | awk '$1 ~ /^cpu[0-9]+$/ { print substr($1, 4) }'); do
		got=$(tmux_screen | awk -v c="cpu$cpu" '$1 == c { sub(/.*\| */, ""); print $1 }')
		[ "$got" = "$(kernel_read "$cpu")" ] || return 1
	done
}
wait_until 5 _reads_match || fail "ktop read is not the kernel's read events: $(tmux_screen | grep '^cpu')"
tmux_keys h h h h h h h h h h
expect_text "^CPU +entries +overrun" 3 "h did not scroll back to the first columns"
tmux_keys Escape
tmux_quit_clean
assert_clean
pass
