#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Scope in the explorer over real agents (--via 'ktop --agent', 100x24). Each step runs two
# held workloads of exactly N getppid calls side by side (rkSa and rkSb) and releases them
# once the scope is set; the stream's "held" count then grows by exactly what the scope lets
# through (nothing else calls getppid in scope):
#   - -p A at start-up: the agent's set_event_pid is A, the header says "scope: pid A", the
#     stream holds A's N calls and none of B's;
#   - R, s, pid=B: the agent's instance scoped to B (request 22), N more, all B's;
#   - comm=rk3a: the agent resolves the name to its running process, N more, all A's;
#   - a pid the agent's machine does not run, a cgroup it does not have: one line naming the
#     host, the scope and the agent's set_event_pid stay;
#   - cgroup=PATH with A inside (cgroup v2): N more, all A's;
#   - an empty scope: all processes again, both workloads' calls arrive (5 each, shown by
#     the row filter);
#   - two agents: -p A on both (each host's N: 2N), pid=B on both (2N more), a missing pid
#     refused with the first host's label, an empty scope clears both;
#   - q: the agents and their instances are gone within 2 s;
#   - -p of a pid the agent's machine does not run: exit 1 with the agent's one line.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

N=${KTOP_EXACT_N:-2000}
EV=syscalls:sys_enter_getppid
host=$(uname -n)
mkdir -p "$T/xdg"

# pair STEP [N] [CGROUP]: rkSTEPa and rkSTEPb, N calls each (default $N), held until go;
# their pids in pa and pb; A in CGROUP when given.
pair()
{
	rm -f "$T/go"
	spawn_count "rk$1a" "${2:-$N}" "${3:-}"
	pa=$wl_pid
	spawn_count "rk$1b" "${2:-$N}"
	pb=$wl_pid
}
go()
{
	touch "$T/go"
	wait_pid_exit "$pa" 60 || fail "workload $pa did not finish"
	wait_pid_exit "$pb" 60 || fail "workload $pb did not finish"
}

# explorer AGENTS ARGS...: the explorer over AGENTS agents, their pids in agents.
explorer()
{
	local n=$1 vias=() i
	shift
	rm -f "$T"/a*.agent
	for ((i = 1; i <= n; i++)); do
		vias+=(--via "echo \$\$ >$T/a$i.agent; exec $KTOP --agent")
	done
	tmux_start 100 24 "XDG_CONFIG_HOME=$T/xdg" -- "${vias[@]}" "$@"
	agents=()
	for ((i = 1; i <= n; i++)); do
		wait_until 15 test -s "$T/a$i.agent" ||
			fail "agent $i did not start: $(tmux_screen | grep -v '^$' | head -5)"
		agents+=("$(cat "$T/a$i.agent")")
	done
	KTOP_PIDS+=("${agents[@]}")
	for a in "${agents[@]}"; do
		wait_until 15 instance_exists "$a" || fail "no instance ktop-$a"
		wait_capturing "$a" syscalls sys_enter_getppid 15
	done
}

# scoped AGENT: its instance's set_event_pid, one line.
scoped() { tr -s ' \n' ' ' <"$(instance_dir "$1")/set_event_pid" | sed 's/^ *//; s/ *$//'; }
# all_scoped PIDS: every agent's set_event_pid is PIDS.
all_scoped()
{
	for a in "${agents[@]}"; do
		[ "$(scoped "$a")" = "$1" ] || fail "agent $a's set_event_pid is '$(scoped "$a")', not '$1'"
	done
}

# scope TEXT: R, s, TEXT, Enter, and the pane closed again once the line came (MESSAGE).
scope()
{
	scope_key "$1"
	expect_text "$2" 10 "${3:-no line /$2/ after scope \"$1\"}"
	tmux_keys Escape
	wait_for_no_text "Scope: " 3 || fail "Esc did not close the tracer pane"
}

held() { expect_text "Events: all CPUs .* $1 held" 15 "${2:-the stream does not hold exactly $1 events}"; }
no_rows() { expect_count " $1-[0-9]+ +(syscalls:)?sys_enter_getppid" 0 3 "rows of $1 arrived out of scope"; }

gone=4194303
while kill -0 "$gone" 2>/dev/null; do gone=$((gone - 1)); done

# ---- one agent: -p at start-up ------------------------------------------------------------
pair 1
explorer 1 -p "$pa" -e "$EV"
all_scoped "$pa"
expect_text "scope: pid $pa" 5 "the header does not show -p's scope"
go
held "$N" "-p $pa: the stream does not hold exactly A's $N calls"
expect_text " rk1a-$pa +(syscalls:)?sys_enter_getppid" 3 "no row of rk1a-$pa"
no_rows rk1b
log "-p: $N of A's calls, none of B's"

# ---- the scope key: a pid, a command on the agent's machine --------------------------------
pair 2
scope "pid=$pb" "the agent's instance now records only pid $pb"
all_scoped "$pb"
expect_text "scope: pid $pb" 3 "the header does not show the pid scope"
go
held $((2 * N)) "pid=$pb: not exactly B's $N calls more"
no_rows rk2a

pair 3
scope "comm=rk3a" "the agent's instance now records only comm rk3a"
all_scoped "$pa"
expect_text "scope: comm rk3a" 3 "the header does not show the comm scope"
go
held $((3 * N)) "comm=rk3a: not exactly A's $N calls more"
no_rows rk3b
log "pid= and comm= keys: exactly the scoped workload's calls"

# ---- refusals: one line naming the host, the scope stays ----------------------------------
scope "pid=$gone" "pid $gone is not running on $host: type one that runs there .*\(scope left as comm rk3a\)"
all_scoped "$pa"
expect_text "scope: comm rk3a" 3 "a missing pid changed the header"
scope "cgroup=/ktop-no-such-$$" "^on $host: no cgroup '/ktop-no-such-$$'"
all_scoped "$pa"
expect_text "scope: comm rk3a" 3 "a missing cgroup changed the header"

if grep -q " cgroup2 " /proc/mounts; then
	require_cgroup2
	make_cgroup rkeys
	CGNAME=${CGROUP_DIR#"$CGROUP2"}
	pair 4 "$N" "$CGROUP_DIR"
	scope "cgroup=$CGNAME" "the agent's instance now records only cgroup "
	all_scoped "$pa"
	go
	held $((4 * N)) "cgroup=$CGNAME: not exactly A's $N calls more"
	no_rows rk4b
	log "cgroup= key: exactly the cgroup's workload's calls"
else
	log "no cgroup v2 mount: cgroup= is not exercised here"
fi

# ---- an empty scope: every process again ----------------------------------------------------
pair 5 5
scope "" "the agent's instance records all processes again"
all_scoped ""
wait_for_no_text "scope: " 3 || fail "the header still shows a scope"
tmux_keys F
expect_text "^show only" 5 "F did not open the row filter prompt"
tmux_text 'comm=rk5*'
tmux_keys Enter
go
expect_count " rk5a-$pa +(syscalls:)?sys_enter_getppid" 5 10 "not A's 5 calls after clearing the scope"
expect_count " rk5b-$pb +(syscalls:)?sys_enter_getppid" 5 10 "not B's 5 calls after clearing the scope"
tmux_quit_clean
wait_until 2 all_gone "${agents[0]}" || fail "q: the agent or its instance is still there 2 s after"
tmux_kill_server

# ---- two agents: the scope on both ----------------------------------------------------------
pair 6
explorer 2 -p "$pa" -e "$EV"
all_scoped "$pa"
expect_text "scope: pid $pa" 5 "the header does not show -p's scope over two agents"
go
held $((2 * N)) "-p over two agents: not each host's $N of A's calls"
no_rows rk6b
pair 7
scope "pid=$pb" "the agent's instance now records only pid $pb"
all_scoped "$pb"
go
held $((4 * N)) "pid=$pb over two agents: not each host's $N of B's calls more"
no_rows rk7a
scope "pid=$gone" "^via1: pid $gone is not running on $host: "
expect_text "scope: pid $pb" 3 "a missing pid changed the header"
all_scoped "$pb"
scope "" "records all processes again"
all_scoped ""
tmux_quit_clean
_agents_gone() { all_gone "${agents[0]}" && all_gone "${agents[1]}"; }
wait_until 2 _agents_gone || fail "q: the agents or their instances are still there 2 s after"
log "two agents: the scope, its refusal and its clearing on both"

# ---- -p of a pid the agent's machine does not run: ktop does not start, one line -----------
run_ktop 60 "$T/gone.out" "$T/gone.err" --via "exec $KTOP --agent" -p "$gone" -e "$EV"
[ "$KTOP_RC" = 1 ] || fail "-p $gone: ktop exited $KTOP_RC, not 1: $(cat "$T/gone.err")"
[ "$(cat "$T/gone.err")" = "ktop: agent at $host refused -p: pid $gone: no such process (scope to a running one)" ] ||
	fail "-p $gone: not the agent's one line: $(cat "$T/gone.err")"
assert_clean
pass
