#!/bin/bash
# The overview's system strip (ktop.1 OVERVIEW), ktop -b --top --json against the kernel:
#   - runq_len_per_cpu has one figure per CPU (nproc), each CPU's run-queue length over the
#     interval: two SCHED_RR spinners pinned to one CPU wait there, /proc/PID/schedstat's
#     run_delay says how long; that CPU's waits in ktop (length x interval, summed) are at
#     least those (-5%: other tasks may wait there too, never less);
#   - hooks_ns is the overview's hooks' run time when the kernel counts it
#     (/proc/sys/kernel/bpf_stats_enabled 1: a figure, and more than 0 on a machine that
#     switches), else null, and the text strip says "hooks: bpf_stats off".
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../overview-lib.sh
. "$(dirname "$0")/../overview-lib.sh"
require_live_hist
require_python

ATTACHED_RE='overview_open: attached via '
CPU=$(($(nproc) - 1))

start_ktop "$T/top.out" "$T/top.err" -b --top --json --interval 0.5 --duration 60 -v --log "$T/k.log"
FAIL_SHOW+=("$T/top.err")
wait_attached "$T/k.log" 1
bg pin1 $WORK pinned "$CPU" 2
bg pin2 $WORK pinned "$CPU" 2
for tag in pin1 pin2; do
	wait_until 30 _stopped "${PID_OF[$tag]}" || fail "$tag did not finish within 30 s: $(cat "$T/$tag.wlerr")"
	cat "/proc/${PID_OF[$tag]}/schedstat" >"$T/$tag.schedstat" || fail "cannot read its schedstat"
done
lines=$(wc -l <"$T/top.out")
_more() { [ "$(wc -l <"$T/top.out")" -ge $((lines + 2)) ]; }
wait_until 10 _more || fail "ktop printed no interval for 10 s"
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/top.err")"

python3 - "$T" "$CPU" "$(nproc)" "$(cat /proc/sys/kernel/bpf_stats_enabled)" <<'EOF2' || fail "the strip's figures above do not match"
import json, sys
T, cpu, ncpus, stats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
lines = [json.loads(l) for l in open(f"{T}/top.out")]
waited = 0.0
for o in lines:
    s = o["system"]
    if len(s["runq_len_per_cpu"]) != ncpus:
        sys.exit(f"{len(s['runq_len_per_cpu'])} run-queue lengths, not {ncpus}")
    waited += s["runq_len_per_cpu"][cpu] * o["interval_s"]
    if (s["hooks_ns"] is None) != (stats == "0"):
        sys.exit(f"hooks_ns {s['hooks_ns']} with bpf_stats_enabled {stats}")
delay = sum(int(open(f"{T}/{t}.schedstat").read().split()[1]) for t in ("pin1", "pin2")) / 1e9
print(f"overview_strip: CPU {cpu}: ktop {waited:.3f} s waited there, the spinners' run_delay "
      f"{delay:.3f} s; hooks_ns {[o['system']['hooks_ns'] for o in lines][:3]}...", file=sys.stderr)
if waited < 0.95 * delay or delay < 1.0:
    sys.exit("CPU's waits below the spinners'")
if stats != "0" and not any(o["system"]["hooks_ns"] for o in lines):
    sys.exit("bpf_stats on, and the hooks never ran?")
EOF2
run_ktop 20 "$T/text.out" "$T/text.err" -b --top --interval 0.5 --duration 1.2
if [ "$(cat /proc/sys/kernel/bpf_stats_enabled)" = 0 ]; then
	grep -q '^ktop .* hooks: bpf_stats off$' "$T/text.out" || fail "the text does not say the hooks' cost is not counted: $(grep '^ktop' "$T/text.out")"
else
	grep -Eq '^ktop .* hooks [0-9.]+% CPU$' "$T/text.out" || fail "the text has no hooks' cost: $(grep '^ktop' "$T/text.out")"
fi
grep -Eq '^CPU .* runq length \(([0-9.]+ ?)+\)$' "$T/text.out" || fail "the text has no run-queue lengths: $(grep '^CPU' "$T/text.out")"
assert_clean
pass
