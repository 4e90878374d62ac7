#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Performance counters against workloads of known size, on the real kernel:
#  - touching N new pages gives at least N minor faults (-p: that process alone, and no
#    more than a little over N), counted in text and in --json;
#  - a pipe ping-pong of N round trips gives at least 2N context switches, per process
#    (-p parent,child) and system-wide, and at least 2N sched:sched_switch tracepoint hits;
#  - a hardware counter the machine cannot give is "n/a" with its reason (this VM has no
#    PMU driver), never a zero, and the software counters beside it still count; on a
#    machine with a PMU, cycles count instead;
#  - (counting without CAP_PERFMON, or as another user: tests/live/privileges.sh)
#  - the JSON is one valid object per line, {"pmu":...} just before the summary;
#  - -p of a process that does not exist fails with exit 1 and says so;
#  - nothing of ktop's is left in the kernel.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

# A configuration of its own: nothing saved in ~/.config/ktop applies here.
mkdir -p "$T/xdg"
export XDG_CONFIG_HOME="$T/xdg"

PAGES=${KTOP_PMU_PAGES:-20000}
TRIPS=${KTOP_PMU_TRIPS:-5000}

# ktop opens its counters last, after the tracefs set-up.
_counting() { [ "$(perf_counter_fds "$1")" -gt 0 ] || ! pid_alive "$1"; }
wait_counting()
{
	wait_until 15 _counting "$1" || fail "ktop $1 opened no perf_event fd within 15s"
	pid_alive "$1" || fail "ktop $1 exited before counting; stderr: $(head -c 400 "$2")"
	# every group is enabled right after its slot opened; leave it a moment
	sleep 0.3
}

# The value column of a counter in the text table ("n/a" when unavailable).
text_value() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }
text_line() { awk -v n="$2" '$1 == n { print; exit }' "$1"; }

# finish_ktop PID ERR TAG: ends a run (--duration 60) with SIGINT once its workload is done,
# as a user would; checks exit 0, no stderr, no instance, no perf fd left (the process is
# gone, so are its fds). A loaded machine cannot make the counts partial this way.
finish_ktop()
{
	pid_alive "$1" || fail "$3: ktop ended before its workload was done"
	stop_ktop "$1" INT 30
	[ "$KTOP_RC" = 0 ] || fail "$3: ktop exited $KTOP_RC; stderr: $(head -c 400 "$2")"
	[ -s "$2" ] && fail "$3: ktop wrote to stderr: $(head -c 400 "$2")"
	instance_gone "$1" || fail "$3: instance ktop-$1 left"
}

# ---- minor faults of one process (-p), text ------------------------------------------------
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" touch "$PAGES" ktop-pmu-touch >"$T/touch.wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/touch.wl" || fail "workload touch printed no pid"
start_ktop "$T/touch.out" "$T/touch.err" -b -q -p "$wl" --duration 60
kp=$KTOP_PID
wait_counting "$kp" "$T/touch.err"
touch "$T/go"
wait_pid_exit "$wl" 30 || fail "workload touch $PAGES did not finish"
[ "$WAIT_RC" = 0 ] || fail "workload touch exited $WAIT_RC"
finish_ktop "$kp" "$T/touch.err" "-p touch"
own=$(sed -n 's/^faults=//p' "$T/touch.wl")
grep -q "^# pmu: pid $wl (1 thread)" "$T/touch.out" ||
	fail "no '# pmu: pid $wl (1 thread)' header: $(head -3 "$T/touch.out")"
minor=$(text_value "$T/touch.out" minor-faults)
[[ $minor =~ ^[0-9]+$ ]] || fail "minor-faults is '$minor': $(text_line "$T/touch.out" minor-faults)"
[ "$minor" -ge "$PAGES" ] || fail "minor-faults=$minor < $PAGES pages touched"
[ "$minor" -ge "$own" ] || fail "minor-faults=$minor < the workload's own getrusage count $own"
# One process: a little over its own count (start-up and exit, a sanitizer's shadow
# memory), not the whole machine's, nor a double count.
[ "$minor" -le $((own + own / 2)) ] ||
	fail "minor-faults=$minor for one process that counted $own itself: counted more than it"
tail -n1 "$T/touch.out" | grep -q '^# ktop: events=' || fail "the summary is not the last line"
log "-p: $PAGES pages touched -> minor-faults=$minor (getrusage: $own)"

# ---- the same with --json ------------------------------------------------------------------
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" touch "$PAGES" ktop-pmu-touch >"$T/touchj.wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/touchj.wl" || fail "workload touch printed no pid"
start_ktop "$T/touchj.out" "$T/touchj.err" -b --json -q --pid "$wl" --duration 60
kp=$KTOP_PID
wait_counting "$kp" "$T/touchj.err"
touch "$T/go"
wait_pid_exit "$wl" 30 || fail "workload touch $PAGES did not finish"
finish_ktop "$kp" "$T/touchj.err" "-p --json"
hw=0
have_hw_pmu && hw=1
python3 - "$T/touchj.out" "$wl" "$PAGES" "$hw" <<'EOF' || fail "--json check failed (see above)"
import json, sys

path, wl, pages, hw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
lines = open(path).read().split("\n")
assert lines[-1] == "", "output does not end with a newline"
objs = [json.loads(l) for l in lines[:-1]]
assert len(objs) == 2, f"expected the pmu object and the summary, got {len(objs)} lines"
assert "pmu" in objs[0] and "summary" in objs[1], "pmu object, then the summary"
p = objs[0]["pmu"]
assert p["target"] == "pid" and p["pids"] == [wl] and p["threads"] == [wl], p
assert p["duration"] > 0.3, p["duration"]
c = {x["name"]: x for x in p["counters"]}
m = c["minor-faults"]
assert m["available"] and m["counted"], m
assert m["value"] >= pages, f"minor-faults {m['value']} < {pages}"
assert m["per_thread"] == [m["value"]], m
assert m["running"] == 1, m  # software counters never multiplex
for name in ("cpu-clock", "task-clock", "context-switches", "cpu-migrations", "major-faults"):
    assert c[name]["available"], name
assert c["task-clock"]["value"] > 0
for name in ("cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses"):
    x = c[name]
    if hw:
        continue  # a PMU may still lack one; the machine with one checks cycles below
    assert x["available"] is False, f"{name} is available on a machine without a PMU: {x}"
    assert "value" not in x, f"{name}: unavailable but has a value: {x}"
    assert "no PMU driver" in x["reason"], f"{name}: reason {x['reason']!r}"
if hw:
    assert c["cycles"]["available"] and c["cycles"]["value"] > 0, c["cycles"]
d = {x["name"]: x for x in p["derived"]}
assert set(d) == {"IPC", "cache-miss-rate", "branch-miss-rate"}, d
if not hw:
    assert d["IPC"]["value"] is None and "unavailable" in d["IPC"]["why"], d["IPC"]
print(f"json: minor-faults={m['value']}")
EOF

# ---- context switches of a pipe ping-pong: -p parent,child ---------------------------------
pin=()
command -v taskset >/dev/null 2>&1 && pin=(taskset -c 0) # one CPU: every hand-over switches
rm -f "$T/go"
WORKLOAD_GO="$T/go" "${pin[@]+"${pin[@]}"}" "$KTOP_WORKLOAD" pipe "$TRIPS" ktop-pmu-pipe >"$T/pipe.wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/pipe.wl" || fail "workload pipe printed no pids"
read -r parent child <"$T/pipe.wl"
start_ktop "$T/pipe.out" "$T/pipe.err" -b -q -p "$parent,$child" --duration 60
kp=$KTOP_PID
wait_counting "$kp" "$T/pipe.err"
touch "$T/go"
wait_pid_exit "$wl" 30 || fail "workload pipe $TRIPS did not finish"
[ "$WAIT_RC" = 0 ] || fail "workload pipe exited $WAIT_RC"
finish_ktop "$kp" "$T/pipe.err" "-p pipe"
grep -q "^# pmu: pid $parent,$child (2 threads)" "$T/pipe.out" ||
	fail "no '# pmu: pid $parent,$child (2 threads)' header: $(head -1 "$T/pipe.out")"
cs=$(text_value "$T/pipe.out" context-switches)
[[ $cs =~ ^[0-9]+$ ]] || fail "context-switches is '$cs'"
[ "$cs" -ge $((2 * TRIPS)) ] || fail "context-switches=$cs < 2 x $TRIPS round trips"
# per thread: each side blocks once per round trip, but one of them may find its first
# message already waiting (the other wrote before it first read), so one less at the least
read -r _ _ _ _ pc cc < <(text_line "$T/pipe.out" context-switches)
{ [ "${pc:-0}" -ge $((TRIPS - 1)) ] && [ "${cc:-0}" -ge $((TRIPS - 1)) ]; } ||
	fail "per-thread context switches $pc and $cc, each should be >= $((TRIPS - 1))"
log "-p parent,child: $TRIPS round trips -> context-switches=$cs ($pc + $cc)"

# ---- system-wide, with a tracepoint count and user-named events beside -------------------
start_ktop "$T/sys.out" "$T/sys.err" -b -q --pmu --duration 60 --pmu-event sched:sched_switch \
	--pmu-event no-such-event --pmu-event r3c
kp=$KTOP_PID
wait_counting "$kp" "$T/sys.err"
"${pin[@]+"${pin[@]}"}" "$KTOP_WORKLOAD" pipe "$TRIPS" ktop-pmu-pipe >/dev/null ||
	fail "workload pipe failed"
finish_ktop "$kp" "$T/sys.err" "system-wide"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
grep -q "^# pmu: system-wide, $ncpu CPU" "$T/sys.out" || fail "header: $(head -1 "$T/sys.out")"
cs=$(text_value "$T/sys.out" context-switches)
sw=$(text_value "$T/sys.out" sched:sched_switch)
[[ $cs =~ ^[0-9]+$ && $sw =~ ^[0-9]+$ ]] || fail "context-switches '$cs', sched:sched_switch '$sw'"
[ "$cs" -ge $((2 * TRIPS)) ] || fail "system-wide context-switches=$cs < 2 x $TRIPS"
[ "$sw" -ge $((2 * TRIPS)) ] || fail "sched:sched_switch count=$sw < 2 x $TRIPS"
# per-CPU columns: one per CPU, summing to the total
read -r -a f < <(text_line "$T/sys.out" context-switches)
[ "${#f[@]}" -eq $((4 + ncpu)) ] || fail "context-switches row has ${#f[@]} fields for $ncpu CPUs: ${f[*]}"
sum=0
for ((i = 4; i < ${#f[@]}; i++)); do sum=$((sum + f[i])); done
[ "$sum" = "$cs" ] || fail "per-CPU context switches sum to $sum, total says $cs"
text_line "$T/sys.out" no-such-event | grep -q 'n/a  unknown event' ||
	fail "no-such-event: $(text_line "$T/sys.out" no-such-event)"
if ! have_hw_pmu; then
	for name in cycles instructions branch-misses r3c; do
		line=$(text_line "$T/sys.out" "$name")
		[[ $line == *" n/a  no PMU driver in this kernel/VM"* ]] ||
			fail "$name on a machine without a PMU driver: '$line'"
	done
	grep -q '^# pmu derived: IPC=n/a (needs instructions and cycles' "$T/sys.out" ||
		fail "IPC is not n/a: $(grep derived "$T/sys.out")"
	log "no PMU driver: hardware counters n/a with the reason, software ones count"
else
	v=$(text_value "$T/sys.out" cycles)
	{ [[ $v =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ]; } || fail "cycles on a machine with a PMU: '$v'"
fi
log "system-wide: $TRIPS round trips -> context-switches=$cs, sched:sched_switch=$sw"

# ---- a sysfs alias on this machine, if it has the msr PMU ---------------------------------
if [ -e "$DEVICES/msr/events/tsc" ]; then
	run_ktop 20 "$T/msr.out" "$T/msr.err" -b -q --duration 1 --pmu-event msr/tsc/ --pmu-event tsc
	[ "$KTOP_RC" = 0 ] || fail "msr run exited $KTOP_RC: $(head -c 300 "$T/msr.err")"
	for name in msr/tsc/ tsc; do
		v=$(text_value "$T/msr.out" "$name")
		{ [[ $v =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ]; } || fail "$name: '$(text_line "$T/msr.out" "$name")'"
	done
	log "msr/tsc/ and the bare alias tsc count"
fi

# ---- -p of nobody --------------------------------------------------------------------------
nobody=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
while [ -e "/proc/$nobody" ]; do nobody=$((nobody - 1)); done
run_ktop 20 "$T/nobody.out" "$T/nobody.err" -b -q -p "$nobody" --duration 1
[ "$KTOP_RC" = 1 ] || fail "-p $nobody (no such process) exited $KTOP_RC, expected 1"
grep -q "no such process" "$T/nobody.err" || fail "-p $nobody: stderr '$(cat "$T/nobody.err")'"
instance_gone "$KTOP_PID" || fail "instance left after the -p failure"

assert_clean
pass
