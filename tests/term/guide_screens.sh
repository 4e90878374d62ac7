#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The user guide's screens that tests/term/themes.sh does not take (80x24): ktop with
# nothing named lands on the overview, its CPU line and total row drawn, its bar naming *
# for the pin (it said Space, which pages down); F1 opens the help on the stream's keys,
# listing the timeline's V; V opens the timeline with a lane per CPU and one of
# sched_switch. With KTOP_CAPTURE_DIR each screen is kept
# as NAME.txt there (docs/captures: overview, help, timeline), as docs/user-guide.md shows
# them.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

# the guide's screens have a busy machine's figures: a second tick's, lanes filled
settle() { [ -z "${KTOP_CAPTURE_DIR:-}" ] || sleep 2.2; }

TMUX_OVERVIEW=1 tmux_start 80 24 --
expect_text "Overview: [0-9]+ processes by CPU%" 10 "nothing named: ktop did not land on the overview"
expect_text "^CPU +[0-9.]+% \\[" 3 "the overview has no CPU line"
expect_text "total *\$" 5 "the overview has no total row"
# the bar names the keys the pane runs: * pins (Space pages down, as everywhere)
expect_text "^EnterDrill sSort rReverse /Filter uThreads \\*Pin CColumns F10Quit" 3 \
	"the overview's bar does not name * for the pin"
settle
tmux_doc_capture overview
tmux_quit_clean
tmux_kill_server

tmux_start 80 24 -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer: nop +enabled: 1" 10 "no header"
tmux_keys F1
expect_text "^ ktop help: every key" 3 "F1 opened no help"
expect_text "^ Event stream\$" 3 "the help does not open on the stream's keys"
tmux_doc_capture help
tmux_keys /
tmux_text "timeline: CPU lanes"
tmux_keys Enter
expect_text "^ V +timeline: CPU lanes, event lanes" 3 "the help does not list V"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help"
tmux_keys V
expect_text "Timeline: .* a column" 5 "V opened no timeline"
expect_text "^cpu0( |\$)" 3 "no lane of CPU 0"
expect_text "^sched_sw" 3 "no lane of sched_switch"
settle
tmux_doc_capture timeline
tmux_quit_clean
assert_clean
pass
