#!/bin/sh
# ktop's batch mode captures sched:sched_switch for a second and counts events; the lab's
# kernel (6.1) cannot map a ring buffer (6.10+), so its reader falls back to read() and its
# log says why.
# A little background activity so the one emulated CPU switches tasks for sure.
(while :; do sleep 0.05; done) &
load=$!
out=$("$KTOP" -b -v --log /tmp/bs.log -e sched:sched_switch --duration 1 -q 2>&1)
rc=$?
kill $load
wait $load 2>/dev/null
summary=$(printf '%s\n' "$out" | grep '^# ktop: events=')
echo "$summary"
if [ $rc -ne 0 ] || [ -z "$summary" ]; then
	printf '%s\n' "$out"
	echo "ktop -b exited $rc"
	exit 1
fi
events=$(printf '%s\n' "$summary" | sed 's/^# ktop: events=\([0-9]*\).*/\1/')
if [ "${events:-0}" -le 0 ]; then
	echo "no sched_switch events captured"
	exit 1
fi
if ! grep -q "reader: 0 of [0-9]* CPUs memory-mapped, the rest read with read(): mmap of trace_pipe_raw: .*6\.10" /tmp/bs.log; then
	echo "the reader's log does not say it fell back to read() on $(uname -r):"
	grep reader /tmp/bs.log
	exit 1
fi
