#!/bin/bash
# ktop -b prints what other users choose: a task renames itself (prctl(PR_SET_NAME)) to a
# name of terminal escape sequences, a carriage return and a backspace, makes N getppid
# calls and exits. The text output holds no control byte but newlines and tabs, and none
# past ASCII: each of the N call lines and the exit event's comm field show the name with
# every such byte as '?', as the explorer draws it (all batch text goes through the same
# stream, src/util/textout.c). The expected name is the workload's own, escaped by this test.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
N=50
name=$'\e]2;x\a\e[2J\r\b\xc2\x9bZ'	# 15 bytes, the most a comm keeps
shown=$(printf '%s' "$name" | LC_ALL=C tr '\000-\037\177-\377' '?')
[ ${#shown} = 15 ] || fail "the test's own escaping gave '$shown'"
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" "$name" >"$T/wl.out" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl.out" || fail "the workload did not start"
[ "$(cat "/proc/$wl/comm")" = "$name" ] || fail "the workload's comm is not the name"
# --duration, not a signal: a SIGINT before ktop installs its handler would be ignored (a
# background job's inherits SIG_IGN), and the 50 calls take a millisecond
start_ktop "$T/out" "$T/err" -b -e syscalls:sys_enter_getppid -e sched:sched_process_exit \
	--filter "common_pid == $wl" --duration 3
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 30 || fail "the workload did not finish"
wait_pid_exit "$kpid" 30 || fail "ktop did not end after --duration 3"
KTOP_RC=$WAIT_RC
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"

bad=$(LC_ALL=C tr -d '\n\t\040-\176' <"$T/out" | wc -c)
[ "$bad" = 0 ] ||
	fail "$bad control or non-ASCII bytes in the text output: $(grep -v "^#" "$T/out" | head -2 | cat -v)"
calls=$(grep -F -- "$shown-$wl " "$T/out" | grep -c ' syscalls:sys_enter_getppid: ')
[ "$calls" = "$N" ] || fail "$calls lines name the task '$shown-$wl', not $N"
grep -F 'sched:sched_process_exit:' "$T/out" | grep -qF "comm=$shown " ||
	fail "the exit event's comm field is not '$shown': $(grep -F sched_process_exit "$T/out")"
log "$calls lines and the exit event show the name as '$shown'"
assert_clean
pass
