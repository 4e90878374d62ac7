#!/bin/bash
# After kill -9:
#   - without the guard (KTOP_NO_GUARD=1: ktop has no child process) the instance
#     ktop-<pid> stays behind, and the next ktop start removes it, together with a probe
#     group ktop_<deadpid>; it leaves alone
#     another tool's instance and probe group, and an instance and a group named after a
#     live pid that is not a ktop (that owner cannot be proven dead);
#   - with the guard, the instance is gone within about two seconds, without any restart,
#     and the guard itself exits.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

DYN=$(_dynevents_file)

# A pid that certainly belonged to a process that has exited.
dead_pid()
{
	local p
	true &
	p=$!
	wait "$p"
	echo "$p"
}

# "/bin/true:0xOFFSET", the file offset of its entry point (a valid uprobe address).
uprobe_target()
{
	local bin=/bin/true entry type off va _pa _fsz msz
	command -v readelf >/dev/null 2>&1 || return 1
	entry=$(readelf -hW "$bin" 2>/dev/null | awk '/Entry point address/ { print $4 }')
	[ -n "$entry" ] || return 1
	while read -r type off va _pa _fsz msz _; do
		[ "$type" = LOAD ] || continue
		if ((entry >= va && entry < va + msz)); then
			printf '%s:0x%x\n' "$bin" $((entry - va + off))
			return 0
		fi
	done < <(readelf -lW "$bin" 2>/dev/null)
	return 1
}

# add_uprobe GROUP EVENT: creates a uprobe this test owns. Fails quietly (returns 1).
add_uprobe()
{
	[ -n "$target" ] || return 1
	echo "p:$1/$2 $target" >>"$DYN" 2>/dev/null || return 1
	CLEANUP_DYNEVENTS+=("$1/$2")
	grep -q "^p:$1/$2 " "$DYN"
}
has_group() { grep -q "^[^:]*:$1/" "$DYN"; }

# ---- 1. kill -9 without the guard leaves the instance ------------------------------------
# Whether the instance is still there after the kill says nothing for sure: another ktop
# starting on this machine removes the leftover too (that is its job). The kernel says it
# for sure: a ktop under KTOP_NO_GUARD=1 has no child process, so nothing of its own can
# clean up after it.
KTOP_ENV=(KTOP_NO_GUARD=1)
start_ktop "$T/k1.out" "$T/k1.err" -b -q -e sched:sched_switch
victim=$KTOP_PID
wait_capturing "$victim" sched sched_switch
children=$(cat "/proc/$victim/task/$victim/children" 2>/dev/null) ||
	fail "cannot read ktop $victim's children"
[ -z "$children" ] || fail "ktop $victim under KTOP_NO_GUARD=1 has child processes (a guard?): $children"
kill -KILL "$victim"
wait_pid_exit "$victim" 5 2>/dev/null || fail "ktop $victim survived kill -9"
[ "$WAIT_RC" = 137 ] || fail "kill -9'd ktop exited $WAIT_RC"
instance_exists "$victim" || log "ktop-$victim was removed by another ktop's start already"
KTOP_ENV=()

# ---- the neighbours that must survive ------------------------------------------------------
other="othertool-$$"
mkdir "$TRACEFS/instances/$other" || fail "cannot create instance $other"
CLEANUP_INSTANCES+=("$other")
echo 1 >"$TRACEFS/instances/$other/events/sched/sched_switch/enable"

sleep 120 &
live=$!
CLEANUP_PIDS+=("$live")
mkdir "$TRACEFS/instances/ktop-$live" || fail "cannot create instance ktop-$live"
CLEANUP_INSTANCES+=("ktop-$live")

dead=$(dead_pid)
pid_alive "$dead" && fail "pid $dead should be dead"
# Another dead owner, made by hand: only the ktop-<digits> form counts.
mkdir "$TRACEFS/instances/ktop-$dead" || fail "cannot create instance ktop-$dead"
CLEANUP_INSTANCES+=("ktop-$dead")
mkdir "$TRACEFS/instances/ktop-x$dead" || fail "cannot create instance ktop-x$dead"
CLEANUP_INSTANCES+=("ktop-x$dead")

probes=0
target=$(uprobe_target) || target=
if add_uprobe "ktop_$dead" stale && add_uprobe "othertool_$$" keep && add_uprobe "ktop_$live" keep; then
	probes=1
else
	log "cannot create uprobes here (target '$target'): the probe-group part is skipped"
fi

# ---- 2. the next start removes exactly the dead ktops' state --------------------------------
start_ktop "$T/k2.out" "$T/k2.err" -b -q -e sched:sched_switch
next=$KTOP_PID
wait_capturing "$next" sched sched_switch
instance_gone "$victim" || fail "the next ktop ($next) did not remove ktop-$victim left by the kill -9"
instance_gone "$dead" || fail "the next ktop ($next) did not remove ktop-$dead (owner dead)"
[ -d "$TRACEFS/instances/$other" ] || fail "ktop removed another tool's instance $other"
[ "$(cat "$TRACEFS/instances/$other/events/sched/sched_switch/enable")" = 1 ] ||
	fail "ktop changed $other's sched_switch enable"
[ -d "$TRACEFS/instances/ktop-$live" ] ||
	fail "ktop removed ktop-$live, whose owner pid $live is alive (a sleep, not a ktop)"
[ -d "$TRACEFS/instances/ktop-x$dead" ] || fail "ktop removed ktop-x$dead, which is not a ktop-<pid> name"
if [ "$probes" = 1 ]; then
	has_group "ktop_$dead" && fail "the next ktop did not remove the probe group ktop_$dead (owner dead)"
	has_group "othertool_$$" || fail "ktop removed another tool's probe group othertool_$$"
	has_group "ktop_$live" || fail "ktop removed probe group ktop_$live, whose owner is alive"
fi
stop_ktop "$next" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop $next exited $KTOP_RC"
# The survivors survive ktop's exit too.
if [ ! -d "$TRACEFS/instances/$other" ] || [ ! -d "$TRACEFS/instances/ktop-$live" ]; then
	fail "an instance that is not ktop's was removed at ktop's exit"
fi
if [ "$probes" = 1 ] && { ! has_group "othertool_$$" || ! has_group "ktop_$live"; }; then
	fail "a probe group that is not ktop's was removed at ktop's exit"
fi
assert_clean
log "stale clean-up at start: removed ktop-$victim, ktop-$dead$([ "$probes" = 1 ] && echo ", ktop_$dead"); kept $other, ktop-$live, ktop-x$dead"

# ---- 3. kill -9 with the guard: gone within ~2 s, no restart needed ------------------------
start_ktop "$T/k3.out" "$T/k3.err" -b -q -e sched:sched_switch
victim=$KTOP_PID
wait_capturing "$victim" sched sched_switch
guard=$(cat "/proc/$victim/task/$victim/children" 2>/dev/null)
[ -n "$guard" ] || fail "ktop $victim has no guard child process"
kill -KILL "$victim"
wait_pid_exit "$victim" 5 || fail "ktop $victim survived kill -9"
wait_until 2.5 instance_gone "$victim" ||
	fail "instance ktop-$victim still there 2.5s after kill -9 with the guard"
for g in $guard; do
	wait_until 3 _pid_gone "$g" || fail "the guard ($g) is still running after it cleaned up"
done
assert_clean
log "guard: ktop-$victim removed after kill -9"
pass
