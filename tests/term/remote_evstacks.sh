#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Stacks on events in the explorer over a real agent (--via 'ktop --agent', 100x24), scoped
# to the workloads by -p:
#   - ^K on syscalls:sys_enter_getppid in the picker puts a stacktrace trigger on it in the
#     agent's instance (request 13); a workload's 3 calls then show as 3 rows marked '*' (the
#     stack records are not rows); Enter on a row opens its stack, innermost first, named
#     from the agent's kallsyms (do_syscall_64+OFF/SIZE, the syscall entry); Esc closes it;
#   - ^K again takes the trigger off in the agent's instance (request 23), the event stays
#     on, and the next 2 calls' rows carry no mark;
#   - --stack at start-up: the trigger there before the first call, the rows marked, the
#     stack named;
#   - --user-stacks with it: the agent's instance's userstacktrace option on, and the row's
#     stack goes on after its kernel frames with its user frames, named on the agent's
#     machine (libc's syscall, __libc_start_call_main) after the workload exited, and the
#     flame pane (I) folds the 3 rows' stacks with those names;
#   - q: the agent and its instance are gone within 2 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

EV=syscalls:sys_enter_getppid
mkdir -p "$T/xdg"

# held TAG N: a workload of exactly N calls named TAG, held until release; its pid in pw.
held()
{
	rm -f "$T/go"
	spawn_count "$1" "$2"
	pw=$wl_pid
}
release()
{
	touch "$T/go"
	wait_pid_exit "$pw" 60 || fail "workload $pw did not finish"
}

# explorer ARGS...: over one agent (its pid in agent), EV capturing there.
explorer()
{
	rm -f "$T/a.agent"
	tmux_start 100 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "echo \$\$ >$T/a.agent; exec $KTOP --agent" "$@"
	wait_until 15 test -s "$T/a.agent" || fail "the agent did not start: $(tmux_screen | grep -v '^$' | head -5)"
	agent=$(cat "$T/a.agent")
	KTOP_PIDS+=("$agent")
	wait_capturing "$agent" syscalls sys_enter_getppid 15
	TRIG="$(instance_dir "$agent")/events/syscalls/sys_enter_getppid/trigger"
}

# stack_named TAG: Enter on the last row opens its stack, named from the agent's kallsyms.
stack_named()
{
	tmux_keys G Enter
	expect_text "^ syscalls:sys_enter_getppid at [0-9.]+: [0-9]+ fields?, stack innermost first" 5 \
		"$1: Enter did not open the row's stack"
	expect_text "^  do_syscall_64\+0x[0-9a-f]+(/0x[0-9a-f]+)? *$" 10 "$1: the stack does not name do_syscall_64"
	expect_text "^  entry_SYSCALL_64[a-z_]*\+0x" 5 "$1: the stack does not end at the syscall entry"
	tmux_keys Escape
	wait_for_no_text "stack innermost first" 5 || fail "$1: Esc did not close the stack"
}

# ---- ^K in the picker ------------------------------------------------------------------------
held rkst-on 3
explorer -p "$pw" -e "$EV"
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker does not show sys_enter_getppid ticked"
tmux_keys C-k
expect_text "syscalls:sys_enter_getppid: kernel stack on each row" 30 "^K did not say it put stacks on"
grep -q '^stacktrace:unlimited' "$TRIG" || fail "no stacktrace trigger in the agent's instance after ^K: $(cat "$TRIG")"
tmux_keys Escape Escape
expect_text "^ Events: all CPUs" 5 "the picker did not close"
release
expect_count "rkst-on-$pw +(syscalls:)?sys_enter_getppid\*( |$)" 3 10 "3 rows marked with a stack not shown"
expect_count "kernel_stack" 0 2 "stack records shown as rows"
stack_named "^K"

# ---- ^K again: the trigger gone, the event still on -----------------------------------------
tmux_keys e
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker lost sys_enter_getppid"
tmux_keys C-k
expect_text "syscalls:sys_enter_getppid: no more stacks" 10 "^K again did not take stacks off"
grep -q '^stacktrace' "$TRIG" && fail "the stacktrace trigger stayed in the agent's instance after ^K: $(cat "$TRIG")"
event_enabled "$agent" syscalls sys_enter_getppid || fail "^K off disabled the event in the agent's instance"
tmux_keys Escape Escape
expect_text "^ Events: all CPUs" 5 "the picker did not close"
held rkst-off 2
scope_key "pid=$pw"
expect_text "records only pid $pw" 10 "the scope did not move to the second workload"
tmux_keys Escape G
release
expect_count "rkst-off-$pw +(syscalls:)?sys_enter_getppid( |$)" 2 10 "the 2 calls after ^K off are not shown unmarked"
expect_count "rkst-off-$pw +(syscalls:)?sys_enter_getppid\*" 0 2 "rows marked after the trigger went"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance is still there 2 s after"
tmux_kill_server

# ---- --stack at start-up ---------------------------------------------------------------------
held rkst-opt 3
explorer -p "$pw" --stack "$EV"
_stacked() { grep -q '^stacktrace:unlimited' "$TRIG"; }
wait_until 15 _stacked || fail "--stack: no stacktrace trigger in the agent's instance: $(cat "$TRIG")"
expect_text "^ Events: all CPUs" 15 "--stack: the explorer did not start"
release
expect_count "rkst-opt-$pw +(syscalls:)?sys_enter_getppid\*( |$)" 3 10 "--stack: 3 rows marked with a stack not shown"
stack_named "--stack"
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance is still there 2 s after"
tmux_kill_server

# ---- --user-stacks at start-up: the user frames named on the agent's machine ---------------
held rkst-user 3
explorer -p "$pw" --stack "$EV" --user-stacks
_user_on() { [ "$(cat "$(instance_dir "$agent")/options/userstacktrace" 2>/dev/null)" = 1 ]; }
wait_until 15 _user_on || fail "--user-stacks: the agent's instance has no userstacktrace option on"
expect_text "^ Events: all CPUs" 15 "--user-stacks: the explorer did not start"
release
expect_count "rkst-user-$pw +(syscalls:)?sys_enter_getppid\*( |$)" 3 10 "--user-stacks: 3 rows marked with a stack not shown"
expect_count "user_stack" 0 2 "user stack records shown as rows"
# the workload is gone: its frames are named by what the agent sent, not this machine's /proc
stack_named "--user-stacks"
tmux_keys G Enter
expect_text "^  entry_SYSCALL_64[a-z_]*\+0x" 5 "--user-stacks: the kernel stack is not first"
expect_text "^  syscall *$" 10 "--user-stacks: the innermost user frame is not named syscall (libc's)"
expect_text "^  __libc_start_call_main *$" 5 "--user-stacks: the user stack's caller is not named"
tmux_keys Escape
# the flame pane on the rows' stacks: the user frames under the kernel's, named the same
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not open the pane on the rows' stacks"
tmux_keys z
_root_is_3() { tmux_screen | grep -Eq '^all  total 3 events'; }
wait_until 5 _root_is_3 || fail "the flame pane's root does not hold the 3 rows: $(tmux_screen)"
expect_text "(^|[ |])syscall([ |]|$)" 5 "the flame pane does not name the user frame syscall"
tmux_keys z
tmux_quit_clean
wait_until 2 all_gone "$agent" || fail "q: the agent or its instance is still there 2 s after"
assert_clean
pass
