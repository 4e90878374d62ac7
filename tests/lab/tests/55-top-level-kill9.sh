#!/bin/sh
# --top-level survives kill -9: while ktop traces with function_graph at the top level it is
# killed; its guard replays /run/ktop-<pid>.toplevel (current_tracer nop, set_graph_function
# empty, trace_clock and tracing_on as before). Then the same without a guard
# (KTOP_NO_GUARD=1): the next ktop start restores the top level from the dead pid's file.
T=${TRACEFS:-/sys/kernel/tracing}
clock0=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock")
on0=$(cat "$T/tracing_on")
status=0

entries() { grep -v '^#' "$T/$1" | grep -v '^no pid$'; }

# $1: pid of a ktop with --top-level; waits until it traces at the top level
wait_traced() {
	i=0
	while [ $i -lt 100 ]; do
		[ "$(cat "$T/current_tracer")" = function_graph ] && [ -f "/run/ktop-$1.toplevel" ] &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "ktop $1 never switched the top level to function_graph:"
	cat /tmp/k9.err
	kill -9 "$1"
	return 1
}

# $1: what restored it; checks the top level is back as it was. The restorer replays the
# saved file line by line and unlinks it last, so the file's going is the sign it finished
# (current_tracer turns nop first, before trace_clock is back).
check_restored() {
	i=0
	while ls /run/ktop-*.toplevel >/dev/null 2>&1 && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	tracer=$(cat "$T/current_tracer")
	clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$T/trace_clock")
	echo "after $1: current_tracer $tracer, clock $clock, tracing_on $(cat "$T/tracing_on")"
	if [ "$tracer" != nop ] || [ -n "$(entries set_graph_function)" ] ||
		[ -n "$(entries set_ftrace_notrace_pid)" ] || [ "$clock" != "$clock0" ] ||
		[ "$(cat "$T/tracing_on")" != "$on0" ] || ls /run/ktop-*.toplevel 2>/dev/null; then
		echo "$1 did not restore the top level (set_graph_function: $(entries set_graph_function))"
		status=1
	fi
}

(while :; do dd if=/dev/zero of=/dev/null bs=512 count=20 2>/dev/null; sleep 0.05; done) &
load=$!

"$KTOP" -b -t function_graph -g vfs_read --top-level --duration 60 -q >/dev/null 2>/tmp/k9.err &
pid=$!
if wait_traced $pid; then
	grep -q vfs_read "$T/set_graph_function" || { echo "set_graph_function lacks vfs_read"; status=1; }
	kill -9 $pid
	wait $pid 2>/dev/null
	check_restored "the guard"
else
	status=1
fi

KTOP_NO_GUARD=1 "$KTOP" -b -t function_graph -g vfs_read --top-level --duration 60 -q \
	>/dev/null 2>/tmp/k9.err &
pid=$!
if wait_traced $pid; then
	kill -9 $pid
	wait $pid 2>/dev/null
	sleep 0.2
	# the next start cleans up after the dead pid
	"$KTOP" -b -e sched:sched_switch --duration 0.2 -q >/dev/null 2>>/tmp/k9.err ||
		{ cat /tmp/k9.err; status=1; }
	check_restored "the next start's clean-up"
else
	status=1
fi
kill $load
wait $load 2>/dev/null
exit $status
