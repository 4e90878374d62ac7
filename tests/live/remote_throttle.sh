#!/bin/bash
# The agent behind a 250 kB/s link (tests/remote/throttle.py between it and the viewer), a
# workload calling getppid() flat out for a second, the agent's buffer 1 MiB per CPU:
#   - the link cannot carry it, so the agent falls behind and the kernel drops: the loss the
#     viewer reports equals the agent kernel's per_cpu stats, and events + lost == calls;
#   - told to stop, the agent removes its instance within 2 s although the kernel's buffers
#     (megabytes: seconds at 250 kB/s) are only in its queue by then,
#     then sends that tail and END at the link's pace: nothing it read is
#     lost on the way.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
RATE=250000

rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" rate 0 1 ktop-slow >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
start_ktop "$T/out" "$T/err" -b -q -e syscalls:sys_enter_getppid --filter "common_pid == $wl" \
	--via "sh -c 'echo \$\$ >$T/agent; exec $KTOP --agent --buffer-kb 1024' | python3 $KTOP_SRCDIR/tests/remote/throttle.py $RATE"
kpid=$KTOP_PID
wait_until 15 test -s "$T/agent" || fail "the agent did not start: $(head -c 500 "$T/err")"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid
touch "$T/go"
go_at=${EPOCHREALTIME/./}
wait_pid_exit "$wl" 30 || fail "workload rate 0 1 still running after 30s"
calls=$(sed -n 's/^calls=//p' "$T/wl")
[ -n "$calls" ] || fail "workload printed no calls= line"
final_cpu_stats "$agent"
[ "$kernel_lost" -gt 0 ] || fail "the kernel lost nothing of $calls calls behind a $RATE B/s link"

stop=${EPOCHREALTIME/./}
log "stop $(((stop - go_at) / 1000)) ms after the go"
kill -INT "$kpid"
_kernel_clean() { instance_gone "$agent" && ! grep -q "^[^:]*:ktop_$agent/" "$TRACEFS/dynamic_events" 2>/dev/null; }
wait_until 2 _kernel_clean || fail "the agent's instance is still there 2 s after the stop"
clean_ms=$(((${EPOCHREALTIME/./} - stop) / 1000))
pid_alive "$agent" && log "the agent's instance went after ${clean_ms} ms, the agent still sends its tail"
wait_pid_exit "$kpid" 45 || fail "the viewer did not end within 45 s of the stop"
[ "$WAIT_RC" = 0 ] || fail "viewer exited $WAIT_RC: $(head -c 500 "$T/err")"
tail_ms=$(((${EPOCHREALTIME/./} - stop) / 1000))
s=$(tail -n1 "$T/out")
[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\  ]] || fail "no summary: '$s'"
events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]}
log "$(head -n1 "$T/out")"
log "$s; the kernel lost $kernel_lost of $calls calls; instance gone ${clean_ms} ms, END ${tail_ms} ms after the stop"
[ "$lost" = "$kernel_lost" ] || fail "the viewer says lost=$lost, the agent's kernel $kernel_lost"
[ $((events + lost)) = "$calls" ] || fail "events=$events + lost=$lost != $calls calls"

assert_clean
pass
