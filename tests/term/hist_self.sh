#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Histograms leave ktop's own process out, as perf trace leaves its own out (80x24): its map
# reads every tick topped the syscall-latency keys ("bpf 517" of n=850). Narrowed to ktop's
# own pid, syscall-latency counts nothing over three ticks since its start, while the kernel
# counts ktop's read and write calls going up (/proc/PID/io); built again with ",self" it
# counts them, bpf first among its keys.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

tmux_start 80 24 -- -d 1
expect_text "No events enabled" 10 "ktop did not start"
calls() { awk '/^sysc[rw]:/ { n += $2 } END { print n }' "/proc/$KTOP_PID/io"; }
build() {
	tmux_keys H
	expect_text "^ *[A-Za-z]" 3 "H opened nothing"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	expect_text "Hist $1 \[" 10 "the histogram $1 was not built: $(tmux_screen | tail -3)"
}

build "syscall-latency,pid=$KTOP_PID"
tmux_keys i
expect_text "Hist syscall-latency,pid=$KTOP_PID .* total *$" 3 "i did not count since the start"
before=$(calls)
_more_calls() { [ "$(calls)" -gt "$((before + 3))" ]; }
wait_until 10 _more_calls || fail "ktop made no system calls: the check proves nothing"
sleep 3 # three ticks of map reads, each counted if ktop were not left out
expect_text "^since start \\| all 0 keys: n=0 " 3 "the histogram counted ktop's own system calls"

build "syscall-latency,pid=$KTOP_PID,self"
tmux_keys v
expect_text "^syscall +\*?count" 5 "v did not show the keys"
expect_text "^bpf +[1-9][0-9]* " 10 "with ,self ktop's bpf() calls are not counted"

tmux_quit_clean
assert_clean
pass
