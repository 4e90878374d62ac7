#!/bin/bash
# offcpu forgets the tasks that exit: each is switched out one last time as it dies and never
# back in, so its start would stay in the program's map for good, and on a busy machine the
# map (16384 entries) fills with the dead and stops taking anyone. In every variant (tp_btf,
# raw_tp, tracepoint) the start of each of 2000 short-lived processes must leave the map once
# the kernel frees the task (sched_process_free, an RCU grace period after it is reaped).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_python
KTOP_ENV=(KTOP_NO_GUARD=1)
N=2000

# none_left MAP PIDFILE: no pid of PIDFILE is a key of MAP (the keys left in $T/keys)
none_left() { map_keys "$1" >"$T/keys" && ! grep -qxFf "$2" "$T/keys"; }

for via in tp_btf raw_tp tracepoint; do
	start_ktop "$T/$via.out" "$T/$via.err" -b -q -v --log "$T/$via.klog" --hist "offcpu,via=$via"
	wait_attached "$T/$via.klog" 1
	grep -q "offcpu,via=$via attached via $via" "$T/$via.klog" ||
		fail "offcpu did not attach via $via: $(head -c 300 "$T/$via.err")"
	map=$(map_named "$KTOP_PID" starts)
	[ -n "$map" ] || fail "$via: no map 'starts' among ktop's: $(map_ids "$KTOP_PID" | tr '\n' ' ')"
	pids=()
	for ((i = 0; i < N; i++)); do
		/bin/true &
		pids+=("$!")
	done
	wait "${pids[@]}"
	printf '%s\n' "${pids[@]}" >"$T/$via.pids"
	wait_until 10 none_left "$map" "$T/$via.pids" ||
		fail "$via: $(grep -cxFf "$T/$via.pids" "$T/keys") of $N exited processes still hold a start in offcpu's map ($(wc -l <"$T/keys") entries)"
	log "offcpu via $via: none of $N exited processes left in its map ($(wc -l <"$T/keys") entries)"
	stop_ktop "$KTOP_PID" INT 10
	[ "$KTOP_RC" = 0 ] || fail "$via: ktop exited $KTOP_RC: $(head -c 300 "$T/$via.err")"
	assert_no_sanitizer "$T/$via.err"
done
assert_clean
