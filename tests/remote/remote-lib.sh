# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# The remote tests' agents (tests/remote, and the explorer over agents in tests/term): the
# fake agent, real agents through --via and their pids, two at once. Sourced by tests/lib.sh.

# require_fake_agent: python3, and in FAKE the command of a made-up agent with no kernel
# (tests/remote/fake_peer.py events FIXTURES); words after it say how it behaves.
FAKE=
require_fake_agent()
{
	require_python
	FAKE="python3 $KTOP_SRCDIR/tests/remote/fake_peer.py events $KTOP_SRCDIR/tests/unit/fixtures/tracing"
}

# The explorer over real agents (--via): remote_via TAG [AGENT ARGS...] is an agent's
# command, its pid written to $T/TAG.agent (sh -c's exec keeps it) and its debug log to
# $T/TAG.klog; remote_agent_pid TAG its pid in AGENT_PID once it started (the clean-up
# kills it; a variable, not $(...), where its fail would only end a subshell);
# remote_two TAG1 TAG2 [AGENT ARGS...] the explorer at 80x24 (-d 1) over two such agents,
# their pids in A1 and A2 once the header names both (remote_two_quit: q, all of it gone;
# BPF programs checked with hist-lib.sh's _progs_gone).
remote_via()
{
	local tag=$1
	shift
	echo "echo \$\$ >$T/$tag.agent; exec $KTOP --agent $* -v --log $T/$tag.klog"
}
# shellcheck disable=SC2119 # the whole screen
remote_agent_pid()
{
	wait_until 15 test -s "$T/$1.agent" || fail "$1: the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
	AGENT_PID=$(cat "$T/$1.agent")
	KTOP_PIDS+=("$AGENT_PID")
}
A1=''
A2=''
remote_two()
{
	local t1=$1 t2=$2
	shift 2
	mkdir -p "$T/xdg"
	tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 1 --via "$(remote_via "$t1" "$@")" \
		--via "$(remote_via "$t2" "$@")"
	remote_agent_pid "$t1"
	A1=$AGENT_PID
	remote_agent_pid "$t2"
	A2=$AGENT_PID
	expect_text "^2 hosts " 15 "the explorer did not start on both agents"
}
# remote_two_quit PROG_ID...: q, then within 2 s both agents, their instances and these
# BPF programs of theirs are gone; the tmux server too.
_two_gone() { all_gone "$A1" && all_gone "$A2"; }
remote_two_quit()
{
	tmux_quit_clean
	wait_until 2 _two_gone || fail "two: q: an agent or its instance outlived the viewer by 2 s"
	[ $# = 0 ] || wait_until 2 _progs_gone "$@" || fail "two: q: the agents' programs remain"
	tmux_kill_server
}
