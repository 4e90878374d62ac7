#!/bin/bash
# The agent behind a 250 kB/s link (tests/remote/throttle.py between it and the viewer), a
# workload calling getppid() flat out for a second:
#   - with 1 MiB per CPU, the link cannot carry it, so the agent falls behind and the
#     kernel drops: the loss the viewer reports is the agent kernel's per_cpu stats;
#   - with 64 MiB per CPU the kernel keeps it all, megabytes the link would need minutes
#     for: at the stop the agent reads only what its queue takes (4 MiB, half a second at
#     most), removes its instance, and counts what it left in the kernel's buffers as lost;
#   - either way, told to stop, the agent removes its instance within 2 s, loaded machine
#     or not (KTOP_THROTTLE_LOAD=N runs N busy loops meanwhile: its main thread never waits
#     for the link, so it hears the viewer's end at once), then sends its queue and END at
#     the link's pace: nothing it read is lost on the way, and events + lost is exactly the
#     calls made;
#   - the agent says how far behind it is: the largest backlog in the viewer's summary is
#     past the 1 MiB its queue holds before its reader waits (the link cannot have
#     emptied it while the kernel filled), with an age, the oldest unsent event's wait.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
RATE=250000

for _ in $(seq "${KTOP_THROTTLE_LOAD:-0}"); do
	(while :; do :; done) &
	CLEANUP_PIDS+=("$!")
done

_kernel_clean() { instance_gone "$agent" && ! grep -q "^[^:]*:ktop_$agent/" "$TRACEFS/dynamic_events" 2>/dev/null; }

# throttled KB: a second of getppid() flat out through the agent (--buffer-kb KB) behind
# the slow link, stopped once the workload is done; the figures checked.
throttled()
{
	local kb=$1
	rm -f "$T/go" "$T/agent"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" rate 0 1 ktop-slow >"$T/wl" &
	wl=$!
	CLEANUP_PIDS+=("$wl")
	start_ktop "$T/out" "$T/err" -b -q -e syscalls:sys_enter_getppid --filter "common_pid == $wl" \
		--via "sh -c 'echo \$\$ >$T/agent; exec $KTOP --agent --buffer-kb $kb ${KTOP_THROTTLE_LOG:+-v --log $KTOP_THROTTLE_LOG}' | python3 $KTOP_SRCDIR/tests/remote/throttle.py $RATE"
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
	if [ "$kb" = 1024 ]; then
		[ "$kernel_lost" -gt 0 ] || fail "$kb KiB: the kernel lost nothing of $calls calls behind a $RATE B/s link"
	fi

	stop=${EPOCHREALTIME/./}
	log "stop $(((stop - go_at) / 1000)) ms after the go"
	kill -INT "$kpid"
	wait_until 2 _kernel_clean || fail "$kb KiB: the agent's instance is still there 2 s after the stop"
	clean_ms=$(((${EPOCHREALTIME/./} - stop) / 1000))
	pid_alive "$agent" && log "the agent's instance went after ${clean_ms} ms, the agent still sends its tail"
	wait_pid_exit "$kpid" 45 || fail "$kb KiB: the viewer did not end within 45 s of the stop"
	[ "$WAIT_RC" = 0 ] || fail "$kb KiB: viewer exited $WAIT_RC: $(head -c 500 "$T/err")"
	tail_ms=$(((${EPOCHREALTIME/./} - stop) / 1000))
	s=$(tail -n1 "$T/out")
	[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\  ]] || fail "no summary: '$s'"
	events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]}
	log "$(head -n1 "$T/out")"
	[[ $(head -n1 "$T/out") =~ ,\ backlog\ max\ ([0-9]+)\ bytes\ ([0-9]+)\ ns, ]] ||
		fail "$kb KiB: no backlog in the agent's line: $(head -n1 "$T/out")"
	[ "${BASH_REMATCH[1]}" -ge 1048576 ] && [ "${BASH_REMATCH[2]}" -gt 0 ] ||
		fail "$kb KiB: behind a $RATE B/s link, the largest backlog reported is ${BASH_REMATCH[1]} bytes, ${BASH_REMATCH[2]} ns"
	log "$kb KiB: $s; the kernel lost $kernel_lost of $calls calls; instance gone ${clean_ms} ms, END ${tail_ms} ms after the stop"
	# the kernel's own loss, and what the agent's drain left in its buffers at the stop
	[ "$lost" -ge "$kernel_lost" ] || fail "$kb KiB: the viewer says lost=$lost, less than the agent's kernel's $kernel_lost"
	[ $((events + lost)) = "$calls" ] || fail "$kb KiB: events=$events + lost=$lost != $calls calls"
}

throttled 1024
throttled 65536
assert_clean
pass
