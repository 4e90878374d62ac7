#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The counters pane over real agents (--via 'ktop --agent', a plain pipe), at 80 columns:
#   - one agent: --pmu-event opens the pane at the start on the agent's counters; the agent
#     holds perf counter fds and the explorer none; its system-wide tracepoint counter
#     syscalls:sys_enter_getppid grows by at least the N calls of a workload (other tasks
#     may call it too; as far as the pane's rounding shows: 20.0k is 19950 to 20049), and by
#     no more than the kernel counted on every CPU meanwhile (perf stat -a, from before the
#     agent started to after the last figure read: a count taken twice fails), on the
#     agent's figures, sent every tick of the explorer's (the agent's
#     own -d is a minute); the counters this VM cannot give (cycles without a PMU, a
#     tracepoint the kernel lacks) show n/a with the agent's reason on their line, and the
#     named one's reason is in the status line;
#   - Esc closes the pane and the agent's perf counter fds go within 2 s (the agent runs
#     on); m opens it again; q: the agent and its instance gone within 2 s;
#   - three agents: a column of value and rate per host, headed by its label, the
#     workload's N calls counted in each working host's column, no more than perf stat -a
#     counted; the third agent without
#     CAP_PERFMON refuses the counters: its column says refused, its one line is under the
#     table and in the status line; the selected counter's figures per host; at 60 columns
#     the third column does not fit: the title says +1 host and > shows it; Esc: every
#     agent's counter fds gone, q: the agents gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
command -v setpriv >/dev/null 2>&1 || fail "no setpriv (util-linux) to start an agent without CAP_PERFMON"
command -v perf >/dev/null || fail "no perf (./dev installs linux-perf)"

N=${KTOP_EXACT_N:-20000}
TP=syscalls:sys_enter_getppid
[ -d "$TRACEFS/events/syscalls/sys_enter_getppid" ] || skip "the kernel has no $TP tracepoint"

# via TAG [WRAPPER...]: the agent's command, its pid to $T/TAG.agent (exec keeps it), its own
# -d a minute: its figures come at the explorer's -d all the same (remote_agent_pid TAG: its
# pid in AGENT_PID).
# (each run a config of its own: q saves the layout it leaves, zoomed here)
mkdir -p "$T/xdg1" "$T/xdg2"
via() { local tag=$1; shift; echo "echo \$\$ >$T/$tag.agent; exec $* $KTOP --agent -d 600"; }
_no_counters() { [ "$(perf_counter_fds "$1")" = 0 ]; }
_counting() { [ "$(perf_counter_fds "$1")" -gt 0 ]; }

# value COLUMN: the getppid counter's value in that host column (1: the first) as a range
# "LO HI" of what its rounding covers (12.3k: 12250 12350).
value()
{
	tmux_screen | awk -v col="$1" '
		/^syscalls:sys_enter / {
			v = $(2 * col); m = 1; r = 0
			if (v ~ /k$/) { m = 1e3; r = 50 } else if (v ~ /M$/) { m = 1e6; r = 5e4 }
			else if (v !~ /^[0-9]+$/) exit 1
			sub(/[kM]$/, "", v); printf "%.0f %.0f\n", v * m - r, v * m + r; found = 1; exit
		}
		END { if (!found) exit 1 }'
}
# perf_count_start TAG, perf_count_stop TAG: the kernel's own count of $TP on every CPU (perf
# stat -a, until a FIFO of the test's is written) in PERF_COUNT: the most a pane's figure
# read in between may have grown by. at_most BEFORE AFTER WHAT: a figure grew from BEFORE to
# AFTER (each "lo hi") by no more than that, as far as the rounding shows.
perf_count_start()
{
	rm -f "$T/$1.stop"
	mkfifo "$T/$1.stop"
	# shellcheck disable=SC2016 # $0 is the inner shell's
	perf stat -a -x, -e "$TP" -o "$T/$1.perf" -- sh -c 'read -r _ <"$0"' "$T/$1.stop" &
	PERF_PID=$!
	CLEANUP_PIDS+=("$PERF_PID")
	wait_until 10 _counting "$PERF_PID" || fail "perf stat -a -e $TP opened no counter in 10 s"
}
perf_count_stop()
{
	echo >"$T/$1.stop"
	wait "$PERF_PID" || fail "perf stat failed: $(cat "$T/$1.perf")"
	PERF_COUNT=$(awk -F, -v e="$TP" '$3 == e { print $1 }' "$T/$1.perf")
	[ -n "$PERF_COUNT" ] || fail "perf stat gave no count of $TP: $(cat "$T/$1.perf")"
}
at_most()
{
	[ $((${2% *} - ${1#* })) -le "$PERF_COUNT" ] ||
		fail "$3: the pane's $TP grew from $1 to $2, more than the kernel counted meanwhile ($PERF_COUNT, perf stat -a)"
}
# grew COLUMN BEFORE_LO: the column's value may be at least N past BEFORE_LO (the most its
# rounding allows: past 10000 the pane shows 20.0k for 19950 to 20049).
grew() { local r; r=$(value "$1") || return 1; [ "${r#* }" -ge $(($2 + N)) ]; }

# ---- one agent: the pane at the start, its figures the agent's -----------------------------
perf_count_start one
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg1" -- -d 1 --via "$(via one)" \
	--pmu-event "$TP" --pmu-event syscalls:sys_enter_no_such --pmu-event cycles
viewer=$KTOP_PID
remote_agent_pid one
agent=$AGENT_PID
expect_text "Counters: system-wide, [0-9]+ CPUs?" 15 "--pmu-event did not open the counters pane on the agent"
# (a key clears the status line)
expect_text "^counters: syscalls:sys_enter_no_such: no tracepoint" 10 "the named counter the agent cannot count is not in the status line"
tmux_keys Tab F9
expect_text "^syscalls:sys_enter +[0-9.]+[kM]? +[0-9.]+[kM]?/s +100%" 10 "no figures of $TP from the agent"
_counting "$agent" || fail "the pane shows counters but the agent holds no perf counter fd"
[ "$(perf_counter_fds "$viewer")" = 0 ] || fail "the explorer holds perf counter fds: the counters must be the agent's"
expect_text "^context-switches +[0-9.]+[kM]? +[0-9.]+[kM]?/s +100%" 3 "no context-switches row from the agent"
expect_text "^cpu-clock +[0-9.]+m?s +[0-9.]+CPU +100%" 3 "no cpu-clock row in seconds and CPUs"
expect_text "^syscalls:sys_enter +n/a .*no_such" 3 "the tracepoint the kernel lacks is not n/a with its reason"
if ! have_hw_pmu; then
	expect_text "^cycles +n/a no PMU driver in this kernel/VM" 3 "cycles is not n/a with the agent's reason"
fi
before=$(value 1) || fail "no value of $TP to start from"
workload_start one count "$N" ktop-rcp
workload_go one 60
wait_until 10 grew 1 "${before% *}" ||
	fail "the agent's $TP went from $before to $(value 1), not by the workload's $N calls"
after=$(value 1) || fail "no value of $TP after the workload"
perf_count_stop one
at_most "$before" "$after" one
log "one: $TP from $before to $after after $N calls; the kernel counted $PERF_COUNT meanwhile"

# Esc: the agent's counters go; m: again.
tmux_keys Escape
wait_for_no_text "Counters: system-wide" 3 || fail "Esc did not close the counters pane"
wait_until 2 _no_counters "$agent" || fail "2 s after Esc the agent still holds $(perf_counter_fds "$agent") perf counter fds"
pid_alive "$agent" || fail "closing the pane ended the agent"
tmux_keys m
expect_text "Counters: system-wide" 5 "m did not open the counters pane again"
tmux_keys F9
expect_text "syscalls:sys_enter +[0-9.]+[kM]? +[0-9.]+[kM]?/s" 10 "no figures in the reopened pane"
_counting "$agent" || fail "the reopened pane's counters are not the agent's"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance outlived the viewer by 2 s"
tmux_kill_server

# ---- three agents: a column each; the third refuses ------------------------------------------
perf_count_start three
tmux_start 80 40 "XDG_CONFIG_HOME=$T/xdg2" -- -d 1 --via "$(via h1)" --via "$(via h2)" \
	--via "$(via h3 setpriv --bounding-set -perfmon,-sys_admin)" --pmu-event "$TP"
remote_agent_pid h1
a1=$AGENT_PID
remote_agent_pid h2
a2=$AGENT_PID
remote_agent_pid h3
a3=$AGENT_PID
expect_text "Counters: 3 hosts" 20 "the counters pane did not open on three hosts"
expect_text "^counters: via3: --pmu: not permitted" 3 "via3's refusal is not in the status line"
tmux_keys Tab F9
expect_text "^counter +via1 +via2 +via3 *$" 5 "the columns are not headed via1 via2 via3"
expect_text "^syscalls:sys_enter +[0-9.]+[kM]? +[0-9.]+[kM]?/s +[0-9.]+[kM]? +[0-9.]+[kM]?/s +refused" 10 "no figures in via1's and via2's columns and refused in via3's"
expect_text "^via3: --pmu: not permitted \(EACCES" 3 "via3's refusal is not its one line under the table"
{ _counting "$a1" && _counting "$a2"; } || fail "via1 or via2 shows figures but holds no perf counter fd"
_no_counters "$a3" || fail "via3 refused but holds perf counter fds"
b1=$(value 1) || fail "no value of $TP in via1's column to start from"
b2=$(value 2) || fail "no value of $TP in via2's column to start from"
workload_start three count "$N" ktop-rcp
workload_go three 60
wait_until 10 grew 1 "${b1% *}" || fail "via1's $TP went from $b1 to $(value 1), not by $N"
wait_until 10 grew 2 "${b2% *}" || fail "via2's $TP went from $b2 to $(value 2), not by $N"
e1=$(value 1) || fail "no value of $TP in via1's column after the workload"
e2=$(value 2) || fail "no value of $TP in via2's column after the workload"
perf_count_stop three
at_most "$b1" "$e1" via1
at_most "$b2" "$e2" via2
log "three: via1 $TP from $b1 to $e1, via2 from $b2 to $e2 after $N calls; the kernel counted $PERF_COUNT"
# The selected counter on each host, and via3's reason.
tmux_keys End
expect_text "^syscalls:sys_enter_getppid per host" 3 "End selected no $TP detail per host"
expect_text "^via1 +[0-9.]+[kM]? +[0-9.]+[kM]?/s +ran 100%" 3 "no via1 line in the detail"
expect_text "^via2 +[0-9.]+[kM]? +[0-9.]+[kM]?/s +ran 100%" 3 "no via2 line in the detail"
expect_text "^via3 +refused: --pmu: not permitted" 3 "no via3 refusal in the detail"
# 60 columns: two host columns fit; > shows the third.
tmux_size 60 40 || fail "tmux could not resize to 60x40"
expect_text "Counters: 3 hosts, \+1 host \(< >\)" 5 "at 60 columns the title does not say +1 host"
expect_text "^counter +via1 +via2 *$" 3 "at 60 columns not via1 and via2's columns"
tmux_keys '>'
expect_text "^counter +via2 +via3 *$" 3 "> did not bring via3's column"
tmux_keys Escape
wait_for_no_text "Counters: 3 hosts" 3 || fail "Esc did not close the counters pane"
_none() { _no_counters "$a1" && _no_counters "$a2" && _no_counters "$a3"; }
wait_until 2 _none || fail "2 s after Esc the agents still hold perf counter fds: $(perf_counter_fds "$a1") $(perf_counter_fds "$a2")"
tmux_quit_clean
_all3_gone() { all_gone "$a1" && all_gone "$a2" && all_gone "$a3"; }
wait_until 2 _all3_gone || fail "three: q: an agent or its instance outlived the viewer by 2 s"
tmux_kill_server
assert_clean
pass
