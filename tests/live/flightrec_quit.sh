#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The flight recorder quitting inside an incident's post-roll (issue 34): an incident that
# fired is written with the post-roll it has when ktop stops, and marked truncated, rather
# than lost or waited for. With --post 600, on tests/live/flightrec.sh's workload (1 ms
# sleeps, one 120 ms sleep ending its 1.5 s period), two ktops watch the same run:
#   T. stopped by SIGTERM once the workload has ended;
#   D. ended by its --duration;
# each exits 0 well before the 600 s post-roll, prints its incident's line with "(truncated:
# ktop stopped S s into the 600 s post-roll)", and writes summary.json's window with
# "truncated":true and post_kept_s; trace.dat opens in trace-cmd and holds the slow call with
# the pre-roll before it (tests/helpers/incident_check.py, no post-roll asked). Nothing of
# either run is left in the kernel.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
command -v trace-cmd >/dev/null || fail "needs trace-cmd to read the incidents"

NAME=frq$$
PRE=0.5
common=(-b --pre "$PRE" --post 600 -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit
	--comm "$NAME" --arm "syscall>100ms,comm=$NAME")

workload_start wl spikes 120 1 1500 "$NAME"
wpid=$(head -1 "$T/wl.wl")
start_ktop "$T/t.out" "$T/t.err" "${common[@]}" --incidents "$T/t" --duration 300
tpid=$KTOP_PID
start_ktop "$T/d.out" "$T/d.err" "${common[@]}" --incidents "$T/d" --duration 30
dpid=$KTOP_PID
FAIL_SHOW+=("$T/t.err" "$T/d.err")
armed() { grep -q "^ktop: armed " "$1"; }
for e in t d; do wait_until 20 armed "$T/$e.err" || fail "$e not armed: $(cat "$T/$e.err")"; done
workload_go wl 20

# T: SIGTERM after the slow call, inside its 600 s post-roll
stop_ktop "$tpid" TERM 60
[ "$KTOP_RC" = 0 ] || fail "T exited $KTOP_RC: $(cat "$T/t.err")"
# D: its --duration ends inside the post-roll
wait_pid_exit "$dpid" 90 || fail "D did not end within 60 s of its --duration 30"
[ "$WAIT_RC" = 0 ] || fail "D exited $WAIT_RC: $(cat "$T/d.err")"

for e in t d; do
	n=$(grep -c '^incident [0-9]*: ' "$T/$e.out")
	[ "$n" -ge 1 ] && [ "$n" = "$(find "$T/$e" -mindepth 1 -maxdepth 1 -name 'incident-*' | wc -l)" ] ||
		fail "$e: $n incident lines: $(cat "$T/$e.out"); on disk: $(ls "$T/$e")"
	# every incident of the run fired inside its post-roll: all are truncated
	[ "$(grep -Ec ' \(truncated: ktop stopped [0-9.]+ s into the 600 s post-roll\)$' "$T/$e.out")" = "$n" ] ||
		fail "$e's lines do not say truncated: $(cat "$T/$e.out")"
	for s in "$T/$e"/incident-*/summary.json; do
		grep -Eq '"post_s":600,"truncated":true,"post_kept_s":[0-9.]+\}' "$s" ||
			fail "$e: $s: $(cat "$s")"
	done
	python3 "$KTOP_SRCDIR/tests/helpers/incident_check.py" "$T/$e" "$T/wl.wl" "$wpid" "$PRE" 0 \
		>"$T/check.out" || fail "$e: $(cat "$T/check.out")"
	while read -r l; do log "$e: $l"; done <"$T/check.out"
	assert_no_sanitizer "$T/$e.err"
done
log "T (SIGTERM) and D (--duration) wrote their incidents truncated: $(sed 's/.*(truncated: //' "$T/t.out" | head -1)"
assert_clean
pass
