#!/bin/bash
# Batch output: --json is one valid JSON object per line with the documented keys, strings
# escaped (a comm with a quote and a backslash survives the round trip), the summary last;
# --duration ends the run by itself; --max-events N prints exactly N events, in JSON and
# in text.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

# A background of sched_switch, and a workload whose comm needs escaping.
WORKLOAD_CPU=1 "$KTOP_WORKLOAD" rate 2000 60 ktop-json-bg >/dev/null &
CLEANUP_PIDS+=("$!")

# ---- --json --duration: valid, complete, ends by itself ------------------------------------
weird='we"ird\name'
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count 7 "$weird" >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
# Named before ktop starts: ktop resolves a pid's name when it prints its first row.
wait_until 5 has_line "$T/wl" || fail "the workload printed no pid"
start_ktop "$T/d.out" "$T/d.err" -b --json --duration 2 -e sched:sched_switch -e syscalls:sys_enter_getppid
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 10 || fail "workload did not finish"
# --duration 2: it ends by itself (generously bounded; wall time is not asserted).
wait_pid_exit "$pid" 20 || fail "ktop --duration 2 still running after 20s"
[ "$WAIT_RC" = 0 ] || fail "ktop --duration 2 exited $WAIT_RC; stderr: $(head -c 300 "$T/d.err")"
instance_gone "$pid" || fail "instance ktop-$pid left"
[ -s "$T/d.err" ] && fail "ktop wrote to stderr in a normal run: $(head -c 300 "$T/d.err")"

python3 - "$T/d.out" "$wl" "$weird" <<'EOF' || fail "--json output check failed (see above)"
import json, sys

path, wl, weird = sys.argv[1], int(sys.argv[2]), sys.argv[3]
errors, rows, summary, weird_rows, kinds = [], 0, None, 0, set()
with open(path, "rb") as f:
    data = f.read()
if not data.endswith(b"\n"):
    errors.append("output does not end with a newline")
for i, raw in enumerate(data.split(b"\n")[:-1], 1):
    try:
        o = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        errors.append(f"line {i} is not JSON ({e}): {raw[:200]!r}")
        break
    if not isinstance(o, dict):
        errors.append(f"line {i} is not an object")
        break
    if summary is not None:
        errors.append(f"line {i} after the summary")
        break
    if "summary" in o:
        summary = o["summary"]
        continue
    if o.get("event") == "lost":
        continue
    for k, t in (("ts", int), ("cpu", int), ("pid", int), ("comm", str), ("event", str), ("fields", dict)):
        if not isinstance(o.get(k), t):
            errors.append(f"line {i}: {k} missing or not {t.__name__}: {raw[:200]!r}")
            break
    if errors:
        break
    kinds.add(o["event"])
    if o["event"] == "sched:sched_switch":
        for fld in ("prev_comm", "prev_pid", "next_comm", "next_pid", "prev_state"):
            if fld not in o["fields"]:
                errors.append(f"line {i}: sched_switch without fields.{fld}: {raw[:200]!r}")
                break
        if not isinstance(o["fields"].get("prev_comm"), str) or not isinstance(o["fields"].get("next_pid"), int):
            errors.append(f"line {i}: sched_switch fields of the wrong type: {raw[:200]!r}")
    if o["pid"] == wl and o["event"] == "syscalls:sys_enter_getppid":
        weird_rows += 1
        if o["comm"] != weird:
            errors.append(f"line {i}: comm {o['comm']!r}, expected {weird!r} (escaping?)")
    rows += 1
if summary is None:
    errors.append("no summary line")
else:
    for k in ("events", "printed", "lost", "lost_marked", "evicted", "cpus"):
        if k not in summary:
            errors.append(f"summary lacks {k}")
    if not errors and summary["printed"] != rows:
        errors.append(f"summary printed={summary['printed']}, {rows} event rows")
if "sched:sched_switch" not in kinds:
    errors.append(f"no sched_switch row in 2 s (events seen: {sorted(kinds)})")
if weird_rows != 7:
    errors.append(f"{weird_rows} getppid rows of the workload, expected 7")
for e in errors:
    print("batch_json:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
log "--json --duration 2: valid ($(wc -l <"$T/d.out") lines)"

# ---- --duration in text mode, and -q ---------------------------------------------------------
run_ktop 20 "$T/q.out" "$T/q.err" -b -q --duration 0.5 -e sched:sched_switch
[ "$KTOP_RC" = 0 ] || fail "ktop -q --duration 0.5 exited $KTOP_RC"
[ "$(wc -l <"$T/q.out")" = 1 ] || fail "-q printed more than the summary"
grep -qE '^# ktop: events=[1-9][0-9]* lost=[0-9]+ lost_marked=[0-9]+ lost_unknown_pages=[0-9]+ evicted=[0-9]+ duration=[0-9.]+s rate=[0-9]+/s$' "$T/q.out" ||
	fail "-q summary malformed or no events in 0.5 s of sched_switch: $(cat "$T/q.out")"
d=$(sed -n 's/.* duration=\([0-9.]*\)s .*/\1/p' "$T/q.out")
awk -v d="$d" 'BEGIN { exit !(d >= 0.4 && d < 10) }' || fail "--duration 0.5 reported duration=$d"

# ---- --max-events N: exactly N events, then the summary ------------------------------------
run_ktop 20 "$T/m.out" "$T/m.err" -b --json --max-events 5 -e sched:sched_switch
[ "$KTOP_RC" = 0 ] || fail "ktop --max-events 5 exited $KTOP_RC; stderr: $(head -c 300 "$T/m.err")"
instance_gone "$KTOP_PID" || fail "instance ktop-$KTOP_PID left"
python3 - "$T/m.out" <<'EOF' || fail "--json --max-events 5 check failed (see above)"
import json, sys

lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
events = [o for o in objs if "summary" not in o and o.get("event") != "lost"]
errors = []
if not objs or "summary" not in objs[-1]:
    errors.append("the last line is not the summary")
elif objs[-1]["summary"]["printed"] != 5:
    errors.append(f"summary printed={objs[-1]['summary']['printed']}, expected 5")
if len(events) != 5:
    errors.append(f"--max-events 5 printed {len(events)} events")
for e in errors:
    print("batch_json:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF

run_ktop 20 "$T/t.out" "$T/t.err" -b --max-events 3 -e sched:sched_switch
[ "$KTOP_RC" = 0 ] || fail "ktop --max-events 3 exited $KTOP_RC"
n=$(grep -c ' sched:sched_switch: ' "$T/t.out")
[ "$n" = 3 ] || fail "text --max-events 3 printed $n sched_switch lines (of $(wc -l <"$T/t.out") lines)"
tail -n1 "$T/t.out" | grep -q '^# ktop: events=' || fail "text --max-events: no summary last"
[ "$(grep -vc '^# ktop: ' "$T/t.out")" = 3 ] || fail "text --max-events 3: lines besides the 3 events and the summary"

# An event whose format prints a kernel address as a symbol (%ps) shows the function's name:
# kernel symbols are loaded for such events (only for them: parsing kallsyms costs a second).
run_ktop 20 "$T/s.out" "$T/s.err" -b --max-events 3 -e timer:timer_start
[ "$KTOP_RC" = 0 ] || fail "ktop -e timer:timer_start exited $KTOP_RC"
grep -q ' timer:timer_start: .* function=[a-z_][a-z_0-9.]* ' "$T/s.out" ||
	fail "timer_start rows name no function: $(grep -m1 timer_start "$T/s.out")"
grep -q ' function=0x' "$T/s.out" && fail "timer_start printed a raw address: $(grep -m1 function=0x "$T/s.out")"

assert_clean
pass
