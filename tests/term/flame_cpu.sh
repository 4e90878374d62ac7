#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# c in the flame graph pane on a live on-CPU profile (80x24): only one CPU's samples, in a
# tree emptied at the change, the CPU in the title. profwork split, named flamecpu and
# pinned by taskset to the last CPU: under CPU 0's scope its task and functions never show
# up however many samples come (a search for it matches 0.0%), under its own CPU's they do;
# a CPU that is not online is refused in one line, and c with nothing given goes back to
# every CPU.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_flame_live
ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip "one CPU: no other CPU to scope to"
pinned=$((ncpu - 1))

# cpu_scope N: c, N, Enter; the title says CPU N (nothing: every CPU, no CPU in the title)
cpu_scope()
{
	tmux_keys c
	expect_text "Only CPU \\(empty: every CPU\\):" 3 "c opened no prompt"
	tmux_keys C-u
	[ -n "$1" ] && tmux_text "$1"
	tmux_keys Enter
}

start_profwork_as flamecpu "$T/work.out" split 120
taskset -p -c "$pinned" "$PROFWORK_PID" >/dev/null || fail "taskset could not pin profwork"
# the process was started unpinned: its one thread is pinned now, before ktop starts
tmux_start 80 24 -- -d 2
expect_text "No events enabled" 10 "ktop did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock) \\(samples\\)" 10 "I did not start a profile"
expect_text "flamecpu" 15 "the spinning flamecpu never showed up in the graph"
# its task frame matches: the share is all of its stacks, hot_seventy's and hot_thirty's
tmux_keys /
tmux_text flamecpu
tmux_keys Enter
expect_text "matched [0-9.]+%" 3 "no search share in the title"

cpu_scope 0
expect_text "CPU 0  icicle" 3 "the title does not say CPU 0"
expect_text "matched 0\\.0%" 3 "the tree kept CPU $pinned's samples after c 0"
# two hundred samples of CPU 0 (about 2 s at 99 Hz), none of them flamecpu's
wait_until 30 _flame_total_at_least 200 || fail "CPU 0 gave $(flame_root_total) samples in 30 s"
expect_text "matched 0\\.0%" 1 "flamecpu, pinned to CPU $pinned, showed up under CPU 0"

cpu_scope "$pinned"
expect_text "CPU $pinned  icicle" 3 "the title does not say CPU $pinned"
expect_text "matched ([1-9][0-9]*\\.[0-9]|0\\.[1-9])%" 15 \
	"flamecpu never showed up under CPU $pinned, where it runs"

cpu_scope "$ncpu"
expect_text "CPU $ncpu is not online here \\($ncpu online\\)" 3 "CPU $ncpu was not refused"
expect_text "CPU $pinned  icicle" 1 "a refused CPU changed the scope"
cpu_scope ""
wait_for_no_text "CPU [0-9]+  icicle" 3 || fail "c with nothing given kept a CPU in the title"
tmux_quit_clean
assert_clean
pass
