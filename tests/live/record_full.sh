#!/bin/bash
# ktop -b -o on a disk that fills, and on paths that cannot be written, in a mount namespace
# of the test's own (tmpfs file systems that vanish with it):
#   - a read-only file system, and a path under /proc: one line naming the path and the
#     cause, exit status 1, at once (before anything is captured);
#   - a tmpfs with room for the file's header (reserved when ktop starts) and about 2 MiB of
#     pages, and a workload pinned to one CPU making 400,000 getppid calls: one line naming
#     the file, the cause and the events it holds; the capture goes on (every call is
#     printed), exit status 4; the file is a trace.dat that trace-cmd report reads, holding
#     exactly those events, and ktop -i prints them as the live run did; no temporary file
#     is left.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
N=400000
mount_record_disks

# --- paths that cannot be written: refused before the capture ------------------------------
for path in "$T/ro/x.dat" /proc/ktop-x.dat; do
	run_ktop 60 "$T/ro.out" "$T/ro.err" -b -o "$path" -e syscalls:sys_enter_getppid
	[ "$KTOP_RC" = 1 ] || fail "-o $path exited $KTOP_RC, not 1: $(head -c 400 "$T/ro.err")"
	[ "$(wc -l <"$T/ro.err")" = 1 ] || fail "-o $path: not one line: $(head -c 800 "$T/ro.err")"
	grep -Eq "^ktop: cannot write $path: (Read-only file system|No such file or directory)$" \
		"$T/ro.err" || fail "-o $path: $(cat "$T/ro.err")"
	log "$(cat "$T/ro.err")"
done

# --- a disk that fills: 2 MiB for pages, far less than the N calls take (16 bytes each) ----
dat=$T/small/full.dat
rm -f "$T/go"
WORKLOAD_GO="$T/go" taskset -c 0 "$KTOP_WORKLOAD" count "$N" ktop-full >"$T/wl.out" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl.out" || fail "the workload did not start"
start_ktop "$T/live" "$T/live.err" -b -o "$dat" -e syscalls:sys_enter_getppid \
	--filter "common_pid == $wl"
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 120 || fail "the workload did not finish within 120s"
stop_ktop "$kpid" INT 120
[ "$KTOP_RC" = 4 ] ||
	fail "ktop -o on a full disk exited $KTOP_RC, not 4: $(head -c 600 "$T/live.err")"
[ "$(wc -l <"$T/live.err")" = 1 ] || fail "not one line on stderr: $(head -c 800 "$T/live.err")"
re="^ktop: cannot write $dat: No space left on device; the file holds the first ([0-9]+) events$"
[[ $(cat "$T/live.err") =~ $re ]] || fail "not the line wanted: $(cat "$T/live.err")"
held=${BASH_REMATCH[1]}
log "$(cat "$T/live.err")"
# the capture went on: every call printed
printed=$(grep -c 'syscalls:sys_enter_getppid:' "$T/live")
[ "$printed" = "$N" ] || fail "the live run printed $printed calls, not $N"
if [ "$held" -le 0 ] || [ "$held" -ge "$N" ]; then fail "the file holds $held of $N events"; fi

# What was written is a trace.dat: trace-cmd report and ktop -i read its events.
trace-cmd report "$dat" >"$T/report" 2>"$T/report.err" ||
	fail "trace-cmd report cannot read the file: $(head -c 600 "$T/report.err")"
got=$(grep -c 'sys_enter_getppid' "$T/report")
[ "$got" = "$held" ] || fail "trace-cmd report lists $got events, the line said $held"
run_ktop 120 "$T/in" "$T/in.err" -b -i "$dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -i exited $KTOP_RC: $(head -c 600 "$T/in.err")"
diff <(grep 'syscalls:sys_enter_getppid:' "$T/live" | head -n "$held") \
	<(grep -v '^#' "$T/in") >/dev/null ||
	fail "ktop -i does not print the first $held calls of the live run"
# nothing else is left on the file system: the temporary files went with ktop
[ "$(ls -A "$T/small")" = full.dat ] || fail "left in $T/small: $(ls -A "$T/small")"
log "full disk: $held of $N calls written ($(stat -c %s "$dat") bytes in a ${SMALL_KB}k" \
	"tmpfs), all $N printed"
assert_clean
pass
