#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The flame graph pane on a recording's profile (80x24): ktop -b --profile --comm profwork
# -o FILE keeps the stacks; ktop -i FILE then draws them when I is pressed, titled
# "recorded EVENT (samples)", the root's total exactly the samples the live run printed and
# the workload's task among the frames. A recording without a profile or event stacks says
# so in the status line, and how to record one, the pane empty. q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_tmux
require_profwork

root_total() { tmux_screen | sed -n 's/^all  total \([0-9]*\) samples.*/\1/p'; }
_total_is() { [ "$(root_total)" = "$1" ]; }

record_profile 2
n=$PROFWORK_SAMPLES
[ "$n" -gt 0 ] || fail "no samples of profwork: $(head -c 300 "$T/live.err")"
event=$(sed -n 's/^ktop: profile: event=\([^ ]*\) .*/\1/p' "$T/live.err")

tmux_start 80 24 -- -i "$T/p.dat"
expect_text "RECORDING" 10 "ktop -i did not draw its frame"
tmux_keys I
expect_text "Flame graph: recorded $event \\(samples\\)" 10 "I did not show the recorded profile"
tmux_keys z
wait_until 5 _total_is "$n" || fail "the root holds $(root_total) samples, not the $n recorded:
$(tmux_screen)"
expect_text "profwork" 5 "the workload's task is not in the graph"
tmux_quit_clean
tmux_kill_server

# ---- a recording without a profile ---------------------------------------------------------
run_ktop 60 "$T/plain.out" "$T/plain.err" -b -e sched:sched_process_exec --duration 0.5 \
	-o "$T/plain.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -o without a profile exited $KTOP_RC: $(head -c 300 "$T/plain.err")"
tmux_start 80 24 -- -i "$T/plain.dat"
expect_text "RECORDING" 10 "ktop -i did not draw its frame"
tmux_keys I
expect_text "^plain.dat: no profile, no stacks \\(record with -b --profile -o, or --stack EV -o\\)" 5 \
	"no refusal for a recording without a profile"
tmux_quit_clean
assert_clean
pass
