#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The flame graph pane over real agents (--via 'ktop --agent', a plain pipe each), at 80x24:
#   - I samples on the agent's machine (its perf events, named by its own symbolizer) and
#     the pane grows from the stacks it sends every tick; profwork's split (profile-lib.sh)
#     shows as locally: at least 90 % of 99 Hz over the CPU seconds it ran, hot_seventy /
#     hot_thirty 70 / 30 within 5 points (the search's matched shares, frozen);
#   - C: the off-CPU profile on the agent (its BPF programs), the on-CPU one's perf events
#     gone there; Esc: its programs gone within 2 s, the agent running on;
#   - --profile -F above the agent's kernel's limit: its one line in the status line, the
#     stream kept, no sampling left in the agent;
#   - two agents: one graph, each host's stacks under its label (via1, via2) below all; C
#     off-CPU on both, then q: both agents, their programs and instances gone within 2 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_live_hist
require_flame_live

CPU_SECS=${KTOP_PROFILE_SECS:-5}
mkdir -p "$T/xdg"

perf_fds() { find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l; }
_perf_back() { [ "$(perf_fds "$1")" -le "$2" ]; }
_sampling_more() { [ "$(perf_fds "$1")" -gt "$2" ]; }
matched() { tmux_screen | sed -n 's/.*matched \([0-9]*\.[0-9]\)%.*/\1/p' | head -1; }
_matched_shown() { [ -n "$(matched)" ]; }
_no_match_shown() { [ -z "$(matched)" ]; }
# find_share TEXT: the search's matched share of the whole graph, in SHARE (a variable, not
# $(...), where a fail would only end a subshell). The last search's share goes first (Esc):
# until the new one is drawn, the title would still show the old one.
find_share()
{
	if ! _no_match_shown; then
		tmux_keys Escape
		wait_until 5 _no_match_shown || fail "Esc did not take the last search away"
	fi
	tmux_keys /
	expect_text "Find frames:" 3 "/ opened no prompt"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	# polled: a $(matched) in wait_until's arguments would be read once, before the wait
	wait_until 5 _matched_shown || fail "no matched share for $1"
	SHARE=$(matched)
}

# ---- one agent: profwork's split ------------------------------------------------------------
start_profwork "$T/work.out" split 120
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 1 --via "$(remote_via one)"
remote_agent_pid one
agent=$AGENT_PID
expect_text "No events enabled" 15 "the explorer did not start on the agent"
before=$(perf_fds "$agent")
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock) \\(samples\\)" 15 "I did not start a profile on the agent"
wait_until 10 _sampling_more "$agent" "$before" || fail "the agent opened no sampling events"
sampling=$(perf_fds "$agent")
until=$(awk -v t="$(cpu_ticks "$PROFWORK_PID")" -v s="$CPU_SECS" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { printf "%d", t + s * hz }')
wait_until 300 _ran_cpu "$PROFWORK_PID" "$until" "$agent" ||
	fail "profwork ran less than ${CPU_SECS}s of CPU in 300s"
sleep 2 # two ticks of 0.1 s and the agent's send: the last samples in the graph
tmux_keys Z
expect_text "FROZEN" 3 "Z did not freeze"
total=$(flame_root_total)
[ -n "$total" ] || fail "no root total in the status line: $(tmux_screen | tail -3)"
find_share profwork
work=$SHARE
find_share hot_seventy
s70=$SHARE
find_share hot_thirty
s30=$SHARE
n=$(awk -v t="$total" -v m="$work" 'BEGIN { printf "%d", t * m / 100 + 0.5 }')
[ "$n" -ge $((CPU_SECS * 99 * 9 / 10)) ] ||
	fail "only about $n samples of profwork ($work% of $total) in ${CPU_SECS}s of its CPU at 99 Hz"
awk -v a="$s70" -v b="$s30" 'BEGIN { s = a + b; exit !(s > 0 && a / s >= 0.65 && a / s <= 0.75) }' ||
	fail "hot_seventy $s70% and hot_thirty $s30% of the graph: not 70 / 30 within 5 points"
log "one agent: $total samples, profwork $work% (about $n), hot_seventy $s70%, hot_thirty $s30%"
tmux_keys Escape Z # the search; unfrozen

# ---- C: off-CPU on the agent; Esc: its programs gone --------------------------------------
tmux_keys C
expect_text "Flame graph: off-CPU, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 15 \
	"C did not switch the pane to the agent's off-CPU profile"
wait_progs "$agent" 1
mapfile -t PROGS < <(prog_ids "$agent")
wait_until 5 _perf_back "$agent" "$before" ||
	fail "the on-CPU profile's perf events stayed in the agent after C: $(perf_fds "$agent") > $before"
expect_text "^all  total [0-9]+\\.[0-9]{3} (s|ms|us) 100\\.0%" 15 "no off-CPU time from the agent"
tmux_keys Escape
wait_for_no_text "Flame graph:" 3 || fail "Esc did not close the pane"
wait_until 2 _progs_gone "${PROGS[@]}" || fail "2 s after Esc the agent still holds: $(prog_ids "$agent")"
pid_alive "$agent" || fail "closing the pane ended the agent"
log "one agent: $sampling perf fds while sampling, $before after; off-CPU programs ${PROGS[*]} gone"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance outlived the viewer by 2 s"
tmux_kill_server

# ---- -F over the agent's limit: its one line, the screen kept ---------------------------------
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 1 --via "$(remote_via bad)" --profile -F 1000000
remote_agent_pid bad
agent=$AGENT_PID
expect_text "No events enabled" 15 "the explorer did not start on the agent"
before=$(perf_fds "$agent")
tmux_keys I
expect_text "^on-CPU profile: -F 1000000 is above kernel.perf_event_max_sample_rate" 15 \
	"no one-line refusal of -F 1000000 from the agent"
[ "$(perf_fds "$agent")" -le "$before" ] || fail "refused, yet the agent holds sampling events"
wait_for_no_text "Flame graph: (cycles|cpu-clock)" 1 || fail "refused, yet a profile is shown"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "-F: q: the agent outlived the viewer by 2 s"
tmux_kill_server

# ---- two agents: one graph, each host under its label -------------------------------------
remote_two two1 two2
a1=$A1
a2=$A2
b1=$(perf_fds "$a1")
b2=$(perf_fds "$a2")
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock) \\(samples\\)" 15 "two: I did not start a profile"
wait_until 10 _sampling_more "$a1" "$b1" || fail "two: via1's agent opened no sampling events"
wait_until 10 _sampling_more "$a2" "$b2" || fail "two: via2's agent opened no sampling events"
tmux_keys z # the pane alone
# the row below all: the hosts' labels, profwork under each
expect_text "via1" 15 "two: no via1 frame below all"
expect_text "via2" 15 "two: no via2 frame below all"
# icicle: the root's row first (after its edge; the status line's "all  total" comes last),
# the labels next
row=$(tmux_screen | grep -n -E "^(▏)?all( |$)" | head -1 | cut -d: -f1)
[ -n "$row" ] || fail "two: no root row: $(tmux_screen)"
below=$(tmux_screen | sed -n "$((row + 1))p")
if ! echo "$below" | grep -q "via1" || ! echo "$below" | grep -q "via2"; then
	fail "two: the row below all is not via1 and via2 side by side: $(tmux_screen)"
fi
find_share profwork
s=$SHARE
awk -v s="$s" 'BEGIN { exit !(s > 0) }' || fail "two: no profwork in the graph"
log "two: via1 and via2 below all, profwork $s% of the graph"
# off-CPU on both, then q: the agents and their programs gone
tmux_keys Escape C
expect_text "Flame graph: off-CPU, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 15 "two: C did not switch to off-CPU"
wait_progs "$a1" 1
wait_progs "$a2" 1
mapfile -t PROGS < <(prog_ids "$a1"; prog_ids "$a2")
remote_two_quit "${PROGS[@]}"
assert_clean
pass
