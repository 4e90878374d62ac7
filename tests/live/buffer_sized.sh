#!/bin/bash
# ktop's instance gets the per-CPU buffer asked for (--buffer-kb, else 64 MiB) only when it
# first records something: a run that enables nothing keeps the kernel's small buffer for a
# new instance, so an idle start never allocates and frees the full size on every CPU. The
# first event enabled brings the full size, before any of its records are written.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
KB=16384

# buffer_kb PID: what ktop-PID's instance holds per CPU now
buffer_kb() { cat "$(instance_dir "$1")/buffer_size_kb"; }
# set up: the instance exists and ktop's threads are out of its own trace (the last step
# before a run with nothing to enable waits)
# (tracefs files have no size: read it)
_excluded() { grep -q . "$(instance_dir "$1")/set_event_notrace_pid" 2>/dev/null || ! pid_alive "$1"; }

start_ktop "$T/idle.out" "$T/idle.err" -b -q --duration 60 --buffer-kb "$KB"
wait_until 15 _excluded "$KTOP_PID" || fail "ktop $KTOP_PID set up no instance in 15 s"
pid_alive "$KTOP_PID" || fail "ktop exited at once: $(head -c 300 "$T/idle.err")"
idle=$(buffer_kb "$KTOP_PID")
[ "$idle" -lt "$KB" ] ||
	fail "nothing enabled, yet the instance holds $idle KiB per CPU (asked: $KB, for recording)"
log "nothing enabled: $idle KiB per CPU"
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "idle run exited $KTOP_RC: $(head -c 300 "$T/idle.err")"
assert_no_sanitizer "$T/idle.err"

start_ktop "$T/ev.out" "$T/ev.err" -b -q --duration 60 --buffer-kb "$KB" -e raw_syscalls:sys_enter
wait_capturing "$KTOP_PID" raw_syscalls sys_enter
got=$(buffer_kb "$KTOP_PID")
# the kernel rounds up to whole sub-buffers (16384 asked: 16387 held)
[ "$got" -ge "$KB" ] || fail "an event enabled, yet the instance holds $got KiB per CPU (asked: $KB)"
log "an event enabled: $got KiB per CPU"
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "recording run exited $KTOP_RC: $(head -c 300 "$T/ev.err")"
grep -q 'events=[1-9]' "$T/ev.out" || fail "no event read: $(head -c 300 "$T/ev.out")"
assert_no_sanitizer "$T/ev.err"
assert_clean
pass
