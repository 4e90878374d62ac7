#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Issue 39, point 3: flame graph labels that read (80x24, ktop --flame, colour). A file of
# 800 samples, 10 a cell: app 480 (48 cells), bg 160, cc1 130, sh 30 (3 cells):
#   - every frame starts with an edge, so neighbours never run together ("bashcc1");
#   - a frame under 3 cells after its edge has no label (sh, x: only their edges);
#   - a hue per kind (FlameGraph's): tasks plain bold, user frames green (42), JIT magenta
#     (45), kernel white (47); user frames carry perf's [.];
#   - a frame without a name (a bare address) reads [unknown]; selected, the status line
#     gives its address.
#   - live (root): the on-CPU graph of dd reading /dev/zero marks its kernel frames [k]
#     (vfs_read and its callers), and shows no 0xffffffffffffffff frame.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"

printf '%s\n' 'app;main;0x7f00aa;leaf 480' 'bg;jitfn_[j] 160' 'cc1;parse;read_[k] 130' \
	'sh;x 30' >"$T/labels.folded"
# line LINE of the screen, its trailing blanks cut
line() { tmux_screen | sed -n "$1p" | sed 's/ *$//'; }
_line_is() { [ "$(line "$1")" = "$2" ]; }
sp() { printf "%$1s" ""; }

flame_start -- --flame labels.folded
want="▏app$(sp 44)▏bg$(sp 13)▏cc1$(sp 9)▏"
wait_until 3 _line_is 5 "$want" || fail "the tasks do not read '$want': '$(line 5)'"
flame_expect_run 6 "0 48 42 ▏[.] main" "main is not a green user frame marked [.]"
flame_expect_run 6 "48 16 45 ▏jitfn_[j]" "the JIT frame is not magenta"
flame_expect_run 6 "64 16 42 ▏[.] parse   ▏" "x, 3 cells, is not a bare edge after parse"
flame_expect_run 7 "0 48 42 ▏[unknown]" "the bare address does not read [unknown]"
flame_expect_run 7 "64 13 47 ▏read_[k]" "the kernel frame is not white"
tmux_keys Down Down Down
expect_text "^0x7f00aa  total 480 samples 60\\.0%" 3 "the status line does not give the address"
_screen_lacks "bashcc1|appbg|bgcc1" || fail "labels run together"
tmux_quit_clean
tmux_kill_server

require_root_tracefs
# dd copying /dev/zero spends its time in read(2): wide kernel frames
dd if=/dev/zero of=/dev/null bs=1M count=100000000 2>/dev/null &
dd=$!
CLEANUP_PIDS+=("$dd")
tmux_start 80 24 -- -d 1 -p "$dd"
wait_until 10 instance_exists "$KTOP_PID" || fail "no instance ktop-$KTOP_PID"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I opened no on-CPU graph"
tmux_keys F9
expect_text "^▏dd$" 10 "dd is not the graph's one task"
expect_text "▏\\[k\\] (vfs_read|ksys_read|do_syscall_64)" 15 "no kernel frame marked [k]"
_screen_lacks "0xffffffffffffffff" || fail "a 0xffffffffffffffff frame is drawn"
tmux_quit_clean
_end_pid "$dd"
assert_clean
pass
