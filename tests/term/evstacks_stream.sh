#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Stacks on events in the explorer (80x24): ^K on syscalls:sys_enter_getppid in the picker
# puts a stacktrace trigger on it in ktop's instance; a workload's 3 calls then show as 3
# rows marked '*' (the stack records themselves are not rows); Enter on a row opens its
# stack below the rows, innermost first, with the syscall entry path named as the kernel
# names it (do_syscall_64+OFF/SIZE); Esc closes it. ^K again removes the trigger (the event
# stays on), and the next calls' rows carry no mark. q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid --filter 'comm ~ "ktse-*"'
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
TRIG="$(instance_dir "$pid")/events/syscalls/sys_enter_getppid/trigger"
expect_text "^ktop-$pid " 10 "no header naming ktop-$pid"

# ---- ^K in the picker: the trigger in ktop's instance ---------------------------------------
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker does not show sys_enter_getppid ticked"
tmux_keys C-k
expect_text "syscalls:sys_enter_getppid: kernel stack on each row" 5 "^K did not say it put stacks on"
grep -q '^stacktrace:unlimited' "$TRIG" || fail "no stacktrace trigger after ^K: $(cat "$TRIG")"
tmux_keys Escape Escape # the text, the picker
expect_text "^ Events: all CPUs" 5 "the picker did not close"

# ---- rows marked, the stack opened ----------------------------------------------------------
"$KTOP_WORKLOAD" count 3 ktse-on >/dev/null
expect_count "ktse-on-[0-9]+ +sys_enter_getppid\*( |$)" 3 10 "3 rows marked with a stack not shown"
expect_count "kernel_stack" 0 2 "stack records shown as rows"
expect_text "Events: all CPUs \| \*: stack, Enter" 5 "the title does not say what * means"
tmux_keys Up Enter
expect_text "^ syscalls:sys_enter_getppid at [0-9.]+: [0-9]+ fields?, stack innermost first" 5 \
	"Enter did not open the row's stack"
expect_text "^  do_syscall_64\+0x[0-9a-f]+(/0x[0-9a-f]+)? *$" 5 "the stack does not name do_syscall_64"
expect_text "^  entry_SYSCALL_64[a-z_]*\+0x" 5 "the stack does not end at the syscall entry"
tmux_keys Escape
wait_for_no_text "stack innermost first" 5 || fail "Esc did not close the stack"

# ---- ^K again: the trigger gone, the event still on -----------------------------------------
tmux_keys e
tmux_text sys_enter_getppid
expect_text "\[x\] +sys_enter_getppid" 5 "the picker lost sys_enter_getppid"
tmux_keys C-k
expect_text "syscalls:sys_enter_getppid: no more stacks" 5 "^K again did not take stacks off"
grep -q '^stacktrace' "$TRIG" && fail "the stacktrace trigger stayed after ^K: $(cat "$TRIG")"
event_enabled "$pid" syscalls sys_enter_getppid || fail "^K off disabled the event"
tmux_keys Escape Escape G
"$KTOP_WORKLOAD" count 2 ktse-off >/dev/null
expect_count "ktse-off-[0-9]+ +sys_enter_getppid( |$)" 2 10 "the 2 calls after ^K off are not shown unmarked"
expect_count "ktse-off-[0-9]+ +sys_enter_getppid\*" 0 2 "rows marked after the trigger went"

tmux_quit_clean
assert_clean
pass
