#!/bin/sh
# ktop --doctor, run in the lab guest, reports what the build machines' kernel lacks as
# available: the function_graph tracer and kprobe events.
out=$("$KTOP" --doctor 2>&1)
status=0
for check in function_graph kprobe_events; do
	if ! printf '%s\n' "$out" | grep -q "^ok   $check: "; then
		echo "doctor does not report '$check' as ok"
		status=1
	fi
done
[ $status -eq 0 ] || printf '%s\n' "$out"
exit $status
