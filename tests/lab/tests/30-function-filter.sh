#!/bin/sh
# The function tracer in ktop's instance with a set_ftrace_filter, through batch mode: every
# record is ftrace:function, for the filtered function only (vfs_read, which the reads below
# call), and there are some.
out=/tmp/function-filter.out
# reads while ktop traces (the first 0.5 s is ktop's own start)
(sleep 0.5; i=0; while [ $i -lt 20 ]; do cat /proc/version >/dev/null; i=$((i + 1)); done) &
load=$!
"$KTOP" -b -t function --ftrace-filter vfs_read --duration 2 >"$out" 2>/tmp/function-filter.err
rc=$?
wait $load
fail() { echo "$1"; head -20 "$out"; cat /tmp/function-filter.err; exit 1; }
[ $rc -eq 0 ] || fail "ktop -b -t function --ftrace-filter vfs_read exited $rc"
records=$(grep -vc '^#' "$out")
hits=$(grep -c ' ftrace:function: *vfs_read <-- ' "$out")
echo "records=$records vfs_read=$hits"
[ "$hits" -ge 20 ] || fail "expected at least 20 ftrace:function records of vfs_read"
[ "$records" -eq "$hits" ] || fail "records of other functions or events: $(grep -v '^#' "$out" | grep -v ' ftrace:function: *vfs_read <-- ' | head -3)"
# the filter went to the instance, not the top level
[ "$(cat /sys/kernel/tracing/set_ftrace_filter | grep -vc '^#')" -eq 0 ] ||
	fail "top-level set_ftrace_filter changed"
exit 0
