#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The live differential flame graph (80x24): b on a live on-CPU profile freezes the graph as
# the baseline and from then on shows only the last N seconds (5 by default) against it.
# profwork phases (named flamewin, --comm flamewin) spins in phase_before until the test touches a file, then in phase_after:
# once it switched, phase_after (0% of the baseline) is red and phase_before (100% of it) is
# blue while the window still holds both, and some seconds later the window holds no
# phase_before at all. d sets N; B ends the diff and the whole profile, phase_before
# included, is back.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"
# (flame-lib.sh went into $T: the sources by their absolute path)
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$KTOP_SRCDIR/tests/profile-lib.sh"
require_flame_live

# frame_bg TEXT BG: the frame named TEXT (its label's last word, after the edge and [.]) is
# drawn on background BG (41 red, 44 blue)
frame_bg()
{
	local row
	row=$(flame_row_of "$1")
	[ -n "$row" ] && flame_runs "$row" | awk -v t="$1" -v bg="$2" '$NF == t && $3 == bg { f = 1 }
		END { exit !f }'
}

start_profwork_as flamewin "$T/work.out" phases "$T/switch"
tmux_start 80 24 -- -d 2 --comm flamewin
expect_text "No events enabled" 10 "ktop did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock) \\(samples\\)" 10 "I did not start a profile"
tmux_keys z
expect_text "phase_before" 15 "flamewin's phase_before never showed up"
# three seconds of it (flamewin's samples only, --comm): still wide when B brings it back
wait_until 30 _flame_total_at_least 300 || fail "profwork gave $(flame_root_total) samples in 30 s"
tmux_keys b
expect_text "baseline frozen: the last 5 s against it" 3 "b on a live graph said nothing"
expect_text "diff last 5s  " 3 "the title does not say the window"
touch "$T/switch"
wait_until 15 frame_bg phase_after 41 || fail "phase_after, new since the baseline, is not red"
# blue once the last 5 s hold fewer of it than the baseline: the window may still end in
# phase_before's last samples when phase_after first shows
wait_until 15 frame_bg phase_before 44 || fail "phase_before, the baseline's all, is not blue beside it"
# the old phase leaves the window (5 s, and a tick to redraw)
wait_for_no_text "phase_before" 15 || fail "the last 5 s still hold phase_before"
expect_text "phase_after" 1 "the window lost phase_after"
tmux_keys d
expect_text "Diff window, seconds:" 3 "d opened no prompt"
tmux_keys C-u
tmux_text 2
tmux_keys Enter
expect_text "diff last 2s  " 3 "d 2 did not change the window"
tmux_keys B
wait_for_no_text "diff last" 3 || fail "B did not end the diff"
expect_text "phase_before" 5 "the whole profile, phase_before included, is not back after B"
tmux_quit_clean
assert_clean
pass
