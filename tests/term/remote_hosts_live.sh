#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The explorer over two real agents at once (--via twice, each its own agent, instance and
# guard on this machine, both seeing the same kernel), in an 80x24 pane:
#   - the header says "2 hosts" and its third line gives both offsets with their
#     uncertainty;
#   - the picker's filter and Space go to both agents: sys_enter_getppid is enabled in both
#     instances with the filter on the workload's pid;
#   - the stream holds exactly 2N rows (each agent's N), nothing lost; the row filter's
#     cpu= of each host's CPUs (the second host's numbered after the first's) shows that
#     host's label alone in the host column; the times on the screen never go backwards;
#   - D names each CPU by its host and each host's kernel read exactly N;
#   - via2's agent killed with -9: the third line says via2 ENDED, its guard cleans, the
#     explorer goes on; Space disables the event in via1's instance, nothing said of via2;
#   - after q both agents, their instances and probe groups are gone within 2 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

N=${KTOP_EXACT_N:-5000}

mkdir -p "$T/xdg"
workload_start hosts count "$N" ktop-hosts
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- \
	--via "echo \$\$ >$T/a1.agent; exec $KTOP --agent" \
	--via "echo \$\$ >$T/a2.agent; exec $KTOP --agent"
agents=()
for i in 1 2; do
	wait_until 15 test -s "$T/a$i.agent" || fail "agent $i did not start: $(tmux_screen | grep -v '^$' | head -5)"
	agents+=("$(cat "$T/a$i.agent")")
done
KTOP_PIDS+=("${agents[@]}")
for a in "${agents[@]}"; do
	wait_until 15 instance_exists "$a" || fail "no instance ktop-$a"
done
expect_text "^2 hosts  tracer: nop" 15 "the header does not say it shows 2 hosts"
expect_text "^via1 [-+][0-9.]+(ns|us)±[0-9.]+(ns|us)  via2 [-+][0-9.]+(ns|us)±[0-9.]+(ns|us)" 5 \
	"the header's third line does not give both offsets with their uncertainty"

# The picker: the filter, then Space, on both agents.
tmux_keys e
expect_text "Event picker +[0-9]+ of [0-9]+ enabled" 5 "e did not open the event picker"
tmux_text sys_enter_getppid
expect_text "\[ \] +sys_enter_getppid" 5 "the picker does not list sys_enter_getppid"
tmux_keys Enter
expect_text "^filter syscalls:sys_enter_getppid>" 5 "Enter opened no filter prompt"
tmux_text "common_pid == $WL_PID"
tmux_keys Enter
expect_text "syscalls:sys_enter_getppid +filter: common_pid == $WL_PID" 5 "the filter was not taken"
tmux_keys Space
for a in "${agents[@]}"; do
	wait_capturing "$a" syscalls sys_enter_getppid 5
	filter=$(cat "$(instance_dir "$a")/events/syscalls/sys_enter_getppid/filter")
	[ "$filter" = "common_pid == $WL_PID" ] || fail "agent $a's filter is '$filter', not the picker's"
done
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"

# Each agent's N calls, merged.
workload_go hosts 60
expect_text "Events: all CPUs +$((2 * N)) held" 15 "the stream does not hold each agent's $N calls ($((2 * N)))"
expect_text "^lost: 0 " 3 "the header's loss is not 0"
# Which host's rows end the stream depends on the offsets measured (both true offsets are
# 0, each estimate is off by up to its uncertainty): each host's rows are shown apart with
# the row filter, its CPUs numbered after the other host's (both have this machine's).
rows() { tmux_screen | grep -E "^[0-9]+\.[0-9]{6} via[12] +\[[0-9]{3}\] ktop-hosts-$WL_PID +sys_enter_getppid"; }
_only_host() { rows | grep -q " $1 " && ! rows | grep -vq " $1 "; }
n=$(nproc)
for spec in "via1 0-$((n - 1))" "via2 $n-$((2 * n - 1))"; do
	h=${spec% *} cpus=${spec#* }
	tmux_keys F C-u
	expect_text "^show only \(pid= comm= cpu=\):" 5 "F did not open the row filter prompt"
	tmux_text "cpu=$cpus"
	tmux_keys Enter
	expect_text "Events: all CPUs \| only cpu=$cpus" 5 "the title does not show the row filter cpu=$cpus"
	wait_until 5 _only_host "$h" || fail "cpu=$cpus: not $h's rows alone in the host column: $(tmux_screen)"
	rows | cut -d' ' -f1 | sort -s -g -c || fail "$h: the times on the screen go backwards: $(rows | cut -d' ' -f1 | tr '\n' ' ')"
done
tmux_keys -
expect_text "row filter off" 5 "- did not clear the row filter"
rows | cut -d' ' -f1 | sort -s -g -c || fail "the times on the screen go backwards: $(rows | cut -d' ' -f1 | tr '\n' ' ')"

# D: each host's CPUs, each host's reader took N.
tmux_keys D
expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
tmux_keys F9
expect_text "^via2/0 " 3 "the zoomed pane shows no via2/0 row"
# the kernel's read events of the host's CPUs (the agents send their counters each tick)
host_read() { tmux_screen | awk -v h="$1" 'index($1, h "/") == 1 { s += $6 } END { print s + 0 }'; }
_host_read_is() { [ "$(host_read "$1")" = "$2" ]; }
for h in via1 via2; do
	wait_until 5 _host_read_is "$h" "$N" ||
		fail "$h's kernel read $(host_read "$h") events, the workload made $N: $(tmux_screen)"
done
tmux_keys F9 Escape
wait_for_no_text "Ring buffers per CPU" 3 || fail "Esc did not close the ring-buffer pane"

# via2's agent killed: the header says it ended, the explorer goes on with via1.
kill -9 "${agents[1]}"
expect_text "^via1 [-+][0-9.]+(ns|us)±[0-9.]+(ns|us)  via2 [-+][0-9.]+(ns|us)±[0-9.]+(ns|us) ENDED" 5 \
	"the header's third line does not say via2 ended"
expect_text "^2 hosts  tracer: nop" 3 "the header's first line changed: one host still runs"
wait_until 2 all_gone "${agents[1]}" || fail "via2's agent killed -9: its guard did not clean within 2 s"
pid_alive "$KTOP_PID" || fail "the explorer died with one of its agents"

# Off on the one left, without a word about the one that ended.
tmux_keys e
expect_text "Event picker" 5 "e did not open the event picker"
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker does not tick sys_enter_getppid"
tmux_keys Space
expect_text "\[ \] +sys_enter_getppid" 5 "Space did not turn sys_enter_getppid off"
event_enabled "${agents[0]}" syscalls sys_enter_getppid && fail "sys_enter_getppid still on in via1's instance"
wait_for_no_text "via2:" 1 || fail "the status line speaks of via2, which ended: $(tmux_screen | tail -2)"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"

tmux_quit_clean
_agents_gone() { all_gone "${agents[0]}" && all_gone "${agents[1]}"; }
wait_until 2 _agents_gone || fail "q: the agents or their instances are still there 2 s after"
log "q: agents ${agents[*]} and their instances gone within 2 s"
assert_clean
pass
