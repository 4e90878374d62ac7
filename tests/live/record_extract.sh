#!/bin/bash
# Interop: a trace.dat written by trace-cmd opens in ktop -i and shows what trace-cmd report
# shows. On this kernel trace-cmd record fails (it insists on the function tracer), but
# trace-cmd extract -B reads an instance's buffers: ktop's own instance, while ktop runs.
# ktop is stopped (SIGSTOP) meanwhile, so its reader takes nothing and the workload's events
# all stay in the ring buffer for extract; then it goes on and exits as usual.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
COMPARE=$KTOP_SRCDIR/tests/helpers/tdat_compare.py
N=${KTOP_EXTRACT_N:-5000}

rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" ktop-extract >"$T/wl.out" &
wl=$!
CLEANUP_PIDS+=("$wl")
start_ktop "$T/live.out" "$T/live.err" -b -e syscalls:sys_enter_getppid \
	--filter "common_pid == $wl"
k=$KTOP_PID
wait_capturing "$k" syscalls sys_enter_getppid
kill -STOP "$k"
touch "$T/go"
wait_pid_exit "$wl" 60 || { kill -CONT "$k"; fail "workload did not finish within 60s"; }
trace-cmd extract -B "ktop-$k" -o "$T/extract.dat" >"$T/extract.log" 2>&1
rc=$?
kill -CONT "$k"
[ "$rc" = 0 ] || fail "trace-cmd extract -B ktop-$k failed: $(tail -c 600 "$T/extract.log")"
stop_ktop "$k" INT 30
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC after the extract: $(head -c 600 "$T/live.err")"
instance_gone "$k" || fail "instance ktop-$k left"

trace-cmd report -N -t "$T/extract.dat" >"$T/report" 2>"$T/report.err" ||
	fail "trace-cmd report: $(head -c 600 "$T/report.err")"
run_ktop 60 "$T/in" "$T/in.err" -b -i "$T/extract.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -i of trace-cmd's file exited $KTOP_RC: $(head -c 600 "$T/in.err")"
python3 "$COMPARE" "$T/in" "$T/report" --expect "sys_enter_getppid=$N" >&2 ||
	fail "ktop -i and trace-cmd report differ on trace-cmd's own file"
# The file is version 7 with compressed sections, the buffer an instance of its own.
head -c 11 "$T/extract.dat" | tail -c 1 | grep -q 7 || log "note: extract wrote another version"
log "trace-cmd extract of ktop-$k: $N calls, ktop -i and trace-cmd report agree"
pass
