#!/bin/bash
# Uprobes and uretprobes through batch mode, against tests/helpers/probe_target, whose calls
# are known exactly: ktop_probe_target(i, "ktop-probe-arg") for i = 0..N-1 returning
# i * 3 + 7, then libc's atoi("4242") N times. Asserted through `ktop -b --json`:
#  - exactly N entry and N return hits of the target's own function, with n = 0..N-1 in
#    order, s = the string (a dereference of a register, :string), r = i * 3 + 7 (:s32);
#  - a shared-library function found by its library name: exactly N atoi hits with the
#    string argument and N returns of 4242, scoped to the target by pid= (other processes
#    call atoi too);
#  - automatic names (function, function_ret) and NAME=;
#  - the probe group ktop_<pid> exists while ktop runs and is gone after it, on a clean
#    exit, on SIGTERM, and after kill -9 (the guard removes it; without the guard, the next
#    ktop's start does).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_python
KTOP_PROBE_TARGET=${KTOP_PROBE_TARGET:-$(dirname "$KTOP")/tests/helpers/probe_target}
[ -x "$KTOP_PROBE_TARGET" ] || fail "no probe target at '$KTOP_PROBE_TARGET' (make check builds it)"
grep -q . "$TRACEFS/uprobe_events" 2>/dev/null || [ -e "$TRACEFS/uprobe_events" ] ||
	skip "this kernel has no uprobe events"

N=37
DYN=$(_dynevents_file)
group_exists() { grep -q "^[^:]*:ktop_$1/" "$DYN"; }
group_gone() { ! group_exists "$1"; }

# start_target NAME: the target waiting for $T/NAME.go; its pid in TARGET_PID.
start_target()
{
	rm -f "$T/$1.go"
	"$KTOP_PROBE_TARGET" "$N" "$T/$1.go" >"$T/$1.target" &
	TARGET_PID=$!
	CLEANUP_PIDS+=("$TARGET_PID")
	wait_until 10 has_line "$T/$1.target" || fail "probe target printed no pid"
	[ "$(head -1 "$T/$1.target")" = "$TARGET_PID" ] || fail "probe target pid mismatch"
}

# ---- the target's own function, entry and return, and libc's atoi -----------------------------
start_target run
tgt=$TARGET_PID
start_ktop "$T/run.out" "$T/run.err" -b --json \
	--uprobe "$KTOP_PROBE_TARGET:ktop_probe_target n=%di:s32 s=+0(%si):string" \
	--uretprobe "$KTOP_PROBE_TARGET:ktop_probe_target r=\$retval:s32" \
	--uprobe "libatoi=libc.so.6:atoi s=+0(%di):string pid=$tgt" \
	--uretprobe "libc.so.6:atoi r=\$retval:s32 pid=$tgt"
pid=$KTOP_PID
wait_capturing "$pid" "ktop_$pid" atoi_ret
for ev in ktop_probe_target ktop_probe_target_ret libatoi atoi_ret; do
	event_enabled "$pid" "ktop_$pid" "$ev" || fail "ktop_$pid:$ev not enabled"
done
group_exists "$pid" || fail "no dynamic event group ktop_$pid while ktop runs"
assert_top_untouched
touch "$T/run.go"
wait_pid_exit "$tgt" 10 || fail "probe target did not finish"
[ "$WAIT_RC" = 0 ] || fail "probe target exited $WAIT_RC"
stop_ktop "$pid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/run.err")"
[ -s "$T/run.err" ] && fail "ktop wrote to stderr: $(head -c 400 "$T/run.err")"
group_gone "$pid" || fail "group ktop_$pid left after a clean exit: $(grep "ktop_$pid/" "$DYN")"
assert_clean

python3 - "$T/run.out" "$pid" "$tgt" "$N" <<'EOF' || fail "uprobe hits wrong (see above)"
import json, sys

path, kpid, tgt, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
g = f"ktop_{kpid}:"
rows = [json.loads(l) for l in open(path) if l.strip()]
summary = rows.pop()["summary"]
# the probes' hit counts ({"probe":...}, tests/live/uprobe_hits.sh) come before the summary
reported = {r.pop("probe")["event"] for r in rows if "probe" in r}
rows = [r for r in rows if r]
by = {}
for r in rows:
    by.setdefault(r["event"], []).append(r)
errors = []
def check(cond, msg):
    if not cond:
        errors.append(msg)
ent, ret = by.get(g + "ktop_probe_target", []), by.get(g + "ktop_probe_target_ret", [])
check(len(ent) == n, f"{len(ent)} entry hits of ktop_probe_target, expected {n}")
check(len(ret) == n, f"{len(ret)} return hits of ktop_probe_target, expected {n}")
check([r["fields"]["n"] for r in ent] == list(range(n)), f"n values {[r['fields'].get('n') for r in ent][:8]}...")
check(all(r["fields"]["s"] == "ktop-probe-arg" for r in ent), f"s values {set(r['fields'].get('s') for r in ent)}")
check([r["fields"]["r"] for r in ret] == [i * 3 + 7 for i in range(n)], f"return values {[r['fields'].get('r') for r in ret][:8]}...")
check(all(r["pid"] == tgt for r in ent + ret), "hits from another pid")
la, lr = by.get(g + "libatoi", []), by.get(g + "atoi_ret", [])
check(len(la) == n, f"{len(la)} atoi hits, expected {n}")
check(len(lr) == n, f"{len(lr)} atoi returns, expected {n}")
check(all(r["fields"]["s"] == "4242" for r in la), f"atoi args {set(r['fields'].get('s') for r in la)}")
check(all(r["fields"]["r"] == 4242 for r in lr), f"atoi returns {set(r['fields'].get('r') for r in lr)}")
check(all(r["pid"] == tgt for r in la + lr), "atoi hits from another pid despite pid=")
# entry before return, call by call
seq = [r["event"].split(":")[1] for r in rows if r["event"].startswith(g + "ktop_probe")]
check(seq == ["ktop_probe_target", "ktop_probe_target_ret"] * n, "entries and returns not interleaved")
check(set(by) <= {g + e for e in ("ktop_probe_target", "ktop_probe_target_ret", "libatoi", "atoi_ret")}, f"unexpected events {set(by)}")
check(reported == set(by), f"hit counts reported for {reported}, not {set(by)}")
check(summary["lost"] == 0, f"lost {summary['lost']}")
for e in errors:
    print("uprobes:", e)
sys.exit(1 if errors else 0)
EOF
log "uprobe/uretprobe: exact hits, arguments and return values, on the binary and libc"

# ---- SIGTERM and kill -9 remove the group ----------------------------------------------------
start_ktop "$T/term.out" "$T/term.err" -b -q --uprobe "$KTOP_PROBE_TARGET:ktop_probe_target"
pid=$KTOP_PID
wait_capturing "$pid" "ktop_$pid" ktop_probe_target
stop_ktop "$pid" TERM 10
[ "$KTOP_RC" = 0 ] || fail "ktop after SIGTERM exited $KTOP_RC"
group_gone "$pid" || fail "group ktop_$pid left after SIGTERM"
assert_clean

start_ktop "$T/k9.out" "$T/k9.err" -b -q --uretprobe "$KTOP_PROBE_TARGET:ktop_probe_target" \
	--uprobe "libc.so.6:atoi"
pid=$KTOP_PID
wait_capturing "$pid" "ktop_$pid" atoi
kill -KILL "$pid"
wait_pid_exit "$pid" 10 || fail "ktop survived kill -9"
# the guard notices the death and removes the instance, then the group
wait_until 10 group_gone "$pid" || fail "group ktop_$pid left 10 s after kill -9: $(grep "ktop_$pid/" "$DYN")"
wait_until 10 instance_gone "$pid" || fail "instance ktop-$pid left after kill -9"
assert_clean
log "SIGTERM and kill -9: group ktop_<pid> removed"

# ---- without the guard, the next ktop's start removes a dead ktop's uprobes --------------------
KTOP_ENV=(KTOP_NO_GUARD=1)
start_ktop "$T/ng.out" "$T/ng.err" -b -q --uprobe "$KTOP_PROBE_TARGET:ktop_probe_target"
dead=$KTOP_PID
wait_capturing "$dead" "ktop_$dead" ktop_probe_target
kill -KILL "$dead"
wait_pid_exit "$dead" 10 || fail "ktop survived kill -9"
sleep 0.3
group_exists "$dead" || fail "group ktop_$dead vanished without a guard: the test proves nothing"
KTOP_ENV=()
run_ktop 20 "$T/next.out" "$T/next.err" -b -q --duration 0.1 -e sched:sched_switch
[ "$KTOP_RC" = 0 ] || fail "the next ktop exited $KTOP_RC: $(cat "$T/next.err")"
group_gone "$dead" || fail "the next ktop left the dead ktop's group ktop_$dead"
instance_gone "$dead" || fail "the next ktop left the dead ktop's instance"
assert_clean
log "a dead ktop's uprobe group is removed by the next start"
pass
