#!/bin/bash
# Rows are named by the name their task had when they happened, without task:task_rename
# enabled: a short-lived task renames itself three times, one getppid() under each name,
# and exits before ktop prints anything. /proc no longer knows it, and the kernel's
# saved_cmdlines keeps one name per pid (the last one it saw), so only perf's side band of
# renames (src/backend/perf/taskwatch.c) can name the three rows alpha, beta and gamma.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

start_ktop "$T/out" "$T/err" -b -e syscalls:sys_enter_getppid \
	--filter 'comm == "alpha" || comm == "beta" || comm == "gamma" || comm == "flush"'
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid

wl=$("$KTOP_WORKLOAD" names alpha beta gamma | head -n1)
[ -n "$wl" ] || fail "the workload did not start"
wait_until 5 sh -c "! kill -0 $wl 2>/dev/null" || fail "the workload $wl did not exit"
# stdio's buffer: filler rows push the workload's rows out
"$KTOP_WORKLOAD" count 300 flush >/dev/null
wait_until 10 grep -q -- "-$wl  *syscalls:sys_enter_getppid" "$T/out" ||
	fail "ktop never printed the rows of pid $wl"
stop_ktop "$kpid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC"

names=$(grep -- "-$wl  *syscalls:sys_enter_getppid" "$T/out" |
	sed -E "s/^ *[0-9.]+ \[[0-9]+\] +//; s/-$wl  *syscalls.*//" | tr '\n' ' ')
[ "$names" = "alpha beta gamma " ] ||
	fail "the rows of pid $wl are named '$names', not 'alpha beta gamma '"
assert_clean
pass
