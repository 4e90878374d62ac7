#!/bin/bash
# Loss accounting under overload: a tiny per-CPU buffer and a workload calling getppid() as
# fast as it can. What can be asserted exactly:
#   - ktop's "lost" equals the kernel's own per_cpu/cpuN/stats (overrun + commit overrun +
#     dropped events) of its instance. Only the workload's pid passes the filter, so once the
#     workload has exited nothing writes to the instance any more and the counters are final:
#     the test reads them then, before it stops ktop, and ktop reads them again just before
#     it removes the instance; both must agree, per CPU too (--json).
#   - every call the workload made is either an event ktop recorded or counted lost:
#     events + lost == calls, exactly.
#   - the pages' missed-events flags: lost_marked (counted) + lost_unknown_pages (flag
#     without a count: the kernel stores the count only when the page has room) is > 0,
#     lost_marked <= lost, and == lost when every flagged page carried its count.
#   - the stream holds a loss marker for each flagged page: {"event":"lost","lost":N} with
#     N > 0 summing to lost_marked, N == -1 as many as lost_unknown_pages.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

SECS=${KTOP_LOSS_SECS:-0.5}

# overload TAG BUFFER_KB [ktop args...]: sets calls, kstats (per-CPU "cpu overrun commit
# dropped" lines, final), kernel_lost; ktop's output in $T/TAG.out.
overload()
{
	local tag=$1 kb=$2 wl k
	shift 2
	rm -f "$T/go"
	WORKLOAD_GO="$T/go" WORKLOAD_CPU=0 "$KTOP_WORKLOAD" rate 0 "$SECS" ktop-loss >"$T/$tag.wl" &
	wl=$!
	CLEANUP_PIDS+=("$wl")
	start_ktop "$T/$tag.out" "$T/$tag.err" -b --buffer-kb "$kb" "$@" \
		-e syscalls:sys_enter_getppid --filter "common_pid == $wl"
	k=$KTOP_PID
	wait_capturing "$k" syscalls sys_enter_getppid
	touch "$T/go"
	wait_pid_exit "$wl" 30 || fail "workload rate 0 $SECS still running after 30s"
	[ "$WAIT_RC" = 0 ] || fail "workload exited $WAIT_RC"
	calls=$(sed -n 's/^calls=//p' "$T/$tag.wl")
	[ -n "$calls" ] || fail "workload printed no calls= line"

	final_cpu_stats "$k"

	stop_ktop "$k" INT 30
	[ "$KTOP_RC" = 0 ] || fail "ktop ($tag) exited $KTOP_RC; stderr: $(head -c 500 "$T/$tag.err")"
	instance_gone "$k" || fail "instance ktop-$k left after exit"
	log "$tag: workload made $calls calls; kernel per CPU (cpu overrun commit dropped): $(tr '\n' ';' <<<"$kstats")"
}

# --- text, -q, the smallest buffer ---------------------------------------------------------
overload text 4 -q
summary=$(tail -n1 "$T/text.out")
log "text: $summary"
[[ $summary =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\ lost_marked=([0-9]+)\ lost_unknown_pages=([0-9]+)\ evicted=([0-9]+)\  ]] ||
	fail "no summary line: '$summary'"
events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]} marked=${BASH_REMATCH[3]}
unknown=${BASH_REMATCH[4]} evicted=${BASH_REMATCH[5]}
[ "$lost" -gt 0 ] || fail "no loss with --buffer-kb 4 under a flat-out workload ($calls calls, $events events): the overload did not happen or ktop does not see it (kernel says $kernel_lost)"
[ "$lost" = "$kernel_lost" ] || fail "ktop says lost=$lost, the kernel's per_cpu stats say $kernel_lost"
[ $((events + lost)) = "$calls" ] || fail "events=$events + lost=$lost = $((events + lost)), but the workload made $calls calls"
[ $((marked + unknown)) -gt 0 ] || fail "lost=$lost but no page said events were missed (lost_marked=0 lost_unknown_pages=0)"
[ "$marked" -le "$lost" ] || fail "lost_marked=$marked exceeds lost=$lost"
if [ "$unknown" = 0 ] && [ "$marked" != "$lost" ]; then
	fail "every flagged page carried its count, yet lost_marked=$marked != lost=$lost"
fi
[ "$evicted" = 0 ] || fail "evicted=$evicted: the store dropped events it should have kept"

# --- JSON, markers in the stream, per-CPU figures -----------------------------------------
overload json 8 --json
python3 - "$T/json.out" "$calls" "$kstats" <<'EOF' || fail "JSON loss check failed (see above)"
import json, sys

path, calls, kstats = sys.argv[1], int(sys.argv[2]), sys.argv[3]
kernel = {}
for line in kstats.splitlines():
    cpu, overrun, commit, dropped = map(int, line.split())
    kernel[cpu] = (overrun, commit, dropped)
errors, rows, markers, summary = [], 0, [], None
with open(path) as f:
    for i, line in enumerate(f, 1):
        try:
            o = json.loads(line)
        except ValueError as e:
            errors.append(f"line {i} is not JSON ({e}): {line[:200]}")
            break
        if "summary" in o:
            summary = o["summary"]
        elif o.get("event") == "lost":
            if not isinstance(o.get("lost"), int) or not isinstance(o.get("cpu"), int) or "ts" not in o:
                errors.append(f"line {i}: malformed loss marker: {line[:200]}")
            markers.append(o)
        else:
            rows += 1
if summary is None:
    errors.append("no summary")
else:
    s = summary
    print(f"loss_overload: json: {s}", file=sys.stderr)
    klost = sum(sum(v) for v in kernel.values())
    if s["lost"] <= 0:
        errors.append(f"no loss with --buffer-kb 8 under overload: {s}")
    if s["lost"] != klost:
        errors.append(f"ktop lost={s['lost']}, kernel per_cpu stats sum to {klost}")
    by_cpu = {c["cpu"]: c for c in s["cpus"]}
    if set(by_cpu) != set(kernel):
        errors.append(f"summary cpus {sorted(by_cpu)} differ from the instance's {sorted(kernel)}")
    for cpu, (overrun, commit, dropped) in kernel.items():
        c = by_cpu.get(cpu, {})
        if c.get("overrun") != overrun or c.get("dropped") != dropped:
            errors.append(f"cpu {cpu}: ktop overrun={c.get('overrun')} dropped={c.get('dropped')}, kernel {overrun} {dropped}")
    if s["events"] + s["lost"] != calls:
        errors.append(f"events={s['events']} + lost={s['lost']} != {calls} calls made")
    if s["printed"] != rows or s["events"] != rows:
        errors.append(f"{rows} event rows, summary events={s['events']} printed={s['printed']}")
    if s["evicted"] != 0:
        errors.append(f"evicted={s['evicted']}")
    unknown = s.get("lost_unknown_pages")
    if unknown is None:
        errors.append("summary lacks lost_unknown_pages")
        unknown = 0
    if s["lost_marked"] + unknown <= 0:
        errors.append("lost > 0 but no page was marked")
    if s["lost_marked"] > s["lost"]:
        errors.append(f"lost_marked={s['lost_marked']} > lost={s['lost']}")
    if unknown == 0 and s["lost_marked"] != s["lost"]:
        errors.append(f"all pages counted, yet lost_marked={s['lost_marked']} != lost={s['lost']}")
    counted = [m["lost"] for m in markers if m["lost"] > 0]
    unk = [m for m in markers if m["lost"] == -1]
    other = [m for m in markers if m["lost"] == 0 or m["lost"] < -1]
    if not markers:
        errors.append("no loss marker in the stream")
    if sum(counted) != s["lost_marked"]:
        errors.append(f"markers count {sum(counted)} lost events, summary lost_marked={s['lost_marked']}")
    if len(unk) != unknown:
        errors.append(f"{len(unk)} markers without a count, summary lost_unknown_pages={unknown}")
    if other:
        errors.append(f"markers with a meaningless count: {other[:3]}")
    quiet = [m for m in markers if sum(kernel.get(m["cpu"], (0, 0, 0))) == 0]
    if quiet:
        errors.append(f"loss markers on CPUs where the kernel lost nothing: {quiet[:3]}")
for e in errors:
    print("loss_overload:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF

assert_clean
pass
