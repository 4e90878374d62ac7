#!/bin/bash
# A click on a frame of the flame graph pane (ktop --flame, 80x24, the X10 mouse reports
# ncurses asks for under tmux's terminfo) selects it: the status line names it with its share; a
# click on a "+N" block of frames too narrow to draw selects their parent.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"
# 100 callees of 1 sample beside one of 900: each under a cell of 80, merged into "+100"
{
	echo "app;main;big 900"
	for i in $(seq 100 199); do echo "app;main;tiny$i 1"; done
} >many.folded

# click COL LINE (1-based, as the terminal counts): a press and its release in one write, X10
# encoded (button, column and line each one byte, plus 32), as a slow SSH link delivers them:
# ncurses then queues both behind one KEY_MOUSE, and ktop must still see the press.
click()
{
	local x y
	x=$(printf %b "\\0$(printf %03o $(($1 + 32)))")
	y=$(printf %b "\\0$(printf %03o $(($2 + 32)))")
	tmux_text $'\e[M '"$x$y"$'\e[M#'"$x$y"
}
# expect_click PATTERN WHAT: the status line PATTERN after a click, or fail with the keys and
# mouse events ktop read (its -v log)
expect_click()
{
	wait_for_text "$1" 3 && return 0
	fail "$2; ktop read: $(grep -E 'ui_key|ui_mouse' "$T/k.log" | tail -n 12 | tr '\n' ';')"
}

flame_start -- -v --log "$T/k.log" --flame shares.folded
# bg: cells 68-79 of line 5
click 75 5
expect_click "^bg  total 150 samples 14\\.3%  self 0 samples 0\\.0%" "a click on bg did not select it"
flame_expect_run 5 "68 12 46 ▏bg" "the clicked frame is not highlighted"
# read_[k]: line 8, cells 52-67
click 60 8
expect_click "^read_\\[k\\]  total 200 samples 19\\.0%  self 200 samples 19\\.0%" \
	"a click on read_[k] did not select it"
# Enter zooms into what the click selected
tmux_keys Enter
flame_expect_run 8 "0 80 46 ▏read_[k]" "Enter did not zoom into the clicked frame"
tmux_quit_clean
tmux_kill_server

flame_start -- -v --log "$T/k.log" --flame many.folded
# big: 900/1000 of 80 = 72 cells; the 100 others merged after it in 8 cells
flame_expect_run 7 "72 8 47 ▏+100" "the narrow frames are not one +100 block"
click 76 7
expect_click "^\\[\\.\\] main  total 1000 samples 100\\.0%" "a click on +100 did not select their parent"
tmux_quit_clean
pass
