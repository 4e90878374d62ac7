#!/bin/bash
# The overview over a recording (ktop.1 OVERVIEW): O opens the pane on the file's own tasks
# (the fixture's task1000..task1049, counted from its sched_switch), naming where its figures
# come from, "-" in the columns the file cannot hold (FLT, IO/s), none of this machine's
# tasks passed off as the file's; -b --top -i with -H is refused in one line, exit 2
# (tests/live/overview_recording.sh checks the figures against trace-cmd report).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_tmux

MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/small.dat" 1000 1 ||
	fail "mkrecording failed"
tmux_start 240 24 "XDG_CONFIG_HOME=$T/xdg" -- -i "$T/small.dat"
expect_text "RECORDING small.dat" 10 "no RECORDING header"
tmux_keys O
expect_text "Overview: 50 processes by CPU%" 10 "O over a recording did not open the file's 50 tasks"
expect_text "the recording's sched_switch" 3 "the pane does not say its figures come from the file"
expect_text "[│|] +10[0-4][0-9] .* task10[0-4][0-9] *$" 3 "no row of the file's tasks"
# FLT and IO/s: "-", the file has no such figure
tmux_screen | grep -E "[│|] +10[0-4][0-9] " | head -1 | grep -Eq -- " - +- +- " ||
	fail "the columns the file lacks are not -: $(tmux_screen | grep -E "[│|] +10[0-4][0-9] " | head -1)"
tmux_screen | grep -Eq " ktop *$" && fail "a task of this machine (ktop) in the recording's overview"
tmux_quit_clean
run_ktop 10 "$T/b.out" "$T/b.err" -b --top -i "$T/small.dat" -H localhost
[ "$KTOP_RC" = 2 ] && [ "$(wc -l <"$T/b.err")" = 1 ] &&
	grep -q '^ktop: --top -i counts the recording.s events: -H, --via and --top=VIA are for a live kernel' "$T/b.err" ||
	fail "-b --top -i -H: rc $KTOP_RC, $(cat "$T/b.err")"
pass
