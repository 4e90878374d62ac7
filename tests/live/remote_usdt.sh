#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --usdt over a remote agent (--via 'ktop --agent', a plain pipe): the agent reads the USDT
# notes of a binary on its own machine and makes one uprobe per site, as local --usdt does
# (usdt.sh), and the viewer enables every site it names. Against tests/helpers/usdt_target:
#  - exactly N hits of ktop_test:hit with its int, long and string as the target passed
#    them, and its library's ktop_test:twice as the two sites twice and twice_2, one hit
#    each; the target's semaphore was counted up (its guard open N times); each site's hit
#    count as the agent's kernel kept it (uprobe_profile), as local batch mode prints it;
#  - a probe the binary does not have: the agent's one line, exit 1;
#  - after the viewer's end the agent's uprobe group is gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_python
require_usdt_target
N=41

_logged() { grep -q -- "$2" "$1" 2>/dev/null; }

rm -f "$T/go"
"$TGT" "$N" "$T/go" >"$T/target.out" &
tgt=$!
CLEANUP_PIDS+=("$tgt")
wait_until 10 has_line "$T/target.out" || fail "usdt target printed no pid"
start_ktop "$T/run.out" "$T/run.err" -b --json \
	--via "echo \$\$ >$T/agent.pid; exec $KTOP --agent -v --log $T/agent.klog" \
	--usdt "$TGT:ktop_test:hit arg3:string pid=$tgt" --usdt "$LIB:ktop_test:twice pid=$tgt"
wait_until 30 _logged "$T/agent.klog" 'agent_request: enable ktop_[0-9]*:twice_2: ' ||
	fail "the agent did not enable twice_2: $(cat "$T/run.err") $(tail -n5 "$T/agent.klog")"
agent=$(cat "$T/agent.pid")
grep -Eq "^p:ktop_$agent/hit $TGT:0x[0-9a-f]+\(0x[0-9a-f]+\) arg1=[^ ]+:s32 arg2=[^ ]+:s64 arg3=\+0\([^ ]+\):string\$" \
	"$TRACEFS/uprobe_events" || fail "uprobe_events: $(grep "ktop_$agent/" "$TRACEFS/uprobe_events")"
touch "$T/go"
wait_pid_exit "$tgt" 10 || fail "usdt target did not finish"
[ "$(sed -n 2p "$T/target.out")" = "guard $N semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/target.out")', expected 'guard $N semaphore 1'"
wait_until 10 ring_read "$agent" || fail "the agent left events unread in its instance 10 s after the target"
stop_ktop "$KTOP_PID" INT 15
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/run.err")"
assert_no_sanitizer "$T/run.err"
wait_until 5 _pid_gone "$agent" || fail "the agent $agent outlived the viewer"
grep -q "^[^:]*:ktop_$agent/" "$(_dynevents_file)" &&
	fail "ktop_$agent left in the dynamic events: $(grep "ktop_$agent/" "$(_dynevents_file)")"
python3 "$(dirname "$0")/../helpers/usdt_hits.py" "$T/run.out" "ktop_$agent" "$tgt" "$N" ||
	fail "USDT hits over the agent wrong (see above)"
for want in "hit\",\"kind\":\"uprobe\",\"maxactive\":0,\"hits\":$N}" \
	"twice\",\"kind\":\"uprobe\",\"maxactive\":0,\"hits\":1}" \
	"twice_2\",\"kind\":\"uprobe\",\"maxactive\":0,\"hits\":1}"; do
	grep -qF "{\"host\":\"via1\",\"probe\":{\"event\":\"ktop_$agent:$want}" "$T/run.out" ||
		fail "no probe counts ktop_$agent:$want from the agent: $(grep '"probe"' "$T/run.out")"
done
log "$N of $N hits with their arguments, both sites of twice, through the agent's uprobes, and their counts"

run_ktop 30 "$T/bad.out" "$T/bad.err" -b --via "exec $KTOP --agent" \
	--usdt "$TGT:ktop_test:nosuchprobe" --duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] &&
	grep -q "refused the probe .*no USDT probe 'ktop_test:nosuchprobe' in $TGT" "$T/bad.err" ||
	fail "an unknown USDT probe over the agent: exit $KTOP_RC: $(cat "$T/bad.err")"
log "an unknown probe: $(cat "$T/bad.err")"
assert_clean
pass
