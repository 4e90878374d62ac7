#!/bin/bash
# The overview of a recording (ktop.1 OVERVIEW): ktop -b --top -i FILE counts the file's
# sched_switch and sched_wakeup events into one tick as long as the file. Against
# trace-cmd report of the same file (the switches and wake-ups it prints, walked by the
# same rules: time on a CPU from switch-in to switch-out, the first and last clipped to the
# file, each slice the task the switch ending it names as prev; a wait for a CPU from a
# wake-up, or a switch-out still runnable, to the next switch-in), for the ten busiest tasks: CPU% within 0.2 points, run-queue wait within 1%,
# voluntary and involuntary switches exactly. Two SCHED_RR spinners pinned to one CPU share
# it: each on it about half the time (35-65%) and waiting for it about as long. What the
# file cannot say (faults, I/O, syscalls) is null in JSON, "-" in the text; a file without
# sched_switch is refused in one line.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../overview-lib.sh
. "$(dirname "$0")/../overview-lib.sh"
require_root_tracefs
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (./dev deps)"

CPU=$(($(nproc) - 1))
bg pin1 $WORK pinned "$CPU" 8
bg pin2 $WORK pinned "$CPU" 8
wait_until 10 has_line "$T/pin1.wl" || fail "pin1 did not start"
wait_until 10 has_line "$T/pin2.wl" || fail "pin2 did not start"
run_ktop 60 "$T/rec.out" "$T/rec.err" -b -e sched:sched_switch -e sched:sched_wakeup \
	-e sched:sched_wakeup_new -o "$T/s.dat" --duration 2
[ "$KTOP_RC" = 0 ] || fail "recording failed ($KTOP_RC): $(head -c 400 "$T/rec.err")"
trace-cmd report -t "$T/s.dat" >"$T/report.txt" 2>"$T/report.err" || fail "trace-cmd report failed: $(head -c 300 "$T/report.err")"
run_ktop 60 "$T/top.json" "$T/top.err" -b --top --json -i "$T/s.dat"
[ "$KTOP_RC" = 0 ] || fail "-b --top -i failed ($KTOP_RC): $(head -c 400 "$T/top.err")"

python3 - "$T" "$(head -n1 "$T/pin1.wl")" "$(head -n1 "$T/pin2.wl")" <<'EOF2' || fail "the recording's overview does not match trace-cmd report"
import json, re, sys
T, pins = sys.argv[1], [int(p) for p in sys.argv[2:4]]
SW = re.compile(r"\[(\d+)\]\s+(\d+\.\d+): sched_switch:\s+(.*):(\d+) \[-?\d+\] (\S+) ==> (.*):(\d+) \[-?\d+\]")
WK = re.compile(r"\[(\d+)\]\s+(\d+\.\d+): sched_wakeup(?:_new)?:\s+(.*):(\d+) \[-?\d+\]")
TS = re.compile(r"\[\d+\]\s+(\d+\.\d+):")
def ns(s):
    a, b = s.split(".")
    return int(a) * 10**9 + int(b.ljust(9, "0")[:9])
on, runq, vol, inv, since, wait = {}, {}, {}, {}, {}, {}
first = last = None
for line in open(f"{T}/report.txt"):
    m = TS.search(line)
    if not m:
        continue
    ts = ns(m.group(1))
    first = ts if first is None else first
    last = ts
    m = SW.search(line)
    if m:
        cpu, prev, state, nxt = int(m.group(1)), int(m.group(4)), m.group(5), int(m.group(7))
        # the slice ending here is prev's, as the kernel names it (cpuslice.h): with proxy
        # execution it need not be the task the last switch on this CPU let in
        start, _ = since.get(cpu, (first, prev))
        if prev:
            on[prev] = on.get(prev, 0) + ts - start
        since[cpu] = (ts, nxt)
        if prev:
            if state.startswith("R"):
                inv[prev] = inv.get(prev, 0) + 1
                wait[prev] = ts
            else:
                vol[prev] = vol.get(prev, 0) + 1
        if nxt and wait.get(nxt):
            runq[nxt] = runq.get(nxt, 0) + ts - wait.pop(nxt)
        continue
    m = WK.search(line)
    if m and int(m.group(4)) and not wait.get(int(m.group(4))):
        wait[int(m.group(4))] = ts
for cpu, (start, who) in since.items():
    if who:
        on[who] = on.get(who, 0) + last - start
iv = (last - first) / 1e9
top = json.loads(open(f"{T}/top.json").readline())
tasks = {t["pid"]: t for t in top["tasks"]}
bad = []
for pid in sorted(on, key=lambda p: -on[p])[:10]:
    t = tasks.get(pid)
    pct, rq = 100 * on[pid] / 1e9 / iv, runq.get(pid, 0) / 1e6
    if not t:
        bad.append(f"{pid}: not in ktop's table"); continue
    if abs(t["cpu_pct"] - pct) > 0.2 or abs(t["runq_wait_ms"] - rq) > 0.01 * rq + 0.01 or \
       t["vol_ctxsw"] != vol.get(pid, 0) or t["invol_ctxsw"] != inv.get(pid, 0):
        bad.append(f"{pid}: ktop {t['cpu_pct']}% runq {t['runq_wait_ms']} ms "
                   f"{t['vol_ctxsw']}/{t['invol_ctxsw']}; report {pct:.2f}% runq {rq:.3f} ms "
                   f"{vol.get(pid, 0)}/{inv.get(pid, 0)}")
    if t["minflt"] is not None or t["syscalls"] is not None or t["read_bytes"] is not None:
        bad.append(f"{pid}: figures the file cannot hold are not null: {t}")
for p in pins:
    t = tasks.get(p, {})
    if not (35 <= t.get("cpu_pct", 0) <= 65 and t.get("runq_wait_ms", 0) > 0.3 * iv * 1000):
        bad.append(f"spinner {p}: {t.get('cpu_pct')}% on its CPU, {t.get('runq_wait_ms')} ms waiting of {iv:.2f} s")
print(f"overview_recording: {len(on)} tasks over {iv:.3f} s; spinners "
      f"{[tasks.get(p, {}).get('cpu_pct') for p in pins]}% on CPU", file=sys.stderr)
if bad:
    sys.exit("\n".join(bad))
EOF2

run_ktop 60 "$T/top.txt" "$T/top.err" -b --top -i "$T/s.dat"
grep -Eq "^ *$(head -n1 "$T/pin1.wl") .* - +- +- +- .*" "$T/top.txt" ||
	fail "the text does not show '-' where the file has no figure: $(grep -E "^ *$(head -n1 "$T/pin1.wl") " "$T/top.txt")"
run_ktop 60 "$T/none.out" "$T/none.err" -b -e sched:sched_process_exec -o "$T/none.dat" --duration 0.5
run_ktop 60 "$T/n.out" "$T/n.err" -b --top -i "$T/none.dat"
[ "$KTOP_RC" != 0 ] && [ "$(wc -l <"$T/n.err")" = 1 ] &&
	grep -q 'holds no sched:sched_switch: record one with -e sched:sched_switch' "$T/n.err" ||
	fail "a file without sched_switch: rc $KTOP_RC, $(cat "$T/n.err")"
assert_clean
pass
