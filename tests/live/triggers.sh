#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Event triggers (--trigger) and the "stop when" recipe (--stop-when) in ktop's instance,
# against workloads whose events are known exactly:
#   1. traceoff on the exec, traceon on the exit of marker programs (one of the two per event,
#      the kernel says): the getppid() calls made while tracing is off are missing, the
#      others all there;
#   2. enable_event:...:1 on an exec, disable_event on an exit: exactly the calls made in
#      between;
#      the count the kernel decrements reads back as count=0;
#   3. stacktrace:3: exactly 3 kernel stacks after 10 calls, each under its row;
#   4. --stop-when: the batch run ends by itself at the matching exec, after K others and
#      before the K that follow, exit 0, the summary says when;
#   5. bad triggers: one-line errors, nothing left;
#   6. kill -9: the guard clears the triggers, and so does the next start's stale clean-up
#      (each seen while the test keeps the instance busy, so the rmdir that follows fails).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

# Marker programs: exec'ing one fires the sched_process_exec triggers whose condition names it.
for m in off on enable disable before stop after; do
	ln -s /bin/true "$T/ktt_$m"
done

# trigger_has PID SYS EV PATTERN: the event's trigger file in ktop-PID matches PATTERN.
trigger_has() { grep -Eq -- "$4" "$(instance_dir "$1")/events/$2/$3/trigger" 2>/dev/null; }
wait_trigger()
{
	wait_until 15 trigger_has "$@" ||
		fail "ktop $1: no trigger /$4/ on $2:$3 within 15s ($(cat "$T/run.err"))"
}
# getppid rows in FILE of the workload PID under its ktt-* name (the wrapper's shell calls
# getppid once before it execs the workload)
rows_of() { grep -Ec -- " ktt-[a-z]+-$2 +syscalls:sys_enter_getppid" "$1"; }
workload() { "$KTOP_WORKLOAD" count "$1" "$2"; }

# finish WHAT EXPECTED PID...: ends the run, then the getppid rows of each PID must read
# EXPECTED ("11 0 33").
finish()
{
	local what=$1 want=$2 got="" p
	shift 2
	"$KTOP_WORKLOAD" count 300 ktt-filler >/dev/null
	stop_ktop "$kpid" INT 20
	[ "$KTOP_RC" = 0 ] || fail "$what run exited $KTOP_RC: $(cat "$T/run.err")"
	for p in "$@"; do got+="${got:+ }$(rows_of "$T/run.out" "$p")"; done
	[ "$got" = "$want" ] || fail "getppid rows $what: $got, expected $want"
	assert_no_sanitizer "$T/run.err"
	assert_clean
	log "$what: rows $got"
}

start()
{
	start_ktop "$T/run.out" "$T/run.err" "$@"
	kpid=$KTOP_PID
}

# ---- 1. traceoff / traceon ------------------------------------------------------------------
start -b -e syscalls:sys_enter_getppid --filter 'comm ~ "ktt-*"' \
	--trigger 'sched:sched_process_exec:traceoff if filename ~ "*/ktt_off"' \
	--trigger 'sched:sched_process_exit:traceon if comm == "ktt_on"'
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_trigger "$kpid" sched sched_process_exit '^traceon:unlimited if comm == "ktt_on"$'
trigger_has "$kpid" sched sched_process_exec '^traceoff:unlimited if' || fail "traceoff trigger missing"
p1=$(workload 11 ktt-a)
"$T/ktt_off"
p2=$(workload 22 ktt-b)
"$T/ktt_on"
p3=$(workload 33 ktt-c)
finish "before traceoff / while off / after traceon" "11 0 33" "$p1" "$p2" "$p3"

# ---- 2. enable_event:1 and disable_event ------------------------------------------------------
start -b -e sched:sched_process_exec --filter 'filename ~ "*/ktt_*"' \
	--trigger 'sched:sched_process_exec:enable_event:syscalls:sys_enter_getppid:1 if filename ~ "*/ktt_enable"' \
	--trigger 'sched:sched_process_exit:disable_event:syscalls:sys_enter_getppid if comm == "ktt_disable"'
wait_capturing "$kpid" sched sched_process_exec
wait_trigger "$kpid" sched sched_process_exit '^disable_event:syscalls:sys_enter_getppid:unlimited if'
trigger_has "$kpid" sched sched_process_exec '^enable_event:syscalls:sys_enter_getppid:count=1 if' ||
	fail "enable_event trigger not shown with count=1: $(cat "$(instance_dir "$kpid")/events/sched/sched_process_exec/trigger")"
p1=$(workload 40 ktt-a)
"$T/ktt_enable"
trigger_has "$kpid" sched sched_process_exec '^enable_event:syscalls:sys_enter_getppid:count=0 if' ||
	fail "the kernel's count of enable_event did not reach 0 after it fired"
p2=$(workload 250 ktt-b)
"$T/ktt_disable"
p3=$(workload 60 ktt-c)
"$T/ktt_enable" # count spent: must not enable it again
p4=$(workload 70 ktt-d)
finish "before enable_event:1 / between / after disable_event / after the spent enable_event:1" \
	"0 250 0 0" "$p1" "$p2" "$p3" "$p4"

# ---- 3. stacktrace:3 ----------------------------------------------------------------------
start -b -e syscalls:sys_enter_getppid --filter 'comm == "ktt-stack"' \
	--trigger 'syscalls:sys_enter_getppid:stacktrace:3 if comm == "ktt-stack"'
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_trigger "$kpid" syscalls sys_enter_getppid '^stacktrace:count=3 if comm == "ktt-stack"$'
p1=$(workload 10 ktt-stack)
"$KTOP_WORKLOAD" count 300 ktt-filler >/dev/null
stop_ktop "$kpid" INT 20
[ "$KTOP_RC" = 0 ] || fail "stacktrace run exited $KTOP_RC: $(cat "$T/run.err")"
calls=$(rows_of "$T/run.out" "$p1")
# each stack is printed under its row (" => " lines), not as a row of its own
stacks=$(awk -v row="-$p1 +syscalls:sys_enter_getppid" '$0 ~ row { r = 1; next }
	r && /^ => / { n++ } { r = 0 } END { print n + 0 }' "$T/run.out")
syscall_frames=$(grep -c -- "^ => do_syscall_64+" "$T/run.out")
[ "$calls $stacks" = "10 3" ] || fail "getppid rows and kernel stacks: $calls $stacks, expected 10 3"
[ "$syscall_frames" = 3 ] || fail "kernel stacks without do_syscall_64 frames: $syscall_frames of 3"
assert_no_sanitizer "$T/run.err"
assert_clean
log "stacktrace:3: $stacks stacks for $calls calls"

# ---- 4. --stop-when ends the batch run at the matching event --------------------------------
K=7
start -b -e sched:sched_process_exec --filter "filename ~ \"$T/ktt_*\"" \
	--stop-when 'sched:sched_process_exec if filename ~ "*/ktt_stop"' --duration 60
wait_capturing "$kpid" sched sched_process_exec
wait_trigger "$kpid" sched sched_process_exec '^traceoff:count=1 if filename ~ "\*/ktt_stop"$'
for _ in $(seq $K); do "$T/ktt_before"; done
"$T/ktt_stop"
for _ in $(seq $K); do "$T/ktt_after"; done
wait_pid_exit "$kpid" 20 || fail "--stop-when: ktop still running 20s after the matching exec"
[ "$WAIT_RC" = 0 ] || fail "--stop-when: exit status $WAIT_RC, expected 0: $(cat "$T/run.err")"
before=$(grep -c 'filename=.*/ktt_before ' "$T/run.out")
stop=$(grep -c 'filename=.*/ktt_stop ' "$T/run.out")
after=$(grep -c 'filename=.*/ktt_after ' "$T/run.out")
[ "$before $stop $after" = "$K 1 0" ] ||
	fail "--stop-when: exec rows before/matching/after: $before $stop $after, expected $K 1 0"
last_event=$(grep 'sched:sched_process_exec:' "$T/run.out" | tail -n1)
[[ $last_event == *"/ktt_stop "* ]] || fail "--stop-when: the last event is not the matching one: $last_event"
ts=$(awk '{ print $1 }' <<<"$last_event")
grep -qxF "# ktop: stopped by sched:sched_process_exec if filename ~ \"*/ktt_stop\" at $ts" "$T/run.out" ||
	fail "--stop-when: no 'stopped by ... at $ts' line: $(grep '^# ktop' "$T/run.out")"
tail -n1 "$T/run.out" | grep -q '^# ktop: events=' || fail "--stop-when: the summary is not the last line"
assert_no_sanitizer "$T/run.err"
assert_clean
log "--stop-when: ended at the matching exec ($ts) after $K others, none of the $K after"

# ---- 5. bad triggers: one line each, exit status, nothing left ------------------------------
bad()
{
	local want=$1 rc=$2
	shift 2
	run_ktop 20 "$T/bad.out" "$T/bad.err" -b -q --duration 1 "$@"
	[ "$KTOP_RC" = "$rc" ] || fail "$*: exit $KTOP_RC, expected $rc ($(cat "$T/bad.err"))"
	[ "$(wc -l <"$T/bad.err")" = 1 ] || fail "$*: not one line: $(cat "$T/bad.err")"
	grep -qF -- "$want" "$T/bad.err" || fail "$*: '$(cat "$T/bad.err")' does not say '$want'"
}
bad "unknown trigger 'traceof' (this kernel has: traceon traceoff" 1 \
	--trigger 'sched:sched_switch:traceof'
bad "condition of traceoff on sched:sched_switch: 'prev_pd' is not a field of sched_switch" 1 \
	--trigger 'sched:sched_switch:traceoff if prev_pd == 1'
bad "no such event 'sched:sched_nosuch' for a trigger" 1 --trigger 'sched:sched_nosuch:traceoff'
bad "enable_event: no such event 'sched:nosuch'" 1 \
	--trigger 'sched:sched_switch:enable_event:sched:nosuch'
bad "count 'x' of trigger traceoff: must be a number above 0" 2 \
	--trigger 'sched:sched_switch:traceoff:x'
bad "needs SYS:EV:TRIGGER" 2 --trigger 'sched:sched_switch'
bad "'>' needs a value after it" 1 --stop-when 'sched:sched_switch if prev_pid >'
bad "--stop-when: 'sched': needs SYS:EV [if FILTER]" 2 --stop-when 'sched'
assert_clean
log "bad triggers: one line each"

# ---- 6. kill -9: the guard, then the stale clean-up ------------------------------------------
TRIGS=(--trigger 'sched:sched_process_exec:enable_event:syscalls:sys_enter_getppid'
	--trigger 'sched:sched_process_fork:traceoff:5 if child_pid == 1'
	--trigger 'syscalls:sys_enter_getppid:stacktrace')
all_triggers() { cat "$(instance_dir "$1")"/events/*/*/trigger 2>/dev/null | grep -vc '^#'; }

# The guard: the test holds a file of the instance open, so rmdir fails (EBUSY) and what the
# guard cleared before it stays visible.
start -b -q -e sched:sched_switch "${TRIGS[@]}"
victim=$kpid
wait_capturing "$victim" sched sched_switch
wait_trigger "$victim" syscalls sys_enter_getppid '^stacktrace:unlimited$'
[ "$(all_triggers "$victim")" = 3 ] || fail "expected 3 triggers in ktop-$victim, found $(all_triggers "$victim")"
exec 9<"$(instance_dir "$victim")/tracing_on"
kill -KILL "$victim"
wait_pid_exit "$victim" 5 || fail "ktop $victim survived kill -9"
_guard_done() { [ "$(all_triggers "$victim")" = 0 ]; }
guard_ok=0
wait_until 10 _guard_done && guard_ok=1
left=$(cat "$(instance_dir "$victim")"/events/*/*/trigger | grep -v '^#' | tr '\n' ';')
exec 9<&-
[ "$guard_ok" = 1 ] || fail "the guard did not clear the triggers of ktop-$victim after kill -9: $left"
log "guard: triggers of ktop-$victim cleared after kill -9"

# The stale clean-up: without the guard, the next start clears the dead ktop's triggers before
# its rmdir. The test keeps that instance busy meanwhile: the rmdir fails, what was cleared
# stays visible, and no other ktop on this machine (other users run ktop too, whose stale
# clean-up removes any dead ktop's instance) can remove it first.
KTOP_ENV=(KTOP_NO_GUARD=1)
start -b -q -e sched:sched_switch "${TRIGS[@]}"
dead=$kpid
wait_capturing "$dead" sched sched_switch
wait_trigger "$dead" syscalls sys_enter_getppid '^stacktrace:unlimited$'
exec 9<"$(instance_dir "$dead")/tracing_on"
kill -KILL "$dead"
wait_pid_exit "$dead" 5 || fail "ktop $dead survived kill -9"
KTOP_ENV=()
[ "$(all_triggers "$dead")" = 3 ] || { exec 9<&-; fail "ktop-$dead lost its triggers before the stale clean-up"; }
start -b -q -e sched:sched_switch -v --log "$T/next.log"
wait_capturing "$kpid" sched sched_switch
left=$(all_triggers "$dead")
exec 9<&-
[ "$left" = 0 ] || fail "the next start left $left triggers in ktop-$dead"
grep -q "triggers: 3 removed from instance ktop-$dead" "$T/next.log" ||
	fail "the next start's log does not say it cleared ktop-$dead's 3 triggers: $(grep -i 'trigger\|instance' "$T/next.log" | head -5)"
stop_ktop "$kpid" INT 10
# Free now: the start after removes it (or another ktop on this machine did already).
run_ktop 20 "$T/last.out" "$T/last.err" -b -q --duration 0.1
instance_gone "$dead" || fail "ktop-$dead remains after the next start"
instance_gone "$victim" || fail "ktop-$victim remains after the next start"
assert_clean
log "stale clean-up: 3 triggers of ktop-$dead cleared before its rmdir, instance removed"
pass
