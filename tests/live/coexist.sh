#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Another tracer's instance stays untouched while ktop runs on the same events and after it
# exits: its enable state, filter, buffer size, clock, tracing_on, and its buffer's contents
# (counted and compared byte for byte while frozen). While it records, it keeps recording.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

other="coexist-$$"
O="$TRACEFS/instances/$other"
mkdir "$O" || fail "cannot create instance $other"
CLEANUP_INSTANCES+=("$other")
echo 1408 >"$O/buffer_size_kb" || fail "cannot size $other"
echo 'prev_pid >= 0' >"$O/events/sched/sched_switch/filter" || fail "cannot set a filter in $other"
echo 1 >"$O/events/sched/sched_switch/enable" || fail "cannot enable sched_switch in $other"
echo 1 >"$O/tracing_on"

# entries written so far, from the trace header ("entries-in-buffer/entries-written: N/M")
written() { sed -n 's/.*entries-in-buffer\/entries-written: [0-9]*\/\([0-9]*\).*/\1/p' "$O/trace" | head -n1; }

# The state a neighbour would notice, as text.
state()
{
	echo "enable=$(cat "$O/events/sched/sched_switch/enable")"
	echo "sched_enable=$(cat "$O/events/sched/enable")"
	echo "filter=$(cat "$O/events/sched/sched_switch/filter")"
	echo "set_event=$(tr '\n' ' ' <"$O/set_event")"
	echo "buffer_size_kb=$(cat "$O/buffer_size_kb")"
	echo "trace_clock=$(cat "$O/trace_clock")"
	echo "tracing_on=$(cat "$O/tracing_on")"
	echo "current_tracer=$(cat "$O/current_tracer")"
	echo "notrace_pid=$(tr '\n' ' ' <"$O/set_event_notrace_pid" 2>/dev/null)"
}

_recording() { [ "$(written)" -gt 0 ] 2>/dev/null; }
wait_until 5 _recording || fail "$other records nothing"

# ---- 1. while it records: ktop on the same event does not stop it -------------------------
state >"$T/state.0"
start_ktop "$T/a.out" "$T/a.err" -b -q -e sched:sched_switch -e 'sched:sched_wak*' --filter 'common_pid >= 0'
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
w1=$(written)
_grown() { [ "$(written)" -gt "$w1" ]; }
wait_until 5 _grown || fail "$other stopped recording while ktop ran (entries-written stuck at $w1)"
state >"$T/state.1"
cmp -s "$T/state.0" "$T/state.1" || fail "$other changed while ktop ran: $(diff "$T/state.0" "$T/state.1" | grep '^[<>]' | tr '\n' ' ')"
stop_ktop "$pid" TERM 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC; stderr: $(head -c 300 "$T/a.err")"
state >"$T/state.2"
cmp -s "$T/state.0" "$T/state.2" || fail "$other changed after ktop exited: $(diff "$T/state.0" "$T/state.2" | grep '^[<>]' | tr '\n' ' ')"
assert_clean

# ---- 2. frozen: the buffer's contents are exactly as they were ----------------------------
echo 0 >"$O/tracing_on"
entries() { cat "$O"/per_cpu/cpu*/stats | awk '/^entries:/ { s += $2 } END { print s + 0 }'; }
n0=$(entries)
[ "$n0" -gt 0 ] || fail "$other's buffer is empty"
# The kernel names tasks from a global pid->comm cache when it prints "trace", which any
# tracing anywhere updates: compare the records, with the task column reduced to the pid.
trace_records() { sed -E 's/^ *.*-([0-9]+) +\[/\1 [/' "$O/trace"; }
trace_records >"$T/trace.0"
state >"$T/state.3"

start_ktop "$T/b.out" "$T/b.err" -b -e sched:sched_switch -e 'sched:sched_wak*'
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
# ktop consumes its own buffer, never the neighbour's.
wait_until 5 has_line "$T/b.out" || fail "ktop printed no event"
[ "$(entries)" = "$n0" ] || fail "$other's buffer holds $(entries) entries while ktop runs, was $n0"
state >"$T/state.4"
cmp -s "$T/state.3" "$T/state.4" || fail "$other changed while ktop ran: $(diff "$T/state.3" "$T/state.4" | grep '^[<>]' | tr '\n' ' ')"
stop_ktop "$pid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC; stderr: $(head -c 300 "$T/b.err")"

[ "$(entries)" = "$n0" ] || fail "$other's buffer holds $(entries) entries after ktop, was $n0"
cmp -s "$T/trace.0" <(trace_records) || fail "$other's buffer contents changed: $(diff "$T/trace.0" <(trace_records) | head -4 | tr '\n' ' ')"
state >"$T/state.5"
cmp -s "$T/state.3" "$T/state.5" || fail "$other changed after ktop exited: $(diff "$T/state.3" "$T/state.5" | grep '^[<>]' | tr '\n' ' ')"
assert_clean
log "$other untouched: $n0 entries, $(grep -c . "$T/trace.0") trace lines, state $(tr '\n' ' ' <"$T/state.5")"
pass
