#!/bin/bash
# The overview over a recording (ktop.1 OVERVIEW): O is refused in one line naming what the
# file lacks (the per-task counts are read live), no pane of this machine's tasks passed off
# as the file's; -b --top -i is refused in one line, exit 2.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_tmux

MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/small.dat" 1000 1 ||
	fail "mkrecording failed"
tmux_start 100 24 "XDG_CONFIG_HOME=$T/xdg" -- -i "$T/small.dat"
expect_text "RECORDING small.dat" 10 "no RECORDING header"
tmux_keys O
expect_text "a recording holds events, not the overview's per-task counts \(read live\)" 3 \
	"O over a recording does not say what the file lacks"
tmux_screen | grep -Eq 'Overview:|^ *PID USER' && fail "O over a recording opened a pane"
tmux_quit_clean
run_ktop 10 "$T/b.out" "$T/b.err" -b --top -i "$T/small.dat"
[ "$KTOP_RC" = 2 ] && [ "$(wc -l <"$T/b.err")" = 1 ] &&
	grep -q '^ktop: --top runs alone: .*-i and -o belong to other runs' "$T/b.err" ||
	fail "-b --top -i: rc $KTOP_RC, $(cat "$T/b.err")"
pass
