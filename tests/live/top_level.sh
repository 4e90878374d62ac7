#!/bin/bash
# --top-level on a kernel whose top level has no function_graph either (this host): -t
# function_graph and -g fail with one line naming the cause, with or without --top-level,
# and the top level is left exactly as it was (no state file under /run, every file ktop
# would save unchanged). The top level is never switched here; the kernel lab
# (tests/lab/tests/50-call-trees.sh, 55-top-level-kill9.sh) runs the real thing.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

top_state()
{
	local f
	for f in current_tracer tracing_on trace_clock set_event set_ftrace_filter \
		set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid set_graph_function \
		set_graph_notrace; do
		[ -e "$TRACEFS/$f" ] && printf '%s: %s\n' "$f" "$(cat "$TRACEFS/$f" 2>&1)"
	done
}

# check NAME CAUSE_RE -- ARGS...
check()
{
	local name=$1 cause=$2 before after n
	shift 3
	before=$(top_state)
	run_ktop 15 "$T/$name.out" "$T/$name.err" "$@"
	after=$(top_state)
	[ "$KTOP_RC" = 1 ] || fail "$name: exit status $KTOP_RC, expected 1: $(cat "$T/$name.err")"
	n=$(wc -l <"$T/$name.err")
	[ "$n" = 1 ] || fail "$name: $n lines on stderr, expected 1: $(cat "$T/$name.err")"
	grep -Eq -- "^ktop: .*$cause" "$T/$name.err" ||
		fail "$name: the message does not name /$cause/: $(cat "$T/$name.err")"
	assert_no_sanitizer "$T/$name.err"
	[ "$before" = "$after" ] ||
		fail "$name: the top level changed: $(diff <(echo "$before") <(echo "$after"))"
	[ -e "/run/ktop-$KTOP_PID.toplevel" ] && fail "$name: /run/ktop-$KTOP_PID.toplevel left"
	instance_gone "$KTOP_PID" || fail "$name: instance ktop-$KTOP_PID left"
	log "$name: $(cat "$T/$name.err")"
}

grep -qw function_graph "$TRACEFS/available_tracers" &&
	skip "this kernel has function_graph at the top level: the lab tests cover it"
check tracer "no tracer 'function_graph'" -- -b -t function_graph --duration 1
check tracer_top "no tracer 'function_graph'" -- -b -t function_graph --top-level --duration 1
check graph "set_graph_function .*CONFIG_FUNCTION_GRAPH_TRACER" -- -b -g vfs_read --duration 1
check graph_top "set_graph_function .*CONFIG_FUNCTION_GRAPH_TRACER" -- \
	-b -g vfs_read --top-level --duration 1
pass
