#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Layout: the terminal resized to 120x40, back to 80x24, down to 60x20 and to a tiny 20x5,
# then back: ktop keeps running and redraws the header and the function bar at each size;
# with the picker open, 120 columns put the panes side by side and 80 stack them; Tab moves
# the focus (the function bar follows the focused pane); z zooms the focused pane and
# unzooms; the help overlay opens with h, ? and F1 and closes with Esc; q quits cleanly.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

tmux_start 80 24 -- -d 2 -e sched:sched_switch
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
header="^ktop-$pid +tracer: nop +enabled: 1"
expect_text "$header" 10 "no header at 80x24"

alive() { pid_alive "$pid" || fail "ktop died after the resize to $1 (status $(cat "$T/pane.rc" 2>/dev/null))"; }
# The widest line on the screen.
widest() { tmux_screen | awk '{ sub(/ +$/, ""); if (length > w) w = length } END { print w + 0 }'; }
_pane_is() { [ "$(tmux_pane '#{pane_width}x#{pane_height}')" = "$1" ]; }

resize()
{
	tmux_size "${1%x*}" "${1#*x}" || fail "tmux could not resize to $1"
	wait_until 3 _pane_is "$1" || fail "the pane is not $1"
	sleep 0.3 # SIGWINCH, relayout, one redraw
	alive "$1"
}

resize 120x40
expect_text "$header" 5 "no header after the resize to 120x40"
expect_text "F1Help +F2Events .*F10Quit" 5 "no function bar at 120x40"
_wide() { [ "$(widest)" -gt 80 ]; }
wait_until 3 _wide || fail "nothing drawn beyond column 80 at 120x40: the layout did not grow"
[ "$(tmux_screen | wc -l)" -ge 40 ] || fail "the screen is not 40 lines"
# The function bar on the last line, the header on the first.
_last_is_fbar() { [ "$(tmux_screen | sed -n 40p | grep -c 'F10Quit')" = 1 ]; }
wait_until 3 _last_is_fbar || fail "the function bar is not on line 40 at 120x40"

resize 80x24
expect_text "$header" 5 "no header after the resize back to 80x24"
_narrow() { [ "$(widest)" -le 80 ]; }
wait_until 3 _narrow || fail "lines wider than 80 columns after the resize to 80x24"

resize 60x20
expect_text "^ktop-$pid +tracer: nop" 5 "no header at 60x20"
expect_text "F1Help" 5 "no function bar at 60x20"

resize 20x5
alive 20x5
resize 80x24
expect_text "$header" 5 "no header after 20x5 and back to 80x24"
expect_text "Events: all CPUs" 5 "no stream pane after 20x5 and back"

# ---- two panes: side by side at 120 columns, stacked at 80, Tab, zoom ----------------------
resize 120x40
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
# Side by side: one screen line holds both titles.
_side() { tmux_screen | grep -Eq 'Events: all CPUs.*Event picker|Event picker.*Events: all CPUs'; }
wait_until 3 _side || { tmux_screen >&2; fail "at 120x40 the stream and the picker are not side by side"; }
# The picker has the focus: its function bar.
expect_text "Spc *Toggle" 3 "the focused picker's function bar is not shown"

resize 80x24
_stacked() { tmux_screen | grep -q 'Events: all CPUs' && tmux_screen | grep -q 'Event picker' && ! _side; }
wait_until 3 _stacked || { tmux_screen >&2; fail "at 80x24 the two panes are not stacked"; }

tmux_keys Tab
expect_text "F3Search" 3 "Tab did not move the focus to the stream (function bar)"
_screen_lacks "Spc *Toggle" || fail "the picker's function bar stayed after Tab"
tmux_keys Tab
expect_text "Spc *Toggle" 3 "the second Tab did not bring the focus back to the picker"
tmux_keys BTab
expect_text "F3Search" 3 "Shift-Tab did not move the focus back to the stream"

tmux_keys z
wait_for_no_text "Event picker" 3 || fail "z did not zoom the stream (the picker is still shown)"
expect_text "Events: all CPUs" 3 "the zoomed stream is not shown"
tmux_keys z
expect_text "Event picker" 3 "the second z did not unzoom"
# F9 zooms too, from the picker (where letters are typed into its search box).
tmux_keys Tab
expect_text "Spc *Toggle" 3 "Tab did not focus the picker"
tmux_keys F9
wait_for_no_text "Events: all CPUs" 3 || fail "F9 in the picker did not zoom it"
tmux_keys F9
expect_text "Events: all CPUs" 3 "the second F9 did not unzoom"

# ---- help: h, F1; Esc closes -------------------------------------------------------------
tmux_keys F1
expect_text "ktop help: every key" 3 "F1 in the picker did not open the help"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help"
tmux_keys Tab
expect_text "F3Search" 3 "Tab did not focus the stream"
for k in F1; do
	tmux_keys "$k"
	expect_text "ktop help: every key" 3 "$k did not open the help overlay"
	expect_text "Global keys" 3 "the help overlay lacks its key list ($k)"
	tmux_keys Escape
	wait_for_no_text "ktop help" 3 || fail "Esc did not close the help opened with $k"
done
# Help at 60x20 still fits (one column) and closes.
resize 60x20
tmux_keys F1
expect_text "ktop help" 3 "no help overlay at 60x20"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help at 60x20"
alive "60x20 with help"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after q"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
