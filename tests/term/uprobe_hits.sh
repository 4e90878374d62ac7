#!/bin/bash
# A uprobe's hit count in the probe editor (80x24): a uprobe made from the editor (P, u) on a
# private copy of tests/helpers/probe_target (a file of its own: the kernel counts a uprobe's
# hits in every process running that file, and no other test runs this copy) shows hits=0,
# then, once the copy has called ktop_probe_target N times, exactly hits=N on the next tick
# (the editor reads uprobe_profile as it draws), and no misses: the kernel counts none for
# uprobes. q leaves no probe behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
private_probe_target
N=23

probe_editor_start 80 24 -- -d 1
editor_uprobe "$target" ktop_probe_target
expect_text "created and enabled $PROBE_GROUP:ktop_probe_target" 5 "the probe was not created"
row='\[x\] ktop_probe_target +uprobe +hits='
expect_text "${row}0 " 5 "the new uprobe's row does not show hits=0"

"$target" "$N" >"$T/target.out" || fail "probe_target failed"
expect_text "${row}$N " 5 "the uprobe's row does not show hits=$N after $N calls"
_screen_lacks 'misses' || fail "a uprobe's row shows misses: $(tmux_screen | grep misses)"
log "probe editor: hits=0, then hits=$N after $N calls, no misses"

tmux_quit_clean
[ "$(probe_count)" = 0 ] || fail "ktop left its probe behind"
assert_clean
pass
