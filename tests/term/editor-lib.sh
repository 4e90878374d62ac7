# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# The probe editor's terminal tests (tests/term/probe_*, usdt_*, scope_*): the editor opened
# locally or over an agent, uprobes and USDT probes made through its prompts, their counts.
# Needs tmux-lib.sh; sourced by tests/lib.sh.

# scope_key TEXT: the tracer pane (R), its scope prompt (s), TEXT (none when empty), Enter.
scope_key()
{
	tmux_keys R
	expect_text "Scope: " 5 "R did not show the scope line"
	tmux_keys s
	expect_text "^scope \(pid=" 5 "s did not open the scope prompt"
	[ -n "$1" ] && tmux_text "$1"
	tmux_keys Enter
}

# probe_editor_start COLS ROWS [ENV...] [-- ARGS...]: tmux_start, then ktop's probe editor (P)
# open; ktop's probe group (ktop_<pid>) in PROBE_GROUP. probe_count: the group's dynamic
# events.
PROBE_GROUP=
probe_editor_start()
{
	tmux_start "$@"
	wait_until 10 instance_exists "$KTOP_PID" || fail "no instance ktop-$KTOP_PID"
	expect_text "No events enabled" 10 "ktop did not start"
	PROBE_GROUP=ktop_$KTOP_PID
	tmux_keys P
	expect_text "Probes $PROBE_GROUP" 5 "P did not open the probe editor"
}
# editor_uprobe BINARY DEF: in the open probe editor, u, the binary (the prompt cleared of
# the last one), then DEF on the function prompt, and Enter.
editor_uprobe()
{
	tmux_keys u
	expect_text "^binary or library:" 5 "u did not ask for the binary"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	expect_text "^uprobe ${1##*/}:" 5 "no function prompt after the binary"
	tmux_text "$2"
	tmux_keys Enter
}
probe_count() { grep -c "^[pr]:$PROBE_GROUP/" "$(_dynevents_file)"; }
# remote_editor_start COLS ROWS [ARGS...]: tmux_start on one agent through a plain pipe
# (--via 'ktop --agent', -d 1 and ARGS), then its probe editor (P) open and empty; the
# agent's pid in agent (and KTOP_PIDS). agent_probes: its group's dynamic events.
agent=
remote_editor_start()
{
	local cols=$1 rows=$2
	shift 2
	tmux_start "$cols" "$rows" -- --via "echo \$\$ >$T/agent; exec $KTOP --agent" -d 1 "$@"
	# shellcheck disable=SC2119 # the whole screen
	wait_until 15 test -s "$T/agent" ||
		fail "the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
	agent=$(cat "$T/agent")
	KTOP_PIDS+=("$agent")
	wait_until 15 instance_exists "$agent" || fail "no instance ktop-$agent"
	expect_text "No events enabled" 10 "the explorer did not start on the agent"
	tmux_keys P
	expect_text "Probes " 5 "P did not open the probe editor over the agent"
	expect_text "no probes yet" 3 "the editor over the agent does not start empty"
}
agent_probes() { grep -c "^[pr]:ktop_$agent/" "$(_dynevents_file)"; }
# editor_usdt BINARY DEF: in the probe editor open over agents, s, the binary on the agents'
# machine, then DEF (PROVIDER:PROBE [ARGS]), and Enter.
editor_usdt()
{
	tmux_keys s
	expect_text "^USDT in the agent's binary, library or pid:" 5 "s did not ask for the agent's binary"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	expect_text "^usdt ${1##*/}:" 5 "no probe prompt after the binary"
	expect_text "new USDT probe \([0-9]+ in the file\): /" 3 "the editor does not show the notes the agent read"
	tmux_text "$2"
	tmux_keys Enter
}
# editor_usdt_pid TARGET ASK GROUP: in the open probe editor, by pid: TARGET (a USDT target)
# started and held, s (its prompt ASK), the pid, the process's notes Tab-completed as
# PATH:PROVIDER:PROBE, the probe made in GROUP; then the target's 3 guarded hits counted up by
# it (semaphore 1).
editor_usdt_pid()
{
	local tgt
	rm -f "$T/go"
	"$1" 3 "$T/go" >"$T/waiting.out" &
	tgt=$!
	CLEANUP_PIDS+=("$tgt")
	wait_until 10 has_line "$T/waiting.out" || fail "usdt target printed no pid"
	tmux_keys s
	expect_text "^$2" 5 "s did not ask again"
	tmux_keys C-u
	tmux_text "$tgt"
	tmux_keys Enter
	expect_text "^usdt pid $tgt:" 5 "no probe prompt after the pid"
	expect_text "new USDT probe \([0-9]+ in the process\)" 5 "the process's notes were not read"
	tmux_text "$1:ktop_test:h"
	tmux_keys Tab
	expect_text "^usdt pid $tgt: .*usdt_target:ktop_test:hit *$" 5 "Tab did not complete PATH:PROVIDER:PROBE"
	tmux_keys Enter
	expect_text "created and enabled $3:hit" 10 "the probe by pid was not created"
	touch "$T/go"
	wait_pid_exit "$tgt" 10 || fail "usdt target did not finish"
	[ "$(sed -n 2p "$T/waiting.out")" = "guard 3 semaphore 1" ] ||
		fail "the running target's guard: '$(sed -n 2p "$T/waiting.out")', expected 'guard 3 semaphore 1'"
}
# usdt_run_counted N HOSTS: the USDT target (require_usdt_target) called N times, its guarded
# probe on (semaphore 1: one uprobe per site in the kernel, however many groups probe it),
# then the open editor's live counts: hit N x HOSTS, each site of twice HOSTS.
usdt_run_counted()
{
	"$TGT" "$1" >"$T/usdt.out" || fail "usdt_target failed"
	[ "$(sed -n 2p "$T/usdt.out")" = "guard $1 semaphore 1" ] ||
		fail "the target's guard: '$(sed -n 2p "$T/usdt.out")', expected 'guard $1 semaphore 1'"
	expect_text "\[x\] hit +uprobe +hits=$(($1 * $2)) " 10 "the editor's count of hit is not $(($1 * $2))"
	expect_text "\[x\] twice +uprobe +hits=$2 " 3 "the editor's count of twice is not $2"
	expect_text "\[x\] twice_2 +uprobe +hits=$2 " 3 "the editor's count of twice_2 is not $2"
}
