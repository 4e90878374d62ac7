#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A USDT probe made from the keyboard (120x24, so a hit's string argument shows): P opens the probe editor, s asks for a binary,
# library or pid; tests/helpers/usdt_target's notes are read and Tab completes its probe
# (ktop_test:hit) and an argument's type (arg3:string); an unknown probe is named under the
# definition while typing and Enter creates nothing; the right one becomes uprobe
# ktop_<pid>:hit with the semaphore's reference counter, the target's 5 guarded hits appear
# in the stream with their string argument, d deletes it. Then by pid: the running target's
# probes are offered as PATH:PROVIDER:PROBE, and q leaves nothing behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
KTOP_USDT_TARGET=${KTOP_USDT_TARGET:-$(dirname "$KTOP")/tests/helpers/usdt_target}
[ -x "$KTOP_USDT_TARGET" ] || fail "no USDT target at '$KTOP_USDT_TARGET' (make check builds it)"
target=$(readlink -f "$KTOP_USDT_TARGET")

probe_editor_start 120 24 -- -d 1
group=$PROBE_GROUP
expect_text "U uret s USDT" 5 "the editor does not offer s for USDT"
tmux_keys s
expect_text "^USDT in binary, library or pid:" 5 "s did not ask for the binary"
tmux_text "$target"
tmux_keys Enter
expect_text "^usdt usdt_target:" 5 "no probe prompt after the binary"
expect_text "new USDT probe \(1 in the file\)" 5 "the binary's notes were not read"

tmux_text 'ktop_test:miss'
expect_text "\^ no USDT probe 'ktop_test:miss'" 5 "an unknown probe is not named while typing"
tmux_keys Enter
expect_text "^usdt usdt_target: ktop_test:miss" 5 "the prompt did not come back to fix"
[ "$(probe_count)" = 0 ] || fail "a probe was created from an unknown name"
tmux_keys BSpace BSpace BSpace BSpace
tmux_text 'h'
tmux_keys Tab
expect_text "^usdt usdt_target: ktop_test:hit *$" 5 "Tab did not complete the probe"
tmux_text ' arg3:str'
tmux_keys Tab
expect_text "^usdt usdt_target: ktop_test:hit arg3:string *$" 5 "Tab did not complete the type"
wait_for_no_text "\^ no USDT" 3 || fail "the reason stays after the fix"
tmux_keys Enter
expect_text "created and enabled $group:hit" 5 "the probe was not created"
[ "$(probe_count)" = 1 ] || fail "$(probe_count) probes in $group, expected 1"
grep -Eq "^p:$group/hit $target:0x[0-9a-f]+\(0x[0-9a-f]+\) .*arg3=\+0\([^ ]+\):string\$" \
	"$TRACEFS/uprobe_events" || fail "uprobe_events: $(grep "$group/" "$TRACEFS/uprobe_events")"
expect_text "\[x\] hit +uprobe" 5 "the pane does not list the probe as on"

tmux_keys Escape
wait_for_no_text "Probes $group" 3 || fail "Esc did not close the probe editor"
"$target" 5 >"$T/target.out" || fail "usdt_target failed"
[ "$(sed -n 2p "$T/target.out")" = "guard 5 semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/target.out")', expected 'guard 5 semaphore 1'"
hits() { tmux_screen | grep -Ec 'usdt_target-[0-9]+ +(ktop_[0-9]+:)?hit .*arg3="ktop-usdt-[0-4]"'; }
_five() { [ "$(hits)" = 5 ]; }
wait_until 5 _five || { tmux_screen | sed 's/^/  | /' >&2; fail "$(hits) hits in the stream, expected 5"; }

tmux_keys P
expect_text "Probes $group" 5 "P did not reopen the probe editor"
tmux_keys d
expect_text "deleted $group:hit" 5 "d did not delete the probe"
[ "$(probe_count)" = 0 ] || fail "the probe is still in dynamic_events"

# By pid: the running process's probes, its libraries' too, as PATH:PROVIDER:PROBE.
editor_usdt_pid "$target" "USDT in binary, library or pid:" "$group"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
[ "$(probe_count)" = 0 ] || fail "ktop left its probe behind"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
