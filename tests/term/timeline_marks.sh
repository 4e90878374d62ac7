#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The timeline's trigger and stop marks (issue 33), live at 140x40: ktop -e
# sched:sched_process_exec (no filter, so every exec is recorded) with --trigger
# 'sched:sched_process_exec:stacktrace' (no condition: it fires on every exec) and
# --stop-when on the exec of a marker program. Once the stop fired, the timeline (V) draws
# on the sched_process_exec lane an S where the stop's exec is and a T on every other column
# with an exec (never the plain tick or shade of an unmarked event), and the cursor line's
# legend names both marks. q leaves nothing behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

ln -s /bin/true "$T/tlm_one"
ln -s /bin/true "$T/tlm_stop"
tmux_start 140 40 -- -e sched:sched_process_exec \
	--trigger 'sched:sched_process_exec:stacktrace' \
	--stop-when "sched:sched_process_exec if filename ~ \"*/tlm_stop\""
wait_capturing "$KTOP_PID" sched sched_process_exec
expect_text "Events: all CPUs" 10 "ktop did not start"
"$T/tlm_one"
sleep 0.5 # a column of its own, apart from the stop's (the lane spans the capture)
"$T/tlm_stop"
expect_text "stopped by sched:sched_process_exec if filename" 15 "the stop did not fire"

tmux_keys V
expect_text "Timeline: .* a column" 10 "V opened no timeline"
tmux_keys z # the timeline alone, its lanes from the screen's first column
expect_text "^ ?Timeline: " 5 "z did not zoom the timeline"
# the lane's label: the event's name cut to the labels' 8 columns
lane() { tmux_screen | grep -E '^sched_pr' | head -n1 | sed 's/^sched_pr//'; }
_lane_has_stop() { lane | grep -q S; }
wait_until 10 _lane_has_stop ||
	fail "no S on the sched_process_exec lane after the stop: '$(lane)'"
row=$(lane)
log "the sched_process_exec lane: '$row'"
case $row in *T*) ;; *) fail "no T (the trigger fired on every exec) on the lane: '$row'" ;; esac
[ "$(printf %s "$row" | tr -cd S | wc -c)" = 1 ] || fail "not one S on the lane: '$row'"
# every column with an exec is marked: no plain tick, no shade
case $row in
*'|'* | *[▁▂▃▄▅▆▇█]*) fail "an exec column without its T: '$row'" ;;
esac
expect_text "T trigger fired +S stop-when hit" 5 "the cursor line has no legend of the marks"
tmux_quit_clean
pass
