#!/bin/sh
# Run in the guest after every lab test: ktop left nothing in the kernel (no ktop-* instance,
# no ktop_* dynamic event group), the top-level tracer is still nop and its function lists
# (set_graph_function, set_ftrace_filter) are empty, and no --top-level state file is left. A test after which
# this fails is reported as failed, with what was left.
T=${TRACEFS:-/sys/kernel/tracing}
status=0
for d in "$T"/instances/ktop-*; do
	[ -d "$d" ] || continue
	echo "instance ${d##*/} left behind"
	status=1
done
if grep -q '^[a-z][0-9]*:ktop_' "$T/dynamic_events" 2>/dev/null; then
	echo "ktop dynamic events left behind:"
	grep '^[a-z][0-9]*:ktop_' "$T/dynamic_events"
	status=1
fi
tracer=$(cat "$T/current_tracer")
if [ "$tracer" != nop ]; then
	echo "current_tracer is '$tracer', not nop"
	status=1
fi
for f in set_graph_function set_ftrace_filter; do
	[ -f "$T/$f" ] || continue
	if grep -qv '^#' "$T/$f"; then
		echo "top-level $f is not empty: $(grep -v '^#' "$T/$f" | head -n 3)"
		status=1
	fi
done
for f in /run/ktop-*.toplevel; do
	[ -f "$f" ] || continue
	echo "$f left behind"
	status=1
done
exit $status
