#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; tmux_screen without -e
# The explorer's w and A on paths that cannot be written and on a disk that fills (200x30),
# in a mount namespace of the test's own (tmpfs file systems that vanish with it):
#   - w to a read-only file system, A to a path under /proc, w to a FIFO, A to a symbolic
#     link: one line naming the path and the cause, and the explorer goes on;
#   - A to a tmpfs with room for the header and about 2 MiB of pages, while a workload pinned
#     to one CPU makes 400,000 getppid calls: the recording stops with one line naming the
#     file, the cause and the events it holds; REC goes, the stream keeps every call; the
#     file is a trace.dat that trace-cmd report reads, holding exactly those events;
#   - w on that full disk: refused at once (no room for the header); with the file removed,
#     w writes the stored calls until the disk is full: again a file trace-cmd reads, with
#     the events the line says;
#   - no temporary file is left; q quits clean.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
N=400000
mount_record_disks # $T/ro, and $T/small: the header's room and 2 MiB for pages

rm -f "$T/go"
WORKLOAD_GO="$T/go" taskset -c 0 "$KTOP_WORKLOAD" count "$N" ktop-full >"$T/wl.out" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl.out" || fail "the workload did not start"
tmux_start 200 30 -- -d 1 -e syscalls:sys_enter_getppid --filter "common_pid == $wl"
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
expect_text "Events: all CPUs" 10 "ktop did not start"

_line_shown() { tmux_screen | grep -qF -- "$1"; }
expect_line()
{
	wait_until "$2" _line_shown "$1" && return 0
	tmux_screen | sed 's/^/  | /' >&2
	fail "$3: not on the screen: $1"
}
# held_in PATH: the events the status line says PATH holds
held_in()
{
	tmux_screen | sed -n "s|.*cannot write $1: No space left on device; the file holds \
the first \([0-9]*\) events.*|\1|p" | head -n1
}
rec_shown="^ktop-$pid .* REC *$" # the header's right end while A records
# the file is a trace.dat holding exactly n getppid calls
check_file()
{
	trace-cmd report "$1" >"$T/report" 2>"$T/report.err" ||
		fail "trace-cmd report cannot read $1: $(head -c 600 "$T/report.err")"
	got=$(grep -c 'sys_enter_getppid' "$T/report")
	[ "$got" = "$2" ] || fail "trace-cmd report lists $got events in $1, the line said $2"
}

# ---- paths that cannot be written ----------------------------------------------------------
tmux_prompt w "Write the stored events to:" "$T/ro/x.dat"
expect_line "cannot write $T/ro/x.dat: Read-only file system" 5 "w to a read-only file system"
tmux_prompt A "Record from now on to:" /proc/ktop-x.dat
expect_line "cannot write /proc/ktop-x.dat: No such file or directory" 5 "A to /proc"
_screen_has "$rec_shown" && fail "REC is shown after a refused A"
# what another user may have put at the path first (tests/live/record_paths.sh has them all)
mkfifo "$T/fifo.dat" && ln -s "$T/fifo.dat" "$T/link.dat" || fail "cannot make a FIFO and a link"
tmux_prompt w "Write the stored events to:" "$T/fifo.dat"
expect_line "cannot write $T/fifo.dat: it is a FIFO, not a regular file: name a new file" 5 \
	"w to a FIFO"
tmux_prompt A "Record from now on to:" "$T/link.dat"
expect_line "cannot write $T/link.dat: it is a symbolic link: name the file itself, or a new one" 5 \
	"A to a symbolic link"
_screen_has "$rec_shown" && fail "REC is shown after a refused A"

# ---- A on a disk that fills ----------------------------------------------------------------
tmux_prompt A "Record from now on to:" "$T/small/a.dat"
expect_line "recording to $T/small/a.dat (A stops)" 5 "A did not start recording"
expect_text "$rec_shown" 5 "the header does not say REC"
touch "$T/go"
expect_line "recording stopped: cannot write $T/small/a.dat: No space left on device; \
the file holds the first " 60 "no one-line reason for the recording that stopped"
wait_for_no_text "$rec_shown" 5 || fail "REC is still shown after the recording stopped"
n=$(held_in "$T/small/a.dat")
wait_pid_exit "$wl" 120 || fail "the workload did not finish within 120s"
# the capture went on: the stream holds every call
expect_text " $N held " 30 "the stream does not hold all $N calls"
if [ "$n" -le 0 ] || [ "$n" -ge "$N" ]; then fail "a.dat holds $n of $N events"; fi
check_file "$T/small/a.dat" "$n"
log "A: $n of $N calls in a.dat ($(stat -c %s "$T/small/a.dat") bytes in a ${SMALL_KB}k tmpfs)"

# ---- w on the full disk, then with room for the header -------------------------------------
tmux_prompt w "Write the stored events to:" "$T/small/w.dat"
expect_line "cannot write $T/small/w.dat: No space left on device (its header needs " 10 \
	"w on a full disk"
[ -e "$T/small/w.dat" ] && fail "w on a full disk left $T/small/w.dat"
rm "$T/small/a.dat"
tmux_prompt w "Write the stored events to:" "$T/small/w.dat"
expect_line "cannot write $T/small/w.dat: No space left on device; the file holds the first " \
	60 "w did not stop in one line when the disk filled"
n=$(held_in "$T/small/w.dat")
if [ "$n" -le 0 ] || [ "$n" -ge "$N" ]; then fail "w.dat holds $n of $N events"; fi
check_file "$T/small/w.dat" "$n"
[ "$(ls -A "$T/small")" = w.dat ] || fail "left in $T/small: $(ls -A "$T/small")"
log "w: $n of the $N stored calls in w.dat"

tmux_quit_clean
assert_clean
pass
