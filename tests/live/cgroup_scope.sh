#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --cgroup on the real kernel's cgroup v2, with a throwaway cgroup removed on every exit:
#  - a workload of exactly N getppid() calls inside the cgroup is seen exactly N times, an
#    identical one outside not at all, in the event stream (a tracepoint, and a uprobe on
#    libc's syscall(), which the workload calls once per getppid) and in a BPF field histogram
#    (filtered in the kernel), whose by=cgroup key is the cgroup's path;
#  - without --cgroup, by=cgroup keys the same calls by their cgroup's path;
#  - a task moved into the cgroup after ktop started is seen once set_event_pid has it
#    (the next tick), and one moved out is no longer seen;
#  - a v1 hierarchy's cgroup (where one is mounted) scopes events the same way;
#  - --pmu --cgroup (perf's cgroup mode) counts the inside workload's context switches and
#    task-clock, not the outside one's;
#  - bad paths, a v1 cgroup for BPF or for counters: one-line errors, exit 2 or 1;
#  - nothing of ktop's is left in the kernel.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_root_tracefs
require_workload
require_python
require_cgroup2

N=${KTOP_CGROUP_N:-20000}
make_cgroup scope
CG=$CGROUP_DIR
CGNAME=${CG#"$CGROUP2"}
HIST="field:syscalls:sys_enter_getppid.__syscall_nr,by=cgroup"

# spawn TAG [CGROUP]: an N-call workload (lib.sh's spawn_count)
spawn() { spawn_count "$1" "$N" "${2:-}"; }

# pair TAG DIR: an N-call workload TAGin inside cgroup DIR and TAGout outside, both waiting
# for $T/go; their pids in in_pid and out_pid.
pair()
{
	rm -f "$T/go"
	spawn "$1in" "$2"
	in_pid=$wl_pid
	spawn "$1out"
	out_pid=$wl_pid
}

finish()
{
	local p
	for p in "$@"; do
		wait_pid_exit "$p" 60 || fail "workload $p did not finish within 60s"
		[ "$WAIT_RC" = 0 ] || fail "workload $p exited $WAIT_RC"
	done
	KERNEL_MISSED=0
	[ -z "$(prog_ids "$kpid")" ] || kernel_missed "$kpid"
	stop_ktop "$kpid" INT 30
	[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC; stderr: $(head -c 500 "$T/err")"
	instance_gone "$kpid" || fail "instance ktop-$kpid left after exit"
}

# rows OUT PID [EVENT]: the rows of EVENT (getppid's tracepoint) of PID in a --json capture.
rows() { grep -c "\"pid\":$2,.*\"event\":\"${3:-syscalls:sys_enter_getppid}\"" "$1"; }
# exact OUT IN OUT WHAT [EVENT]: IN's rows are exactly N, OUT's none.
exact()
{
	local a b
	a=$(rows "$1" "$2" "${5:-}") b=$(rows "$1" "$3" "${5:-}")
	[ "$a" = "$N" ] || fail "$4: the task inside was seen $a times, it made $N calls"
	[ "$b" = 0 ] || fail "$4: the task outside was seen $b times"
	log "$4: inside $a of $N, outside $b"
}
# hist_count OUT KEY: the histogram's count for KEY ("" when absent); all keys on stderr.
hist_count()
{
	python3 - "$1" "$2" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "hist" in o:
        keys = {k["key"]: k["count"] for k in o["hist"]["keys"]}
        print(f"keys: {keys}, missed {o['hist']['missed']}", file=sys.stderr)
        print(keys.get(sys.argv[2], ""))
EOF
}
# The runs the kernel skipped, as ktop reported them: a plain tracepoint program does not
# run while another BPF program or a BPF map syscall holds its CPU (hist-lib.sh's rule).
hist_missed() { grep -o '"missed":[0-9]*' "$1" | head -n1 | cut -d: -f2; }
# COUNT is N, or fewer by no more than the runs ktop said were skipped, and no more than the
# kernel itself said ktop's programs had failed to count once the workloads had ended
# (KERNEL_MISSED, taken by finish: hist-lib.sh's kernel_missed).
counted() # COUNT FILE
{
	[ -n "$1" ] && [ "$1" -le "$N" ] && [ $(($1 + $(hist_missed "$2"))) -ge "$N" ] &&
		[ $((N - $1)) -le "$KERNEL_MISSED" ]
}
_counting() { [ "$(perf_counter_fds "$1")" -gt 0 ] || ! pid_alive "$1"; }
pid_scoped() { grep -qw "$2" "$(instance_dir "$1")/set_event_pid"; }

# ---- inside counted exactly, outside not at all: events and a BPF histogram ---------------
pair ev "$CG"
LIBC=$(ldd "$KTOP_WORKLOAD_BIN" | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -f "$LIBC" ] || fail "no libc in ldd $KTOP_WORKLOAD_BIN"
start_ktop "$T/out" "$T/err" -b --json --cgroup "$CGNAME" -e syscalls:sys_enter_getppid \
	--hist "$HIST" --uprobe "cgsys=$LIBC:syscall"
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
# the histogram attaches after the events are on: under load, calls made in between were
# missing from it (a soak run counted 19213 of 20000, none skipped)
wait_until 15 _counting "$kpid" || fail "ktop attached no histogram within 15s"
pid_scoped "$kpid" "$in_pid" || fail "set_event_pid lacks the inside workload $in_pid: $(cat "$(instance_dir "$kpid")/set_event_pid")"
! pid_scoped "$kpid" "$out_pid" || fail "set_event_pid has the outside workload $out_pid"
[ "$(cat "$(instance_dir "$kpid")/options/event-fork")" = 1 ] || fail "event-fork is off"
touch "$T/go"
finish "$in_pid" "$out_pid"
grep -q '"lost":0,"lost_marked":0' "$T/out" || fail "the kernel lost events: $(tail -n1 "$T/out")"
exact "$T/out" "$in_pid" "$out_pid" "--cgroup $CGNAME, tracepoint"
exact "$T/out" "$in_pid" "$out_pid" "--cgroup $CGNAME, uprobe" "ktop_$kpid:cgsys"
h=$(hist_count "$T/out" "$CGNAME") || fail "no histogram in the output"
counted "$h" "$T/out" ||
	fail "histogram by=cgroup: '$CGNAME' counted '$h', expected $N ($(hist_missed "$T/out") runs skipped by ktop's word, $KERNEL_MISSED by the kernel's)"
[ "$(grep -o '"key":' "$T/out" | wc -l)" = 1 ] || fail "the histogram has keys besides $CGNAME"
log "--cgroup $CGNAME, BPF histogram: $h"

# ---- by=cgroup without --cgroup: keyed by each task's cgroup path ------------------------
pair all "$CG"
start_ktop "$T/all" "$T/err" -b --json -q --hist "$HIST"
kpid=$KTOP_PID
# a tracepoint program is attached through a perf event (the task-name side band's are
# mapped, so not counted)
wait_until 15 _counting "$kpid" || fail "ktop attached no histogram within 15s"
pid_alive "$kpid" || fail "ktop ended early: $(head -c 400 "$T/err")"
touch "$T/go"
finish "$in_pid" "$out_pid"
h=$(hist_count "$T/all" "$CGNAME")
counted "$h" "$T/all" ||
	fail "by=cgroup without --cgroup: '$CGNAME' counted '$h', expected $N ($(hist_missed "$T/all") runs skipped by ktop's word, $KERNEL_MISSED by the kernel's)"
outside_cg=$(awk -F: '$1 == "0" { print $3 }' "/proc/self/cgroup")
h=$(hist_count "$T/all" "$outside_cg")
if [ -z "$h" ] || [ $((h + $(hist_missed "$T/all"))) -lt "$N" ] || [ $((h + KERNEL_MISSED)) -lt "$N" ]; then
	fail "by=cgroup: the outside cgroup '$outside_cg' counted '$h', at least $N"
fi

# ---- joining and leaving after ktop started ----------------------------------------------
rm -f "$T/go"
spawn joiner
join_pid=$wl_pid
spawn leaver "$CG"
leave_pid=$wl_pid
start_ktop "$T/join" "$T/err" -b --json -d 1 --cgroup "$CG" -e syscalls:sys_enter_getppid
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
pid_scoped "$kpid" "$leave_pid" || fail "set_event_pid lacks $leave_pid at start"
echo "$join_pid" >"$CG/cgroup.procs" || fail "cannot move $join_pid into $CG"
echo "$leave_pid" >"$CGROUP2/cgroup.procs" || fail "cannot move $leave_pid out of $CG"
# ktop re-reads the cgroup on its tick (-d 1: every 0.1 s)
wait_until 5 pid_scoped "$kpid" "$join_pid" || fail "set_event_pid did not get $join_pid, which joined $CGNAME"
_left() { ! pid_scoped "$1" "$2"; }
wait_until 5 _left "$kpid" "$leave_pid" || fail "set_event_pid kept $leave_pid, which left $CGNAME"
touch "$T/go"
finish "$join_pid" "$leave_pid"
exact "$T/join" "$join_pid" "$leave_pid" "joined and left after the start"

# ---- a v1 hierarchy's cgroup: events scoped the same way (its tasks file) ---------------
v1=$(awk '$3 == "cgroup" { print $2; exit }' /proc/mounts)
if [ -n "$v1" ]; then
	make_cgroup v1 "$v1"
	pair v1 "$CGROUP_DIR"
	start_ktop "$T/v1" "$T/err" -b --json --cgroup "$CGROUP_DIR" -e syscalls:sys_enter_getppid
	kpid=$KTOP_PID
	wait_capturing "$kpid" syscalls sys_enter_getppid
	touch "$T/go"
	finish "$in_pid" "$out_pid"
	exact "$T/v1" "$in_pid" "$out_pid" "v1 $CGROUP_DIR"
else
	log "no cgroup v1 hierarchy mounted: v1 scoping is not exercised here"
fi

# ---- counters in perf's cgroup mode ------------------------------------------------------
SLEEPS=100
start_ktop "$T/pmu" "$T/err" -b --pmu --duration 60 --cgroup "$CGNAME"
kpid=$KTOP_PID
wait_until 15 _counting "$kpid" || fail "ktop opened no counter within 15s"
in_cgroup "$CG" "$KTOP_WORKLOAD" sleep 1 "$SLEEPS" inside >"$T/in.sleep"
in_pid=$IN_CGROUP_PID
"$KTOP_WORKLOAD" sleep 1 $((SLEEPS * 10)) outside >"$T/out.sleep" &
out_pid=$!
CLEANUP_PIDS+=("$out_pid")
finish "$in_pid" "$out_pid"
grep -q "^# pmu: cgroup $CG, " "$T/pmu" || fail "the counters do not say they count $CG: $(grep '^# pmu:' "$T/pmu")"
cs=$(awk '$1 == "context-switches" { print $2 }' "$T/pmu")
tc=$(awk '$1 == "task-clock" { print $2 }' "$T/pmu")
if ! [[ $cs =~ ^[0-9]+$ ]] || ! [[ $tc =~ ^[0-9]+$ ]]; then
	fail "context-switches '$cs', task-clock '$tc'"
fi
[ "$cs" -ge "$SLEEPS" ] || fail "cgroup mode: context-switches=$cs < the inside workload's $SLEEPS sleeps"
[ "$cs" -lt $((SLEEPS * 10)) ] || fail "cgroup mode: context-switches=$cs counts the outside workload's $((SLEEPS * 10)) sleeps"
[ "$tc" -gt 0 ] || fail "cgroup mode: task-clock is 0"
log "--pmu --cgroup: context-switches=$cs (inside $SLEEPS sleeps, outside $((SLEEPS * 10))), task-clock=$tc"

# ---- bad inputs ---------------------------------------------------------------------------
# expect_error RC PATTERN ARGS...: ktop exits RC with one stderr line matching PATTERN.
expect_error()
{
	local rc=$1 pat=$2
	shift 2
	run_ktop 30 "$T/bad.out" "$T/bad.err" "$@"
	[ "$KTOP_RC" = "$rc" ] || fail "ktop $* exited $KTOP_RC, expected $rc; stderr: $(cat "$T/bad.err")"
	[ "$(wc -l <"$T/bad.err")" = 1 ] || fail "ktop $*: not one line: $(cat "$T/bad.err")"
	grep -Eq -- "$pat" "$T/bad.err" || fail "ktop $*: '$(cat "$T/bad.err")' lacks '$pat'"
}
expect_error 2 "no cgroup '/ktop-no-such-cgroup-$$'.*ls $CGROUP2 lists them" \
	-b --duration 1 --cgroup "/ktop-no-such-cgroup-$$" -e syscalls:sys_enter_getppid
expect_error 2 "'$T' is not a cgroup: give a directory of a cgroup filesystem" \
	-b --duration 1 --cgroup "$T" -e syscalls:sys_enter_getppid
expect_error 2 "give one of them" -b --duration 1 --cgroup "$CGNAME" -p $$
v1=$(awk '$3 == "cgroup" && $4 !~ /perf_event/ { print $2; exit }' /proc/mounts)
if [ -n "$v1" ]; then
	expect_error 1 "BPF filters by cgroup v2 ids only, and $v1 is a v1 cgroup: give its path below the cgroup v2 mount" \
		-b --duration 1 --cgroup "$v1" --hist syscall-latency
	expect_error 1 "no perf_event controller on that cgroup's hierarchy .*count its processes with -p" \
		-b --duration 1 --cgroup "$v1" --pmu
else
	log "no cgroup v1 hierarchy mounted: the v1 refusals are not exercised here"
fi

assert_clean
pass
