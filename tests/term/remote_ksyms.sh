#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Events that print kernel symbols (%ps, %pS) over a remote agent (--via 'ktop --agent', a
# plain pipe), in the explorer, with no tracer chosen: workqueue_execute_start's "function
# %ps" comes named (flush_to_ldisc, as the pane's own tty makes it run), never as an address,
# because enabling it fetched the agent's kallsyms before any row was drawn (libtraceevent
# maps functions once, on its first lookup).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

EV=workqueue:workqueue_execute_start
tmux_start 160 24 -- --via "echo \$\$ >$T/agent; exec $KTOP --agent -v --log $T/agent.log" -e "$EV"
wait_until 15 test -s "$T/agent" || fail "the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
wait_capturing "$agent" workqueue workqueue_execute_start 15
expect_text "workqueue_execute_start:? +work struct 0x[0-9a-f]+: function [a-z_][a-z0-9_.]*( |$)" 10 \
	"no row names its work's function"
expect_count "function 0x[0-9a-f]+" 0 2 "rows show the work's function as an address"
grep -q "agent_request: kallsyms" "$T/agent.log" || fail "the agent was not asked for its kallsyms"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent $agent or its instance still there 2 s after"
assert_clean
pass
