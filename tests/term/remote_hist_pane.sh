#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The histogram pane over a real agent (--via 'ktop --agent', a plain pipe), at 80x24:
#   - H and a spec the agent's kernel refuses (a field its event lacks): the agent's one-line
#     reason in the status line, no pane, no BPF program in the agent;
#   - getppid's calls counted by command on the agent: a workload of exactly N calls shows
#     count N for its command in the key table; a second one of N more, with the pane open,
#     2N: the rows come from the agent on every tick of the explorer's (the agent's own -d
#     is a minute), the same figures as locally;
#   - Esc closes the pane and the agent's BPF programs go within 2 s (its fdinfo, bpftool),
#     the agent running on;
#   - --hist opens a pane on the agent at the start; q: the agent, its programs and its
#     instance gone within 2 s;
#   - two agents (two --via, one kernel): a refusal names the host; the histogram opens on
#     both, side by side: the key table has a column a host, headed by its label, and the
#     workload's command one line counting exactly N under each; selected, its bars have a
#     column a host with N in the same bucket, and the stats line each host's n=N; q: both
#     agents and all their programs gone within 2 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_workload

N=${KTOP_EXACT_N:-20000}
SPEC=field:syscalls:sys_enter_getppid.__syscall_nr,by=comm

# remote TAG ARGS...: the explorer on an agent whose pid goes to $T/TAG.agent (sh -c's exec
# keeps it) and whose debug log (attached programs) to $T/TAG.klog; its pid in agent.
mkdir -p "$T/xdg"
remote()
{
	local tag=$1
	shift
	tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 1 --via "$(via "$tag")" "$@"
	remote_agent_pid "$tag"
	agent=$AGENT_PID
	# --hist alone opens on the histogram, taking the screen; else the empty stream
	expect_text "No events enabled|Hist syscall-latency" 15 \
		"$tag: the explorer did not start on the agent"
}
# via TAG: the agent's command, its own -d a minute: the rows come at the explorer's -d
# (0.1 s) all the same.
via() { remote_via "$1" -d 600; }
remote rh

# hist SPEC: H, the prompt emptied, SPEC, Enter.
hist()
{
	tmux_keys H
	expect_text "histogram> " 5 "H opened no prompt"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
}

# ---- a spec the agent refuses: its reason, nothing opened -------------------------------------
hist field:sched:sched_switch.no_such
expect_text "sched:sched_switch has no field 'no_such'" 10 "no agent's reason for a field its kernel lacks"
[ -z "$(prog_ids "$agent")" ] || fail "a refused histogram left programs in the agent"
tmux_keys Escape

# ---- exactly N, then 2N, from the agent's rows ----------------------------------------------
hist "$SPEC"
expect_text "^histogram $SPEC via [a-z_]+" 10 "no histogram opened via the agent's variant"
expect_text "Hist $SPEC" 3 "no histogram pane"
wait_attached "$T/rh.klog" 1
mapfile -t PROGS < <(prog_ids "$agent")
[ "${#PROGS[@]}" -ge 1 ] || fail "the agent holds no BPF program for the pane's histogram"
tmux_keys v z i
expect_text "comm +\*count +avg +p50 +p99 +max" 5 "v showed no key table"
expect_text "keys total" 3 "i did not switch to totals"
workload_start one count "$N" ktop-rhp
workload_go one 60
expect_text "^ktop-rhp +$N " 10 "the pane does not count exactly the workload's $N calls for ktop-rhp"
workload_start two count "$N" ktop-rhp
workload_go two 60
expect_text "^ktop-rhp +$((2 * N)) " 10 "the pane did not follow the second workload to $((2 * N))"
log "the pane counted $N, then $((2 * N)) getppid calls of ktop-rhp on the agent"

# ---- Esc: the agent's programs go ---------------------------------------------------------
tmux_keys Escape
wait_for_no_text "Hist $SPEC" 3 || fail "Esc did not close the pane"
wait_until 2 _progs_gone "${PROGS[@]}" || fail "2 s after Esc the agent still holds: $(prog_ids "$agent")"
pid_alive "$agent" || fail "closing the pane ended the agent"

tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance outlived the viewer by 2 s"
tmux_kill_server

# ---- --hist at the start, then q: the agent and all of it gone within 2 s ----------------------
remote start --hist syscall-latency
expect_text "^histogram syscall-latency via [a-z_]+" 10 "--hist opened no histogram on the agent"
expect_text "Hist syscall-latency" 3 "--hist opened no pane"
wait_attached "$T/start.klog" 1
mapfile -t PROGS < <(prog_ids "$agent")
[ "${#PROGS[@]}" -ge 1 ] || fail "--hist: the agent holds no BPF program"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance outlived the viewer by 2 s"
wait_until 2 _progs_gone "${PROGS[@]}" || fail "q: the agent's programs remain"
tmux_kill_server

# ---- two hosts: each one's row, labelled, exact; a refusal names its host ---------------------
remote_two two1 two2 -d 600
a1=$A1
a2=$A2
hist field:sched:sched_switch.no_such
expect_text "^via1: field:sched:sched_switch.no_such: sched:sched_switch has no field 'no_such" 10 "two: the refusal does not name via1"
[ -z "$(prog_ids "$a1")$(prog_ids "$a2")" ] || fail "two: a refused histogram left programs"
tmux_keys Escape
hist "$SPEC"
expect_text "^histogram $SPEC via [a-z_]+" 10 "two: the histogram did not open on both"
wait_attached "$T/two1.klog" 1
wait_attached "$T/two2.klog" 1
mapfile -t PROGS < <(prog_ids "$a1"; prog_ids "$a2")
tmux_keys v z i
expect_text "keys total" 5 "two: no key table of totals"
workload_start three count "$N" ktop-rhp
workload_go three 60
expect_text "^ +via1 +via2 *$" 5 "two: the key table has no column a host"
expect_text "^comm by count +\*count +p99 +\*count +p99 *$" 3 "two: no count and p99 under each host"
expect_text "^ktop-rhp +$N +[0-9.a-zA-Z]+ +$N +[0-9.a-zA-Z]+ *$" 10 \
	"two: ktop-rhp's line does not count exactly $N under each host"
# ktop-rhp's row selected, its bars a column a host. Frozen first: other programs of this
# machine (it is shared) call getppid too, may outnumber it and move its row.
tmux_keys Z
expect_text "FROZEN|frozen" 5 "two: Z did not freeze the pane"
row=$(tmux_screen | awk '/^comm by count/ { t = 1; next } t && NF { n++; if ($1 == "ktop-rhp") { print n; exit } }')
[ -n "$row" ] || fail "two: no row of ktop-rhp in the frozen key table: $(tmux_screen)"
for ((i = 0; i < row; i++)); do tmux_keys Down; done
expect_text "^ktop-rhp:  via1 n=$N p50=[^ ]+ p99=[^ ]+  via2 n=$N " 5 \
	"two: the stats line does not give each host's n=$N of ktop-rhp"
tmux_keys v v
expect_text "bars total" 5 "two: v v did not come back to the bars"
expect_text "^ +via1 +via2 *$" 3 "two: the bars have no column a host"
expect_text "^ *[0-9]+ +$N [^ ]+ +$N [^ ]+ *$" 3 "two: no bucket of $N beside $N"
log "two: via1 and via2 each counted $N, side by side"
remote_two_quit "${PROGS[@]}"
assert_clean
pass
