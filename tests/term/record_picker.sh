#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 15: the events pane of a recording (e on ktop -i) takes typed letters as
# the live picker does (80x24): they narrow the list to the names holding them, not run
# global keys (w wrote a live capture's message). On the kernel lab's kprobe.dat (1339 event
# formats, 8 records of ktopfx:open and ktopfx:open_ret): the events with records first,
# the cursor on one; "sched_wak" lists exactly the formats trace-cmd names so; Backspace
# edits the text, Esc clears it, then closes the pane. Its filter prompt completes a field
# with Tab, and a filter refused keeps its text in the prompt, the reason in the pane.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
command -v trace-cmd >/dev/null || skip "needs trace-cmd"
DAT=$KTOP_SRCDIR/tests/fixtures/lab/kprobe.dat
# the file's sched formats holding "sched_wak", as trace-cmd reads them
want=$(trace-cmd dump --events "$DAT" 2>/dev/null | awk '/^name: sched_wak/ { print "sched:" $2 }' | sort)
[ "$(echo "$want" | wc -l)" -ge 3 ] || fail "trace-cmd names no sched_wak events in $DAT"
listed() { tmux_screen | awk '$2 == "[x]" || $2 == "[" { print $NF }' | sort; }

tmux_start 80 24 -- -i "$DAT"
expect_text "RECORDING kprobe\\.dat" 10 "the recording did not open"
tmux_keys e
expect_text "Recorded events +2 of 1339 in the file" 5 "e did not list the recording's events"
# the events with records first, the cursor on the first
tmux_screen -e | grep -F 'ktopfx:open' | head -1 | grep -q $'\e\\[' ||
	fail "the cursor is not on a row with records"
expect_text "^ +4 \\[x\\] ktopfx:open_ret" 3 "the events with records do not come first"
tmux_text "w"
expect_text "Recorded events: w " 3 "w was not typed into the list"
_screen_lacks "live capture|trace\\.dat" || fail "w ran a global key: $(tmux_screen | tail -2)"
tmux_text "ched_wak"
tmux_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tmux_text "sched_wak"
expect_text "Recorded events: sched_wak " 3 "Backspace did not edit the typed text"
_listed_want() { [ "$(listed)" = "$want" ]; }
wait_until 3 _listed_want || fail "sched_wak lists '$(listed | tr '\n' ' ')', not '$(echo "$want" | tr '\n' ' ')'"
tmux_keys Escape
expect_text "^ +4 \\[x\\] ktopfx:open" 3 "Esc did not clear the typed text"
# the filter prompt: Tab completes a field of the format, a refused filter keeps its text
field=$(trace-cmd dump --events "$DAT" 2>/dev/null |
	awk '/^name: open$/ { e = 1 } e && /field:.*path/ { print "path"; exit }')
[ "$field" = path ] || fail "trace-cmd reads no path field of ktopfx:open"
tmux_keys Enter
expect_text "^filter ktopfx:open:" 3 "Enter opened no filter prompt"
tmux_text "pa"
tmux_keys Tab
expect_text "^filter ktopfx:open: path\$" 3 "Tab did not complete the field path"
tmux_text " ==== ="
tmux_keys Enter
expect_text "^filter rejected: " 3 "a bad filter was not refused in the pane"
expect_text "^filter ktopfx:open: path ==== =\$" 3 "the refused filter's text was lost"
tmux_keys C-u Escape
tmux_keys Escape
wait_for_no_text "Recorded events" 3 || fail "Esc with no text did not close the pane"
tmux_quit_clean
pass
