#!/bin/bash
# Every event of the kernel at once (~2,300 here), in batch (-e '*:*') and in the explorer
# (-e '*:*', then the picker's glob row: type *:*, Space off, on, off), with two events
# planted first:
#   - alltest_$$:beyond_eof, a uprobe past the end of its file: the kernel accepts its
#     definition and refuses to enable it (EINVAL). ktop says so in one line naming it and
#     how many others are on, and goes on with them;
#   - ktop_$$:other, in a group named like another ktop's (this shell's pid, alive): a glob
#     must not enable it, or that ktop could not remove its probe while this one runs.
# Events arrive, and afterwards tracefs is exactly as before: the top-level set_event and
# every events/*/*/enable, current_tracer, trace_clock, tracing_on, the top-level pid lists,
# and what this test planted beside ktop: the two dynamic events and an instance
# alltest-$$ (other tracers' instances and dynamic events come and go on a shared machine
# and are left out). Enable/disable times come from ktop's -v log.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_tmux

# The state ktop must leave as it found it, as text.
tracefs_state()
{
	local f
	for f in set_event current_tracer trace_clock tracing_on set_event_pid \
		set_event_notrace_pid; do
		[ -r "$TRACEFS/$f" ] && printf '== %s\n%s\n' "$f" "$(cat "$TRACEFS/$f")"
	done
	echo "== events/*/*/enable"
	# other ktops' probes come and go meanwhile (the machine is shared): only this test's
	grep -H . "$TRACEFS"/events/*/*/enable 2>/dev/null | grep -Ev "/events/ktop_[0-9]+/" || true
	grep -H . "$TRACEFS"/events/ktop_$$/*/enable 2>/dev/null || true
	echo "== instances"
	find "$TRACEFS/instances" -mindepth 1 -maxdepth 1 -name "alltest-$$" -printf '%f\n'
	echo "== dynamic_events"
	grep -E "^[^:]*:(alltest|ktop)_$$/" "$(_dynevents_file)" | sort
}

# The events a glob may take in: the catalogue without other ktops' probe groups.
available()
{
	grep -Evc '^ktop_[0-9]+:' "$TRACEFS/available_events"
}

echo "p:alltest_$$/beyond_eof $KTOP_WORKLOAD_BIN:0x7ffffff0" >>"$(_dynevents_file)" ||
	fail "cannot create the uprobe alltest_$$/beyond_eof"
CLEANUP_DYNEVENTS+=("alltest_$$/beyond_eof")
echo "p:ktop_$$/other $KTOP_WORKLOAD_BIN:0x0" >>"$(_dynevents_file)" ||
	fail "cannot create the uprobe ktop_$$/other"
CLEANUP_DYNEVENTS+=("ktop_$$/other")
mkdir "$TRACEFS/instances/alltest-$$" || fail "cannot create the instance alltest-$$"
CLEANUP_INSTANCES+=("alltest-$$")
tracefs_state >"$T/state.before"
total=$(available)
log "$total events a glob takes in ($(wc -l <"$TRACEFS/available_events") available)"

# --- batch --------------------------------------------------------------------------------
start_ktop "$T/batch.out" "$T/batch.err" -v --log "$T/batch.log" -b -q -e '*:*' --duration 3
kpid=$KTOP_PID
wait_capturing "$kpid" sched sched_switch 60
inst=$(instance_dir "$kpid")
wait_until 60 grep -q "app_set_events: enabled" "$T/batch.log" || fail "no end of enabling in the log"
on=$(grep -c . "$inst/set_event")
grep -q "^ktop_$$:" "$inst/set_event" && fail "-e '*:*' enabled ktop_$$:other, another ktop's probe"
[ "$on" = $((total - 1)) ] || fail "$on events enabled in ktop-$kpid, expected $((total - 1)) (all but the refused one)"
wait_pid_exit "$kpid" 60 || fail "ktop -b -e '*:*' --duration 3 still running after 60 s"
[ "$WAIT_RC" = 0 ] || fail "ktop -b -e '*:*' exited $WAIT_RC: $(head -c 600 "$T/batch.err")"
want="^ktop: cannot enable alltest_$$:beyond_eof: Invalid argument \(refused: 1 of the $total events matching '\*:\*', ktop -v logs each; the other $((total - 1)) are on\)$"
grep -Eq "$want" "$T/batch.err" || fail "no one-line refusal /$want/ on stderr: $(head -c 600 "$T/batch.err")"
[[ $(tail -n1 "$T/batch.out") =~ ^#\ ktop:\ events=([0-9]+)\  ]] || fail "no summary: $(tail -n1 "$T/batch.out")"
[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "no event arrived with every event enabled"
log "batch: $(grep -o 'enabled \*:\*: .*' "$T/batch.log"); $(tail -n1 "$T/batch.out")"
assert_no_sanitizer "$T/batch.err"
instance_gone "$kpid" || fail "instance ktop-$kpid left"
tracefs_state >"$T/state.batch"
diff "$T/state.before" "$T/state.batch" >"$T/diff" ||
	fail "tracefs differs after the batch run: $(head -20 "$T/diff")"

# --- the explorer: -e '*:*', then the picker's glob row off, on, off -------------------------
tmux_start 120 40 -- -v --log "$T/ui.log" -e '*:*'
kpid=$KTOP_PID
inst=$(instance_dir "$kpid")
expect_text "^ktop-$kpid +tracer: nop +enabled: $((total - 1)) " 60 "-e '*:*' did not enable all but the refused event"
expect_text "cannot enable alltest_$$:beyond_eof: Invalid argument \(refused: 1 of the $total " 5 \
	"no message in the status line about the refused event"
expect_text "events: [1-9]" 10 "no event arrived with every event enabled"
tmux_keys e
expect_text "Event picker" 5 "the picker did not open"
tmux_text '*:*'
expect_text "\[-\] all $total events matching \*:\*" 10 "no row for all the glob's matches, some on"
tmux_keys Space
expect_text "enabled: 0 " 60 "the glob row did not disable them all"
expect_text "\[ \] all $total events matching" 5 "the glob row does not show them off"
[ "$(grep -c . "$inst/set_event")" = 0 ] || fail "events still enabled in ktop-$kpid: $(head -3 "$inst/set_event")"
tmux_keys Space
expect_text "enabled: $((total - 1)) " 60 "the glob row did not enable all but the refused event"
expect_text "cannot enable alltest_$$:beyond_eof: Invalid argument \(refused: 1 of the $total " 5 \
	"no message about the refused event"
expect_text "\[-\] all $total events matching" 5 "the glob row does not show some on"
grep -q "^ktop_$$:" "$inst/set_event" && fail "the glob row enabled ktop_$$:other, another ktop's probe"
tmux_keys Space
expect_text "enabled: 0 " 60 "the glob row did not disable them all"
log "explorer: $(grep -o '[a-z]*abled \*:\*: .*' "$T/ui.log" | tr '\n' ';')"
tmux_keys Escape Escape q
tmux_wait_exit 30 || fail "the explorer did not quit"
[ "$PANE_RC" = 0 ] || fail "the explorer exited $PANE_RC"
assert_no_sanitizer_on_screen
instance_gone "$kpid" || fail "instance ktop-$kpid left"
tracefs_state >"$T/state.ui"
diff "$T/state.before" "$T/state.ui" >"$T/diff" ||
	fail "tracefs differs after the explorer: $(head -20 "$T/diff")"

assert_clean
pass
