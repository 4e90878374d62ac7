#!/bin/bash
# ktop -b over two remote agents at once (--via twice, each its own agent, instance and
# guard on this machine, both seeing the same kernel), merged into one stream:
#   - each host label's stream holds exactly the workload's N getppid() calls, named;
#   - the merged stream is non-decreasing in shifted time (each agent's clock offset
#     applied), the totals are 2N, nothing lost;
#   - the summary names both hosts with their offset and its uncertainty, and as both
#     agents' clock is this machine's, each offset is within the uncertainty it states,
#     and that uncertainty within UNC_MAX: half a local pipe's shortest round trip is
#     tens of µs here (45 µs with 6 other builds running); 2 ms would be a round trip not
#     the shortest, or none measured, and would misorder two hosts' events that far apart;
#   - after the viewer ends (SIGINT), both agents have left and left the kernel clean;
#   - -o FILE wrote a trace.dat a host (FILE-via1.dat, FILE-via2.dat), each exactly the N
#     calls as ktop -i and trace-cmd report read it, each with its host's clock offset, so
#     that trace-cmd report -i A -i B merges the two into 2N rows in time order.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

N=${KTOP_EXACT_N:-200000}
UNC_MAX=${KTOP_CLOCK_UNC_MAX_NS:-2000000}

workload_start multi count "$N" ktop-exact
wl=$WL_PID
start_ktop "$T/m.out" "$T/m.err" -b \
	--via "echo \$\$ >$T/a1.agent; exec $KTOP --agent" \
	--via "echo \$\$ >$T/a2.agent; exec $KTOP --agent" \
	-e syscalls:sys_enter_getppid --filter "common_pid == $wl" -o "$T/rec.dat"
kpid=$KTOP_PID
agents=()
for i in 1 2; do
	wait_until 15 test -s "$T/a$i.agent" || fail "agent $i did not start: $(head -c 500 "$T/m.err")"
	agents+=("$(cat "$T/a$i.agent")")
done
KTOP_PIDS+=("${agents[@]}")
for a in "${agents[@]}"; do
	wait_capturing "$a" syscalls sys_enter_getppid
done
workload_go multi 60
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "viewer exited $KTOP_RC; stderr: $(head -c 500 "$T/m.err")"
# (stderr is the agents' too: what they say is not the viewer's to judge)
grep -q "^ktop: via[12]: " "$T/m.err" && fail "the viewer lost an agent: $(head -c 500 "$T/m.err")"
for a in "${agents[@]}"; do
	wait_pid_exit "$a" 5 || fail "agent $a outlived its viewer"
	instance_gone "$a" || fail "instance ktop-$a left after the agent exited"
done

# --- each host's stream: exactly N, named ---------------------------------------------------
declare -A offs
for h in via1 via2; do
	line=$(grep "^# ktop: host $h " "$T/m.out") || fail "no summary line for $h: $(tail -n3 "$T/m.out")"
	[[ $line =~ \ events=([0-9]+)\ lost=([0-9]+)\ lost_marked=([0-9]+)\ lost_unknown_pages=([0-9]+)\ bytes=[0-9]+\ frames=[0-9]+\ stalled=([0-9]+)\ late=([0-9]+)\ backlog_max=[0-9]+\ backlog_max_ns=[0-9]+\ backlog_end=[0-9]+\ backlog_end_ns=[0-9]+,\ clock\ offset\ ([-+][0-9]+)\ ns\ \+/-\ ([0-9]+)\ ns$ ]] ||
		fail "$h's summary: $line"
	events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]} marked=${BASH_REMATCH[3]}
	unknown=${BASH_REMATCH[4]} stalled=${BASH_REMATCH[5]} late=${BASH_REMATCH[6]}
	off=${BASH_REMATCH[7]} unc=${BASH_REMATCH[8]}
	if [ "$lost" != 0 ] || [ "$marked" != 0 ] || [ "$unknown" != 0 ]; then
		fail "$h: the kernel lost events with the default buffer; cannot check exactness: $line"
	fi
	[ "$events" = "$N" ] || fail "$h: events=$events, the workload made exactly $N calls"
	if [ "$stalled" != 0 ] || [ "$late" != 0 ]; then
		fail "$h: the merge hit its cap: $line"
	fi
	off=${off#+}
	offs[$h]=$off
	# the uncertainty is half the shortest round trip, rounded down: 1 ns more at most
	[ "${off#-}" -le $((unc + 1)) ] ||
		fail "$h: clock offset $off ns +/- $unc ns, but the agent's clock is this machine's (0)"
	[ "$unc" -le "$UNC_MAX" ] ||
		fail "$h: clock offset $off ns +/- $unc ns: more uncertain than $UNC_MAX ns over a local pipe"
	rows=$(grep -Ec "^[0-9]+\.[0-9]+ $h \[[0-9]{3}\] +ktop-exact-$wl +syscalls:sys_enter_getppid: $" "$T/m.out")
	[ "$rows" = "$N" ] || fail "$h: $rows rows of ktop-exact-$wl's getppid, expected $N: $(grep -v ktop-exact "$T/m.out" | head -3)"
	log "$h: $rows rows; $line"
done

# --- one stream, in shifted time ------------------------------------------------------------
[ "$(grep -c '^[0-9]' "$T/m.out")" = $((2 * N)) ] ||
	fail "$(grep -c '^[0-9]' "$T/m.out") event lines, expected $((2 * N)): $(grep -v -e ktop-exact -e '^#' "$T/m.out" | head -3)"
back=$(awk '/^[0-9]/ { t = $1 + 0; if (seen && t < prev) { printf "%d: %.6f then %s", NR, prev, $1; exit } prev = t; seen = 1 }' "$T/m.out")
[ -z "$back" ] || fail "the merged stream goes back in time at line $back"
tail -n1 "$T/m.out" | grep -q "^# ktop: events=$((2 * N)) lost=0 lost_marked=0 lost_unknown_pages=0 evicted=0 " ||
	fail "totals: $(tail -n1 "$T/m.out")"

# --- -o: a file a host, merged again by trace-cmd -------------------------------------------
command -v trace-cmd >/dev/null || fail "no trace-cmd (./dev installs it)"
for h in via1 via2; do
	grep -qx "ktop: recorded $N events to $T/rec-$h.dat" "$T/m.err" ||
		fail "-o: no $T/rec-$h.dat of $N events: $(grep '^ktop: ' "$T/m.err")"
	# the offset trace-cmd adds: the summary's, turned from the host's clock onto this one's
	want=$((-${offs[$h]}))
	got=$(trace-cmd dump --options -i "$T/rec-$h.dat" 2>/dev/null | sed -n '/Option OFFSET/{n;p}')
	[ "${got:-0}" = "$want" ] || fail "-o: $h's file has OFFSET '${got:-none}', expected $want"
	run_ktop 120 "$T/i-$h.out" "$T/i-$h.err" -b -q -i "$T/rec-$h.dat"
	tail -n1 "$T/i-$h.out" | grep -q "^# ktop: events=$N lost=0 " ||
		fail "-o: ktop -i $T/rec-$h.dat: exit $KTOP_RC: $(tail -n1 "$T/i-$h.out") $(cat "$T/i-$h.err")"
done
trace-cmd report -i "$T/rec-via1.dat" -i "$T/rec-via2.dat" >"$T/both.txt" 2>"$T/both.err" ||
	fail "trace-cmd report of both files: $(head -c 500 "$T/both.err")"
rows=$(grep -c "ktop-exact-$wl .*sys_enter_getppid" "$T/both.txt")
[ "$rows" = $((2 * N)) ] || fail "trace-cmd report -i A -i B: $rows getppid rows, expected $((2 * N))"
back=$(awk '/sys_enter_getppid/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = $i + 0
	if (seen && t < prev) { print NR ": " prev " then " t; exit } prev = t; seen = 1 }' "$T/both.txt")
[ -z "$back" ] || fail "trace-cmd's merge of the two files goes back in time at line $back"
log "-o: $N events in each host's file, $((2 * N)) in order in trace-cmd's merge of both"

assert_clean
pass
