#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 15: the same keys live and on a recording of the same events (80x24). A
# capture of sched_switch with its kernel stacks and sched_wakeup is recorded with
# ktop -b -o, then walked key by key in ktop -i FILE and in ktop live with the same options:
# - F1: live, every global key is listed as acting; on the recording the keys it refuses
#   (p, x, w, A, M, m, H, P, R, D, O) are not listed as acting but last, under "Not here",
#   each with the recording's reason (wrapped, never cut), and the panes it cannot open have
#   no section;
# - I: the flame graph of the events' stacks in both (the recording said it had no
#   profile); C on the recording names why there is nothing else to switch to, y why there
#   are no wakers (live, C moves on to the on-CPU profile);
# - the recording's events pane (e): ^T and ^K say why (they did nothing); its bar is the
#   live picker's, F1Help to F10Quit;
# - W saves a profile of the events shown, the same events the live W saves (it saved
#   none); M and T name what a recording lacks and the way out.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

EVS=(-e sched:sched_switch -e sched:sched_wakeup --stack sched:sched_switch)
run_ktop 60 "$T/rec.out" "$T/rec.err" -b "${EVS[@]}" --duration 1 -q -o "$T/rec.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -b -o exited $KTOP_RC: $(head -c 300 "$T/rec.err")"
PROFILES=$XDG_CONFIG_HOME/ktop/profiles
# the event lines of a saved profile, sorted
profile_events() { sed -n 's/^event = //p' "$PROFILES/$1" | sort; }

# ---- the recording --------------------------------------------------------------------------
tmux_start 80 24 -- -i "$T/rec.dat"
expect_text "RECORDING rec\\.dat" 10 "the recording did not open"
tmux_keys F1
expect_text "^ ktop help: every key" 3 "F1 opened no help"
tmux_keys /
tmux_text "pause display"
tmux_keys Enter
expect_text "pattern not found: pause display" 3 \
	"the recording's help lists p as pausing: $(tmux_screen | grep -m1 'pause display')"
tmux_keys G
expect_text "^ Not here \\(why, and the way out\\)" 3 "no 'Not here' section at the help's end"
expect_text "^ F7 p +a recording does not change: nothing to pause" 3 "p's reason is not listed"
expect_text "^ R +tracers need a live kernel: a recording's tracer ran when it\$" 3 \
	"R's reason is not wrapped at the column"
expect_text "^ +was made\\.?\$" 3 "R's reason lost its tail"
tmux_keys g /
tmux_text "Counters (m)"
tmux_keys Enter
expect_text "pattern not found: Counters \\(m\\)" 3 "the help has the counters pane's section"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help"
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 5 \
	"I did not show the recording's event stacks: $(tmux_screen | tail -2 | head -1)"
_screen_lacks "has no profile" || fail "I said the recording has nothing to show"
tmux_keys C
expect_text "^rec\\.dat: no profile; on/off-CPU are sampled live \\(-b --profile -o keeps one\\)" 3 \
	"C on the recording named no reason"
expect_text "Flame graph: event stacks" 3 "C on the recording lost the graph"
tmux_keys y
expect_text "^wakers are joined live \\(ktop --off-cpu --wakers\\): a recording has its stacks" 3 \
	"y on the recording named no reason"
tmux_keys I
wait_for_no_text "Flame graph" 3 || fail "I did not close the flame graph"
tmux_keys e
expect_text "Recorded events" 5 "e did not list the recording's events"
expect_text "^F1Help SpcShow/hide EnterFilter EscBack F2Close TabFocus F9Zoom F10Quit" 3 \
	"the events pane's bar is not the picker's"
tmux_keys C-t
expect_text "^triggers act in a live kernel: a recording has none" 3 "^T said nothing"
tmux_keys C-k
expect_text "^stack triggers act in a live kernel: a recording has none" 3 "^K said nothing"
tmux_keys Escape
wait_for_no_text "Recorded events" 3 || fail "Esc did not close the events pane"
tmux_keys M
expect_text "^a recording does not say which threads were ktop's \\(F comm=NAME narrows rows\\)" 3 \
	"M named no reason of its own"
tmux_keys T
expect_text "No call trees: rec\\.dat was recorded without the function_graph" 5 \
	"the call-tree pane does not say the recording lacks the tracer"
expect_text "trace-cmd record -p function_graph" 3 "the call-tree pane names no way out"
tmux_keys T
tmux_prompt W "Save profile as:" offline
expect_text "saved profile .*offline" 3 "W on the recording saved no profile"
want=$(printf 'sched:sched_switch\nsched:sched_wakeup')
[ "$(profile_events offline)" = "$want" ] ||
	fail "W on the recording saved events '$(profile_events offline | tr '\n' ' ')', not the two recorded"
tmux_quit_clean
tmux_kill_server

# ---- live, the same events --------------------------------------------------------------------
tmux_start 80 24 -- "${EVS[@]}"
expect_text "enabled: [1-9]" 10 "the live session did not start"
tmux_keys F1
expect_text "^ ktop help: every key" 3 "F1 opened no help"
tmux_keys /
tmux_text "pause display"
tmux_keys Enter
expect_text "^ F7 p +pause display" 3 "the live help does not list p"
tmux_keys G
_screen_lacks "Not here" || fail "the live help refuses keys it has"
tmux_keys Escape
tmux_prompt W "Save profile as:" live
expect_text "saved profile .*live" 10 "W live saved no profile"
[ "$(profile_events offline)" = "$(profile_events live)" ] ||
	fail "W saved other events offline ($(profile_events offline | tr '\n' ' ')) than live ($(profile_events live | tr '\n' ' '))"
# last: a live graph of every stacked row is heavy under the sanitizers
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not show the live event stacks"
tmux_quit_clean
assert_clean
pass
