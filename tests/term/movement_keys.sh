#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 12: the movement keys (less, vim) move in every pane, and the keys that did
# something else there moved to keys of their own (80x24).
#   - on a recording (tests/helpers/mkrecording: 2,000 sched_switch records, the n-th of pid
#     1000 + n % 50), the stream: Space and ^F go a page down, ^D half a page, ^B and ^U back,
#     g to the oldest row, j k one row, l and h scroll the fields sideways; each selected row
#     is read from Enter's detail, its time from `trace-cmd report` of the file;
#   - live: in the flame graph k moves (the graph stays on-CPU) and C switches it to off-CPU;
#     in the probe editor k asks for no kprobe, i does.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../mkrec-lib.sh
. "$(dirname "$0")/../mkrec-lib.sh"
require_ktop
require_tmux
mkrec "$T/m.dat" 2000
mkrec_times "$T/m.dat" >"$T/times"
# The time of the n-th row (0: the oldest), as the stream shows it.
row() { sed -n "$(($1 + 1))p" "$T/times" | cut -d' ' -f2; }
[ "$(wc -l <"$T/times")" -ge 100 ] || fail "trace-cmd report lists no rows"

tmux_start 80 24 -- -i "$T/m.dat"
expect_text "^0\.000000 \[000\] task1000-1000 " 10 "the recording does not open at its oldest row"
rows=$(tmux_screen | grep -Ec '^[0-9]+\.[0-9]{6} \[')
page=$((rows - 1)) # a page keeps one row of the last, as less does
[ "$page" -ge 10 ] || fail "only $rows rows on an 80x24 stream"
# selected N KEYS: after KEYS, Enter's detail names the N-th row; Esc closes it.
selected()
{
	local n=$1
	shift
	tmux_keys "$@" Enter
	expect_text "^ sched:sched_switch at $(row "$n"): " 5 "$* did not select row $n ($(row "$n"))"
	tmux_keys Escape
	wait_for_no_text "^ sched:sched_switch at " 3 || fail "Esc did not close the detail"
}
selected 0 g
selected "$page" Space
selected "$((2 * page))" C-f
selected "$((2 * page + page / 2))" C-d
selected "$((page + page / 2))" C-b
selected "$page" C-u
selected "$((page + 2))" j j
selected "$((page + 1))" k
selected 0 g
first=$(tmux_screen | grep -m1 '^0\.000000 ')
tmux_keys l
wait_until 3 _screen_lacks "^${first//[/\\[}\$" || fail "l did not scroll the fields"
expect_text "^0\.000000 \[000\] task1000-1000 " 3 "l scrolled the time and task away"
tmux_keys h
expect_text "^${first//[/\\[}\$" 3 "h did not scroll back"
tmux_quit_clean
tmux_kill_server

# ---- live: the flame graph and the probe editor -------------------------------------------
require_root_tracefs
tmux_start 80 24 -- -d 1
wait_until 10 instance_exists "$KTOP_PID" || fail "no instance ktop-$KTOP_PID"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I opened no on-CPU graph"
tmux_keys k j h l
sleep 0.5 # a switch would show within a tick
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 3 "k j h l left the on-CPU graph"
tmux_keys C
expect_text "Flame graph: off-CPU" 10 "C did not switch to off-CPU"
tmux_keys Escape
wait_for_no_text "Flame graph" 5 || fail "Esc did not close the flame graph"
tmux_keys P
expect_text "Probes ktop_$KTOP_PID" 5 "P did not open the probe editor"
tmux_keys k
sleep 0.5
_screen_lacks "^kprobe \[NAME=\]FUNC|no kprobe events" ||
	fail "k in the probe editor still starts a kprobe: $(tmux_screen | grep kprobe)"
tmux_keys i
expect_text "^kprobe \[NAME=\]FUNC|no kprobe events" 5 "i did not start a kprobe"
tmux_keys C-u Escape Escape
tmux_quit_clean
assert_clean
pass
