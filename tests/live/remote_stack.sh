#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --stack over a remote agent (--via 'ktop --agent', a plain pipe): the agent puts the
# stacktrace trigger on the event in its instance, and the viewer names the kernel stack's
# frames from the agent's own kallsyms, printed as local batch mode prints them:
#  - a workload of exactly N getppid() calls (the filter keeps its own): N event lines,
#    each followed at once by its frames, named (do_syscall_64+0x.../0x...), and a
#    stacks=N line; with --json every event's object followed by one with its "stack"
#    array of named kernel frames;
#  - --user-stacks: workloads that exit before their rows are printed still have every user
#    stack named (libc's syscall, then its caller) by the agent's machine, which sent the
#    names; in text, each event's kernel frames and then its user frames, innermost first;
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
	start_ktop "$T/$tag.out" "$T/$tag.err" -b \
		--via "echo \$\$ >$T/$tag.agent; exec $KTOP --agent -v --log $T/$tag.klog" \
		--stack "$EV" --filter "common_pid == $WL_PID" "$@"
	wait_until 30 _logged "$T/$tag.klog" "agent_request: stack $EV: " ||
		fail "$tag: the agent did not take --stack: $(cat "$T/$tag.err") $(tail -n3 "$T/$tag.klog")"
	workload_go "$tag" 30
	wait_until 10 ring_read "$(cat "$T/$tag.agent")" ||
		fail "$tag: the agent left events unread in its instance 10 s after the workload"
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

# --user-stacks: three workloads that start after the agent and exit at once, before batch
# mode prints their rows; the agent's machine names every user stack's frames from its side
# band of mappings (this machine's /proc no longer has them) and sends the names first.
start_ktop "$T/user.out" "$T/user.err" -b --json \
	--via "echo \$\$ >$T/user.agent; exec $KTOP --agent -v --log $T/user.klog" \
	--stack "$EV" --user-stacks --filter 'comm == "ktop-rgone"'
wait_until 30 _logged "$T/user.klog" "agent_request: stack $EV: " ||
	fail "user: the agent did not take --stack: $(cat "$T/user.err") $(tail -n3 "$T/user.klog")"
_logged "$T/user.klog" "agent_request: user-stacks" ||
	fail "user: the agent was not asked for user stacks: $(grep agent_request "$T/user.klog")"
for _ in 1 2 3; do
	"$KTOP_WORKLOAD" count "$N" ktop-rgone >/dev/null
done
wait_until 10 ring_read "$(cat "$T/user.agent")" ||
	fail "user: the agent left events unread in its instance 10 s after the workloads"
stop_ktop "$KTOP_PID" INT 15
[ "$KTOP_RC" = 0 ] || fail "user: ktop exited $KTOP_RC: $(cat "$T/user.err")"
assert_no_sanitizer "$T/user.err"
python3 - "$T/user.out" "$((3 * N))" "$EV" <<'PY' || fail "user: user stacks over the agent wrong (see above)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
n, ev = int(sys.argv[2]), sys.argv[3]
events = named = 0
cur = None
for r in rows:
    if r.get("event") == ev:
        events += 1
        cur = r
    elif r.get("event") == "ftrace:user_stack" and cur is not None:
        st = r.get("stack") or []
        if len(st) >= 2 and st[0]["name"] == "syscall" and \
                all(f["kind"] == "user" for f in st[:2]):
            named += 1
        else:
            print("remote_stack: a user stack not named from the agent's machine:", st)
        cur = None
if events != n or named != n:
    print("remote_stack:", events, "events,", named, "user stacks named from syscall; want", n)
    sys.exit(1)
PY
log "user: $((3 * N)) events of exited workloads, each user stack named on the agent's machine"

# In text, each event's frames innermost first, as locally: its kernel stack, then its user
# stack (the kernel writes the user stack first; the viewer holds it for the kernel's).
capture usertext --user-stacks
awk -v ev="$EV:" -v n="$N" '
	index($0, ev) { check(); events++; state = "event"; next }
	/^ => / { if ($2 ~ /^do_syscall_64\+/) { if (state != "event") bad = bad " kernel after user at " NR; state = "kernel" }
		  else if ($2 == "syscall") { if (state != "kernel") bad = bad " user before kernel at " NR; state = "user"; users++ }
		  next }
	function check() { if (events && state != "user") bad = bad " an event without its user stack before " NR }
	END { check(); if (events != n || users != n || bad != "") { print events " events, " users " user stacks:" bad; exit 1 } }
' "$T/usertext.out" >"$T/usertext.why" || fail "usertext: $(cat "$T/usertext.why"): $(head -n 12 "$T/usertext.out")"
grep -qx "# ktop: stacks=$((2 * N)) (kernel and user stack records, each printed with its event)" "$T/usertext.out" ||
	fail "usertext: no stacks=$((2 * N)) line: $(grep '^#' "$T/usertext.out")"
log "usertext: each of $N events with its kernel stack, then its user stack"

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
