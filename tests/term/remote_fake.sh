#!/bin/bash
# The explorer over a made-up agent, with no kernel (tests/remote/fake_peer.py events ...
# backlog stderr), in an 80x24 pane:
#   - the agent reports, as it enables raw_syscalls:sys_enter, 1 MiB queued and 12 KiB its
#     kernel holds unread, the oldest unsent event 1.4 s old: the header's second line says
#     "behind 1.0 MiB 1.4 s", whole (a field that does not fit in 80 columns would be left
#     out, not cut); once the agent reports it has caught up (its answer to the disable),
#     "behind" goes;
#   - the agent writes "fake agent: warming up" to its stderr after its hello: the line
#     shows once, in the status line ("remote stderr: ..."), nowhere else (the header still
#     starts with the remote's name); after q, the terminal restored, it and the agent's
#     last line, "fake agent: done", are printed where the shell can see them.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
# tmux's "Pane is dead" line scrolls the screen by one once ktop has exited: the first line
# it printed after the explorer is then in the history, kept for the check at the end
TMUX_HISTORY=50
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "$FAKE backlog stderr" -e raw_syscalls:sys_enter
expect_text "^fakehost via python3" 10 "the header does not name the remote"
expect_text "^lost: 2 +behind 1\.0 MiB 1\.4 s " 10 "the header does not say the agent is behind"
[ "$(tmux_screen | grep -c behind)" = 1 ] || fail "behind is not on one line: $(tmux_screen | grep behind)"

# the agent's stderr: in the status line only
expect_text "^remote stderr: fake agent: warming up" 5 "the agent's stderr line is not in the status line"
expect_count "fake agent" 1 3 "the agent's stderr is on the screen elsewhere than the status line"

# caught up: the agent's next loss frame says so, and the header says nothing
tmux_keys e
expect_text "Event picker +[0-9]+ of [0-9]+ enabled" 5 "e did not open the event picker"
tmux_text sys_enter
expect_text "\[x\] +sys_enter" 5 "the picker does not tick the agent's sys_enter"
tmux_keys Space
expect_text "\[ \] +sys_enter" 5 "Space did not turn sys_enter off"
wait_for_no_text "behind" 5 || fail "the header still says behind after the agent caught up: $(tmux_screen | grep behind)"
expect_text "^lost: 2 " 3 "the header's second line lost its loss"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"

# after q: all the agent wrote to its stderr, on the terminal given back
tmux_quit_clean
_printed_after() { tmux_screen -S -50 | grep -A1 -x "fake agent: warming up" | grep -qx "fake agent: done"; }
wait_until 5 _printed_after ||
	fail "the agent's two stderr lines were not printed, in order, after the explorer: $(tmux_screen -S -50 | grep -v '^$')"
pass
