#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The scope key over two made-up agents (tests/remote/fake_peer.py), no kernel, 120x24: via2
# has none of the pids it is given (nopids). pid=4242 is taken by via1 and refused by via2,
# so via2 is told to record none of its processes (request 22 "none"): the status line says
# the agents record only pid 4242 on via1 and names via2's refusal, the header says "scope:
# pid 4242 on via1"; an empty scope clears both. After q each agent's own account of the
# scopes it took is printed: via1 "pid 4242; all", via2 "none; all".
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
TMUX_HISTORY=50
tmux_start 120 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "exec $FAKE 0 250000000 swept" \
	--via "exec $FAKE 0 250000000 swept nopids" -e raw_syscalls:sys_enter
expect_text "^2 hosts  tracer: nop" 15 "the header does not say it shows 2 hosts"

scope_key "pid=4242"
expect_text "the agents now record only pid 4242 on via1; via2: pid 4242 is not running on fakehost" 5 \
	"no line naming the hosts that took the scope and via2's refusal"
tmux_keys Escape
expect_text "scope: pid 4242 on via1" 3 "the header does not name the host that took the scope"

scope_key ""
expect_text "records all processes again" 5 "no line for clearing the scope"
tmux_keys Escape
wait_for_no_text "scope: " 3 || fail "the header still shows a scope"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
_said() { tmux_screen -S -50 | grep -qx "$1"; }
wait_until 5 _said "via1: fake agent: scopes pid 4242; all" ||
	fail "via1 did not take pid 4242, then all: $(tmux_screen -S -50 | grep -v '^$')"
wait_until 5 _said "via2: fake agent: scopes none; all" ||
	fail "via2 was not told to record none, then all: $(tmux_screen -S -50 | grep -v '^$')"
pass
