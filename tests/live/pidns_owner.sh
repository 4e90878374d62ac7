#!/bin/bash
# ktop in pid namespaces of their own (containers without the host's pid namespace) share
# the host's tracefs, where a pid alone names nothing: both are pid 1 in theirs, and the
# host's pids are not theirs to see.
#   - an instance ktop-<S> whose owner S is a live host process (a sleep of the test's, as a
#     host ktop would be) survives a namespace's ktop start (which once took S, not in its
#     namespace, for dead, and removed it);
#   - each namespace's ktop names its instance ktop-<its pid namespace's inode>_1 (the
#     inode from /proc/PID/ns/pid), and two run side by side: the second's start leaves the
#     first's instance alone (once both were ktop-1, and the second removed the first's);
#   - both end with status 0 and leave nothing behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
command -v unshare >/dev/null || skip "needs unshare (util-linux) for pid namespaces"
sleep 600 &
S=$!
CLEANUP_PIDS+=("$S")
mkdir "$TRACEFS/instances/ktop-$S" || fail "cannot make instance ktop-$S"
CLEANUP_INSTANCES+=("ktop-$S")

# in_pidns OUT ERR: ktop -b in a new pid (and mount) namespace for 4 s; its host pid in
# NS_KTOP, its instance's name in NS_INST once it exists
in_pidns()
{
	local u
	unshare -pf --mount-proc "$KTOP" -b -q -e syscalls:sys_enter_getppid --duration 4 \
		>"$1" 2>"$2" </dev/null &
	u=$!
	CLEANUP_PIDS+=("$u")
	wait_until 10 pgrep -P "$u" >/dev/null || fail "unshare started no ktop: $(cat "$2")"
	NS_KTOP=$(pgrep -P "$u")
	NS_UNSHARE=$u
	NS_INST=ktop-$(stat -L -c %i "/proc/$NS_KTOP/ns/pid")_1
	wait_until 10 test -d "$TRACEFS/instances/$NS_INST" ||
		fail "no instance $NS_INST: $(ls "$TRACEFS/instances" | tr '\n' ' '); $(cat "$2")"
}

in_pidns "$T/a.out" "$T/a.err"
a=$NS_UNSHARE a_inst=$NS_INST
in_pidns "$T/b.out" "$T/b.err"
b=$NS_UNSHARE b_inst=$NS_INST
[ "$a_inst" != "$b_inst" ] || fail "both namespaces' ktops named their instance $a_inst"
[ -d "$TRACEFS/instances/$a_inst" ] || fail "the second ktop's start removed the first's $a_inst"
[ -d "$TRACEFS/instances/ktop-$S" ] || fail "a namespace's ktop removed ktop-$S (its owner lives)"
for p in "$a" "$b"; do
	wait_pid_exit "$p" 30 || fail "a namespace's ktop did not end after --duration 4"
	[ "$WAIT_RC" = 0 ] || fail "a namespace's ktop exited $WAIT_RC: $(cat "$T/a.err" "$T/b.err")"
done
for i in "$a_inst" "$b_inst"; do
	[ -d "$TRACEFS/instances/$i" ] && fail "$i remains after its ktop ended"
done
log "$a_inst and $b_inst side by side; ktop-$S kept"
assert_clean
pass
