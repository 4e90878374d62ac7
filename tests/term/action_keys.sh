#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Every action can be rebound in ktoprc (key.NAME = KEY), those that could not before the
# action table too. With key.write = 1, key.record = 2, key.tree = 3 and key.hist = 4 (digits
# no pane takes), in a 120x30 tmux pane:
#   - live: ktoprc is taken without complaint; 1 opens the write prompt, 2 the record
#     prompt, 3 the call-tree pane and closes it again, 4 the histogram prompt;
#   - on a recording (-i): 4 and 1 are refused with the reason naming what needs a live
#     kernel, 3 (works on recordings) opens the call-tree pane.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

CFG=$T/cfg
mkdir -p "$CFG/ktop"
printf 'key.write = 1\nkey.record = 2\nkey.tree = 3\nkey.hist = 4\noverview = no\n' >"$CFG/ktop/ktoprc"

quit_ok()
{
	tmux_keys F10
	tmux_wait_exit 10 || fail "$1: F10 did not quit within 10s"
	[ "$PANE_RC" = 0 ] || fail "$1: ktop exited $PANE_RC"
	assert_terminal_restored
	assert_no_sanitizer_on_screen
}

# ---- live -----------------------------------------------------------------------------------
tmux_start 120 30 "XDG_CONFIG_HOME=$CFG" -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "no header"
expect_text "F1Help" 5 "no function bar"
_screen_lacks "ktoprc" || fail "ktoprc was not taken (its line is named on the status line)"
tmux_keys 1
expect_text "Write the stored events to: " 3 "key.write = 1: 1 opened no write prompt"
tmux_keys Escape
wait_for_no_text "Write the stored events" 3 || fail "Esc did not close the write prompt"
tmux_keys 2
expect_text "Record from now on to: " 3 "key.record = 2: 2 opened no record prompt"
tmux_keys Escape
wait_for_no_text "Record from now on" 3 || fail "Esc did not close the record prompt"
tmux_keys 3
expect_text "Call tree" 3 "key.tree = 3: 3 opened no call-tree pane"
tmux_keys 3
wait_for_no_text "Call tree" 3 || fail "key.tree = 3: the second 3 did not close the call-tree pane"
tmux_keys 4
expect_text "histogram> " 3 "key.hist = 4: 4 opened no histogram prompt"
tmux_keys Escape
quit_ok live

# ---- a recording: the live-only actions refused through their new keys --------------------
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/small.dat" 1000 1 ||
	fail "mkrecording failed"
tm kill-server 2>/dev/null
tmux_start 120 30 "XDG_CONFIG_HOME=$CFG" -- -i "$T/small.dat"
expect_text "RECORDING small.dat" 10 "no RECORDING header"
tmux_keys 4
expect_text "BPF histograms run in a live kernel: a recording has none" 3 \
	"key.hist = 4 on a recording: no reason naming the histograms"
tmux_keys 1
expect_text "w, A: this is a recording; ktop -i FILE --from A --to B -o PART writes a part" 3 \
	"key.write = 1 on a recording: no reason naming the writing"
tmux_keys 3
expect_text "Call tree" 3 "key.tree = 3 on a recording: no call-tree pane"
quit_ok recording
pass
