#!/bin/bash
# A ktop killed while it held tracefs's top level leaves /run/ktop-<pid>.toplevel, which the
# next ktop start replays to put the top level back. If another tool took the top level
# since, replaying would stop its tracer and clear its buffer: the file says which tracer
# ktop set ("expect current_tracer ..."), and is replayed only while that tracer is still
# there. Two files of dead pids, each with one step that writes no tracefs file (a name that
# does not exist: nothing at the top level is touched, the attempt shows in the -v log):
#   - expecting function_graph while the top level's tracer is nop: nothing replayed, the
#     log says another tool has the top level; the file is gone;
#   - expecting nop (the tracer this machine has now): replayed, the file is gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
[ "$(cat "$TRACEFS/current_tracer")" = nop ] || skip "the top level's tracer is not nop here"
dead_pid() { sh -c 'exit 0' & wait $!; echo $!; }
d1=$(dead_pid) d2=$(dead_pid)
[ "$d1" != "$d2" ] || fail "no two dead pids"
f1=/run/ktop-$d1.toplevel f2=/run/ktop-$d2.toplevel
# the files are the test's: gone with it, whatever happens (lib.sh's fail ends the test)
eval "_lib_fail() $(declare -f fail | tail -n +2)"
fail() { rm -f "$f1" "$f2"; _lib_fail "$@"; }
printf 'expect current_tracer function_graph\nset ktop_test_taken_%s 1\n' "$d1" >"$f1"
printf 'expect current_tracer nop\nset ktop_test_ours_%s 1\n' "$d2" >"$f2"
run_ktop 30 "$T/out" "$T/err" -b -q -v --log "$T/log" -e sched:sched_switch --duration 0.2
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
[ -e "$f1" ] || [ -e "$f2" ] && fail "a state file of a dead pid is left: $(ls /run/ktop-*.toplevel)"
grep -q "ktop_test_taken_$d1" "$T/log" &&
	fail "the top level was replayed over another tool's tracer: $(grep toplevel "$T/log")"
grep -q "current_tracer is nop, not the function_graph ktop left" "$T/log" ||
	fail "the log does not say the top level was left: $(grep toplevel "$T/log")"
grep -q "set ktop_test_ours_$d2 1:" "$T/log" ||
	fail "the file whose tracer holds was not replayed: $(grep toplevel "$T/log")"
log "$(grep -o 'current_tracer is nop.*' "$T/log")"
assert_clean
pass
