#!/bin/bash
# Every exit path tears down by itself: SIGINT, SIGTERM, SIGHUP, SIGQUIT to batch mode, a
# real SIGPIPE (batch output into `head -1`), and in the explorer (tmux): q, SIGTERM,
# SIGINT, SIGQUIT and the SSH hang-up (the tmux session killed under it). Each time: ktop
# exits promptly with the documented status, its instance ktop-<pid> is gone, nothing is
# enabled at the top level, and the explorer leaves the terminal restored.
#
# The guard process is disabled (KTOP_NO_GUARD=1): it would remove the instance after any
# death, kill -9 included, and hide a teardown that did not happen.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

KTOP_ENV=(KTOP_NO_GUARD=1)

# Something is always happening on CPU 0: a paced getppid() stream.
WORKLOAD_CPU=0 "$KTOP_WORKLOAD" rate 20000 120 ktop-exit-wl >/dev/null &
CLEANUP_PIDS+=("$!")

# ---- batch mode, by signal ----------------------------------------------------------------
for sig in INT TERM HUP QUIT; do
	start_ktop "$T/b$sig.out" "$T/b$sig.err" -b -q -e sched:sched_switch -e syscalls:sys_enter_getppid
	pid=$KTOP_PID
	wait_capturing "$pid" syscalls sys_enter_getppid
	event_enabled "$pid" sched sched_switch || fail "sched:sched_switch not enabled in ktop-$pid"
	assert_top_untouched
	sleep 0.2 # a few events, so the teardown has something to drain
	stop_ktop "$pid" "$sig" 10
	# Batch mode ends on a signal as its normal way to stop: status 0 and the summary.
	[ "$KTOP_RC" = 0 ] || fail "batch ktop after SIG$sig exited $KTOP_RC, expected 0; stderr: $(head -c 300 "$T/b$sig.err")"
	tail -n1 "$T/b$sig.out" | grep -q '^# ktop: events=[1-9][0-9]* lost=' ||
		fail "batch ktop after SIG$sig printed no summary with events: '$(tail -n1 "$T/b$sig.out")'"
	instance_gone "$pid" || fail "instance ktop-$pid remains after SIG$sig (batch)"
	assert_no_sanitizer "$T/b$sig.err"
	assert_clean
	log "batch SIG$sig: clean"
done

# ---- batch mode, SIGPIPE: the reader of its output goes away -------------------------------
rm -f "$T/pipe.pid" "$T/pipe.rc"
(
	# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
	bash -c 'echo $$ >"$0"; exec env KTOP_NO_GUARD=1 "$@"' "$T/pipe.pid" \
		"$KTOP" -b -e raw_syscalls:sys_enter 2>"$T/pipe.err" </dev/null
	echo $? >"$T/pipe.rc"
) | head -n1 >"$T/pipe.out" &
pipeline=$!
CLEANUP_PIDS+=("$pipeline")
wait_until 5 has_line "$T/pipe.pid" || fail "no pid from the SIGPIPE run"
pid=$(cat "$T/pipe.pid")
KTOP_PIDS+=("$pid")
wait_until 20 has_line "$T/pipe.rc" ||
	fail "ktop -b | head -1: ktop still running 20s after head exited (SIGPIPE ignored?); instance $(instance_exists "$pid" && echo present || echo gone)"
rc=$(cat "$T/pipe.rc")
[ "$rc" = 0 ] || fail "ktop -b | head -1: ktop exited $rc, expected 0 (SIGPIPE ends batch mode cleanly); stderr: $(head -c 300 "$T/pipe.err")"
wait_pid_exit "$pipeline" 5 || fail "the head pipeline did not end"
grep -qE '^ *[0-9]+\.[0-9]+ \[[0-9]{3}\] .* raw_syscalls:sys_enter: ' "$T/pipe.out" ||
	fail "head -1 got no event line: '$(cat "$T/pipe.out")'"
instance_gone "$pid" || fail "instance ktop-$pid remains after SIGPIPE"
assert_no_sanitizer "$T/pipe.err"
assert_clean
log "batch SIGPIPE: clean"

# ---- the explorer in tmux -----------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "no tmux: the explorer's exit paths were not tested"
fi

# start_ui: ktop in an 80x24 pane, capturing, screen drawn, in the alternate screen.
start_ui()
{
	tmux_start 80 24 KTOP_NO_GUARD=1 -- -e sched:sched_switch
	pid=$KTOP_PID
	wait_capturing "$pid" sched sched_switch
	expect_text "ktop-$pid" 10 "the header does not name instance ktop-$pid"
	[ "$(tmux_pane '#{alternate_on}')" = 1 ] || fail "ktop's screen is not in the alternate screen"
}

# end_ui HOW EXPECTED_STATUS
end_ui()
{
	tmux_wait_exit 10 || fail "ktop (explorer) still running 10s after $1"
	[ "$PANE_RC" = "$2" ] || fail "explorer after $1 exited $PANE_RC, expected $2"
	assert_terminal_restored
	assert_no_sanitizer_on_screen
	instance_gone "$pid" || fail "instance ktop-$pid remains after $1 (explorer)"
	assert_clean
	tm kill-session -t t 2>/dev/null
	log "explorer $1: clean, status $PANE_RC"
}

start_ui
tmux_keys q
end_ui "q" 0

for sig in TERM INT QUIT; do
	start_ui
	kill -"$sig" "$pid"
	end_ui "SIG$sig" $((128 + $(kill -l "$sig")))
done

# The SSH connection drops: the terminal goes away under ktop (SIGHUP, then EOF/EIO).
start_ui
tm kill-session -t t
wait_until 10 _pid_gone "$pid" || fail "ktop (explorer) still running 10s after its terminal hung up"
instance_gone "$pid" || fail "instance ktop-$pid remains after the hang-up"
assert_clean
log "explorer hang-up: clean"

pass
