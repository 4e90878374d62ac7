#!/bin/bash
# The explorer keeps the agent's command's stderr off its screen, with no kernel: a made-up
# agent (tests/remote/fake_peer.py events ... stderr) writes "fake agent: warming up" after
# its hello and "fake agent: done" as it ends. In an 80x24 pane:
#   - the line shows once, in the status line ("remote stderr: ..."), nowhere else: the
#     header still starts with the remote's name;
#   - after q, the terminal restored, both lines are printed where the shell can see them.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_python
FAKE="python3 $KTOP_SRCDIR/tests/remote/fake_peer.py events $KTOP_SRCDIR/tests/unit/fixtures/tracing"

mkdir -p "$T/xdg"
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "$FAKE stderr" -e raw_syscalls:sys_enter
expect_text "^remote stderr: fake agent: warming up" 10 "the agent's stderr line is not in the status line"
expect_count "fake agent" 1 3 "the agent's stderr is on the screen elsewhere than the status line"
expect_text "^fakehost via python3" 3 "the header does not start with the remote's name"
tmux_quit_clean
expect_text "^fake agent: warming up$" 5 "the agent's first stderr line was not printed after the explorer"
expect_text "^fake agent: done$" 5 "the agent's last stderr line was not printed after the explorer"
pass
