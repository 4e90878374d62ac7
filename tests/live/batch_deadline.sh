#!/bin/bash
# --duration under a flood that printing cannot keep up with: a getppid storm on every CPU
# for STORM seconds, ktop -b --json --duration 2 printing every event through a pipe read
# at 8 MB/s. The
# capture must end at --duration (then ktop prints what its store holds and exits); it used
# to go on until printing caught up, here 16 s of a 20 s storm, up to the end of it.
# Measured in events, not time: what the capture took in (events + lost, the kernel's own
# count of what it could not deliver) must be under half of the calls of a storm ten times
# longer than --duration.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

STORM=20

rm -f "$T/go"
# One storm per CPU.
wls=()
for ((cpu = 0; cpu < $(nproc); cpu++)); do
	WORKLOAD_GO="$T/go" WORKLOAD_CPU=$cpu "$KTOP_WORKLOAD" rate 0 "$STORM" ktop-flood \
		>"$T/wl.$cpu" &
	wls+=("$!")
	CLEANUP_PIDS+=("$!")
done
mkfifo "$T/out"
# A reader of at most 8 MB/s keeping the last line: printing always lags the storm.
python3 -c 'import sys, time
last = b""
while True:
    b = sys.stdin.buffer.read1(65536)
    if not b:
        break
    last = (last + b)[-4096:]
    time.sleep(len(b) / 8e6)
sys.stdout.buffer.write(last.rstrip(b"\n").rsplit(b"\n", 1)[-1] + b"\n")' <"$T/out" >"$T/summary" &
CLEANUP_PIDS+=("$!")
start_ktop "$T/out" "$T/err" -b --json --memory 8M --duration 2 \
	-e syscalls:sys_enter_getppid --filter 'comm == "ktop-flood"'
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$kpid" $((STORM + 60)) || fail "ktop -b --duration 2 still running after $((STORM + 60)) s"
[ "$WAIT_RC" = 0 ] || fail "ktop exited $WAIT_RC: $(head -c 500 "$T/err")"
assert_no_sanitizer "$T/err"
calls=0
for pid in "${wls[@]}"; do
	wait_pid_exit "$pid" $((STORM + 30)) || fail "workload $pid did not end"
done
for ((cpu = 0; cpu < ${#wls[@]}; cpu++)); do
	calls=$((calls + $(sed -n 's/^calls=//p' "$T/wl.$cpu")))
done
wait_until 10 has_line "$T/summary" || fail "no summary line"
took=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["events"] + s["lost"])' "$T/summary") || fail "no JSON summary: $(cat "$T/summary")"
log "storm: $calls calls in ${STORM}s; the capture took in $took; $(cat "$T/summary")"
[ "$took" -gt 0 ] || fail "the capture took in nothing"
[ $((took * 2)) -lt "$calls" ] ||
	fail "a --duration 2 capture took in $took of the $calls calls of a ${STORM}s storm: it did not end at --duration"
assert_clean
pass
