#!/bin/sh
# The function tracer in ktop's instance with a set_ftrace_filter, through batch mode: every
# record is ftrace:function, for the filtered function only (vfs_read, which the reads below
# call), at least one per read; the top-level filter untouched.
T=${TRACEFS:-/sys/kernel/tracing}
out=/tmp/function-filter.out
err=/tmp/function-filter.err
fail() { echo "$1"; head -20 "$out"; cat "$err"; exit 1; }
"$KTOP" -b -t function --ftrace-filter vfs_read >"$out" 2>"$err" &
kp=$!
# reads only once the tracer runs (starting it takes seconds under emulation); dd, because
# busybox cat uses sendfile, not read()
i=0
while [ "$(cat "$T/instances/ktop-$kp/current_tracer" 2>/dev/null)" != function ]; do
	i=$((i + 1))
	[ $i -le 300 ] && kill -0 $kp 2>/dev/null || fail "ktop did not start the function tracer"
	sleep 0.1
done
i=0
while [ $i -lt 20 ]; do dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null; i=$((i + 1)); done
sleep 0.5
kill -INT $kp
wait $kp
rc=$?
[ $rc -eq 0 ] || fail "ktop -b -t function --ftrace-filter vfs_read exited $rc"
records=$(grep -vc '^#' "$out")
hits=$(grep -c ' ftrace:function: *vfs_read <-- ' "$out")
echo "records=$records vfs_read=$hits"
[ "$hits" -ge 20 ] || fail "expected at least 20 ftrace:function records of vfs_read"
[ "$records" -eq "$hits" ] || fail "records of other functions or events: $(grep -v '^#' "$out" | grep -v ' ftrace:function: *vfs_read <-- ' | head -3)"
[ "$(grep -vc '^#' "$T/set_ftrace_filter")" -eq 0 ] || fail "top-level set_ftrace_filter changed"
exit 0
