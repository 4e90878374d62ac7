#!/bin/bash
# The timeline's mouse (issue 33), on a deterministic recording (tests/helpers/mkrecording),
# with the X10 reports ncurses asks for under tmux's terminfo: the wheel up zooms in and
# down zooms out, each by a factor of two (the column's width in the title halves and
# doubles back), at the pointer: a wheel over a column first puts the cursor there, as a
# click does, so the cursor's time leaves the file's start.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/m.dat" 30000 2 ||
	fail "mkrecording failed"

width() { tmux_screen | sed -n 's/.*Timeline: \([0-9.]*[a-z]*\) a column.*/\1/p'; }

tmux_start 100 30 -- -i "$T/m.dat"
expect_text "RECORDING m.dat" 10 "ktop -i did not open the recording"
tmux_keys V
tmux_keys z
expect_text "Timeline: .* a column +SCROLL" 30 "V opened no timeline, or it never finished indexing"
expect_text "^cursor [0-9.]+ \+0\.000000" 3 "the cursor is not at the file's start"
w0=$(width)
# over CPU 0's lane, column 60
tmux_mouse 64 60 6
wait_for_no_text "Timeline: $w0 a column" 5 || fail "the wheel up did not zoom in ($w0 a column)"
w1=$(width)
_screen_has "^cursor [0-9.]+ \+0\.000000" && fail "the wheel did not put the cursor at the pointer"
tmux_mouse 65 60 6
expect_text "Timeline: $w0 a column" 5 "the wheel down did not zoom back out to $w0 ($w1 now)"
log "the wheel: $w0 a column, up $w1, down $w0 again, at the pointer"
tmux_quit_clean
pass
