#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The overview's cells, pins and columns (ktop.1 OVERVIEW), at 140x30, two workloads whose
# pids come from the workloads themselves:
#   - * pins the quieter one: its row (marked *) stays first whatever the sort, and
#     * again unpins it (Space pages down, as in every pane);
#   - Enter opens the pane behind the cell under the cursor in the sorted column, for that
#     process: CPU% its on-CPU flame graph, RUNQ its run-queue latency, OFF its off-CPU
#     flame graph, SYS/s its syscall latency by syscall; Esc comes back each time;
#   - C opens the column chooser: Right, Space hides RUNQ (the header loses it), S writes
#     overview-hide = RUNQ to ktoprc, a new ktop starts without RUNQ, and showing it again
#     there is saved by the exit (the line goes from ktoprc).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_python

# name DUTY: a process of that name busy DUTY% of every 10 ms, its pid on its first line
work()
{
	python3 -c 'import ctypes, os, sys, time
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
print(os.getpid(), flush=True)
busy = float(sys.argv[2]) / 100 * 0.01
while True:
    t = time.monotonic()
    while time.monotonic() - t < busy:
        pass
    time.sleep(0.01 - busy)' "$1" "$2" >"$T/$1.out" &
	CLEANUP_PIDS+=($!)
	wait_until 30 has_line "$T/$1.out" || fail "$1 did not start"
}
work ktop-ovc-a 30
work ktop-ovc-b 1
A=$(head -n1 "$T/ktop-ovc-a.out")
B=$(head -n1 "$T/ktop-ovc-b.out")
XDG=$T/xdg
RC=$XDG/ktop/ktoprc

TMUX_OVERVIEW=1 tmux_start 140 30 "XDG_CONFIG_HOME=$XDG" -- -C
expect_text "Overview: [0-9]+ processes by CPU%" 10 "ktop did not land on the overview"
tmux_keys /
tmux_text "ktop-ovc"
tmux_keys Enter
expect_text "Overview: 2 processes by CPU%, filter 'ktop-ovc'" 5 "the filter did not leave the 2 workloads"

# the PIDs of the rows, top to bottom, and the first row's command
pids() { tmux_screen | awk 'NR > 6 && $1 ~ /^[0-9]+$/ && $NF ~ /ktop-ovc-[ab]$/ { print $1 }' | tr '\n' ' '; }
_first() { [ "$(pids)" = "$1 $2 " ]; }
wait_until 10 _first "$A" "$B" || fail "by CPU%, $A (30% busy) is not above $B (1%): $(pids)"
tmux_keys Down
tmux_keys "*"
expect_text "$B ktop-ovc-b pinned at the top" 3 "* did not pin $B"
wait_until 5 _first "$B" "$A" || fail "the pinned $B is not first: $(pids)"
expect_text "^ *$B .* \\*ktop-ovc-b *$" 3 "the pinned row is not marked *"

# Enter on a cell: the cursor is on $B's row (first), the sorted column says which pane
tmux_keys Home Enter
expect_text "pid $B" 10 "Enter on CPU% opened no on-CPU flame graph of $B"
tmux_keys Escape
expect_text "Overview: 2 processes by CPU%" 5 "Esc did not come back from the on-CPU flame graph"
tmux_keys '>'
expect_text "processes by RUNQ" 3 "> did not sort by RUNQ"
wait_until 5 _first "$B" "$A" || fail "by RUNQ the pinned $B is not first: $(pids)"
tmux_keys Enter
expect_text "runq-latency.*pid=$B" 15 "Enter on RUNQ opened no run-queue latency of $B"
tmux_keys Escape
expect_text "processes by RUNQ" 5 "Esc did not come back from the run-queue latency"
tmux_keys '>' '>'
expect_text "processes by OFF" 3 "> > did not sort by OFF"
tmux_keys Enter
expect_text "off-CPU, .*pid $B" 15 "Enter on OFF opened no off-CPU flame graph of $B"
tmux_keys Escape
expect_text "processes by OFF" 5 "Esc did not come back from the off-CPU flame graph"
tmux_keys '>' '>'
expect_text "processes by SYS/s" 3 "> > did not sort by SYS/s"
tmux_keys Enter
expect_text "syscall-latency.*pid=$B" 15 "Enter on SYS/s opened no syscall latency of $B"
tmux_keys Escape
expect_text "processes by SYS/s" 5 "Esc did not come back from the syscall latency"
tmux_keys Home "*"
expect_text "$B ktop-ovc-b unpinned" 3 "* did not unpin $B"

# the column chooser, and ktoprc
_head() { tmux_screen | grep -E '^ +PID USER' | head -1; }
_has_runq() { _head | grep -q ' RUNQ '; }
_no_runq() { _head | grep -q ' RQ99 ' && ! _has_runq; }
wait_until 3 _has_runq || fail "no RUNQ column to hide: $(_head)"
tmux_keys C
expect_text "columns: Left and Right" 3 "C opened no column chooser"
tmux_keys Right Space
expect_text "RUNQ hidden" 3 "Space in the chooser did not hide RUNQ"
tmux_keys Enter
wait_until 5 _no_runq || fail "RUNQ still shows after it was hidden: $(_head)"
tmux_keys S
expect_text "saved .*ktoprc" 5 "S did not save"
grep -qx 'overview-hide = RUNQ' "$RC" || fail "ktoprc lacks overview-hide = RUNQ: $(cat "$RC")"
tmux_quit_clean
tmux_kill_server

tmux_start 140 30 "XDG_CONFIG_HOME=$XDG" -- -C
expect_text "Overview: [0-9]+ processes" 10 "ktop did not land on the overview again"
wait_until 5 _no_runq || fail "the new ktop shows the RUNQ hidden in ktoprc: $(_head)"
tmux_keys C Right Space
expect_text "RUNQ shown" 3 "Space in the chooser did not show RUNQ again"
tmux_keys Escape
wait_until 5 _has_runq || fail "RUNQ does not show again: $(_head)"
tmux_quit_clean
grep -q 'overview-hide' "$RC" && fail "the exit did not save RUNQ shown: $(cat "$RC")"
assert_clean
pass
