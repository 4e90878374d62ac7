#!/bin/bash
# The lock-contention histogram (lock:contention_begin -> contention_end of a thread on one
# lock) through each variant, against kernel lock contention of our own making: threads of
# one process mapping and unmapping memory at once wait for its mmap_lock
# (tests/helpers/lockwork). The count is checked against the kernel's own: an instance of the
# test's own records every lock:contention_end with the tgid of the task it happened in
# (record-tgid). ktop keys by thread, and the waits of the workload's worker threads are
# compared: they start after the go file and end before the process does, so ktop and the
# instance both see all of them, every one in a bucket, no more and no fewer (fewer only by
# the runs ktop reports the kernel skipped). The main thread is left out on both sides: it
# lives before the go file too, when ktop already counts and the instance not yet (a loaded
# machine once gave it a wait there, 475 against the instance's 474). (set_event_pid would
# not do: it filters on a per-CPU flag set at sched_switch, which is stale for a lock
# contended inside the switch.) On a kernel without the tracepoints, ktop must refuse in one
# line saying so.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
KTOP_LOCKWORK=${KTOP_LOCKWORK:-$(dirname "$KTOP_WORKLOAD_BIN")/lockwork}
[ -x "$KTOP_LOCKWORK" ] || fail "no lockwork helper at $KTOP_LOCKWORK (make check builds it)"
KTOP_ENV=(KTOP_NO_GUARD=1)

if [ ! -d "$TRACEFS/events/lock/contention_end" ]; then
	run_ktop 20 "$T/none.out" "$T/none.err" -b --hist lock-contention --duration 0.2
	[ "$KTOP_RC" != 0 ] || fail "lock-contention without lock tracepoints exited 0"
	grep -qx "ktop: lock-contention: this kernel has no lock:contention_begin/contention_end tracepoints (Linux 5.19 added them): lock contention cannot be timed here" \
		"$T/none.err" || fail "no one-line refusal: $(cat "$T/none.err")"
	log "no lock tracepoints here: refused in one line"
	exit 0
fi

# count VIA: the workload's contentions, by ktop via VIA and by the kernel's own instance
count()
{
	local via=$1 inst=lockcount-$$-$1 out=$T/$1.out wl=$T/$1.wl got kernel
	local I=$TRACEFS/instances/$inst
	mkdir "$I" || fail "cannot create instance $inst"
	CLEANUP_INSTANCES+=("$inst")
	echo 8192 >"$I/buffer_size_kb"
	WORKLOAD_GO=$T/$via.go "$KTOP_LOCKWORK" 4 3000 >"$wl" &
	local wpid=$!
	CLEANUP_PIDS+=("$wpid")
	wait_until 5 has_line "$wl" || fail "$via: the workload printed no pid"
	echo 1 >"$I/options/record-tgid" || fail "cannot set record-tgid in instance $inst"
	start_ktop "$out" "$T/$via.err" -b -v --log "$T/$via.klog" \
		--hist "lock-contention,by=tid,pid=$wpid,via=$via"
	wait_attached "$T/$via.klog" 1
	echo 1 >"$I/events/lock/contention_end/enable" || fail "cannot enable lock:contention_end"
	touch "$T/$via.go"
	wait "$wpid" || fail "$via: the workload failed"
	echo 0 >"$I/events/lock/contention_end/enable"
	sleep 0.3 # ktop's last read after the workload's last wait
	stop_ktop "$KTOP_PID" INT 10
	[ "$KTOP_RC" = 0 ] || fail "$via: ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/$via.err")"
	assert_no_sanitizer "$T/$via.err"
	grep -q "^overrun: [1-9]" "$I"/per_cpu/cpu*/stats && fail "instance $inst overran"
	# "comm-tid (tgid) [cpu] flags ts: contention_end: ...": the workload's, by thread
	sed -nE "s/^ *.+-([0-9]+) +\( *$wpid\) .* contention_end: .*/\1/p" "$I/trace" | sort | uniq -c >"$T/$via.tids"
	_rm_instance "$inst"
	grep -q "^# hist lock-contention,by=tid,pid=$wpid,via=$via: by=tid unit=ns scale=log2 via=$via " "$out" ||
		fail "$via: no lock-contention header: $(head -3 "$out")"
	# the worker threads' waits: the instance's and ktop's, and no key that is not the workload's
	kernel=$(awk -v main="$wpid" '$2 != main { n += $1 } END { print n + 0 }' "$T/$via.tids")
	[ "$kernel" -ge 20 ] || fail "$via: the workload made only $kernel contentions"
	got=0
	for tid in $(sed -n 's/^key tid \([0-9]*\) .*/\1/p' "$out"); do
		[ "$tid" = "$wpid" ] && continue
		awk -v t="$tid" '$2 == t { found = 1 } END { exit !found }' "$T/$via.tids" ||
			fail "$via: key $tid is no thread of the workload's the kernel saw wait: $(grep '^key ' "$out")"
		got=$((got + $(hist_key_line "$out" "tid $tid" | sed 's/.* count=\([0-9]*\) .*/\1/')))
	done
	_expect_count "$got" "$kernel" "$out" "the worker threads' waits via $via"
	log "lock-contention via $via: $got waits of the worker threads, the kernel's instance saw $kernel"
}

for via in tp_btf raw_tp tracepoint; do
	count "$via"
done

# a key the program cannot make is refused in one line, before anything loads
run_ktop 20 "$T/bad.out" "$T/bad.err" -b --hist lock-contention,by=ret --duration 0.2
grep -q "by=ret" "$T/bad.err" && [ "$(wc -l <"$T/bad.err")" = 1 ] ||
	fail "by=ret: expected a one-line refusal: $(cat "$T/bad.err")"
assert_clean
