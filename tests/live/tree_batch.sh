#!/bin/bash
# ktop -b --tree on the live kernel. Where the kernel has no function_graph tracer (this
# machine kind), one line on stderr names the cause and the way out (record elsewhere, open
# with -i), exit status 1, nothing on stdout, the instance gone. --tree outside batch mode
# is a usage error (2) that points at the explorer's key. Where the kernel has the tracer,
# a capture of vfs_read gives trees in the kernel's layout.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

one_line()
{
	local name=$1 rc=$2 re=$3 line
	[ "$KTOP_RC" = "$rc" ] || fail "$name: exit status $KTOP_RC, expected $rc: $(cat "$T/$name.err")"
	[ -s "$T/$name.out" ] && fail "$name: wrote to stdout: $(head -c 200 "$T/$name.out")"
	[ "$(wc -l <"$T/$name.err")" -eq 1 ] || fail "$name: not one line on stderr: $(cat "$T/$name.err")"
	line=$(cat "$T/$name.err")
	echo "$line" | grep -Eq -- "$re" || fail "$name: /$re/ not in: $line"
	assert_no_sanitizer "$T/$name.err"
}

run_ktop 15 "$T/usage.out" "$T/usage.err" --tree
one_line usage 2 "^ktop: --tree belongs to batch mode \(-b\); the explorer's call-tree pane is key T"

if ! grep -qw function_graph "$TRACEFS/available_tracers"; then
	run_ktop 30 "$T/nograph.out" "$T/nograph.err" -b --tree --duration 1
	one_line nograph 1 "^ktop: --tree: this kernel has no function_graph tracer .*CONFIG_FUNCTION_GRAPH_TRACER.*trace-cmd record -p function_graph .*ktop -i trace.dat$"
	instance_gone "$KTOP_PID" || fail "instance ktop-$KTOP_PID left after the refusal"
else
	run_ktop 60 "$T/graph.out" "$T/graph.err" -b -t function_graph -g vfs_read --duration 2 --tree
	[ "$KTOP_RC" = 0 ] || fail "--tree exited $KTOP_RC: $(cat "$T/graph.err")"
	grep -Eq '^ +[0-9]+\) +.*-[0-9]+ \| +\| +vfs_read\(\) \{$' "$T/graph.out" ||
		fail "no vfs_read tree in the kernel's layout: $(head -n 20 "$T/graph.out")"
fi
assert_clean
pass
