#!/bin/bash
# The off-CPU profile (ktop -b --off-cpu, ktop.1 OFF-CPU PROFILE) against a workload of known
# shape: 5 reads of a pipe, each answered 200 ms after the reader is seen off the CPU
# (workload block), keep it off for 1 s at least and for no longer than the reads took by
# the workload's own clock (CLOCK_MONOTONIC, bpf_ktime_get_ns's); a read whose switch back
# in the program never saw (this kernel skips one now and then, and counts it nowhere) is
# reported as unended=, so 200 ms less per unended stretch; but ktop may call at most one
# stretch unended that an instance of the test's own saw end. That time is under the
# workload's stacks through the kernel's pipe read (under vfs_read, ending at __schedule)
# below the user frame of libc's read, whatever the variant (tp_btf, raw_tp, tracepoint), in
# the folded output (ns) and in --json ("unit":"ns"). Not nanosleep: a task whose vCPU stalls
# between arming its timer and switching out finds the timer fired and never leaves the
# CPU, so a sleep is not off the CPU by any guarantee; a read answered once the reader is
# seen blocked is. The workload runs SCHED_FIFO (run_hist), so no normal task delays its
# switches back in. Every program ktop held is gone after it exits: by SIGINT, by SIGTERM,
# at --duration's end, by kill -9.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../offcpu-lib.sh
. "$(dirname "$0")/../offcpu-lib.sh"
require_live_hist
require_workload
require_python

ATTACHED_RE='offcpu_open: attached via '
NHIST=1
SWITCH_LOG=1 # the workload's switches, as an instance of the test's own saw them
NAME=ktop-offcpu-sl

# check_stacks NAME WHAT: offcpu_check of run NAME's output against the workload's clock and
# the switches the test's own instance saw, with ktop's own counts and those switches on
# failure.
check_stacks()
{
	local unended
	unended=$(sed -n 's/^ktop: off-cpu: .* unended=\([0-9]*\) .*/\1/p' "$T/$1.err")
	[ -n "$unended" ] || fail "$2: no unended= in the counts: $(cat "$T/$1.err")"
	offcpu_blocked_ns "$T/$1.wl"
	offcpu_seen_ended "$T/$1.switches" "$WPID"
	offcpu_check "$2" "$T/$1.out" "$NAME" "$unended" "$OFFCPU_HI" "$OFFCPU_ENDED" \
		"$(grep -h 'off-cpu: via=' "$T/$1.err" "$T/$1.out")
the workload's switches and wakeups:
$(cat "$T/$1.switches")"
}

for via in tp_btf raw_tp tracepoint; do
	run_hist "sl-$via" "$KTOP_WORKLOAD" block 200 5 "$NAME" -- --off-cpu="$via" -p PID -d 1 --folded
	grep -q "^ktop: off-cpu: via=$via unit=ns " "$T/sl-$via.err" ||
		fail "via=$via: no counts on stderr: $(cat "$T/sl-$via.err")"
	grep -Ev ' [0-9]+$' "$T/sl-$via.out" &&
		fail "via=$via: --folded printed a line that is not a folded stack (above)"
	check_stacks "sl-$via" "via=$via"
done

# --json: the same, one object per stack and the summary with its unit
run_hist json "$KTOP_WORKLOAD" block 200 5 "$NAME" -- --off-cpu -p PID -d 1 --json
offcpu_blocked_ns "$T/json.wl"
offcpu_seen_ended "$T/json.switches" "$WPID"
offcpu_check_json "$T/json.out" "$NAME" "$OFFCPU_HI" "$OFFCPU_ENDED" ||
	fail "--json: $(head -c 1500 "$T/json.out")
the workload's switches and wakeups:
$(cat "$T/json.switches")"
log "--json: unit ns, the reads' time off the CPU"

# SIGTERM, --duration's end and kill -9 leave no program either
start_ktop "$T/term.out" "$T/term.err" -b -v --log "$T/term.klog" --off-cpu
wait_attached "$T/term.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
stop_ktop "$KTOP_PID" TERM 10
[ "$KTOP_RC" = 0 ] || fail "SIGTERM: ktop exited $KTOP_RC: $(head -c 400 "$T/term.err")"
grep -q '^# off-cpu: via=' "$T/term.out" || fail "SIGTERM: no counts: $(head -3 "$T/term.out")"
assert_progs_gone "${PROGS[@]}"
start_ktop "$T/dur.out" "$T/dur.err" -b -v --log "$T/dur.klog" --off-cpu --duration 1
wait_attached "$T/dur.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
wait_pid_exit "$KTOP_PID" 20 || fail "--duration 1: ktop still running after 20 s"
[ "$WAIT_RC" = 0 ] || fail "--duration 1: ktop exited $WAIT_RC: $(head -c 400 "$T/dur.err")"
assert_no_sanitizer "$T/dur.err"
assert_progs_gone "${PROGS[@]}"
start_ktop "$T/kill.out" "$T/kill.err" -b -v --log "$T/kill.klog" --off-cpu
wait_attached "$T/kill.klog" 1
mapfile -t PROGS < <(prog_ids "$KTOP_PID")
kill -KILL "$KTOP_PID"
wait_pid_exit "$KTOP_PID" 10 || fail "kill -9: ktop still there after 10 s"
assert_progs_gone "${PROGS[@]}"
log "SIGINT, SIGTERM, --duration and kill -9: no program left"
assert_clean
pass
