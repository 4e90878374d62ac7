#!/bin/bash
# The differential flame graph (ktop --flame AFTER --diff-base BEFORE, 80x24): a frame whose
# share grew is red, one whose share shrank blue, one that kept its share has the plain
# frame colours (FlameGraph's difffolded); the status line gives the baseline's share. b
# takes the graph as it is as the baseline (all plain then), B ends the diff; d (the live
# diff's seconds) and c (one CPU) say a file has neither.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

flame_start -- --flame after.folded --diff-base before.folded
expect_text "diff  icicle$" 3 "the title does not say diff"
# grew: 25% -> 75% (60 cells), shrank: 75% -> 25% (20 cells); app and main: 100% both
flame_expect_run 7 "0 60 41 ▏[.] grew" "grew is not red"
flame_expect_run 7 "60 20 44 ▏[.] shrank" "shrank is not blue"
flame_expect_run 5 "0 4 - ▏app" "app, unchanged, is coloured"
flame_expect_run 6 "0 80 42 ▏[.] main" "main, unchanged, is coloured"
tmux_keys Down Down Down
expect_text "^\\[\\.\\] grew  total 75 samples 75\\.0%  self 75 samples 75\\.0%  base 25\\.0% \\+50\\.0" 3 \
	"no baseline share for grew"
tmux_keys Right
expect_text "^\\[\\.\\] shrank  total 25 samples 25\\.0%  self 25 samples 25\\.0%  base 75\\.0% -50\\.0" 3 \
	"no baseline share for shrank"
flame_expect_run 7 "0 60 41 ▏[.] grew" "grew is not red once unselected"
# b: the baseline is the graph now, so nothing grew or shrank
tmux_keys b
expect_text "baseline = now" 3 "b said nothing"
flame_expect_run 7 "0 60 42 ▏[.] grew" "grew is still coloured against itself"
tmux_keys B
wait_for_no_text "diff  icicle" 3 || fail "B did not end the diff"
expect_text "^\\[\\.\\] shrank  total 25 samples 25\\.0%  self 25 samples 25\\.0% *$" 3 \
	"the status line still gives a baseline"
# a file has no last seconds to compare (d) and no CPUs to keep (c): each says so
tmux_keys d
expect_text "a file does not change: its diff has no window" 3 "d on a file said nothing"
tmux_keys c
expect_text "a file's stacks say no CPU" 3 "c on a file said nothing"
tmux_quit_clean
pass
