#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The stream's search keys are less's and vim's (80x24), on a recording, which opens at its
# oldest row (tests/helpers/mkrecording: 2,000 sched_switch records, pid 1000 + i % 50
# named task<pid>); where each match is, is read from `trace-cmd report` of the same file:
#   - / task1010- finds the first such row, on the first screen, and the screen stays;
#     Enter's detail names the selected row by its time;
#   - n finds the next one down, N the one before again;
#   - End, then ? task1005- finds the newest such row, backwards; n goes on backwards to the
#     one before it, N forwards again;
#   - ? is no longer help (F1 and h are).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../mkrec-lib.sh
. "$(dirname "$0")/../mkrec-lib.sh"
require_ktop
require_tmux
mkrec "$T/s.dat" 2000
# The times of task NAME's rows, as the stream shows them (from the first record on).
mkrec_times "$T/s.dat" >"$T/times"
at() { grep "^$1 " "$T/times" | sed -n "$2p" | cut -d' ' -f2; }
last() { grep "^$1 " "$T/times" | tail -n "$2" | head -n1 | cut -d' ' -f2; }
[ -n "$(at task1010-1010 2)" ] || fail "trace-cmd report does not list task1010's rows"

tmux_start 80 24 -- -i "$T/s.dat"
expect_text "^0\.000000 \[000\] task1000-1000 " 10 "the recording does not open at its oldest row"
selected() { expect_text "^ sched:sched_switch at $1: " 5 "$2 did not select the row at $1"; }

tmux_keys /
expect_text "^/" 3 "/ opened no search prompt"
tmux_text task1010-
tmux_keys Enter
wait_for_no_text "^/" 3 || fail "Enter did not close the search prompt"
expect_text "^0\.000000 \[000\] task1000-1000 " 3 "finding a row on screen moved the screen"
tmux_keys Enter
selected "$(at task1010-1010 1)" "/task1010-"
tmux_keys n
selected "$(at task1010-1010 2)" "n"
tmux_keys N
selected "$(at task1010-1010 1)" "N"

tmux_keys End
tmux_keys '?'
expect_text "^\?" 3 "? opened no backward search prompt"
tmux_text task1005-
tmux_keys Enter
selected "$(last task1005-1005 1)" "?task1005-"
tmux_keys n
selected "$(last task1005-1005 2)" "n after ?"
tmux_keys N
selected "$(last task1005-1005 1)" "N after ?"
wait_for_no_text "ktop help" 1 || fail "? opened the help"

tmux_keys Escape
tmux_quit_clean
pass
