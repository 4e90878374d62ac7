#!/bin/bash
# Histograms that start on one event and end on another keep no start for a task that exits,
# or each exited task would hold an entry for good and, on a busy machine, the map (16384
# entries) would fill with the dead and stop taking anyone:
#  - offcpu: a task is switched out one last time as it dies and never back in; in every
#    variant (tp_btf, raw_tp, tracepoint) none of 2000 short-lived processes may still have
#    a start in the program's map once they are gone (their last switch comes after the
#    parent reaped them, hence the bounded wait);
#  - syscall-latency: exit(2) and exit_group(2) never return. Its starts live in each
#    thread's own storage (a task_storage map, which the kernel frees with the thread and
#    which cannot be listed): in every variant the map is of that type, and the 2000
#    processes' syscalls are timed all the same.
set -u
# six runs of 2000 forks each: a bound for a loaded 2-CPU machine, not the usual 180 s
KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-600}
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

for hist in offcpu syscall-latency; do
for via in tp_btf raw_tp tracepoint; do
	name=$hist-$via
	start_ktop "$T/$name.out" "$T/$name.err" -b -q -v --log "$T/$name.klog" --hist "$hist,via=$via"
	wait_attached "$T/$name.klog" 1
	grep -q "$hist,via=$via attached via $via" "$T/$name.klog" ||
		fail "$hist did not attach via $via: $(head -c 300 "$T/$name.err")"
	map=$(map_named "$KTOP_PID" starts)
	[ -n "$map" ] || fail "$name: no map 'starts' among ktop's: $(map_ids "$KTOP_PID" | tr '\n' ' ')"
	if [ "$hist" = syscall-latency ]; then
		bpftool map show id "$map" | grep -q ": task_storage " ||
			fail "$name: its starts are not in task storage: $(bpftool map show id "$map" | head -n 1)"
	fi
	pids=()
	for ((i = 0; i < N; i++)); do
		/bin/true &
		pids+=("$!")
	done
	wait "${pids[@]}"
	printf '%s\n' "${pids[@]}" >"$T/$name.pids"
	if [ "$hist" = syscall-latency ]; then
		log "$hist via $via: starts in task storage, which goes with each task"
		stop_ktop "$KTOP_PID" INT 10
		[ "$KTOP_RC" = 0 ] || fail "$name: ktop exited $KTOP_RC: $(head -c 300 "$T/$name.err")"
		grep -q ' count=[1-9]' "$T/$name.out" || fail "$name: no syscall timed: $(head -c 300 "$T/$name.out")"
		assert_no_sanitizer "$T/$name.err"
		continue
	fi
	wait_until 10 none_left "$map" "$T/$name.pids" ||
		fail "$name: $(grep -cxFf "$T/$name.pids" "$T/keys") of $N exited processes still hold a start in its map ($(wc -l <"$T/keys") entries)"
	log "$hist via $via: none of $N exited processes left in its map ($(wc -l <"$T/keys") entries)"
	stop_ktop "$KTOP_PID" INT 10
	[ "$KTOP_RC" = 0 ] || fail "$name: ktop exited $KTOP_RC: $(head -c 300 "$T/$name.err")"
	assert_no_sanitizer "$T/$name.err"
done
done
assert_clean
