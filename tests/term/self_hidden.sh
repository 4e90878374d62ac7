#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# ktop leaves its own threads out of the stream, as perf trace does (80x24): capturing
# sched_switch and sched_wakeup, no row on screen in two seconds of looks names one of its
# threads (as listed in /proc/PID/task): neither as the row's task, nor as the task switched
# in or woken, and ? finds no row switching its UI thread in among all that is held, though
# it wakes and sleeps every tick; M shows them and says so (n then finds one); M again
# hides them. Other ktops on the machine stay.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

tmux_start 80 24 -- -d 2 -e sched:sched_switch -e sched:sched_wakeup
wait_capturing "$KTOP_PID" sched sched_switch
expect_text "^[0-9]+\.[0-9]{6} \[[0-9]+\] " 10 "no rows in the stream"
tids=$(ls "/proc/$KTOP_PID/task")
[ -n "$tids" ] || fail "no threads of ktop $KTOP_PID in /proc"
# a row naming one of the threads: the task column "-TID " or a task in the fields ":TID "
alt=$(echo $tids | tr ' ' '|')
own_re="^[0-9]+\.[0-9]{6} .*([-:]($alt) )"
for i in $(seq 8); do
	! tmux_screen | grep -Eq -- "$own_re" ||
		fail "look $i: a row of ktop's own: $(tmux_screen | grep -E -- "$own_re" | head -1)"
	sleep 0.25
done

# Nor among all that is held: ktop's UI thread was switched in, again and again, by now.
tmux_keys '?'
tmux_text ":$KTOP_PID "
tmux_keys Enter
expect_text "pattern not found: :$KTOP_PID *$" 20 "a search finds a row switching ktop in"

tmux_keys M
expect_text "ktop's own threads shown \(M hides them\)" 3 "M did not say it shows ktop's threads"
tmux_keys n
expect_text "$own_re" 20 "M did not show rows of ktop's own threads (n found none)"
tmux_keys G
tmux_keys M
expect_text "ktop's own threads hidden \(M shows them\)" 3 "M again did not say it hides them"
wait_for_no_text "$own_re" 5 || fail "M again did not hide ktop's rows"

tmux_quit_clean
assert_clean
pass
