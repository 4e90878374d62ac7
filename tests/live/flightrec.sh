#!/bin/bash
# The flight recorder (--arm, issue 34), against a workload whose slow calls it times itself:
# 1 ms sleeps with one 120 ms sleep ending each 1.5 s period, five times. Three ktops watch
# the same run:
#   A. --arm 'syscall>100ms,comm=NAME': exactly five incidents, one line each (plus one per
#      1 ms sleep that a loaded machine stretched past 100 ms, which the workload reports);
#      every trace.dat opens in trace-cmd and holds the slow call's sys_enter and sys_exit
#      within the workload's own timestamps of it, with the pre-roll before and the
#      post-roll after (tests/helpers/incident_check.py), and summary.json names the task
#      and the time taken;
#   B. --max-incidents 3 --incident-quota 12M (below three incidents' 16 MB): ends by itself
#      after three, exit 0; the oldest was removed, said once on stderr, the newest two kept,
#      the total within the quota;
#   D. event:SYS:EV (a marker's exec, as --stop-when takes it) and offcpu>100ms,comm=NAME, on
#      a 12 MiB tmpfs (two incidents' room): the event incident, whose trace.dat holds that
#      exec and the trigger's kernel stack, then an off-CPU one for each slow sleep, until
#      the disk is full: each said on stderr, the capture going on, exit 0. The user's own
#      trigger on that event (--trigger ...:traceon) is still there once the condition has
#      fired and been armed again: re-arming replaces only ktop's stacktrace:1. The event
#      incident's window has that trigger's stack, folded: task.folded holds the exec's
#      kernel stack (execve down to the event), summary.json counts it; A's, without
#      stacks, say there are none.
# Then bad conditions: one-line errors; func:NAME>D names the facility it lacks; an
# unwritable --incidents is said at start. Nothing of any run is left in the kernel.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
command -v trace-cmd >/dev/null || fail "needs trace-cmd to read the incidents"

NAME=frwl$$
PRE=1
POST=0.3
ln -s /bin/true "$T/frmark$$"
mkdir "$T/d"
mount -t tmpfs -o size=12m tmpfs "$T/d" || fail "cannot mount a 12 MiB tmpfs"
common=(-b --pre "$PRE" --post "$POST" --duration 40)
sys=(-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit --comm "$NAME")

workload_start wl spikes 120 5 1500 "$NAME"
wpid=$(head -1 "$T/wl.wl")
start_ktop "$T/a.out" "$T/a.err" "${common[@]}" "${sys[@]}" --incidents "$T/a" \
	--arm "syscall>100ms,comm=$NAME"
apid=$KTOP_PID
start_ktop "$T/b.out" "$T/b.err" "${common[@]}" "${sys[@]}" --incidents "$T/b" \
	--arm "syscall>100ms,comm=$NAME" --max-incidents 3 --incident-quota 12M
bpid=$KTOP_PID
start_ktop "$T/d.out" "$T/d.err" "${common[@]}" -e sched:sched_process_exec --incidents "$T/d" \
	--trigger sched:sched_process_exec:traceon \
	--arm "event:sched:sched_process_exec if filename ~ \"*/frmark$$\"" \
	--arm "offcpu>100ms,comm=$NAME"
dpid=$KTOP_PID
FAIL_SHOW+=("$T/a.err" "$T/b.err" "$T/d.err")
# each says when its conditions are armed (BPF loaded, triggers added), after its events
armed() { grep -q "^ktop: armed " "$1"; }
for e in a b d; do wait_until 20 armed "$T/$e.err" || fail "$e not armed: $(cat "$T/$e.err")"; done
"$T/frmark$$"
workload_go wl 20

lines() { [ "$(wc -l <"$1")" -ge "$2" ]; }
# each incident is written once its --post is in: seconds each on a loaded machine (or
# under the sanitizers), one after the other
late=$(grep -c '^late=' "$T/wl.wl")
wait_until 40 lines "$T/a.out" 5 ||
	fail "A wrote $(wc -l <"$T/a.out") incident lines, want 5: $(cat "$T/a.out" "$T/a.err" "$T/wl.wl")"
# D's event fired and was armed again (before its incident is written): both triggers there
d_event() { grep -q ': event sched:sched_process_exec by ' "$T/d.out"; }
wait_until 40 d_event || fail "D wrote no event incident: $(cat "$T/d.out" "$T/d.err")"
dtrig=$(cat "$(instance_dir "$dpid")/events/sched/sched_process_exec/trigger")
grep -q '^traceon:unlimited' <<<"$dtrig" && grep -q '^stacktrace:count=1 if ' <<<"$dtrig" ||
	fail "D's exec triggers after re-arming: $dtrig"
d_tried() { [ $(($(wc -l <"$T/d.out") + $(grep -c 'not written' "$T/d.err"))) -ge 6 ]; }
wait_until 20 d_tried || fail "D: $(cat "$T/d.out" "$T/d.err")"
for p in "$apid" "$dpid"; do stop_ktop "$p" INT 15; [ "$KTOP_RC" = 0 ] ||
	fail "ktop $p exited $KTOP_RC"; done
wait_pid_exit "$bpid" 10 || fail "B did not end by itself after --max-incidents 3"
[ "$WAIT_RC" = 0 ] || fail "B exited $WAIT_RC: $(cat "$T/b.err")"

# ---- A: exactly five, each checked with trace-cmd against the workload's clock ----------------
na=$(grep -c '^incident [0-9]*: ' "$T/a.out")
[ "$na" = "$(find "$T/a" -mindepth 1 -maxdepth 1 -name 'incident-*' | wc -l)" ] ||
	fail "A's lines and directories differ: $(cat "$T/a.out"); $(ls "$T/a")"
[ "$late" = 0 ] && [ "$na" != 5 ] && fail "A wrote $na incidents, want 5: $(cat "$T/a.out")"
# with late sleeps, the checker below says which must have fired
python3 "$KTOP_SRCDIR/tests/helpers/incident_check.py" "$T/a" "$T/wl.wl" "$wpid" "$PRE" "$POST" \
	>"$T/check.out" || fail "$(cat "$T/check.out")"
while read -r l; do log "A: $l"; done <"$T/check.out"

# ---- B: --max-incidents 3 and --incident-quota 12M: the oldest removed first, said -------------
[ "$(grep -c '^incident ' "$T/b.out")" = 3 ] || fail "B printed: $(cat "$T/b.out")"
kept=$(ls "$T/b" | cut -d- -f2 | sort -n | tr '\n' ' ')
[ "$kept" = "2 3 " ] || fail "B kept incidents $kept, want 2 and 3: $(cat "$T/b.err")"
[ "$(grep -c 'incident-quota .*removed the oldest' "$T/b.err")" = 1 ] &&
	grep -q "removed the oldest, $T/b/incident-1-" "$T/b.err" ||
	fail "B's removals: $(cat "$T/b.err")"
used=$(du -sB1 "$T/b" | cut -f1)
[ "$used" -le $((12 * 1024 * 1024 + 4096)) ] || fail "B uses $used bytes, over 12M"
log "B: ended by itself after 3 incidents, removed the oldest, kept 2 in $used bytes"

# ---- D: the event condition and offcpu, on a disk that fills ----------------------------------
[ "$(grep -c ': event sched:sched_process_exec by ' "$T/d.out")" = 1 ] ||
	fail "D's event incidents: $(cat "$T/d.out")"
nfull=$(grep -c '^ktop: incident [0-9]* not written: .*No space left on device.*; capture goes on$' \
	"$T/d.err")
noff=$(grep -c ': off-CPU .* by '"$NAME"' ' "$T/d.out")
[ "$nfull" -ge 1 ] && [ $((noff + nfull)) -ge 5 ] ||
	fail "D: $noff off-CPU incidents written, $nfull said full: $(cat "$T/d.out" "$T/d.err")"
ev=$(grep ': event sched:' "$T/d.out" | sed 's/.* -> //')
trace-cmd report "$ev/trace.dat" 2>/dev/null >"$T/d.report"
grep -A1 "sched_process_exec: *filename=$T/frmark$$ " "$T/d.report" | grep -q kernel_stack ||
	fail "D's event incident lacks the exec and its stack: $(grep -c . "$T/d.report") lines"
# the stacks of the window, folded: the exec's own, the firing task's alone in task.folded
[ "$(wc -l <"$ev/task.folded")" = 1 ] &&
	grep -Eq '^[^;]+;.*execve.*;.* 1$' "$ev/task.folded" &&
	grep -q '"stacks":{"stacks.folded":[1-9][0-9]*,"task.folded":1}' "$ev/summary.json" ||
	fail "D's event incident's stacks: $(cat "$ev"/*.folded "$ev/summary.json")"
for s in "$T"/a/incident-*/summary.json; do
	grep -q '"stacks":null,"stacks_note":"no event stacks in the window' "$s" ||
		fail "A's $s says of stacks: $(cat "$s")"
done
log "D: the marker's exec with its stack; $noff off-CPU incidents, then $nfull said full"
for e in a b d; do assert_no_sanitizer "$T/$e.err"; done

# ---- bad conditions -----------------------------------------------------------------------------
bad()
{
	run_ktop 10 "$T/r.out" "$T/r.err" -b --incidents "$T/x" "$@"
	[ "$KTOP_RC" = 2 ] && [ "$(wc -l <"$T/r.err")" = 1 ] ||
		fail "$*: exit $KTOP_RC, stderr: $(cat "$T/r.err")"
	grep -qF -- "$BAD" "$T/r.err" || fail "$*: stderr lacks '$BAD': $(cat "$T/r.err")"
}
BAD="needs fexit or a kretprobe" bad --arm 'func:vfs_read>1ms'
BAD="duration 'abc'" bad --arm 'syscall>abc'
BAD="name=nosuchcall" bad --arm 'syscall>1ms,name=nosuchcall'
BAD="errno=ENOPE" bad --arm 'errno=ENOPE'
BAD="cgroup= is not taken by runq" bad --arm 'runq>1ms,cgroup=/'
# the kernel holds one stacktrace trigger per event: --stack there is said, not removed
run_ktop 20 "$T/r.out" "$T/r.err" -b --incidents "$T/y" --stack sched:sched_process_exec \
	--arm event:sched:sched_process_exec --duration 5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/r.err")" = 1 ] && grep -q "drop --stack there" "$T/r.err" ||
	fail "--stack on the armed event: exit $KTOP_RC, $(cat "$T/r.err")"
run_ktop 10 "$T/r.out" "$T/r.err" -b --arm 'syscall>1s'
grep -q -- "--arm needs --incidents DIR" "$T/r.err" || fail "no --incidents: $(cat "$T/r.err")"
[ -e "$T/x" ] && fail "a refused run made $T/x"
run_ktop 20 "$T/r.out" "$T/r.err" -b --arm 'syscall>1s' --incidents /proc/nope --duration 5
[ "$KTOP_RC" = 1 ] && grep -q -- "--incidents /proc/nope: No such file" "$T/r.err" ||
	fail "unwritable --incidents: exit $KTOP_RC, $(cat "$T/r.err")"
assert_clean
pass
