#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# --stop-when over two made-up agents (tests/remote/fake_peer.py), no kernel, 120x24: the
# stop's traceoff trigger goes to both hosts; only via2's kernel fires it (fires), and that
# stops the whole capture: the stream says STOPPED and what stopped it, and via1, whose own
# trigger never fired, is told to turn tracing off too. After q each agent's own account of
# the triggers it took is printed.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
TMUX_HISTORY=50
tmux_start 120 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "exec $FAKE 0 250000000 swept" \
	--via "exec $FAKE 0 250000000 swept fires" -e raw_syscalls:sys_enter \
	--stop-when 'raw_syscalls:sys_enter if id == 110'
expect_text "^2 hosts  tracer: nop" 15 "the header does not say it shows 2 hosts"
expect_text "STOPPED" 10 "via2's stop did not stop the capture"
expect_text "stopped by raw_syscalls:sys_enter if id == 110" 5 "the stream does not say what stopped it"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
_said() { tmux_screen -S -50 | grep -qx "$1"; }
trig='add raw_syscalls:sys_enter:traceoff:1 if id == 110'
wait_until 5 _said "via1: fake agent: triggers $trig; tracing off" ||
	fail "via1 did not take the stop and then tracing off: $(tmux_screen -S -50 | grep -v '^$')"
wait_until 5 _said "via2: fake agent: triggers $trig; tracing off" ||
	fail "via2 did not take the stop: $(tmux_screen -S -50 | grep -v '^$')"
pass
