#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The overview pane at 80x24, ktop started with nothing named (ktop.1 OVERVIEW):
#   - it is the first screen: the system strip, the column names and a row per process,
#     the total row above the function bar, all of it inside 80x24;
#   - s, <, > pick the sort column (the title says which), r reverses: the PIDs on the
#     screen are in order, then in the other order;
#   - / filters by name: only the workloads' rows, their count in the title;
#   - u unfolds threads: a process of three threads (/proc/PID/task) shows three rows, u
#     folds them again;
#   - sorted by PID, Enter then l opens the syscall-latency histogram of the selected
#     process; Esc comes back to the overview with the cursor on the same row; Enter then g
#     its flame graph;
#   - O from the stream comes back to the overview, and the key is in the help.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_python

# a process of three threads, each named, each waking every 10 ms (so each has figures)
python3 "$KTOP_SRCDIR/tests/helpers/overview_work.py" threads ktop-ov - >"$T/threads.out" 2>"$T/threads.err" &
MT=$!
CLEANUP_PIDS+=("$MT")
python3 -c 'import ctypes, time
ctypes.CDLL(None).prctl(15, b"ktop-ov-zz", 0, 0, 0)
while True: time.sleep(0.01)' &
CLEANUP_PIDS+=($!)
wait_until 30 has_line "$T/threads.out" || fail "the threaded workload did not start: $(cat "$T/threads.err")"

TMUX_OVERVIEW=1 tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -C
expect_text "Overview: [0-9]+ processes by CPU%" 10 "ktop did not land on the overview"
expect_text "PID USER +CPU% +RUNQ" 3 "no column names"
expect_text "^CPU +[0-9.]+% \[" 3 "no CPU line in the system strip"
expect_text "^Mem .*avail" 3 "no memory line in the system strip"
expect_text "total *$" 5 "no total row"
screen=$(tmux_screen)
[ "$(printf '%s\n' "$screen" | wc -l)" -le 24 ] || fail "more than 24 lines"
printf '%s\n' "$screen" | grep -q 'No events enabled' && fail "the stream, not the overview"

# the PIDs of the rows on the screen, top to bottom
pids() { tmux_screen | awk 'NR > 6 && $1 ~ /^[0-9]+$/ && $NF != "total" { print $1 }'; }
_in_order() { local p; p=$(pids); [ -n "$p" ] && [ "$p" = "$(printf '%s\n' "$p" | sort -n "$@")" ]; }
tmux_keys '<' '<'
expect_text "processes by PID" 3 "< < did not sort by PID"
wait_until 5 _in_order || fail "by PID, the rows are not in order: $(pids | tr '\n' ' ')"
tmux_keys r
wait_until 5 _in_order -r || fail "r did not reverse the PIDs: $(pids | tr '\n' ' ')"
tmux_keys s
expect_text "processes by USER" 3 "s did not sort by the next column"
tmux_keys '>'
expect_text "processes by CPU%" 3 "> did not sort by the next column"

# filter by name
tmux_keys /
expect_text "Overview filter" 3 "/ opened no filter prompt"
tmux_text "ktop-ov"
tmux_keys Enter
expect_text "Overview: 2 processes by CPU%, filter 'ktop-ov'" 5 "the filter did not leave the 2 workloads"
expect_count 'ktop-ov-(mt|zz)$' 2 5 "the filter's rows are not the workloads'"

# unfold: the threaded one's three threads under it, as /proc has them
[ "$(ls "/proc/$MT/task" | wc -l)" = 3 ] || fail "the workload does not have 3 threads"
tmux_keys u
expect_text "Overview: 5 rows" 5 "u did not unfold 2 processes into 5 rows"
expect_count '`ktop-ov-(mt|t1|t2)$' 3 5 "the threads are not under their process"
tmux_keys u
expect_text "Overview: 2 processes" 5 "u did not fold the threads again"

# drill down from the second row and back: the cursor stays on it (by PID, whose cells
# have no pane of their own: Enter asks which; overview_cells.sh has the cells')
tmux_keys '<' '<'
expect_text "processes by PID" 3 "< < did not sort by PID"
tmux_keys Down
cursor_line() { tmux_screen -e | grep -E $'\e\\[[0-9;]*7[0-9;]*m *[0-9]+ ' | head -1 | sed 's/\x1b\[[0-9;]*m//g' | awk '{ print $1 }'; }
_cursor_on() { [ "$(cursor_line)" = "$1" ]; }
wait_until 3 eval '[ -n "$(cursor_line)" ]' || fail "no selected row: $(tmux_screen -e | head -12 | cat -v)"
sel=$(cursor_line)
tmux_keys Enter
expect_text "$sel .*syscall latency" 3 "Enter did not offer the panes of $sel"
tmux_keys l
expect_text "syscall-latency.*pid=$sel" 10 "Enter l opened no syscall-latency histogram of $sel"
tmux_keys Escape
expect_text "Overview: 2 processes" 5 "Esc did not come back to the overview"
wait_until 3 _cursor_on "$sel" || fail "the cursor is on $(cursor_line), not $sel"
tmux_keys Enter g
expect_text "pid $sel" 10 "Enter g opened no flame graph of $sel"
tmux_keys Escape
expect_text "Overview: 2 processes" 5 "Esc did not come back from the flame graph"

# O: the stream, and back
tmux_keys Tab
tmux_keys O
expect_text "Overview: 2 processes" 5 "O did not come back to the overview"
tmux_keys F1
tmux_keys /
tmux_text "every task"
tmux_keys Enter
expect_text "O +overview: every task" 3 "the help does not list O"
tmux_keys Escape
tmux_quit_clean
assert_clean
pass
