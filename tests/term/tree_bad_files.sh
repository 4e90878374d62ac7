#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The call-tree pane's r goes the way ktop -i does (220x30, on a recording, so no root is
# needed): every bad file of tests/record/bad_files.sh, given to r, is refused with the same
# one line as ktop -i gives (tests/record/bad_files.golden, after "open: "), without a crash
# or a sanitizer report; the pane keeps what it showed, and q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../record/bad-lib.sh
. "$(dirname "$0")/../record/bad-lib.sh"
require_ktop
require_tmux
GOLDEN=$KTOP_SRCDIR/tests/record/bad_files.golden

cd "$T" || fail "cannot enter $T"
make_bad_files

tmux_start 220 30 -- -i good.dat
expect_text "RECORDING good.dat" 10 "ktop -i good.dat did not start"
tmux_keys T
expect_text "Call tree" 5 "T opened no call-tree pane"

_line_shown() { tmux_screen | grep -qF -- "$1"; }
n=0
for f in $BAD_FILES; do
	# root reads anything: unreadable.dat is good.dat to it (bad_files.sh asks as nobody)
	[ "$f" = unreadable.dat ] && [ "$(id -u)" = 0 ] && continue
	want=$(grep -F "ktop: $f: " "$GOLDEN") || fail "$f is not in $GOLDEN"
	want="open: ${want#ktop: }"
	tmux_keys r
	expect_text "Open trace.dat:" 3 "r opened no prompt"
	tmux_text "$f"
	tmux_keys Enter
	if ! wait_until 10 _line_shown "$want"; then
		tmux_screen | sed 's/^/  | /' >&2
		fail "r $f: not the line ktop -i gives: $want"
	fi
	pid_alive "$KTOP_PID" || fail "ktop died on $f"
	n=$((n + 1))
done
_screen_has "Call tree: " && fail "the pane shows a file after refusals only"
# The good file has no function_graph records: said so, in one line too.
tmux_keys r
expect_text "Open trace.dat:" 3 "r opened no prompt"
tmux_text good.dat
tmux_keys Enter
expect_text "open: good.dat: no function_graph records" 5 "good.dat: no reason for the missing call trees"
log "$n bad files refused by r with ktop -i's line"

tmux_quit_clean
pass
