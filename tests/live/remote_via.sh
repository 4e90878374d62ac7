#!/bin/bash
# ktop -b over a remote agent through a plain pipe (--via 'ktop --agent'), held to the local
# live tests' standards (reader_exact.sh, loss_overload.sh):
#   - every getppid() of a workload of exactly N calls arrives, decoded through the formats
#     the agent sent, named, with nothing lost, the agent reading its buffer mapped where its
#     kernel maps it (6.10+); the same with --compress, in fewer bytes;
#   - under overload (the agent's --buffer-kb 4) the loss the viewer reports equals the
#     agent's kernel's per_cpu stats, and events + lost == the calls made;
#   - the agent told to go (SIGTERM, SIGHUP) while its viewer stopped reading, and the viewer
#     killed with -9 (a probe of the agent's in place): the agent's instance, its probe group
#     and the agent itself are gone within 2 s;
#   - an agent whose input never closes (as on a serial line) ends on the viewer's end
#     request, its instance gone, and the viewer gets its END.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

N=${KTOP_EXACT_N:-200000}

# via TAG AGENT_ARGS VIEWER_ARGS...: starts the viewer (its pid in kpid) on an agent whose
# pid is written to $T/TAG.agent (sh -c's exec keeps it); sets agent.
via()
{
	local tag=$1 aargs=$2
	shift 2
	start_ktop "$T/$tag.out" "$T/$tag.err" -b \
		--via "echo \$\$ >$T/$tag.agent; exec $KTOP --agent $aargs" "$@"
	kpid=$KTOP_PID
	wait_until 15 test -s "$T/$tag.agent" || fail "$tag: the agent did not start: $(head -c 500 "$T/$tag.err")"
	agent=$(cat "$T/$tag.agent")
	KTOP_PIDS+=("$agent")
}

# workload TAG ARGS...: the workload waiting for $T/go; its pid in wl.
workload()
{
	local tag=$1
	shift
	rm -f "$T/go"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" "$@" >"$T/$tag.wl" &
	wl=$!
	CLEANUP_PIDS+=("$wl")
}

# summary TAG: the viewer's last line into events, lost, marked, unknown.
summary()
{
	local s
	s=$(tail -n1 "$T/$1.out")
	[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\ lost_marked=([0-9]+)\ lost_unknown_pages=([0-9]+)\  ]] ||
		fail "$1: no summary line: '$s'; stderr: $(head -c 500 "$T/$1.err")"
	events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]} marked=${BASH_REMATCH[3]}
	unknown=${BASH_REMATCH[4]}
	log "$1: $s"
}

# exact TAG VIEWER_ARGS...: N calls, all of them seen. The agent's buffer holds all N even if
# its reader never ran (a loaded machine can starve it): what is checked is that nothing is
# lost between the agent's kernel and the viewer, not how fast the reader is scheduled.
EXACT_KB=$(((N * 64 + 1048575) / 1024))
exact()
{
	local tag=$1
	shift
	workload "$tag" count "$N" ktop-exact
	wait_until 5 has_line "$T/$tag.wl" || fail "workload printed no pid"
	via "$tag" "--buffer-kb $EXACT_KB" -e syscalls:sys_enter_getppid \
		--filter "common_pid == $wl" --max-events "$N" "$@"
	wait_capturing "$agent" syscalls sys_enter_getppid
	amapped=$(ring_mappings "$agent") # the agent reads as its kernel allows: mapped on 6.10+
	touch "$T/go"
	wait_pid_exit "$wl" 60 || fail "workload count $N did not finish within 60s"
	# The viewer ends on its own once the N events came (--max-events): a stop before
	# then would bound the agent's drain (docs/remote.md "Backlog") and count the rest
	# lost, which on a loaded machine says nothing of the link's exactness.
	if wait_pid_exit "$kpid" 60; then
		KTOP_RC=$WAIT_RC
	else
		stop_ktop "$kpid" INT 30
	fi
	[ "$KTOP_RC" = 0 ] || fail "$tag: viewer exited $KTOP_RC; stderr: $(head -c 500 "$T/$tag.err")"
	wait_pid_exit "$agent" 5 || fail "$tag: the agent outlived its viewer"
	instance_gone "$agent" || fail "$tag: instance ktop-$agent left after the agent exited"
	summary "$tag"
	if [ "$lost" != 0 ] || [ "$marked" != 0 ] || [ "$unknown" != 0 ]; then
		fail "$tag: the kernel lost events in a buffer of ${EXACT_KB} KiB a CPU; cannot check exactness"
	fi
	[ "$events" = "$N" ] || fail "$tag: events=$events, the workload made exactly $N calls"
	bytes=$(sed -n 's/.* \([0-9]*\) bytes received.*/\1/p' "$T/$tag.out")
	[ -n "$bytes" ] || fail "$tag: no bytes figure: $(tail -n2 "$T/$tag.out" | head -n1)"
}

# --- every call, named, through the formats the agent sent ---------------------------------
exact text
rows=$(grep -c "ktop-exact-$wl .*syscalls:sys_enter_getppid: $" "$T/text.out")
[ "$rows" = "$N" ] || fail "text: $rows rows of ktop-exact-$wl's getppid, expected $N: $(grep -v ktop-exact "$T/text.out" | head -3)"
plain=$bytes
log "text: $rows rows, $plain bytes on the wire ($((plain / N)) per event)"
ncpus=$(ls -d "$TRACEFS"/per_cpu/cpu[0-9]* | wc -l)
if kernel_maps; then
	[ "$amapped" = "$ncpus" ] || fail "text: the agent mapped $amapped of $ncpus CPUs' buffers on $(uname -r)"
fi

# --- compressed: the same events in fewer bytes ---------------------------------------------
exact zstd -q --compress
[ "$(wc -l <"$T/zstd.out")" = 2 ] || fail "zstd: -q printed more than the two summary lines"
[ "$bytes" -lt $((plain / 2)) ] || fail "zstd: $bytes bytes compressed, $plain plain: not even halved"
log "zstd: $bytes bytes on the wire ($((bytes * 100 / plain))% of plain)"

# --- overload: the remote kernel's loss, exactly -----------------------------------------
workload loss rate 0 0.5 ktop-loss
via loss "--buffer-kb 4" -q -e syscalls:sys_enter_getppid --filter "common_pid == $wl"
wait_capturing "$agent" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 30 || fail "workload rate 0 0.5 still running after 30s"
calls=$(sed -n 's/^calls=//p' "$T/loss.wl")
[ -n "$calls" ] || fail "workload printed no calls= line"
final_cpu_stats "$agent"
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "loss: viewer exited $KTOP_RC; stderr: $(head -c 500 "$T/loss.err")"
summary loss
[ "$lost" -gt 0 ] || fail "loss: no loss with the agent's --buffer-kb 4 ($calls calls, kernel says $kernel_lost)"
[ "$lost" = "$kernel_lost" ] || fail "loss: the viewer says lost=$lost, the agent's kernel $kernel_lost"
[ $((events + lost)) = "$calls" ] || fail "loss: events=$events + lost=$lost != $calls calls"
[ "$marked" -le "$lost" ] || fail "loss: lost_marked=$marked exceeds lost=$lost"

# --- a viewer that stopped reading, the agent told to go: clean within 2 s all the same ----
# _agent_stuck PID: the agent is held up by its stopped viewer: a thread of it sleeps on a
# futex (its reader, waiting for room in the full queue) while the kernel holds events of
# its instance it has not read.
_agent_stuck() { grep -q futex /proc/"$1"/task/*/wchan 2>/dev/null && ! ring_read "$1"; }
for sig in TERM HUP; do
	workload "stuck$sig" rate 0 3 ktop-stuck
	via "stuck$sig" "" -e syscalls:sys_enter_getppid --filter "common_pid == $wl"
	wait_capturing "$agent" syscalls sys_enter_getppid
	kill -STOP "$kpid"
	touch "$T/go"
	wait_until 10 _agent_stuck "$agent" ||
		fail "stuck$sig: the agent was not held up by its stopped viewer within 10 s"
	kill -"$sig" "$agent"
	wait_until 2 all_gone "$agent" ||
		fail "stuck$sig: 2 s after SIG$sig the agent (its viewer stopped) is not gone: alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
	kill -CONT "$kpid"
	wait_pid_exit "$kpid" 10 || fail "stuck$sig: the viewer did not end after its agent"
	if [ "$WAIT_RC" != 0 ]; then # the end frame may not have made it: said in one line
		[ "$(wc -l <"$T/stuck$sig.err")" = 1 ] && grep -q "closed before the agent's end" "$T/stuck$sig.err" ||
			fail "stuck$sig: viewer exit $WAIT_RC: $(head -c 500 "$T/stuck$sig.err")"
	fi
	log "stuck$sig: agent gone within 2 s of SIG$sig with its viewer stopped; the viewer then: exit $WAIT_RC $(head -c 200 "$T/stuck$sig.err")"
done

# --- a line that never closes (a serial port, a terminal): the viewer's end request ------
# The agent's stdin is a FIFO it holds open for writing itself, as a tty never reads EOF;
# cat copies the viewer's bytes into it. Only the end request tells the agent to go.
mkfifo "$T/line" || fail "mkfifo failed"
start_ktop "$T/line.out" "$T/line.err" -b -q --duration 1 -e syscalls:sys_enter_getppid \
	--via "exec 3<&0; cat <&3 >$T/line & exec 3<&-; echo \$\$ >$T/line.agent; exec $KTOP --agent <>$T/line"
kpid=$KTOP_PID
wait_until 15 test -s "$T/line.agent" || fail "line: the agent did not start: $(head -c 500 "$T/line.err")"
agent=$(cat "$T/line.agent")
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid
wait_pid_exit "$kpid" 30 || fail "line: the viewer did not end after --duration 1 (no END from an agent whose input never closes)"
[ "$WAIT_RC" = 0 ] || fail "line: viewer exited $WAIT_RC: $(head -c 500 "$T/line.err")"
wait_until 2 all_gone "$agent" ||
	fail "line: 2 s after its viewer ended, the agent on a line that never closes is not gone: alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
log "line: the agent on a line that never closes ended on the viewer's end request"

# --- the viewer killed with -9: the agent leaves the kernel clean within 2 s -------------
libc=$(ldd "$KTOP_WORKLOAD_BIN" | awk '/libc\.so/ { print $3; exit }')
[ -n "$libc" ] || fail "cannot find the workload's libc"
via kill9 "" --uprobe "ktop_atoi=$libc:atoi" -e syscalls:sys_enter_getppid
wait_capturing "$agent" syscalls sys_enter_getppid
grep -q "^p:ktop_$agent/ktop_atoi " "$TRACEFS/uprobe_events" ||
	fail "kill9: the agent made no probe: $(grep ktop_ "$TRACEFS/uprobe_events")"
kill -9 "$kpid"
wait_until 2 all_gone "$agent" ||
	fail "kill9: 2 s after the viewer's kill -9: agent alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no), probes: $(grep "ktop_$agent/" "$TRACEFS/dynamic_events")"
log "kill9: agent $agent gone, its instance and probe group removed within 2 s"

assert_clean
pass
