#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --stack over a remote agent (--via 'ktop --agent', a plain pipe): the agent puts the
# stacktrace trigger on the event in its instance, and the viewer names the kernel stack's
# frames from the agent's own kallsyms, printed as local batch mode prints them:
#  - a workload of exactly N getppid() calls (the filter keeps its own): N event lines,
#    each followed at once by its frames, named (do_syscall_64+0x.../0x...), and a
#    stacks=N line; with --json every event's object followed by one with its "stack"
#    array of named kernel frames;
#  - an event the agent's kernel lacks: the agent's one line, exit 1;
#  - --tree where the agent's kernel has no function_graph in an instance (this one): one
#    line naming the agent and the tracers it has, exit 1, as local --tree says it (the lab
#    prints the guest's trees: tests/lab/remote-explorer.sh).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

N=50
EV=syscalls:sys_enter_getppid
_logged() { grep -q -- "$2" "$1" 2>/dev/null; }

# capture TAG ARGS...: the workload's N calls through an agent with --stack and ARGS.
capture()
{
	local tag=$1
	shift
	workload_start "$tag" count "$N" ktop-rstack
	start_ktop "$T/$tag.out" "$T/$tag.err" -b --via "exec $KTOP --agent -v --log $T/$tag.klog" \
		--stack "$EV" --filter "common_pid == $WL_PID" "$@"
	wait_until 30 _logged "$T/$tag.klog" "agent_request: stack $EV: " ||
		fail "$tag: the agent did not take --stack: $(cat "$T/$tag.err") $(tail -n3 "$T/$tag.klog")"
	workload_go "$tag" 30
	sleep 0.3 # the agent's next page, with the last calls, is sent within its -d tick
	stop_ktop "$KTOP_PID" INT 15
	[ "$KTOP_RC" = 0 ] || fail "$tag: ktop exited $KTOP_RC: $(cat "$T/$tag.err")"
	assert_no_sanitizer "$T/$tag.err"
}

capture text
awk -v ev="$EV:" -v n="$N" '
	index($0, ev) { if (want) bad = bad " event without frames before line " NR; events++; want = 1; frames = 0; next }
	/^ => / { if (!want && !frames) bad = bad " frames with no event at line " NR; frames++; want = 0
		  if ($2 ~ /^do_syscall_64\+0x[0-9a-f]+\/0x[0-9a-f]+$/) named++; next }
	END { if (want) bad = bad " the last event without frames"
	      if (events != n || named != n || bad != "") { print events " events, " named " named do_syscall_64 frames:" bad; exit 1 } }
' "$T/text.out" >"$T/text.why" || fail "text: $(cat "$T/text.why"): $(head -n 12 "$T/text.out")"
grep -qx "# ktop: stacks=$N (kernel stack records, each printed with its event)" "$T/text.out" ||
	fail "text: no stacks=$N line: $(grep '^#' "$T/text.out")"
log "text: $N events, each with its kernel stack named from the agent's kallsyms"

capture json --json
python3 - "$T/json.out" "$N" "$EV" <<'PY' || fail "json: stacks over the agent wrong (see above)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
n, ev = int(sys.argv[2]), sys.argv[3]
events = [r for r in rows if r.get("event") == ev]
stacks = [r["stack"] for r in rows if "stack" in r]
ok = len(events) == n and len(stacks) == n and all(
    any(f["name"] == "do_syscall_64" and f["kind"] == "kernel" for f in s) for s in stacks)
if not ok:
    print("remote_stack:", len(events), "events,", len(stacks), "stacks:", stacks[:1])
sys.exit(0 if ok else 1)
PY
log "json: $N events, each with a \"stack\" of named kernel frames"

run_ktop 30 "$T/bad.out" "$T/bad.err" -b --via "exec $KTOP --agent" --stack nosuchsys:nosuchevent \
	--duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q 'refused --stack nosuchsys:nosuchevent: ' "$T/bad.err" ||
	fail "--stack of an event the agent lacks: exit $KTOP_RC: $(cat "$T/bad.err")"
log "an event the agent lacks: $(cat "$T/bad.err")"

run_ktop 30 "$T/tree.out" "$T/tree.err" -b --via "exec $KTOP --agent" --tree --duration 0.5
if grep -qw function_graph "$TRACEFS/available_tracers"; then
	log "this kernel has function_graph: --tree over the agent is the lab's to check"
else
	[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/tree.err")" = 1 ] &&
		grep -q -- '--tree: agent at .* offers no function_graph tracer in ktop.s instance (available: ' "$T/tree.err" ||
		fail "--tree without function_graph: exit $KTOP_RC: $(cat "$T/tree.err")"
	log "--tree: $(cat "$T/tree.err")"
fi
assert_clean
pass
