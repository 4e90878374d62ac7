#!/bin/bash
# The flame graph pane on a folded file of known shares (ktop --flame, 80x24, no tracefs):
# every frame is as wide as its share of the frame on top; Enter zooms into the selected
# frame, which then fills the width, its children sharing it as their weights do; Esc goes
# back one zoom; v puts the root at the bottom (flame) and back on top (icicle).
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

flame_start -- --flame shares.folded
# Lines: 1-2 header, 3 the pane's title, 4.. frames (icicle), 22 the pane's status line.
# app 900 and bg 150 of 1050 samples: 68.6 and 14.3 cells of 80.
flame_expect_run 4 "0 80 46 ▏all" "the root, selected, is not the whole width"
flame_expect_run 5 "0 71 - ▏app                                                                ▏bg" "app is not 900/1050 of the width, bg the rest"
expect_text "^all  total 1050 samples 100.0%  self 0 samples 0.0%" 3 "no status of the root"
# Down follows the widest child: app, main, compute (700 of main's 900: 52 of 68 cells).
tmux_keys Down Down Down
expect_text "^\\[\\.\\] compute  total 700 samples 66.7%  self 0 samples 0.0%" 3 "Down did not select compute"
flame_expect_run 7 "0 52 46 ▏[.] compute" "compute is not 700/900 of main's 68 cells"
flame_expect_run 7 "52 28 42 ▏[.] io         ▏hot▏[.] hot" "io is not the rest of main"
tmux_keys Enter
# zoomed: its ancestors stay on top, all full width, and compute fills the width; its
# children cold 100 and hot 600 share it: 11.4 and 68.6 cells.
flame_expect_run 7 "0 80 46 ▏[.] compute" "the zoomed frame does not fill the width"
flame_expect_run 6 "0 80 42 ▏[.] main" "main, above the zoom, is not full width"
flame_expect_run 8 "0 80 42 ▏[.] cold  ▏[.] hot" "cold is not 100/700 of the width, hot the rest"
# Right, then Enter: zoom into hot, which fills the width in its turn
tmux_keys Down
expect_text "^\\[\\.\\] hot  total 600 samples 57.1%  self 600 samples 57.1%" 3 "Down did not select hot"
tmux_keys Left
expect_text "^\\[\\.\\] cold  total 100 samples 9.5%" 3 "Left did not select cold"
tmux_keys Right Enter
flame_expect_run 8 "0 80 46 ▏[.] hot" "the second zoom does not fill the width"
# Esc: back one zoom, then the other; Backspace works as Esc
tmux_keys Escape
flame_expect_run 8 "11 69 46 ▏[.] hot" "Esc did not go back to the zoom into compute"
tmux_keys BSpace
flame_expect_run 7 "0 52 46 ▏[.] compute" "Backspace did not go back to the whole graph, compute selected"
flame_expect_run 5 "0 71 - ▏app                                                                ▏bg" "the whole graph is not back"
tmux_keys Escape
expect_text "the whole graph is shown \\(q quits\\)" 3 "Esc at the top closed or said nothing"
# v: the root at the bottom (the pane's last frame line, 21), children above it
tmux_keys v
expect_text "Flame graph: shares.folded \\(samples\\) +flame$" 3 "v did not say flame"
flame_expect_run 21 "0 4 - ▏all" "v did not put the root at the bottom"
flame_expect_run 20 "0 71 - ▏app                                                                ▏bg" "app is not above the root"
# upside down, Up goes to the child above (compute's widest, hot), Down to the parent
tmux_keys Up
expect_text "^\\[\\.\\] hot  total 600 samples" 3 "flame: Up did not select the child above"
tmux_keys Down
expect_text "^\\[\\.\\] compute  total 700 samples" 3 "flame: Down did not select the parent below"
tmux_keys v
flame_expect_run 4 "0 4 - ▏all" "v again did not put the root back on top"
tmux_quit_clean
pass
