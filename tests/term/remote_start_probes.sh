#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The explorer over a remote agent (--via 'ktop --agent', a plain pipe) takes its probes and
# tracer from the command line, as locally, made on the agent's machine before the screen:
#   - --usdt PATH:PROVIDER:PROBE (the agent reads the notes) and --uprobe PATH:FUNC, both
#     made in the agent's probe group and enabled in its instance; after the target's N
#     guarded hits the stream holds exactly N rows of hit and one of main;
#   - -t with a tracer the agent's kernel refuses (this one has no usable function tracer):
#     one line with the agent's reason before the screen is taken, exit 1, the agent gone;
#   - --trigger and --stop-when land in the agent's instance as locally: a stacktrace:3 and
#     the stop's traceoff:1 on sys_enter_getppid, the stop firing on the workload's first
#     call (the stream STOPPED, the agent's tracing_on 0);
#   - q leaves the agent's machine clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_usdt_target
N=9

tmux_start 100 30 -- --via "echo \$\$ >$T/agent; exec $KTOP --agent" \
	--usdt "$TGT:ktop_test:hit" --uprobe "atmain=$TGT:main"
wait_until 15 test -s "$T/agent" || fail "the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
wait_capturing "$agent" "ktop_$agent" hit 15
wait_capturing "$agent" "ktop_$agent" atmain 5
grep -Eq "^p:ktop_$agent/hit $TGT:0x[0-9a-f]+\(0x[0-9a-f]+\)" "$TRACEFS/uprobe_events" ||
	fail "no USDT uprobe with its semaphore: $(grep "ktop_$agent/" "$TRACEFS/uprobe_events")"
[ "$(agent_probes)" = 2 ] || fail "the agent's group holds $(agent_probes) probes, not 2"
expect_text "Events: all CPUs" 10 "the explorer did not start on the agent"

"$TGT" "$N" >"$T/usdt.out" || fail "usdt_target failed"
[ "$(sed -n 2p "$T/usdt.out")" = "guard $N semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/usdt.out")', expected 'guard $N semaphore 1'"
expect_text "Events: all CPUs +$((N + 1)) held" 10 "the stream does not hold the $N hits and main"
expect_count "usdt_targ[a-z]*-[0-9]+ +ktop_$agent:hit " "$N" 3 "not $N rows of hit"
expect_count "usdt_targ[a-z]*-[0-9]+ +ktop_$agent:atmain " 1 3 "not one row of main"
log "--usdt and --uprobe over the agent: $N hits and main"

tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent $agent or its instance still there 2 s after"
[ "$(agent_probes)" = 0 ] || fail "q left $(agent_probes) probes of the agent's group"
tmux_kill_server

# --trigger and --stop-when: the agent's triggers
workload_start st count 5 ktop-st
rm -f "$T/agent"
tmux_start 100 30 -- --via "echo \$\$ >$T/agent; exec $KTOP --agent" \
	-e syscalls:sys_enter_getppid --trigger 'syscalls:sys_enter_getppid:stacktrace:3' \
	--stop-when "syscalls:sys_enter_getppid if common_pid == $WL_PID"
wait_until 15 test -s "$T/agent" || fail "--stop-when: the agent did not start"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid 15
trig=$(instance_dir "$agent")/events/syscalls/sys_enter_getppid/trigger
grep -qx 'stacktrace:count=3' "$trig" || fail "--trigger: the agent's trigger file holds '$(cat "$trig")'"
grep -qx "traceoff:count=1 if common_pid == $WL_PID" "$trig" ||
	fail "--stop-when: the agent's trigger file holds '$(cat "$trig")'"
expect_text "Events: all CPUs" 10 "--stop-when: the explorer did not start on the agent"
workload_go st 30
expect_text "STOPPED" 10 "--stop-when: the stream did not stop on the workload's call"
[ "$(cat "$(instance_dir "$agent")/tracing_on")" = 0 ] || fail "--stop-when: the agent's tracing_on is not 0"
log "--trigger and --stop-when on the agent: the stop fired"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "--stop-when: the agent or its instance outlived q by 2 s"
tmux_kill_server

# -t: the agent's kernel's refusal, in one line, before the screen
run_ktop 30 "$T/t.out" "$T/t.err" --via "echo \$\$ >$T/agent2; exec $KTOP --agent" -t function
[ "$KTOP_RC" = 1 ] || fail "-t function over the agent: exit $KTOP_RC; stderr: $(head -c 600 "$T/t.err")"
[ "$(wc -l <"$T/t.err")" = 1 ] || fail "-t function: stderr is not one line: $(head -c 1000 "$T/t.err")"
grep -q "function" "$T/t.err" || fail "-t function: the line does not name the tracer: $(cat "$T/t.err")"
agent2=$(cat "$T/agent2")
wait_until 2 all_gone "$agent2" || fail "-t function: the agent $agent2 or its instance is still there"
log "-t function: $(cat "$T/t.err")"
assert_clean
pass
