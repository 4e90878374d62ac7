#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Triggers from the picker (160x30): Ctrl-T on sched:sched_process_exec asks for a trigger;
# a malformed condition is refused with ktop's one line and nothing reaches the kernel; a
# good one lands in the event's trigger file of ktop's instance and shows beside the event,
# its count going down as it fires; Ctrl-R removes it. Then the stop-when recipe typed in
# the same prompt ("stop if ..."): the exec of a marker program stops the capture, the stream
# says so in its title and puts the cursor on that exec's row; execs after it never show.
# Ctrl-R on the event removes the stop, and capture goes on.
# All of it three times: on this machine, in the explorer over an agent (--via 'ktop --agent',
# a plain pipe), whose instance the triggers land in (request 25, the agent checking them as
# the local explorer does), and over two agents, in both of whose instances each trigger
# lands (the stop firing on either stops both); q leaves the agents' machine clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

for m in one two stop after resume; do
	ln -s /bin/true "$T/ktt_$m"
done

# start WHERE: the explorer on this machine (local), over an agent (agent) or two (hosts);
# pids are the ktops whose instances hold the triggers, TRIGS their trigger files.
start()
{
	local capture=(-d 2 -e sched:sched_process_exec --filter "filename ~ \"$T/ktt_*\"") via=()
	if [ "$1" = local ]; then
		tmux_start 160 30 -- "${capture[@]}"
		pids=("$KTOP_PID")
	else
		rm -f "$T"/agent*
		via=(--via "echo \$\$ >$T/agent1; exec $KTOP --agent")
		[ "$1" = hosts ] && via+=(--via "echo \$\$ >$T/agent2; exec $KTOP --agent")
		tmux_start 160 30 -- "${via[@]}" "${capture[@]}"
		pids=()
		for ((i = 1; i <= ${#via[@]} / 2; i++)); do
			wait_until 15 test -s "$T/agent$i" || fail "the agent $i did not start"
			pids+=("$(cat "$T/agent$i")")
		done
		KTOP_PIDS+=("${pids[@]}")
	fi
	TRIGS=()
	for pid in "${pids[@]}"; do
		wait_capturing "$pid" sched sched_process_exec
		TRIGS+=("$(instance_dir "$pid")/events/sched/sched_process_exec/trigger")
	done
	expect_text "Events: all CPUs" 10 "$1: the explorer did not start"
}
# every_trig CMD...: CMD holds for every instance's trigger file, given as its last word
every_trig() { local f; for f in "${TRIGS[@]}"; do "$@" "$f" || return 1; done; }
no_triggers() { [ "$(grep -cv '^#' "$1")" = 0 ]; }
# the ktt_stop row, with its colours, in cursor_row; true once the cursor is on it
cursor_on_stop_row()
{
	cursor_row=$(tmux_screen -e | grep 'filename=.*/ktt_stop ' | head -n1)
	[[ $cursor_row == *$'\e['*7m* || $cursor_row == *$'\e['*4[0-9]m* || $cursor_row == *$'\e['*48\;* ]]
}
tracing_is() { local p; for p in "${pids[@]}"; do [ "$(cat "$(instance_dir "$p")/tracing_on")" = "$1" ] || return 1; done; }

for where in local agent hosts; do
	start "$where"

	tmux_keys e
	expect_text "Event picker" 5 "e did not open the picker"
	tmux_keys F9 # the picker zoomed: room for the triggers beside the event
	expect_text "^ Event picker" 5 "F9 did not zoom the picker"
	tmux_text sched:sched_process_exec
	expect_text "\[x\] +sched_process_exec" 5 "the picker does not show sched_process_exec ticked"

	# ---- a malformed condition: ktop's one line, the kernel untouched ----------------------------
	tmux_keys C-t
	expect_text "^trigger sched:sched_process_exec>" 5 "Ctrl-T opened no trigger prompt"
	tmux_text 'traceon:2 if filenme == "x"'
	tmux_keys Enter
	expect_text "trigger not set: 'filenme' is not a field of sched_process_exec" 5 \
		"a malformed condition was not refused with ktop's line"
	every_trig no_triggers || fail "a refused trigger reached the kernel: $(cat "${TRIGS[@]}")"

	# ---- a good one: in the kernel, beside the event, its count going down; then removed ---------
	tmux_keys C-t
	expect_text "^trigger sched:sched_process_exec>" 5 "Ctrl-T opened no trigger prompt again"
	tmux_text 'stacktrace:2 if filename ~ "*/ktt_one"'
	tmux_keys Enter
	expect_text "trigger on sched:sched_process_exec: stacktrace:2" 5 "no word that the trigger was set"
	every_trig grep -qx 'stacktrace:count=2 if filename ~ "\*/ktt_one"' ||
		fail "the trigger files of ktop-${pids[*]} hold '$(cat "${TRIGS[@]}")'"
	expect_text 'sched_process_exec \{stacktrace:count=2 if filename ~ "\*/ktt_one"\}' 5 \
		"the trigger is not shown beside the event"
	"$T/ktt_one"
	expect_text 'sched_process_exec \{stacktrace:count=1 if' 5 \
		"the count shown beside the event did not go down after the trigger fired"
	every_trig grep -qx 'stacktrace:count=1 if filename ~ "\*/ktt_one"' ||
		fail "the kernel's count is not 1 after one exec: $(cat "${TRIGS[@]}")"
	tmux_keys C-r
	expect_text "1 trigger removed from sched:sched_process_exec" 5 "Ctrl-R did not say it removed the trigger"
	expect_text "\[x\] +sched_process_exec *$" 5 "the trigger is still shown beside the event"
	every_trig no_triggers || fail "Ctrl-R left triggers in the kernel: $(cat "${TRIGS[@]}")"

	# ---- stop when: typed in the same prompt ----------------------------------------------------
	tmux_keys C-t
	tmux_text 'stop if filename ~ "*/ktt_stop"'
	tmux_keys Enter
	expect_text "capture stops when sched:sched_process_exec if filename ~ \"\*/ktt_stop\" fires" 5 \
		"no word that the stop is armed"
	every_trig grep -qx 'traceoff:count=1 if filename ~ "\*/ktt_stop"' ||
		fail "no traceoff:1 trigger for the stop: $(cat "${TRIGS[@]}")"
	tmux_keys F9 Escape Escape Escape # unzoomed, the detail, the text, the picker closed
	expect_text "^ Events: all CPUs" 5 "the picker did not close"
	"$T/ktt_two"
	"$T/ktt_stop"
	"$T/ktt_after"
	expect_text "stopped by sched:sched_process_exec if filename" 10 "the stream title does not say what stopped it"
	expect_text "STOPPED" 5 "the stream's state is not STOPPED"
	expect_text "capture stopped by sched:sched_process_exec if filename ~ \"\*/ktt_stop\" at " 5 \
		"the status line does not say when"
	tracing_is 0 || fail "tracing_on of ktop-${pids[*]} is not 0 after the stop"
	tmux_screen | grep -q 'filename=.*/ktt_two ' || fail "the exec before the stop is not on screen"
	tmux_screen | grep -q 'filename=.*/ktt_after ' && fail "an exec after the stop is on screen"
	# The cursor (reverse video or a colour background) is on the ktt_stop row: waited for as
	# a whole frame, since a loaded machine once let a capture catch the row not yet drawn.
	wait_until 5 cursor_on_stop_row ||
		fail "the cursor is not on the matching exec's row: ${cursor_row:-the row is not on screen}"

	# ---- Ctrl-R on the stop's event: the stop goes and capture goes on ---------------------------
	tmux_keys e
	expect_text "Event picker" 5 "e did not open the picker again"
	tmux_text sched:sched_process_exec
	expect_text 'sched_process_exec \{traceoff:count=0' 5 "the spent stop trigger is not shown"
	tmux_keys C-r
	expect_text "1 trigger removed from sched:sched_process_exec" 5 "Ctrl-R did not remove the stop"
	wait_until 5 tracing_is 1 || fail "capture did not go on after the stop was removed"
	tmux_keys Escape Escape
	expect_text "^ Events: all CPUs" 5 "the picker did not close"
	wait_for_no_text "STOPPED" 5 || fail "the stream still says STOPPED after the stop was removed"
	"$T/ktt_resume"
	expect_text 'filename=.*/ktt_resume ' 10 "an exec after the stop was removed does not show"
	tmux_quit_clean
	for pid in "${pids[@]}"; do
		wait_until 2 all_gone "$pid" || fail "$where: ktop $pid or its instance outlived q by 2 s"
	done
	every_trig test ! -e || fail "$where: a trigger file remains after q"
	tmux_kill_server
	log "$where: triggers, the stop and its removal"
done
assert_clean
pass
