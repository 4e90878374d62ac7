#!/bin/bash
# / in the flame graph pane (ktop --flame, 80x24): frames holding the text are highlighted
# and the title says the share of the samples under them, each stack counted once however
# many matching frames it holds (FlameGraph's "Matched"): "hot" is on 750 of 1050 samples,
# 50 of them on bg;hot_spin;hot, so 71.4% (76.2% would count that stack twice). The share
# is of the whole graph, of the task with s; Esc takes the search away.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

flame_start -- --flame shares.folded
tmux_keys /
expect_text "Find frames:" 3 "/ opened no prompt"
tmux_text hot
expect_text "matched 71\\.4%  icicle$" 3 "the matched share of 'hot' is not 750/1050"
tmux_keys Enter
expect_text "matched 71\\.4%" 3 "Enter lost the search"
# highlighted (the theme's match colours, yellow): hot under compute (600/700 of 52 cells
# from cell 7) and hot_spin, cut to its 4 cells; cold and loop are not
flame_expect_run 8 "7 45 43 ▏[.] hot" "hot under compute is not highlighted"
flame_expect_run 6 "68 4 43 ▏h.." "hot_spin is not highlighted"
flame_expect_run 6 "72 8 42 ▏loop" "loop is highlighted"
flame_expect_run 8 "0 7 42 ▏cold" "cold is highlighted"
# another search replaces it
tmux_keys /
tmux_keys C-u
tmux_text read
tmux_keys Enter
expect_text "matched 19\\.0%" 3 "the share of 'read' is not 200/1050"
tmux_keys /
tmux_keys C-u
tmux_text nowhere
tmux_keys Enter
expect_text "matched 0\\.0%" 3 "a search matching nothing does not say 0.0%"
# scoped to bg's task (s on a frame of it): hot is on all of its 150 samples
tmux_keys /
tmux_keys C-u
tmux_text hot
tmux_keys Enter
tmux_keys Down Right
expect_text "^bg  total 150 samples 14\\.3%" 3 "Down Right did not select bg"
tmux_keys s
expect_text "matched 100\\.0%  task bg" 3 "s did not scope the share to bg"
flame_expect_run 4 "0 80 46 ▏bg" "the scoped task is not the whole width"
tmux_keys s
expect_text "matched 71\\.4%  icicle$" 3 "s again did not scope back to every task"
tmux_keys Escape
wait_for_no_text "matched" 3 || fail "Esc did not take the search away"
flame_expect_run 8 "0 52 42 ▏cold  ▏[.] hot" "hot is still highlighted after Esc"
tmux_quit_clean
pass
