#!/bin/bash
# The differential flame graph (ktop --flame AFTER --diff-base BEFORE, 80x24): a frame whose
# share grew is red, one whose share shrank blue, one that kept its share has the plain
# frame colours (FlameGraph's difffolded); the status line gives the baseline's share. b
# takes the graph as it is as the baseline (all plain then), B ends the diff.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

flame_start -- --flame after.folded --diff-base before.folded
expect_text "diff  icicle$" 3 "the title does not say diff"
# grew: 25% -> 75% (60 cells), shrank: 75% -> 25% (20 cells); app and main: 100% both
flame_expect_run 7 "0 60 41 grew" "grew is not red"
flame_expect_run 7 "60 20 44 shrank" "shrank is not blue"
flame_expect_run 5 "0 80 47 app" "app, unchanged, is coloured"
flame_expect_run 6 "0 80 47 main" "main, unchanged, is coloured"
tmux_keys Down Down Down
expect_text "^grew  total 75 samples 75\\.0%  self 75 samples 75\\.0%  base 25\\.0% \\+50\\.0" 3 \
	"no baseline share for grew"
tmux_keys Right
expect_text "^shrank  total 25 samples 25\\.0%  self 25 samples 25\\.0%  base 75\\.0% -50\\.0" 3 \
	"no baseline share for shrank"
flame_expect_run 7 "0 60 41 grew" "grew is not red once unselected"
# b: the baseline is the graph now, so nothing grew or shrank
tmux_keys b
expect_text "baseline = now" 3 "b said nothing"
flame_expect_run 7 "0 60 47 grew" "grew is still coloured against itself"
tmux_keys B
wait_for_no_text "diff  icicle" 3 || fail "B did not end the diff"
expect_text "^shrank  total 25 samples 25\\.0%  self 25 samples 25\\.0% *$" 3 \
	"the status line still gives a baseline"
tmux_quit_clean
pass
