#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# System calls read as strace and perf trace show them (80x24): a python process whose calls
# are known (two rounds of read(fd, 4096) on /dev/zero and an open of a missing file) is
# captured through raw_syscalls:sys_enter/sys_exit and syscalls:sys_enter_read, filtered on
# its pid. Each call's row names it with its arguments, typed as its syscalls: format says
# (the fd and the size in decimal, the buffer as a pointer, AT_FDCWD as -100); each return
# says "= 4096", and the failed open "= -2 ENOENT", the errno's number and name as python's
# errno module gives them; no row says "NR <number>" any more.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_python

mkfifo "$T/go"
cat >"$T/calls.py" <<-'EOF'
	import errno, os, sys
	fd = os.open("/dev/zero", os.O_RDONLY)
	print(os.getpid(), fd, errno.ENOENT, errno.errorcode[errno.ENOENT], flush=True)
	go = os.open(sys.argv[1], os.O_RDONLY)  # blocks until the test opens it to write
	os.read(go, 1)
	for _ in range(2):
	    os.read(fd, 4096)
	    try:
	        os.open("/nonexistent/ktop-test", os.O_RDONLY)
	    except OSError:
	        pass
	os.read(go, 1)  # until the test closes its end
	EOF
python3 "$T/calls.py" "$T/go" >"$T/py.out" &
CLEANUP_PIDS+=($!)
wait_until 30 has_line "$T/py.out" || fail "the python workload did not start within 30s"
read -r pid fd enoent ename <"$T/py.out"

tmux_start 80 24 -- -d 1 -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-e syscalls:sys_enter_read --filter "common_pid == $pid"
wait_capturing "$KTOP_PID" raw_syscalls sys_exit
exec 7>"$T/go"
printf x >&7

expect_count "[0-9] sys_enter +read\($fd, 0x[0-9a-f]+, 4096\)$" 2 10 \
	"raw sys_enter rows do not read as read($fd, 0x..., 4096)"
expect_count "[0-9] sys_enter_read +read\($fd, 0x[0-9a-f]+, 4096\)$" 2 3 \
	"syscalls:sys_enter_read rows do not read as read($fd, 0x..., 4096)"
expect_count "[0-9] sys_exit +read\(\.\.\.\) = 4096$" 2 3 "no 'read(...) = 4096' returns"
expect_count "[0-9] sys_enter +openat\(-100, 0x[0-9a-f]+, " 2 3 \
	"the failed opens' calls do not read as openat(-100, 0x..., ...)"
expect_count "[0-9] sys_exit +openat\(\.\.\.\) = -$enoent $ename$" 2 3 \
	"the failed opens do not return '= -$enoent $ename'"
wait_for_no_text "NR [0-9]" 1 || fail "a row still names a syscall by number"

exec 7>&-
tmux_quit_clean
assert_clean
pass
