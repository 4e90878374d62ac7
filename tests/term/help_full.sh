#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 14: the help (F1) takes the whole screen at 80, 120 and 200 columns, with
# nothing of the stream showing through and no line cut; it opens on the focused pane's keys,
# scrolls with the movement keys and searches with / and n, as less does. On a recording
# (tests/helpers/mkrecording: rows of tasks task1000 to task1049), no root needed; there the
# keys the recording refuses come last, with its reasons. The lines
# checked are the key tables' (src/ui/action.c, motion.c, each pane's keys): the longest of
# them must show whole at 80 columns.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../mkrec-lib.sh
. "$(dirname "$0")/../mkrec-lib.sh"
require_ktop
require_tmux
mkrec "$T/h.dat" 200
SRC=$KTOP_SRCDIR/src/ui
# The longest help line of the global actions, as the source spells it.
long=$(sed -n 's/^\t{ "[a-z-]*", "[^"]*", [^,]*, "\([^"]*\)".*/\1/p' "$SRC/action.c" |
	awk '{ print length, $0 }' | sort -n | tail -1 | cut -d' ' -f2-)
[ ${#long} -ge 30 ] || fail "no long help line read from action.c: '$long'"
# On a recording the help ends with the keys it refuses, A last, its reason wrapped: the
# help's last line ends with the reason's last word, as the recording source words it.
lastword=$(sed -n '/case KT_CAP_WRITE:/,/";$/p' "$KTOP_SRCDIR/src/source/source_recording.c" |
	sed -n 's/.*[" ]\([^" ]*\)";$/\1/p')
[ -n "$lastword" ] || fail "no reason for w and A read from source_recording.c"

# open_help COLSxROWS: F1 at that size; the whole screen is the help's.
open_help()
{
	tmux_keys F1
	expect_text "^ ktop help: every key" 3 "F1 opened no help at $1"
	_screen_lacks "task10[0-4][0-9]" || fail "the stream shows through the help at $1"
	[ "$(tmux_screen | wc -l)" -ge "${1#*x}" ] || fail "the help does not fill $1"
}

tmux_start 80 24 -- -i "$T/h.dat"
expect_text "task1000-1000" 10 "the recording did not open"
open_help 80x24
expect_text "^ Event stream$" 3 "the help does not open on the stream's keys"
tmux_keys G
_last_is() { tmux_screen | tail -2 | head -1 | grep -Eq "^ .* ${lastword}\$"; }
wait_until 3 _last_is || fail "G did not scroll to the help's last line: $(tmux_screen | tail -2 | head -1)"
expect_text "^ Not here \\(why, and the way out\\)\$" 3 "the refused keys are not last"
wait_for_no_text "^ Event stream$" 3 || fail "G left the first line on screen"
tmux_keys g
expect_text "^ Event stream$" 3 "g did not scroll back to the top"
tmux_keys / ; tmux_text "${long:0:20}"; tmux_keys Enter
expect_text "^ F[0-9]+ [^ ]+ +${long//[()]/.}\$" 3 "/ did not find '$long', whole"
tmux_keys / ; tmux_text "a run of cells"; tmux_keys Enter
expect_text "^ r  r +a run of cells is the range" 3 "/ did not bring the heat map's keys up"
tmux_keys / ; tmux_text "no such key"; tmux_keys Enter
expect_text "pattern not found: no such key" 3 "a search that fails says nothing"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help"

# The flame graph focused (the recording has no stacks: the pane says so): its keys first.
tmux_keys I
expect_text "Flame graph" 5 "I opened no flame graph pane"
open_help 80x24
expect_text "^ Flame graph \(I\)$" 3 "the help does not open on the flame graph's keys"
expect_text "^ C +live: on-CPU / off-CPU / event stacks" 3 "the flame graph's C is not listed"
tmux_keys q
wait_for_no_text "ktop help" 3 || fail "q did not close the help"
tmux_keys Escape

for size in 120x40 200x50; do
	tmux_size "${size%x*}" "${size#*x}"
	sleep 0.3 # the resize reaches ktop
	open_help "$size"
	# found wherever it is: a new action or pane moves it down the help
	tmux_keys / ; tmux_text "${long:0:20}"; tmux_keys Enter
	expect_text "${long//[()]/.}" 3 "'$long' is cut at $size"
	tmux_keys Escape
	wait_for_no_text "ktop help" 3 || fail "Esc did not close the help at $size"
done
# 200 columns: two columns of 100 (a row holds text past the first column's 100), the
# movement keys among them.
tmux_keys F1
expect_text "^.{100}.*[^ ]" 3 "no second column at 200 columns"
expect_text "^ Up k +up one row" 3 "no movement keys at 200 columns"
tmux_keys Escape
tmux_quit_clean
pass
