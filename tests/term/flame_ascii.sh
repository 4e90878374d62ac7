#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The flame graph pane without colour (TERM=vt100, ktop --flame, 80x24) reads in plain
# characters: every frame starts with '|' at its first cell, '+' when its share grew, '-'
# when it shrank, '*' when it matches the search; the selection is in reverse video, the
# only attribute. In colour, a toggles the same edges on and off.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

KTOP_TEST_TERM=vt100 flame_start -- --flame shares.folded --diff-base shares.folded
expect_col 5 "|app" 0 "app has no ASCII edge"
expect_col 5 "|bg" 68 "bg does not start at 900/1050 of the width"
expect_col 7 "|[.] compute" 0 "compute has no ASCII edge"
expect_col 7 "|[.] io" 52 "io does not start at 700/900 of main"
# no colour at all: every run is the default background, the root selected (reversed)
flame_expect_run 4 "0 80 -r |all" "the selected root is not in reverse video"
flame_expect_run 5 "0 80 - |app                                                                |bg" \
	"the frames are not plain text"
tmux_keys /
tmux_text hot
tmux_keys Enter
expect_col 8 "*[.] hot" 7 "a match is not marked '*'"
tmux_quit_clean
tmux_kill_server

# a diff without colour: + and - edges
KTOP_TEST_TERM=vt100 flame_start -- --flame after.folded --diff-base before.folded
expect_col 7 "+[.] grew" 0 "a frame that grew is not marked '+'"
expect_col 7 "-[.] shrank" 60 "a frame that shrank is not marked '-'"
expect_col 6 "|[.] main" 0 "an unchanged frame is not marked '|'"
tmux_quit_clean
tmux_kill_server

# colour: the frames' own edges (a thin bar) until a makes them ASCII, then the bars again
flame_start -- --flame shares.folded
expect_col 5 "▏bg" 68 "bg has no edge where it belongs"
tmux_keys a
expect_col 5 "|bg" 68 "a did not draw the ASCII edges"
tmux_keys a
expect_col 5 "▏bg" 68 "a again did not take the ASCII edges away"
[ -z "$(col_of 5 "|bg")" ] || fail "a again left the ASCII edges"
tmux_quit_clean
pass
