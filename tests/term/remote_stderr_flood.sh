#!/bin/bash
# An agent that floods its stderr does not grow the explorer without bound: the fake agent
# (tests/remote/fake_peer.py events ... flood) writes 1000 lines of 100 bytes after its
# hello; the status line shows its last, and after q the first 64 KiB of them are printed
# and the rest counted in one line ("ktop: N more lines of the agent's stderr not kept").
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "$FAKE flood" -e raw_syscalls:sys_enter
expect_text "^fakehost via python3" 30 "the header does not name the remote"
expect_text "^remote stderr: fake agent: noise 0999 x" 10 "the status line does not show the agent's last stderr line"
tmux_quit_clean
# 64 KiB hold 655 lines of 100 bytes; the other 345 are counted
expect_text "^fake agent: noise 0654 x+$" 5 "the last line that fits in 64 KiB was not printed"
expect_text "^ktop: 345 more lines of the agent's stderr not kept \(past 64 KiB\)$" 5 \
	"the lines past 64 KiB were not counted: $(tmux_screen | tail -3)"
wait_for_no_text "noise 0655" 1 || fail "a line past 64 KiB was printed"
pass
