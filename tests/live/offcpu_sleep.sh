#!/bin/bash
# The off-CPU profile (ktop -b --off-cpu, ktop.1 OFF-CPU PROFILE) against a workload of known
# shape: 5 nanosleep()s of 200 ms are 1 s (+-5 %) off the CPU under the workload's stacks
# through the kernel's nanosleep path (do_nanosleep, under hrtimer_nanosleep, ending at
# __schedule) below the user frame of libc's nanosleep, whatever the variant (tp_btf, raw_tp,
# tracepoint), in the folded output (ns) and in --json ("unit":"ns"). The workload runs
# SCHED_FIFO (run_hist), so no normal task delays its switches back in. Every program ktop
# held is gone after it exits: by SIGINT, by SIGTERM, at --duration's end, by kill -9.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_workload
require_python

ATTACHED_RE='offcpu_open: attached via '
NHIST=1
NAME=ktop-offcpu-sl
LO=950000000
HI=1050000000

# sleep_ns FILE: the ns of NAME's folded stacks through the kernel's nanosleep path.
sleep_ns()
{
	awk -v n="$NAME;" 'index($0, n) == 1 && /;do_nanosleep(;|$)/ { s += $NF } END { printf "%d\n", s }' "$1"
}

# check_stacks FILE WHAT: every stack through do_nanosleep has it under hrtimer_nanosleep,
# below the user frame of libc's nanosleep (the leaf; libc keeps no frame pointers, so its
# caller's frame is not on the chain), and ends at __schedule; 1 s +-5 % in all.
check_stacks()
{
	local ns bad
	ns=$(sleep_ns "$1")
	[ "$ns" -ge "$LO" ] && [ "$ns" -le "$HI" ] ||
		fail "$2: $ns ns off the CPU in do_nanosleep, expected 1 s +-5 %:
$(grep -- "^$NAME;" "$1")"
	bad=$(grep -- "^$NAME;" "$1" | grep ';do_nanosleep' |
		grep -Ev ';(__)?(clock_)?nanosleep;(.*;)?hrtimer_nanosleep;(.*;)?do_nanosleep;(.*;)?__schedule [0-9]+$')
	[ -z "$bad" ] || fail "$2: a nanosleep stack without libc's nanosleep, hrtimer_nanosleep or __schedule as its leaf: $bad"
	log "$2: $ns ns in do_nanosleep: $(grep -- "^$NAME;" "$1" | grep -m1 ';do_nanosleep' | cut -c1-200)"
}

for via in tp_btf raw_tp tracepoint; do
	run_hist "sl-$via" "$KTOP_WORKLOAD" sleep 200 5 "$NAME" -- --off-cpu="$via" -p PID -d 1 --folded
	grep -q "^ktop: off-cpu: via=$via unit=ns " "$T/sl-$via.err" ||
		fail "via=$via: no counts on stderr: $(cat "$T/sl-$via.err")"
	grep -Ev ' [0-9]+$' "$T/sl-$via.out" &&
		fail "via=$via: --folded printed a line that is not a folded stack (above)"
	check_stacks "$T/sl-$via.out" "via=$via"
done

# --json: the same, one object per stack and the summary with its unit
run_hist json "$KTOP_WORKLOAD" sleep 200 5 "$NAME" -- --off-cpu -p PID -d 1 --json
python3 - "$T/json.out" "$NAME" "$LO" "$HI" <<'EOF' || fail "--json: $(head -c 1500 "$T/json.out")"
import json, sys
path, name, lo, hi = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = open(path).readlines()
assert len(lines) == 1, len(lines)
p = json.loads(lines[0])["offcpu"]
assert p["unit"] == "ns" and p["via"] in ("tp_btf", "raw_tp", "tracepoint"), p
ns = sum(s["count"] for s in p["stacks"] if s["frames"][0] == name and "do_nanosleep" in s["frames"])
assert lo <= ns <= hi, ns
assert p["total"] == sum(s["count"] for s in p["stacks"]), p["total"]
EOF
log "--json: unit ns, the sleeps within 5 %"

# SIGTERM, --duration's end and kill -9 leave no program either
start_ktop "$T/term.out" "$T/term.err" -b -v --log "$T/term.klog" --off-cpu
wait_attached "$T/term.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
stop_ktop "$KTOP_PID" TERM 10
[ "$KTOP_RC" = 0 ] || fail "SIGTERM: ktop exited $KTOP_RC: $(head -c 400 "$T/term.err")"
grep -q '^# off-cpu: via=' "$T/term.out" || fail "SIGTERM: no counts: $(head -3 "$T/term.out")"
assert_progs_gone "${PROGS[@]}"
start_ktop "$T/dur.out" "$T/dur.err" -b -v --log "$T/dur.klog" --off-cpu --duration 1
wait_attached "$T/dur.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
wait_pid_exit "$KTOP_PID" 20 || fail "--duration 1: ktop still running after 20 s"
[ "$WAIT_RC" = 0 ] || fail "--duration 1: ktop exited $WAIT_RC: $(head -c 400 "$T/dur.err")"
assert_no_sanitizer "$T/dur.err"
assert_progs_gone "${PROGS[@]}"
start_ktop "$T/kill.out" "$T/kill.err" -b -v --log "$T/kill.klog" --off-cpu
wait_attached "$T/kill.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
kill -KILL "$KTOP_PID"
wait_pid_exit "$KTOP_PID" 10 || fail "kill -9: ktop still there after 10 s"
assert_progs_gone "${PROGS[@]}"
log "SIGINT, SIGTERM, --duration and kill -9: no program left"
assert_clean
pass
