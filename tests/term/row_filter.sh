#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The stream's own pid/comm/CPU filter (80x24) works on rows already captured: two
# workloads of known size (5 getppid calls as "wlalpha" on CPU 0, 7 as "wlbeta" on CPU 1)
# are captured first; F comm=wlalpha hides wlbeta's rows and the title says so; - shows
# them all again; F pid=<beta> and F cpu=1 show only wlbeta's; = on a selected row keeps
# its task; a bad word changes nothing and says why; search does not find hidden rows; the
# kernel's own filter of the event was never touched; q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"

# The workloads wait for the go file, so a kernel filter on their pids keeps other
# processes' getppid calls (shells call it) out of the stream.
WORKLOAD_GO=$T/go taskset -c 0 "$KTOP_WORKLOAD" count 5 wlalpha >"$T/a.pid" &
CLEANUP_PIDS+=($!)
WORKLOAD_GO=$T/go taskset -c 1 "$KTOP_WORKLOAD" count 7 wlbeta >"$T/b.pid" &
CLEANUP_PIDS+=($!)
wait_until 5 has_line "$T/a.pid" || fail "workload alpha did not start"
wait_until 5 has_line "$T/b.pid" || fail "workload beta did not start"
alpha=$(cat "$T/a.pid")
beta=$(cat "$T/b.pid")
kfilter="common_pid == $alpha || common_pid == $beta"
tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid --filter "$kfilter"
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
F="$(instance_dir "$pid")/events/syscalls/sys_enter_getppid/filter"
touch "$T/go"

rows() { tmux_screen | grep -c -- "$1-[0-9]* .*sys_enter_getppid"; }
_rows_are() { [ "$(rows wlalpha)" = "$1" ] && [ "$(rows wlbeta)" = "$2" ]; }
want_rows()
{
	wait_until 5 _rows_are "$1" "$2" && return 0
	tmux_screen | sed 's/^/  | /' >&2
	fail "$3: $(rows wlalpha) wlalpha and $(rows wlbeta) wlbeta rows, expected $1 and $2"
}
want_rows 5 7 "before any row filter"

tmux_keys F
expect_text "^show only \(pid= comm= cpu=\):" 5 "F did not open the row filter prompt"
tmux_text 'comm=wlalpha'
tmux_keys Enter
expect_text "Events: all CPUs \| only comm=wlalpha" 5 "the title does not show the row filter"
want_rows 5 0 "comm=wlalpha"
expect_text "showing only comm=wlalpha" 3 "no message for the row filter"

# Search respects the filter: wlbeta's rows are hidden, so not found.
tmux_keys /
tmux_text 'wlbeta'
tmux_keys Enter
expect_text "pattern not found: wlbeta" 5 "search found a row the filter hides"
tmux_keys G

tmux_keys -- -
expect_text "row filter off" 5 "- did not clear the row filter"
wait_for_no_text "only comm=" 3 || fail "the title still shows the row filter"
want_rows 5 7 "after -"

tmux_keys F C-u
tmux_text "pid=$beta"
tmux_keys Enter
want_rows 0 7 "pid=$beta"

tmux_keys F C-u
tmux_text 'cpu=1'
tmux_keys Enter
expect_text "only cpu=1" 5 "the title does not show cpu=1"
want_rows 0 7 "cpu=1"

# A mistake changes nothing and says why.
tmux_keys F C-u
tmux_text 'pid=abc'
tmux_keys Enter
expect_text "row filter not changed: pid 'abc' is not a number" 5 "no error for pid=abc"
expect_text "only cpu=1" 3 "the bad filter replaced the good one"
want_rows 0 7 "after the bad filter"

# = keeps the selected row's task.
tmux_keys -- -
want_rows 5 7 "after the second -"
tmux_keys Up
tmux_keys =
expect_text "only pid=[0-9]+" 5 "= did not filter on the selected row's pid"

[ "$(cat "$F")" = "$kfilter" ] || fail "the kernel's filter was changed: $(cat "$F")"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
