#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The overview's fault and I/O cells (ktop.1 OVERVIEW), at 140x30, two workloads whose pids
# come from the workloads themselves: A faults in fresh pages and writes with fsync all the
# time, B sleeps.
#   - sorted by FLT, Enter on B's row (the cursor moved there) opens the page-faults flame
#     graph of B alone; Esc comes back, and Enter again opens B's again: the cursor stayed
#     on B's row;
#   - Enter on A's row: A's page faults, each with its stack, under A's name (the
#     profile's root), the status line naming the kind;
#   - sorted by IO/s, Enter on A opens its block I/O latency by disk (bio-latency, pid=A,
#     by=dev), which counts A's requests; Esc comes back.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_python

# name MODE: a process of that name, its pid on its first line; MODE busy: fresh pages
# faulted in and a 64 KiB write with fsync every 20 ms; MODE idle: asleep
work()
{
	python3 -c 'import ctypes, mmap, os, sys, time
ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0)
print(os.getpid(), flush=True)
fd = os.open(sys.argv[3], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
while True:
    if sys.argv[2] == "busy":
        m = mmap.mmap(-1, 256 * 4096)
        for i in range(256):
            m[i * 4096] = 1
        m.close()
        os.pwrite(fd, b"w" * 65536, 0)
        os.fsync(fd)
    time.sleep(0.02)' "$1" "$2" "$T/$1.dat" >"$T/$1.out" &
	CLEANUP_PIDS+=($!)
	wait_until 30 has_line "$T/$1.out" || fail "$1 did not start"
}
work ktop-ovf-a busy
work ktop-ovf-b idle
A=$(head -n1 "$T/ktop-ovf-a.out")
B=$(head -n1 "$T/ktop-ovf-b.out")

TMUX_OVERVIEW=1 tmux_start 140 30 "XDG_CONFIG_HOME=$T/xdg" --
expect_text "Overview: [0-9]+ processes by CPU%" 10 "ktop did not land on the overview"
tmux_keys /
tmux_text "ktop-ovf"
tmux_keys Enter
expect_text "Overview: 2 processes by CPU%, filter 'ktop-ovf'" 5 "the filter did not leave the 2 workloads"

pids() { tmux_screen | awk 'NR > 6 && $1 ~ /^[0-9]+$/ && $NF ~ /ktop-ovf-[ab]$/ { print $1 }' | tr '\n' ' '; }
_first() { [ "$(pids)" = "$1 $2 " ]; }
_sorted_by() { tmux_screen | grep -o 'processes by [^,]*' | head -1; }
_sort_moved() { [ "$(_sorted_by)" != "$1" ]; }
# sort_by COL: > until the title says COL (each press waited for)
sort_by()
{
	local before
	for _ in $(seq 1 20); do
		_screen_has "processes by $1," && return 0
		before=$(_sorted_by)
		tmux_keys '>'
		wait_until 3 _sort_moved "$before" || fail "> did not change the sort from '$before'"
	done
	fail "> never sorted by $1: $(tmux_screen | head -1)"
}
sort_by FLT
wait_until 10 _first "$A" "$B" || fail "by FLT, $A (faulting) is not above $B (asleep): $(pids)"

# B's row: the second
tmux_keys Home Down Enter
expect_text "page-faults, pid $B" 15 "Enter on FLT opened no faults flame graph of $B"
tmux_keys Escape
expect_text "processes by FLT" 5 "Esc did not come back from the faults flame graph"
tmux_keys Enter
expect_text "page-faults, pid $B" 15 "the cursor did not stay on $B's row after Esc"
tmux_keys Escape
expect_text "processes by FLT" 5 "Esc did not come back the second time"

wait_until 10 _first "$A" "$B" || fail "by FLT, $A is no longer first: $(pids)"
tmux_keys Home Enter
expect_text "page-faults, pid $A" 15 "Enter on FLT opened no faults flame graph of $A"
# the profile's root frame is the task's name; its stacks come as the faults do
expect_text "ktop-ovf-a" 20 "the faults flame graph of $A shows none of A's faults"
tmux_keys Escape
expect_text "processes by FLT" 5 "Esc did not come back from A's faults flame graph"

sort_by IO/s
wait_until 10 _first "$A" "$B" || fail "by IO/s, $A (writing) is not above $B: $(pids)"
tmux_keys Home Enter
expect_text "bio-latency.*pid=$A" 15 "Enter on IO/s opened no block I/O latency of $A"
expect_text "keys?: n=[1-9]" 20 "the block I/O latency of $A counts none of its requests"
tmux_keys Escape
expect_text "processes by IO/s" 5 "Esc did not come back from the block I/O latency"
tmux_quit_clean
assert_clean
pass
