#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The counts on one screen agree (80x24):
#   - while a workload makes getppid calls at 300/s, every screen's header "events:" and the
#     stream's "held" are the same figure (the header's is counted once a tick: so is the
#     title's); once it is done both are its own count of calls;
#   - a row filter that matches nothing says "0 of N held", not "N held" over a blank pane;
#   - on a recording G shows END (less's word), never FOLLOW: nothing more will come;
#   - after a resize the columns line up on the first frame (a 10 s tick: no second frame
#     comes to fix them), wider and narrower, on a recording of tasks with names of many
#     lengths.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

# ---- live: header and title agree ---------------------------------------------------------
tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid --filter 'comm == "wlcounts"'
wait_capturing "$KTOP_PID" syscalls sys_enter_getppid
WORKLOAD_CPU=any "$KTOP_WORKLOAD" rate 300 8 wlcounts >"$T/wl.out" &
wl=$!
CLEANUP_PIDS+=("$wl")
events() { tmux_screen | sed -nE '1s/.* events: ([0-9]+) .*/\1/p'; }
held() { tmux_screen | sed -nE 's/^ Events: all CPUs .* ([0-9]+) held .*/\1/p'; }
_agree() {
	local s e h
	s=$(tmux_screen)
	e=$(printf '%s\n' "$s" | sed -nE '1s/.* events: ([0-9]+) .*/\1/p')
	h=$(printf '%s\n' "$s" | sed -nE 's/^ Events: all CPUs .* ([0-9]+) held .*/\1/p')
	[ -n "$e" ] && [ "$e" = "$h" ] && [ "$e" -ge "${1:-1}" ]
}
expect_text "wlcounts-[0-9]+ " 10 "the workload's calls do not reach the stream"
wait_until 3 _agree || fail "header events: $(events), the stream holds $(held)"
# Every screen, not one that happens to agree: 12 looks over 3 s (three ticks), each taken
# as tmux_screen takes it, once a frame has fully arrived.
last=1
for i in $(seq 12); do
	_agree "$last" || fail "look $i: header events: $(events), the stream holds $(held)"
	last=$(events)
	sleep 0.25
done
[ "$last" -gt 300 ] || fail "the counts stopped growing at $last during the run"
wait_pid_exit "$wl" 15 || fail "the workload did not finish"
calls=$(sed -n 's/^calls=//p' "$T/wl.out")
[ -n "$calls" ] || fail "the workload printed no count of calls"
wait_until 5 _agree "$calls" && [ "$(events)" = "$calls" ] ||
	fail "after the workload: header events: $(events), held $(held), the workload made $calls"
log "header and stream agree through the run: $calls calls"

# ---- a row filter that shows nothing -----------------------------------------------------
tmux_keys F C-u
tmux_text 'comm=nosuchtask'
tmux_keys Enter
expect_text " 0 of $calls held " 5 "a row filter matching nothing does not say 0 of $calls"
tmux_keys -- -
expect_text " $calls held " 5 "- did not show every row again"
tmux_quit_clean
tmux_kill_server

# ---- a recording: END, and columns after a resize ------------------------------------------
run_ktop 30 "$T/rec.out" "$T/rec.err" -b -e sched:sched_switch --duration 1 -o "$T/s.dat"
[ "$KTOP_RC" = 0 ] || fail "recording exited $KTOP_RC: $(cat "$T/rec.err")"
tmux_start 80 24 -- -d 10 -i "$T/s.dat"
expect_text "^0\.000000 " 10 "the recording's first row does not show"
tmux_keys G
expect_text " held +END *$" 5 "G on a recording does not say END"
wait_for_no_text "FOLLOW" 1 || fail "a recording says FOLLOW after G"
tmux_keys g
# The event column starts in the same cell on every row.
_aligned() {
	tmux_screen | awk '/^[0-9]+\.[0-9]+ \[[0-9]+\] / {
		n++; c = match($0, / sched[:_]/); if (!col) col = c; if (c != col) bad = 1 }
		END { exit !(n >= 10 && !bad) }'
}
for size in "120 30" "80 24"; do
	# shellcheck disable=SC2086 # two words
	tmux_size $size
	wait_until 3 _aligned || fail "at ${size/ /x} the columns do not line up: $(tmux_screen)"
done
tmux_quit_clean
assert_clean
pass
