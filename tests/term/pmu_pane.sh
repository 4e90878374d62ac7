#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The counters pane: --pmu opens it beside the stream (side by side at 120 columns, stacked
# at 80); the software counters show a value, a rate and the share they ran, and their
# figures move on each tick; on a machine without a PMU driver the hardware rows say "n/a"
# with the reason and IPC says why it is missing; Up/Down select a counter and the section
# below follows it (per-CPU bars and a total, or the whole reason); Tab focuses the pane
# (its own function bar), F11 closes it and m opens it again, Esc closes it; the help
# lists the key; -p shows the threads of one process; q quits cleanly.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

ncpu=$(grep -c '^processor' /proc/cpuinfo)
# The start of the counters pane's own line: the screen's, or just after the separator when
# it sits right of the stream.
L='(^|│|[|])'

# A config of its own: a saved ktoprc (picker = yes ...) must not reshape the screen.
mkdir -p "$T/xdg"
tmux_start 120 40 "XDG_CONFIG_HOME=$T/xdg" -- --pmu -d 5
pid=$KTOP_PID
expect_text "Counters: system-wide, $ncpu CPUs?" 10 "--pmu did not open the counters pane"
# Side by side: one line holds both titles.
expect_text "Events: all CPUs.*Counters: system-wide" 3 "the stream and the counters are not side by side at 120x40"
[ "$(perf_counter_fds "$pid")" -gt 0 ] || fail "the pane is open but ktop holds no perf counter fd"

# After the first tick: value, rate, 100% (software counters never multiplex), a bar per CPU.
row='context-switches +[0-9.]+[kMG]? +[0-9.]+[kMG]?/s +100%'
expect_text "$row" 5 "no context-switches row with a value, a rate and 100%"
expect_text "cpu-clock +[0-9.]+m?s +[0-9.]+CPU +100%" 3 "no cpu-clock row in seconds and CPUs"
expect_text "minor-faults +[0-9.]+[kMG]? +[0-9.]+[kMG]?/s" 3 "no minor-faults row"
# The figures move with the tick (-d 5: twice a second).
clock() { tmux_screen | sed -n 's/.*cpu-clock *\([0-9.]*m\{0,1\}s\) .*/\1/p' | head -1; }
first=$(clock)
_moved() { [ "$(clock)" != "$first" ]; }
wait_until 3 _moved || fail "cpu-clock stayed at '$first' over several ticks"

if ! have_hw_pmu; then
	expect_text "cycles +n/a no PMU driver in this kernel/VM" 3 "cycles is not n/a with its reason"
	expect_text "branch-misses +n/a" 3 "branch-misses is not n/a"
	expect_text "IPC +n/a needs instructions and cycles" 3 "IPC does not say why it is missing"
	_screen_lacks "cycles +0 " || fail "cycles shown as zero"
else
	expect_text "cycles +[0-9.]+[kMG]? +[0-9.]+[kMG]?/s" 3 "cycles do not count on a machine with a PMU"
fi

# The detail section follows the selection: cpu-clock first, then down the list.
expect_text "cpu-clock per CPU" 3 "no per-CPU section for the first counter"
expect_text "${L}cpu0 " 3 "no per-CPU bar for cpu0"
expect_text "${L}total " 3 "no total under the per-CPU bars"

# The stream has the focus; Tab gives it to the counters (their function bar).
expect_text "F3Search" 3 "the stream's function bar is not shown at start"
tmux_keys Tab
expect_text "F11Close" 3 "Tab did not focus the counters pane"
tmux_keys Down Down
expect_text "context-switches per CPU" 3 "Down Down did not select context-switches"
if ! have_hw_pmu; then
	# cycles: the seventh row; its section is the whole reason
	tmux_keys Down Down Down Down
	expect_text "cycles per CPU" 3 "Down did not reach cycles"
	expect_text "${L}  no PMU driver in this kernel/VM" 3 "the cycles section does not give the reason"
fi
tmux_keys Home
expect_text "cpu-clock per CPU" 3 "Home did not go back to the first counter"

# F11 closes the focused pane, m opens it again (focused), Esc closes it.
tmux_keys F11
wait_for_no_text "Counters: system-wide" 3 || fail "F11 did not close the counters pane"
expect_text "F3Search" 3 "the stream did not get the focus back"
_no_perf() { [ "$(perf_counter_fds "$pid")" = 0 ]; }
wait_until 3 _no_perf || fail "the pane is closed but ktop still holds perf counter fds"
tmux_keys m
expect_text "Counters: system-wide" 3 "m did not open the counters pane"
expect_text "F11Close" 3 "m did not focus the counters pane"
expect_text "$row" 5 "the reopened pane shows no counts"
tmux_keys Escape
wait_for_no_text "Counters: system-wide" 3 || fail "Esc did not close the counters pane"

# The help lists the key.
tmux_keys F1
expect_text "F11 m +counters pane" 3 "the help does not list F11/m"
tmux_keys Escape
wait_for_no_text "ktop help" 3 || fail "Esc did not close the help"

# 80x24: stacked, the counters under the stream.
tmux_keys m
expect_text "Counters: system-wide" 3 "m did not reopen the pane"
tmux_size 80 24 || fail "tmux could not resize to 80x24"
_stacked() { tmux_screen | grep -q 'Events: all CPUs' && tmux_screen | grep -q 'Counters: system-wide' &&
	! tmux_screen | grep -q 'Events: all CPUs.*Counters'; }
wait_until 3 _stacked || { tmux_screen >&2; fail "at 80x24 the panes are not stacked"; }
expect_text "$row" 5 "no counts at 80x24"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after q"
assert_terminal_restored
assert_no_sanitizer_on_screen
tmux_kill_server

# ---- -p: one process, a bar per thread ----------------------------------------------------
"$KTOP_WORKLOAD" sleep 100 300 ktop-pmu-term >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl" || fail "workload printed no pid"
tmux_start 120 40 "XDG_CONFIG_HOME=$T/xdg" -- -p "$wl" -d 5
expect_text "Counters: pid $wl \(1 thread\)" 10 "-p did not open the pane for pid $wl"
expect_text "context-switches +[0-9.]+[kMG]? +[0-9.]+[kMG]?/s" 5 "no context switches of pid $wl"
expect_text "cpu-clock per thread" 3 "the section is not per thread"
expect_text "${L}tid $wl " 3 "no bar for thread $wl"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s (-p)"
[ "$PANE_RC" = 0 ] || fail "ktop -p exited $PANE_RC after q"
assert_terminal_restored
assert_no_sanitizer_on_screen

assert_clean
pass
