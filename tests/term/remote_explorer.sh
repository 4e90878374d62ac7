#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The explorer over a remote agent through a plain pipe (ktop --via 'ktop --agent'), in an
# 80x24 tmux pane:
#   - the header names the remote (the agent's host, "via" its command);
#   - the picker lists the agent's events and shows a format the agent sends when asked;
#     Enter gives sys_enter_getppid a filter on a workload's pid, Space enables it with that
#     filter in the agent's instance, and the stream holds exactly the workload's N calls,
#     named as the agent named them, with the header's loss the agent's 0;
#   - D shows the agent's kernel's per-CPU counters, figure for figure;
#   - R lists the agent's instance's tracers; the function tracer, which this kernel
#     refuses, is refused with the agent's own reason and the agent's tracer stays nop;
#     its function lists are the agent's instance's, read there (this kernel refuses
#     them: the agent's reason, as the local pane gives it), and an entry typed in the
#     list's picker goes to the agent, its refusal shown (the lab adds one for real:
#     tests/lab/remote-explorer.sh);
#   - A records from before the workload starts and w writes what is stored: each a
#     trace.dat of the agent's kernel that trace-cmd report reads, holding exactly the
#     workload's N calls under the name the agent gave them, with the agent's CPU count;
#   - after q, and after the viewer is killed with -9, the agent, its instance and its probe
#     group are gone within 2 s; q removes the viewer's mirror of the agent's files, and the
#     mirror a kill -9 leaves is removed by the next viewer;
#   - an agent killed with -9 under the explorer: the header says the remote ended, a request
#     then is refused with the reason in one line (the explorer goes on), its guard cleans.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"

N=${KTOP_EXACT_N:-20000}
host=$(uname -n)

# remote TAG ARGS...: the explorer on an agent whose pid is written to $T/TAG.agent (sh -c's
# exec keeps it); the agent's pid in agent, the viewer's in kpid.
remote()
{
	local tag=$1
	shift
	tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" "TMPDIR=$T/tmp" -- \
		--via "echo \$\$ >$T/$tag.agent; exec $KTOP --agent" "$@"
	kpid=$KTOP_PID
	wait_until 15 test -s "$T/$tag.agent" || fail "$tag: the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
	agent=$(cat "$T/$tag.agent")
	KTOP_PIDS+=("$agent")
	wait_until 15 instance_exists "$agent" || fail "$tag: no instance ktop-$agent"
}

# The agent's kernel's per-CPU figures, "cpuN entries overrun commit dropped read", and the
# pane's.
kernel_rows()
{
	local d
	for d in "$(instance_dir "$agent")"/per_cpu/cpu*; do
		awk -v cpu="${d##*/}" '
			/^entries:/ { e = $2 } /^overrun:/ { o = $2 } /^commit overrun:/ { c = $3 }
			/^dropped events:/ { d = $3 } /^read events:/ { r = $3 }
			END { print cpu, e, o, c, d, r }' "$d/stats"
	done | sort -V
}
pane_rows() { tmux_screen | awk '$1 ~ /^cpu[0-9]+$/ { print $1, $2, $3, $4, $5, $6 }'; }
_rows_match() { [ "$(pane_rows)" = "$(kernel_rows)" ]; }

# The viewers' mirrors of the agent's files (ktop-remote-PID-XXXXXX), under a TMPDIR of
# their own: the rest of the test's files are in $T.
mirrors() { (cd "$T/tmp" && printf '%s\n' ktop-remote-*) | grep -v '\*'; }

mkdir -p "$T/xdg" "$T/tmp"
workload_start rx count "$N" ktop-rx
remote q
expect_text "^$host via echo" 10 "the header does not name the remote ($host via its command)"
expect_text "No events enabled: press e \(F2\) to pick events" 5 "the empty stream does not say how to start"

# The picker: the agent's catalogue; Space enables in the agent's instance.
tmux_keys e
expect_text "Event picker +[0-9]+ of [0-9]+ enabled" 5 "e did not open the event picker"
tmux_text sys_enter_getppid
expect_text "\[ \] +sys_enter_getppid" 5 "the picker does not list the agent's sys_enter_getppid"
tmux_keys Enter
expect_text "^filter syscalls:sys_enter_getppid>" 5 "Enter opened no filter prompt"
tmux_text "common_pid == $WL_PID"
tmux_keys Enter
expect_text "syscalls:sys_enter_getppid +filter: common_pid == $WL_PID" 5 "the filter was not taken"
expect_text "^ int __syscall_nr" 5 "the picker does not show the format the agent sent"
event_enabled "$agent" syscalls sys_enter_getppid && fail "the filter alone enabled the event"
tmux_keys Space
wait_capturing "$agent" syscalls sys_enter_getppid 5
expect_text "\[x\] +sys_enter_getppid" 3 "the picker does not tick sys_enter_getppid"
filter=$(cat "$(instance_dir "$agent")/events/syscalls/sys_enter_getppid/filter")
[ "$filter" = "common_pid == $WL_PID" ] || fail "the agent's filter is '$filter', not the picker's"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"

# check_file PATH: a trace.dat of the agent's kernel with exactly the workload's N calls
check_file()
{
	local got cpus
	trace-cmd report "$1" >"$T/report" 2>"$T/report.err" ||
		fail "trace-cmd report cannot read $1: $(head -c 600 "$T/report.err")"
	got=$(grep -c "ktop-rx-$WL_PID .*sys_enter_getppid" "$T/report")
	[ "$got" = "$N" ] || fail "$1 holds $got calls named ktop-rx-$WL_PID, not $N: $(head -5 "$T/report")"
	cpus=$(sed -n 's/^cpus=//p' "$T/report")
	[ "$cpus" = "$(nproc)" ] || fail "$1 says cpus=$cpus, the agent's kernel has $(nproc)"
}
tmux_prompt A "Record from now on to:" "$T/a.dat"
expect_text "recording to $T/a.dat \(A stops\)" 5 "A did not start recording over the agent"
expect_text " REC *$" 5 "the header does not say REC"

# Exactly the workload's calls, named.
workload_go rx 60
expect_text "Events: all CPUs +$N held" 10 "the stream does not hold exactly the workload's $N calls"
expect_text "ktop-rx-$WL_PID +sys_enter_getppid" 3 "the rows do not carry the agent's name ktop-rx-$WL_PID"
expect_text "^lost: 0 " 3 "the header's loss is not the agent's 0"

# D: the remote kernel's counters.
tmux_keys D
expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
tmux_keys F9
expect_text "^cpu0 " 3 "the zoomed pane shows no cpu0 row"
wait_until 5 _rows_match || fail "the pane's rows are not the agent's kernel's stats; pane:
$(pane_rows)
kernel:
$(kernel_rows)"
read_sum=$(pane_rows | awk '{ s += $6 } END { print s + 0 }')
[ "$read_sum" = "$N" ] || fail "the agent's kernel read $read_sum events, the workload made $N"
tmux_keys F9 Escape
wait_for_no_text "Ring buffers per CPU" 3 || fail "Esc did not close the ring-buffer pane"

# w and A: trace.dat files of the agent's kernel
tmux_prompt w "Write the stored events to:" "$T/w.dat"
expect_text "wrote $N events to $T/w.dat" 10 "w did not write the $N stored calls"
check_file "$T/w.dat"
tmux_keys A
expect_text "recorded $N events to $T/a.dat" 10 "A did not end the recording with $N calls"
wait_for_no_text " REC *$" 3 || fail "REC is still shown after A stopped the recording"
check_file "$T/a.dat"
log "w and A: $N calls each in trace.dat files trace-cmd reads"

# The tracer pane on the agent's tracers; its refusal is the agent's.
tmux_keys R
expect_text "Tracers +current: nop" 5 "R did not open the tracer pane"
expect_text "\(\*\) nop +current" 5 "the agent's nop is not marked current"
tmux_keys F9
flt=$(instance_dir "$agent")/set_ftrace_filter
if [ -r "$flt" ] && why=$(cat "$flt" 2>&1 >/dev/null) && [ -z "$why" ]; then
	expect_text "empty: all functions" 5 "the agent's empty set_ftrace_filter is not shown"
else
	expect_text "cannot read set_ftrace_filter: Operation not permitted" 5 \
		"the agent's reason for its set_ftrace_filter is not shown"
	# the picker's entry goes to the agent, which refuses it with its kernel's reason
	# the first list: past every tracer row, from the top
	ntr=$(tmux_screen | grep -cE '\((\*| )\) [a-z_]+')
	for ((i = 0; i < ntr; i++)); do tmux_keys Up; done
	for ((i = 0; i < ntr; i++)); do tmux_keys Down; done
	tmux_keys Enter
	expect_text "the agent's kernel: type a function or a glob whole" 5 "no function picker over the agent"
	tmux_text vfs_read
	tmux_keys Enter
	expect_text "set_ftrace_filter .*Operation not permitted" 5 "no agent's reason for the refused entry"
	tmux_keys Escape
	for ((i = 0; i < ntr; i++)); do tmux_keys Up; done # the first tracer again
fi
tmux_keys F9
row=$(tr ' ' '\n' <"$(instance_dir "$agent")/available_tracers" | grep -v '^$' | grep -nx function | cut -d: -f1)
if [ -n "$row" ]; then
	for ((i = 1; i < row; i++)); do tmux_keys Down; done
	tmux_keys Enter
	expect_text "function tracer refused by the kernel" 5 "no agent's reason for the refused function tracer"
	[ "$(cat "$(instance_dir "$agent")/current_tracer")" = nop ] || fail "the agent's tracer is no longer nop"
else
	log "this kernel offers no function tracer: the refusal is not checked"
fi
tmux_keys Escape
wait_for_no_text "Tracers +current" 3 || fail "Esc did not close the tracer pane"

# The filter of an event that is on: changed, then cleared, in the agent's instance.
agent_filter() { cat "$(instance_dir "$agent")/events/syscalls/sys_enter_getppid/filter"; }
_agent_filter_is() { [ "$(agent_filter)" = "$1" ]; }
tmux_keys e
expect_text "Event picker" 5 "e did not open the event picker again"
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker lost sys_enter_getppid"
tmux_keys Enter C-u
tmux_text "common_pid == 1"
tmux_keys Enter
wait_until 5 _agent_filter_is "common_pid == 1" || fail "the agent's filter is '$(agent_filter)' after the change, not common_pid == 1"
tmux_keys Enter C-u Enter
wait_until 5 _agent_filter_is none || fail "the agent's filter is '$(agent_filter)' after clearing it, not none"
event_enabled "$agent" syscalls sys_enter_getppid || fail "clearing the filter turned the event off in the agent"
expect_text "syscalls:sys_enter_getppid +filter: none" 3 "the picker does not show the cleared filter"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"

# q: the viewer ends, the agent and its kernel state with it.
tmux_quit_clean
wait_until 2 all_gone "$agent" ||
	fail "q: 2 s after the viewer quit: agent alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
log "q: agent $agent and its instance gone within 2 s"
[ -z "$(mirrors)" ] || fail "q: the viewer left its mirror: $(mirrors)"
tmux_kill_server

# kill -9 of the viewer: the agent sees its pipe close and leaves the kernel clean.
remote kill9 -e syscalls:sys_enter_getppid --filter "common_pid == $$"
wait_capturing "$agent" syscalls sys_enter_getppid 5
expect_text "Events: all CPUs" 10 "the explorer did not start on the agent"
kill -9 "$kpid"
wait_until 2 all_gone "$agent" ||
	fail "kill9: 2 s after the viewer's kill -9: agent alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
log "kill9: agent $agent and its instance gone within 2 s"
stale=$(mirrors)
[[ "$stale" == "ktop-remote-$kpid-"?????? ]] ||
	fail "kill9: the killed viewer's mirror is '$stale', not one ktop-remote-$kpid-XXXXXX"
tmux_kill_server

# The agent killed under the explorer: it stays, says so, and refuses requests.
remote agent9
expect_text "No events enabled" 10 "the explorer did not start on the agent"
# a SIGKILL leaves the mirror behind; the next viewer removes it, its owner being gone
[[ "$(mirrors)" == "ktop-remote-$kpid-"?????? ]] ||
	fail "agent9: the mirrors are '$(mirrors)': the killed viewer's $stale is not swept, or this viewer's ktop-remote-$kpid-XXXXXX is missing"
log "kill9: the killed viewer's mirror $stale stayed, and the next viewer removed it"
kill -9 "$agent"
expect_text "^ENDED $host via " 5 "the header does not say the remote ended"
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text sys_enter_getppid
expect_text "\[ \] +sys_enter_getppid" 5 "the picker lost the agent's catalogue"
tmux_keys Space
expect_text "the pipe to agent at $host closed" 5 "Space after the agent died: no one-line reason"
pid_alive "$kpid" || fail "the explorer died with its agent"
wait_until 2 all_gone "$agent" || fail "agent9: the agent's guard did not clean within 2 s"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"
tmux_quit_clean
tmux_kill_server

assert_clean
pass
