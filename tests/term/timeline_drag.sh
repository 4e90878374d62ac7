#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Marking a range with the mouse in the timeline (issue 33), on a deterministic recording
# (tests/helpers/mkrecording), with the X10 reports ncurses asks for under tmux's terminfo
# (mouseinterval(0): a press and a release each reported, a release as button 3): a press
# over one column and a release over another mark the columns from one to the other as the
# range (the header shows it, the stream follows); a drag the other way marks the same
# range; a press and release over one column only places the cursor.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_python
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/m.dat" 30000 2 ||
	fail "mkrecording failed"

# drag FROM TO: press over data column FROM of CPU 0's lane (0-based, after the lanes'
# labels), release over TO
drag() { tmux_mouse 0 $((X0 + $1)) "$Y0"; tmux_mouse 3 $((X0 + $2)) "$Y0"; }
range() { tmux_screen | grep -Eo 'range: \+[0-9.]+\.\.\+[0-9.]+' | head -n1; }

tmux_start 100 30 -- -i "$T/m.dat"
expect_text "RECORDING m.dat" 10 "ktop -i did not open the recording"
tmux_keys V
expect_text "Timeline: .* a column +SCROLL" 30 "V opened no timeline, or it never finished indexing"
expect_text "cursor [0-9.]+ \+0\.000000" 3 "the cursor is not at the file's start"
_screen_has "range: " && fail "a range before any was marked"
# where CPU 0's lane is on the screen (1-based line; its first data column, after the 9 of
# the labels)
Y0=$(tmux_screen | grep -n 'cpu0 ' | head -n1 | cut -d: -f1)
# (in characters: the panes' border is one, of three bytes)
X0=$(tmux_screen | grep 'cpu0 ' | head -n1 |
	python3 -c 'import sys; print(sys.stdin.buffer.read().decode().index("cpu0") + 10)')
[ -n "$Y0" ] || fail "no lane cpu0 on the screen"

# a press and a release over one column: the cursor moves, no range
drag 15 15
wait_for_no_text "cursor [0-9.]+ \+0\.000000" 5 || fail "a click did not place the cursor"
_screen_has "range: " && fail "a click without a drag marked a range"

# data columns 10 to 30, whole
drag 10 30
expect_text "range: \+" 5 "a drag from column 10 to 30 marked no range"
r1=$(range)
log "drag 10 -> 30: $r1"
# from = 10 columns in, to = 31 columns in less a nanosecond: to / from is 3.1
echo "$r1" | awk -F'[+.]+' '{ from = $2 "." $3; to = $4 "." $5 }
	END { r = to / from; exit !(r > 3.09 && r < 3.11) }' ||
	fail "the range $r1 is not columns 10 to 30 (to / from should be 3.1)"
expect_text "Events: all CPUs \| in range" 5 "the stream does not follow the dragged range"
tmux_keys X
wait_for_no_text "range: " 5 || fail "X did not clear the range"

# the other way: the same range
drag 30 10
expect_text "range: \+" 5 "a drag from column 30 to 10 marked no range"
r2=$(range)
[ "$r2" = "$r1" ] || fail "a drag from 30 to 10 marked '$r2', not the drag 10 to 30's '$r1'"
log "drag 30 -> 10: $r2, the same"
tmux_quit_clean
pass
