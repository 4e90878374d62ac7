#!/bin/bash
# Latency histograms of a recording's stored events (issue 33: "latency histograms are
# computed from the stored events"). A recording made here of raw_syscalls' sys_enter and
# sys_exit of one workload (30 getppid calls among its others), read with ktop -i: H
# syscall-latency counts each sys_enter to the next sys_exit of its thread, as the BPF
# program does, and the counts equal the pairs in trace-cmd report of the same file (all of
# them, and getppid's by=syscall row); the generic latency:raw_syscalls:sys_enter->
# raw_syscalls:sys_exit gives the same total; offcpu, which a program of its own pairs, is
# refused in one line naming why.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"

start_ktop "$T/rec.out" "$T/rec.err" -b -q -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	--filter 'comm ~ "ktlat-*"' -o "$T/lat.dat"
kpid=$KTOP_PID
wait_capturing "$kpid" raw_syscalls sys_exit
"$KTOP_WORKLOAD" count 30 ktlat-a >/dev/null
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "ktop -b -o exited $KTOP_RC: $(head -c 400 "$T/rec.err")"
trace-cmd report -t "$T/lat.dat" >"$T/lat.rep" 2>/dev/null || fail "trace-cmd report failed"
# the oracle: per thread, a sys_enter then its sys_exit is one call; "TOTAL GETPPID"
read -r total getppid < <(python3 - "$T/lat.rep" <<'PY'
import re, sys
open_nr, total, getppid = {}, 0, 0
for line in open(sys.argv[1]):
    m = re.search(r'-(\d+)\s+\[\d+\]\s+[\d.]+: (sys_enter|sys_exit):\s+NR (\d+)', line)
    if not m:
        continue
    tid, kind, nr = m.group(1), m.group(2), int(m.group(3))
    if kind == 'sys_enter':
        open_nr[tid] = nr
    elif tid in open_nr:
        total += 1
        getppid += open_nr.pop(tid) == 110
print(total, getppid)
PY
)
log "trace-cmd report: $total calls, $getppid of getppid"
[ "$getppid" -ge 30 ] || fail "trace-cmd report shows $getppid getppid calls, not 30 or more"

tmux_start 120 30 -- -i "$T/lat.dat"
expect_text "RECORDING lat\.dat" 10 "the recording did not open"
tmux_prompt H "histogram> " "syscall-latency"
expect_text "Hist syscall-latency \[stored" 10 "H did not count the recording's syscalls"
tmux_keys z # the histogram alone, its rows whole
expect_text "Hist syscall-latency \[stored events\]" 5 "z did not zoom the histogram"
expect_text "keys: n=$total " 10 "syscall-latency does not count trace-cmd's $total calls"
tmux_keys v
expect_text "getppid +$getppid " 5 "the getppid row does not count trace-cmd's $getppid"
tmux_prompt Enter "histogram> " "latency:raw_syscalls:sys_enter->raw_syscalls:sys_exit"
expect_text "keys: n=$total " 10 "the generic latency does not count trace-cmd's $total calls"
tmux_prompt Enter "histogram> " "offcpu"
expect_text "offcpu: paired by a BPF program of its own, not from stored events" 5 \
	"offcpu was not refused with its reason"
log "syscall-latency: n=$total, getppid $getppid, as trace-cmd report; offcpu refused"
tmux_quit_clean
pass
