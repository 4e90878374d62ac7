#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The overview pane over an agent (ktop --via 'ktop --agent', ktop.1 OVERVIEW), at 80x24:
#   - ktop --via lands on the stream as before; O opens the overview of the agent's machine
#     (its figures from the agent's BPF object: "bpf" in the strip), not a refusal;
#   - a workload started here (its pid from the workload itself) is a row of it, found by
#     the filter;
#   - u unfolds its three threads (/proc/PID/task has three);
#   - sorted by SYS/s, Enter opens its syscall-latency histogram (counted by the agent
#     too), Esc comes back;
#   - q ends the viewer, and the agent's BPF programs go with it.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_python

python3 "$KTOP_SRCDIR/tests/helpers/overview_work.py" threads ktop-rov - >"$T/threads.out" 2>"$T/threads.err" &
CLEANUP_PIDS+=($!)
wait_until 30 has_line "$T/threads.out" || fail "the workload did not start: $(cat "$T/threads.err")"
MT=$(head -n1 "$T/threads.out")

tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -C -d 1 \
	--via "echo \$\$ >$T/agent; exec $KTOP --agent -v --log $T/a.klog"
wait_until 15 test -s "$T/agent" || fail "the agent did not start"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
expect_text "No events enabled" 10 "ktop --via did not open on the stream"
tmux_keys O
expect_text "Overview: [0-9]+ processes by CPU%" 15 "O opened no overview over the agent"
screen=$(tmux_screen)
printf '%s\n' "$screen" | grep -q "another machine" && fail "the overview refused the agent: $screen"
expect_text "^Net .* bpf (tp_btf|raw_tp)" 5 "the strip does not say the agent's BPF counts"
mapfile -t PROGS < <(prog_ids "$agent")
[ "${#PROGS[@]}" -gt 0 ] || fail "the agent holds no BPF programs"

tmux_keys /
expect_text "Overview filter" 3 "/ opened no filter prompt"
tmux_text "ktop-rov"
tmux_keys Enter
expect_text "Overview: 1 processes by CPU%, filter 'ktop-rov'" 5 "the filter did not leave the workload"
_row() { tmux_screen | awk -v p="$MT" '$1 == p && $NF == "ktop-rov-mt"' | grep -q .; }
wait_until 5 _row || fail "no row of pid $MT ktop-rov-mt: $(tmux_screen)"
tmux_keys u
expect_text "Overview: 4 rows" 5 "u did not unfold the workload (a row) into its 3 threads"
expect_count '`ktop-rov-(t1|t2)$' 2 5 "the threads are not under their process"
tmux_keys u
expect_text "Overview: 1 processes" 5 "u did not fold the threads again"

tmux_keys '>' '>' '>' '>'
expect_text "processes by SYS/s" 3 "> did not sort by SYS/s"
tmux_keys Enter
expect_text "syscall-latency.*pid=$MT" 15 "Enter on SYS/s opened no syscall-latency histogram of $MT"
tmux_keys Escape
expect_text "Overview: 1 processes by SYS/s" 5 "Esc did not come back to the overview"
tmux_quit_clean
wait_pid_exit "$agent" 5 || fail "the agent outlived its viewer by 5 s"
assert_progs_gone "${PROGS[@]}"
assert_clean
pass
