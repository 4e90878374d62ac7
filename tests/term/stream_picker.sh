#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The explorer in an 80x24 tmux pane, started with nothing enabled: the stream says how to
# start; e opens the picker; typing narrows it to sys_enter_getppid; Space enables it in
# ktop's instance (and only there) and a workload's rows show in the stream within a few
# seconds; Space again disables it; Esc Esc closes the picker; q quits, the terminal is
# restored and the kernel is clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

tmux_start 80 24 -- -d 2
pid=$KTOP_PID
wait_until 10 instance_exists "$pid" || fail "no instance ktop-$pid"
expect_text "^ktop-$pid +tracer: nop +enabled: 0" 10 "the header does not show ktop-$pid, tracer and 'enabled: 0'"
expect_text "No events enabled: press e \(F2\) to pick events" 5 "the empty stream does not say how to start"
expect_text "F1Help +F2Events" 5 "no function-key bar"
[ -z "$(tr -d '[:space:]' <"$(instance_dir "$pid")/set_event")" ] || fail "ktop-$pid enables events nobody asked for"

# The picker, narrowed by typing.
tmux_keys e
expect_text "Event picker +[0-9]+ of [0-9]+ enabled" 5 "e did not open the event picker"
tmux_text sys_enter_getppid
expect_text "> sys_enter_getppid" 5 "the typed text is not shown in the picker"
expect_text "\[ \] +sys_enter_getppid" 5 "the picker does not list sys_enter_getppid, unticked"
expect_text "syscalls \([0-9]+ of [0-9]+\)" 5 "the picker does not group the match under its system"
event_enabled "$pid" syscalls sys_enter_getppid && fail "sys_enter_getppid enabled before Space"

# Space: on, in ktop's instance only.
tmux_keys Space
wait_until 3 event_enabled "$pid" syscalls sys_enter_getppid ||
	fail "Space did not enable syscalls:sys_enter_getppid in ktop-$pid"
expect_text "\[x\] +sys_enter_getppid" 3 "the picker does not tick sys_enter_getppid"
expect_text "enabled syscalls:sys_enter_getppid" 3 "no status message for the toggle"
expect_text "enabled: 1" 3 "the header does not count the enabled event"
assert_top_untouched

# Its rows reach the stream: a workload named kwl calls getppid() a few times a second.
WORKLOAD_CPU=0 "$KTOP_WORKLOAD" rate 50 60 kwl >/dev/null &
wl=$!
CLEANUP_PIDS+=("$wl")
expect_text "kwl-$wl +(syscalls:)?sys_enter_getppid" 3 "no row of workload kwl-$wl in the stream within 3s"

# Space again: off.
_not_enabled() { ! event_enabled "$pid" syscalls sys_enter_getppid; }
tmux_keys Space
wait_until 3 _not_enabled || fail "the second Space did not disable syscalls:sys_enter_getppid"
expect_text "\[ \] +sys_enter_getppid" 3 "the picker still ticks sys_enter_getppid"
expect_text "disabled syscalls:sys_enter_getppid" 3 "no status message for disabling"
_end_pid "$wl"

# Esc clears the typed text, Esc again closes the picker; then q quits.
tmux_keys Escape
expect_text "type: narrow +Space: on/off +Enter: filter" 3 "Esc did not clear the picker's text"
tmux_keys Escape
wait_for_no_text "Event picker" 3 || fail "the second Esc did not close the picker"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after q"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
