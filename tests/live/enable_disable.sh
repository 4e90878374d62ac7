#!/bin/bash
# ktop -b -e with globs enables exactly the matching events, in its own instance only, while
# it runs; the top level is untouched; the events' rows reach the output; after the exit the
# instance is gone and nothing is enabled anywhere.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

specs=('sched:sched_wak*' 'syscalls:sys_enter_getpp*' '*:sched_process_fork')

# What the specs should match, from the kernel's own list (fnmatch globs, as bash's [[ ]]).
: >"$T/expected"
while IFS=: read -r sys ev; do
	for spec in "${specs[@]}"; do
		# shellcheck disable=SC2053 # the right side is a glob on purpose
		if [[ $sys == ${spec%%:*} && $ev == ${spec#*:} ]]; then
			echo "$sys:$ev" >>"$T/expected"
			break
		fi
	done
done <"$TRACEFS/available_events"
sort -u -o "$T/expected" "$T/expected"
[ "$(wc -l <"$T/expected")" -ge 4 ] || fail "this kernel lacks the sched/syscalls events the test uses"

# The top-level enable state of the same events, to compare afterwards.
while IFS=: read -r sys ev; do
	echo "$sys:$ev $(cat "$TRACEFS/events/$sys/$ev/enable")"
done <"$T/expected" >"$T/top_enable.before"

# Something to see: a known process making getppid calls, named before ktop starts (ktop
# resolves a pid's name when it prints its first row).
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count 50 ktop-ed-wl >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl" || fail "the workload printed no pid"
wl_pid=$(head -n1 "$T/wl")

args=()
for spec in "${specs[@]}"; do args+=(-e "$spec"); done
start_ktop "$T/out" "$T/err" -b "${args[@]}"
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
inst=$(instance_dir "$pid")

# Exactly the expected events are enabled in ktop's instance: its set_event, and each
# event's enable file.
sort "$inst/set_event" >"$T/inst_set_event"
if ! cmp -s "$T/expected" "$T/inst_set_event"; then
	fail "instance ktop-$pid enables $(tr '\n' ' ' <"$T/inst_set_event"), expected $(tr '\n' ' ' <"$T/expected"); diff: $(diff "$T/expected" "$T/inst_set_event" | grep '^[<>]' | tr '\n' ' ')"
fi
while IFS=: read -r sys ev; do
	[ "$(cat "$inst/events/$sys/$ev/enable")" = 1 ] || fail "$sys:$ev/enable is not 1 in ktop-$pid"
done <"$T/expected"
# A neighbour that no spec matches stays off.
[ "$(cat "$inst/events/sched/sched_switch/enable")" = 0 ] || fail "sched:sched_switch enabled though no spec matches it"
[ "$(cat "$inst/events/syscalls/sys_exit_getppid/enable")" = 0 ] || fail "syscalls:sys_exit_getppid enabled though no spec matches it"
[ "$(cat "$inst/tracing_on")" = 1 ] || fail "tracing_on is not 1 in ktop-$pid"

# The top level is untouched while ktop runs.
assert_top_untouched
while IFS=: read -r sys ev; do
	echo "$sys:$ev $(cat "$TRACEFS/events/$sys/$ev/enable")"
done <"$T/expected" >"$T/top_enable.during"
cmp -s "$T/top_enable.before" "$T/top_enable.during" ||
	fail "top-level enable files changed while ktop ran: $(diff "$T/top_enable.before" "$T/top_enable.during" | grep '^>' | tr '\n' ' ')"

touch "$T/go"
wait_pid_exit "$wl" 10 || fail "the workload did not finish"
[ "$WAIT_RC" = 0 ] || fail "the workload exited $WAIT_RC"

stop_ktop "$pid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop -b ended by SIGINT exited $KTOP_RC, expected 0; stderr: $(head -c 500 "$T/err")"

# The workload's calls are in the output, in the documented text format:
# "TS [CPU] COMM-PID sys:event: info".
n=$(grep -cE "^ *[0-9]+\.[0-9]{6} \[[0-9]{3}\] +ktop-ed-wl-$wl_pid +syscalls:sys_enter_getppid: " "$T/out")
[ "$n" = 50 ] || fail "expected 50 getppid lines of workload $wl_pid, found $n; first lines: $(head -3 "$T/out")"
# Only the enabled events appear.
bad=$(grep -vE '^#' "$T/out" | grep -vE ' (sched:sched_wak[a-z_]*|syscalls:sys_enter_getppid|sched:sched_process_fork|lost): |\*\*\* CPU' | head -3)
[ -z "$bad" ] || fail "rows of events that were not enabled: $bad"
tail -n1 "$T/out" | grep -qE '^# ktop: events=[0-9]+ lost=[0-9]+ lost_marked=[0-9]+ lost_unknown_pages=[0-9]+ evicted=[0-9]+ duration=[0-9.]+s rate=[0-9]+/s$' ||
	fail "last line is not the summary: $(tail -n1 "$T/out")"

# After the exit: the instance and everything in it are gone; the top level is as it was.
instance_gone "$pid" || fail "instance ktop-$pid still exists after ktop exited"
while IFS=: read -r sys ev; do
	echo "$sys:$ev $(cat "$TRACEFS/events/$sys/$ev/enable")"
done <"$T/expected" >"$T/top_enable.after"
cmp -s "$T/top_enable.before" "$T/top_enable.after" || fail "top-level enable files changed"
assert_clean
pass
