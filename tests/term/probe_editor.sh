#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A uprobe made from the keyboard (80x24): P opens the probe editor, u asks for the binary
# (Tab completes the path of tests/helpers/probe_target), then the function, which Tab
# completes from its ELF symbols; a misspelt fetcharg type shows the reason with a caret
# under it while typing, and Enter then creates nothing; fixed, Enter creates and enables
# ktop_<pid>:ktop_probe_target. The target's 5 calls appear in the stream with their
# argument, the picker lists the probe ticked, d deletes it, q leaves no probe behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_probe_target
target=$(readlink -f "$KTOP_PROBE_TARGET")

probe_editor_start 80 24 -- -d 1
pid=$KTOP_PID
group=$PROBE_GROUP
tmux_keys u
expect_text "^binary or library:" 5 "u did not ask for the binary"
tmux_text "${target%_target}_t"
tmux_keys Tab
expect_text "^binary or library: .*probe_target *$" 5 "Tab did not complete the binary's path"
tmux_keys Enter
expect_text "^uprobe probe_target:" 5 "no function prompt after the binary"
expect_text "new uprobe \([0-9]+ functions\): " 5 "the binary's ELF functions were not read"

tmux_text 'ktop_probe_t'
tmux_keys Tab
expect_text "^uprobe probe_target: ?ktop_probe_target *$" 5 "Tab did not complete the function"
tmux_text ' s=+0(%si):strng'
expect_text "Def: ktop_probe_target s=\+0\(%si\):strng" 5 "the pane does not echo the definition"
screen=$(tmux_screen)
def_line=$(grep -m1 'Def: ktop_probe_target' <<<"$screen")
caret_line=$(grep -A1 -m1 'Def: ktop_probe_target' <<<"$screen" | sed -n 2p)
[[ $caret_line == *"^ "*strng* ]] || fail "no reason naming 'strng' under the definition: '$caret_line'"
type_prefix=${def_line%%strng*}
caret_prefix=${caret_line%%^*}
[ "${#caret_prefix}" = "${#type_prefix}" ] ||
	fail "the caret (column ${#caret_prefix}) is not under 'strng' (column ${#type_prefix})"
tmux_keys Enter
expect_text "^uprobe probe_target: ktop_probe_target s=" 5 "the prompt did not come back to fix"
[ "$(probe_count)" = 0 ] || fail "a probe was created from a bad definition"

tmux_keys BSpace BSpace BSpace BSpace BSpace
tmux_text 'string'
wait_for_no_text "\^ .*strng" 3 || fail "the reason stays after the fix"
tmux_keys Enter
expect_text "created and enabled $group:ktop_probe_target" 5 "the probe was not created"
[ "$(probe_count)" = 1 ] || fail "$(probe_count) probes in $group, expected 1"
event_enabled "$pid" "$group" ktop_probe_target || fail "the probe is not enabled"
expect_text "\[x\] ktop_probe_target +uprobe" 5 "the pane does not list the probe as on"

# Its hits in the stream.
tmux_keys Escape
wait_for_no_text "Probes $group" 3 || fail "Esc did not close the probe editor"
"$KTOP_PROBE_TARGET" 5 >"$T/target.out" || fail "probe_target failed"
hits() { tmux_screen | grep -c 'ktop_probe_target .*s="ktop-probe-a'; }
_five() { [ "$(hits)" = 5 ]; }
wait_until 5 _five || { tmux_screen | sed 's/^/  | /' >&2; fail "$(hits) hits in the stream, expected 5"; }

# The picker lists it like a tracepoint.
tmux_keys e
tmux_text ktop_probe
expect_text "\[x\] +ktop_probe_target" 5 "the picker does not list the probe ticked"
tmux_keys Escape Escape

# Delete from the editor.
tmux_keys P
expect_text "Probes $group" 5 "P did not reopen the probe editor"
tmux_keys d
expect_text "deleted $group:ktop_probe_target" 5 "d did not delete the probe"
[ "$(probe_count)" = 0 ] || fail "the probe is still in dynamic_events"

# Another one, left for the exit to remove.
tmux_keys u
expect_text "^binary or library:" 5 "u did not ask for the binary"
tmux_text "$target"
tmux_keys Enter
tmux_text 'ktop_probe_target'
tmux_keys Enter
expect_text "created and enabled $group:ktop_probe_target" 5 "the second probe was not created"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
[ "$(probe_count)" = 0 ] || fail "ktop left its probe behind"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
