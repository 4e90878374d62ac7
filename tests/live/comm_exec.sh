#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The task name in batch rows follows the task: a shell that ktop has already shown (its
# startup getppid() calls) then, 2.5 s later, execs a program under a new name; the rows made
# after the exec carry the new name, not the one ktop saw first. (A pid's name changes on exec and
# prctl(PR_SET_NAME); long-lived processes - an SSH session's shell - do both.)
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

# task:task_rename (it fires on exec and prctl) gives ktop each rename at its time; without
# it a task that execs and exits within milliseconds is named by saved_cmdlines, which may
# hold an older name.
# Scoped to this script and what it forks: another process's getppid storm on a shared
# machine would otherwise fill the output and the buffers, and ktop's drain at SIGINT with it.
start_ktop "$T/out" "$T/err" -b -p $$ --follow-children -e syscalls:sys_enter_getppid \
	-e task:task_rename
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid

# bash calls getppid() at start-up (for $PPID), then waits on a fifo, then execs.
mkfifo "$T/fifo"
# shellcheck disable=SC2016 # expanded by the inner bash
bash -c 'echo $$ >"$1"; read -r _ <"$2"; exec "$3" count 5 renamed-wl >/dev/null' _ \
	"$T/pid" "$T/fifo" "$KTOP_WORKLOAD" &
sh_pid=$!
CLEANUP_PIDS+=("$sh_pid")
wait_until 5 has_line "$T/pid" || fail "the shell did not start"

# Until ktop has printed the shell's rows (formatting a row looks up its name): filler rows
# push the output through stdio's buffer.
_shell_row_printed()
{
	"$KTOP_WORKLOAD" count 300 filler >/dev/null
	grep -q -- "-$sh_pid  *syscalls:sys_enter_getppid" "$T/out"
}
wait_until 10 _shell_row_printed || fail "ktop never printed the shell's startup getppid() rows"
before=$(grep -- "-$sh_pid  *syscalls:sys_enter_getppid" "$T/out" | head -n1)
[[ $before == *" bash-$sh_pid "* ]] || fail "the shell's row before the exec is not named bash: $before"

# A name cache that refreshes within a couple of seconds is fine; one that never does is not.
sleep 2.5
echo go >"$T/fifo"
wait_pid_exit "$sh_pid" 10 || fail "the exec'd workload did not finish"
[ "$WAIT_RC" = 0 ] || fail "the exec'd workload exited $WAIT_RC"
"$KTOP_WORKLOAD" count 300 filler >/dev/null
stop_ktop "$kpid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC"

grep -- "-$sh_pid  *syscalls:sys_enter_getppid" "$T/out" >"$T/rows"
total=$(wc -l <"$T/rows")
renamed=$(grep -c " renamed-wl-$sh_pid " "$T/rows")
# The last 5 rows of that pid are the workload's, made after the exec.
tail -n5 "$T/rows" >"$T/after"
after_ok=$(grep -c " renamed-wl-$sh_pid " "$T/after")
[ "$after_ok" = 5 ] ||
	fail "of the 5 rows made after the exec, $after_ok carry the new name renamed-wl ($renamed of $total rows of pid $sh_pid do); they show: $(sed 's/^ *[0-9.]* \[[0-9]*\] *//; s/  *syscalls.*//' "$T/after" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
assert_clean
pass
