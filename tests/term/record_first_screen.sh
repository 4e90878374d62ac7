#!/bin/bash
# A recording's first screen is drawn when the index's first records arrive, not at the next
# tick (ktop -i, 80x24 tmux pane). The index is held before its first record
# (KTOP_TEST_INDEX_START_GATE) until ktop has drawn its empty frame, then let go; with a
# 60-second tick (-d 600) the rows can only come from the index's wake-up. Before this was
# fixed, the scrolled stream (a recording opens at its first row, not following) ignored new
# records that fell below a page that was not full, and the first screen of a large file
# waited for the next tick one time in two. Nor may they wait out the frame limit (ten
# frames a second) that the empty frame started: a 1 GB file's first screen came 100 ms late
# one time in two. The limit is 8 s here (KTOP_TEST_REDRAW_MIN_MS) and the first rows must
# show within 5 s, so they show only if the empty frame did not count; the frame after them
# must wait for it: End's last rows are not on the screen 2 s after the key, and are once
# the limit let the frame go (which also proves End was taken).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/r.dat" 20000 2 || fail "mkrecording failed"
touch "$T/gate"
tmux_start 80 24 "KTOP_TEST_INDEX_START_GATE=$T/gate" KTOP_TEST_REDRAW_MIN_MS=8000 -- -i "$T/r.dat" -d 600
expect_text "RECORDING" 10 "ktop did not draw its frame"
tmux_screen | grep -Eq '^ *0\.000000 \[000\] ' &&
	fail "rows on the screen while the index was held: the gate did not hold it"
rm "$T/gate"
expect_text "^ *0\.000000 \[000\] +task1000-1000 " 5 \
	"the first rows did not appear when the index published them (only a tick would draw them)"
expect_text "^ *0\.000150 \[001\] +task1015-1015 " 1 "the page is not full: row 16 is missing"
# once rows are on the screen the limit holds the next frame: End's last rows do not show
# (the recording's last event, as ktop -b -i prints it: 1.349990 s, 0.349990 s after the first)
LAST='^ *0\.349990 \[001\] +task1049-1049 '
tmux_keys End
sleep 2
tmux_screen | grep -Eq '^ *0\.000000 \[000\] ' && ! tmux_screen | grep -Eq "$LAST" ||
	fail "the frame after the first rows was drawn at once: the frame limit no longer holds frames back"
expect_text "$LAST" 15 "End's frame never came after the limit: End was not taken"
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not exit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after q"
pass
