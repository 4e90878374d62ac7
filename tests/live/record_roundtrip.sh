#!/bin/bash
# Recordings round trip: ktop -b -o records a workload of known size, and the trace.dat it
# writes reads back the same, field by field (time, CPU, pid, task, event, fields), in
# trace-cmd report and in ktop -i; and ktop -i prints exactly what the live run printed.
# Then under overload: the loss the pages flagged is in the file where the kernel put it,
# and trace-cmd report and ktop -i both show it; the kernel's loss counters travel too.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
COMPARE=$KTOP_SRCDIR/tests/helpers/tdat_compare.py
N=${KTOP_RECORD_N:-20000}

# record TAG KTOP_ARGS...: the workload's getppid calls and its context switches, recorded
# to $T/TAG.dat with the live text in $T/TAG.live. Sets wl_pid.
record()
{
	local tag=$1 wl kpid
	shift
	rm -f "$T/go"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" "$@" >"$T/$tag.wl" &
	wl=$!
	CLEANUP_PIDS+=("$wl")
	wl_pid=$wl # the wrapper execs the workload
	start_ktop "$T/$tag.live" "$T/$tag.err" -b ${KTOP_REC_ARGS[@]+"${KTOP_REC_ARGS[@]}"} \
		-o "$T/$tag.dat" -e syscalls:sys_enter_getppid -e sched:sched_switch \
		--filter "common_pid == $wl"
	kpid=$KTOP_PID
	wait_capturing "$kpid" syscalls sys_enter_getppid
	touch "$T/go"
	wait_pid_exit "$wl" 60 || fail "workload $* did not finish within 60s"
	stop_ktop "$kpid" INT 120
	[ "$KTOP_RC" = 0 ] || fail "ktop -o exited $KTOP_RC: $(head -c 600 "$T/$tag.err")"
	grep -q "^ktop: recorded [0-9]* events to $T/$tag.dat$" "$T/$tag.err" ||
		fail "no 'recorded' line: $(head -c 600 "$T/$tag.err")"
	[ -s "$T/$tag.dat" ] || fail "$T/$tag.dat is empty"
	instance_gone "$kpid" || fail "instance ktop-$kpid left"
}

# compare TAG EXPECT...: trace-cmd report and ktop -i against each other and the live run.
compare()
{
	local tag=$1
	shift
	trace-cmd report -N -t "$T/$tag.dat" >"$T/$tag.report" 2>"$T/$tag.report.err" ||
		fail "trace-cmd report cannot read ktop's file: $(head -c 600 "$T/$tag.report.err")"
	run_ktop 180 "$T/$tag.in" "$T/$tag.in.err" -b -i "$T/$tag.dat"
	[ "$KTOP_RC" = 0 ] || fail "ktop -i exited $KTOP_RC: $(head -c 600 "$T/$tag.in.err")"
	python3 "$COMPARE" "$T/$tag.in" "$T/$tag.report" "$@" >&2 ||
		fail "ktop -i and trace-cmd report differ"
	python3 "$COMPARE" "$T/$tag.live" "$T/$tag.report" "$@" >&2 ||
		fail "the live run and trace-cmd report of its recording differ"
	diff <(grep -v '^#' "$T/$tag.live") <(grep -v '^#' "$T/$tag.in") >&2 ||
		fail "ktop -i prints other lines than the live run did"
}

# --- a workload of known size: every call in the file, as the live run showed it ---------
KTOP_REC_ARGS=()
record exact count "$N" ktop-rec
grep -q "lost=0 lost_marked=0 lost_unknown_pages=0" "$T/exact.live" ||
	fail "the kernel lost events; cannot check exactness: $(tail -n1 "$T/exact.live")"
compare exact --expect "sys_enter_getppid=$N"
# The task name and pid travel in the file.
grep -q "ktop-rec-$wl_pid .*sys_enter_getppid" "$T/exact.report" ||
	fail "trace-cmd report does not name the workload: $(grep -m1 getppid "$T/exact.report")"
# The header names the machine and kernel that recorded it; -i shows the same duration.
trace-cmd dump --options "$T/exact.dat" 2>/dev/null | grep -q "$(uname -r)" ||
	fail "no uname option with $(uname -r) in the file"
log "exact: $N calls, same in the live run, trace-cmd report and ktop -i"

# --- overload: loss markers and counters in the file --------------------------------------
KTOP_REC_ARGS=(--buffer-kb 8)
WORKLOAD_CPU=0 record lossy rate 0 0.5 ktop-rec-loss
summary=$(grep '^# ktop:' "$T/lossy.live")
[[ $summary =~ lost=([0-9]+)\ lost_marked=([0-9]+)\ lost_unknown_pages=([0-9]+) ]] ||
	fail "no summary: $summary"
lost=${BASH_REMATCH[1]} marked=${BASH_REMATCH[2]} unknown=${BASH_REMATCH[3]}
[ $((marked + unknown)) -gt 0 ] || fail "no page flagged a loss with an 8 KiB buffer: $summary"
compare lossy
insum=$(grep '^# ktop:' "$T/lossy.in")
[[ $insum =~ lost=$lost\ lost_marked=$marked\ lost_unknown_pages=$unknown\  ]] ||
	fail "ktop -i reports other losses than the live run: '$insum' vs '$summary'"
log "overload: lost=$lost marked=$marked unknown_pages=$unknown, the same after the round trip"
pass
