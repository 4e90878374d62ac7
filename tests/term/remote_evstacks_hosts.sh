#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Stacks on events over two made-up agents (tests/remote/fake_peer.py ... stacks), no
# kernel, 100x24: each agent's kernel is laid out elsewhere (via2's 0x30000000 above via1's,
# as KASLR does), and each sends one getppid-like event with its kernel stack, one frame at
# its own do_syscall_64+0x10. --stack asks both for their kallsyms; each stack's frame is
# named from its own host's (do_syscall_64+0x10/0x1000 on both), not from the first host's
# (in which via2's address names nothing). With --user-stacks each also sends the event's user
# stack, the same pid and addresses on both, and names those frames differently: each row's
# user frames are named as its own host named them, in the stack pane and in the flame pane
# (I), where both hosts' kernel frames are named do_syscall_64 too.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
tmux_start 100 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "exec $FAKE 0 250000000 swept stacks" \
	--via "exec $FAKE 3000000000 0 swept stacks" --stack raw_syscalls:sys_enter --user-stacks
expect_text "^2 hosts  tracer: nop" 15 "the header does not say it shows 2 hosts"
expect_count "^[0-9.]+ via[12] .*fakework-4242 +(raw_syscalls:)?sys_enter\*" 2 10 \
	"not one row marked with a stack per host"

# the stream's last row: via1's (via2's clock is 3 s ahead: its rows come first)
tmux_keys G Enter
expect_text "^ raw_syscalls:sys_enter at [0-9.]+: [0-9]+ fields?, stack innermost first" 5 "Enter did not open via1's stack"
expect_text "^  do_syscall_64\+0x10/0x1000 *$" 5 "via1's frame is not its do_syscall_64+0x10"
expect_text "^  fake_work_0 *$" 5 "via1's user frame is not named as via1 named it"
expect_text "^  fake_main_0 *$" 5 "via1's outer user frame is not named as via1 named it"
tmux_keys Escape
wait_for_no_text "stack innermost first" 5 || fail "Esc did not close the stack"

# the flame pane on both hosts' rows: each stack's frames named by its own host
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not open the pane on the rows' stacks"
tmux_keys z
expect_text "^all  total 2 events" 5 "the flame pane's root does not hold both hosts' rows"
expect_text "fake_main_0" 5 "via1's user frames are not in the flame pane as via1 named them"
expect_text "fake_main_3" 5 "via2's user frames are not in the flame pane as via2 named them"
[ "$(tmux_screen | grep -o 'do_syscall_64' | wc -l)" = 2 ] && ! tmux_screen | grep -q '0xffffffff' ||
	fail "a host's kernel frame is not named from its own kallsyms in the flame pane: $(tmux_screen)"
tmux_keys z I

# via2's row with a stack: the row filter shows via2's CPUs alone, its last row that one
n=2 # the fake agents' CPUs each
tmux_keys F
expect_text "^show only" 5 "F did not open the row filter prompt"
tmux_text "cpu=$n-$((2 * n - 1))"
tmux_keys Enter G Enter
expect_text "^ raw_syscalls:sys_enter at [0-9.]+: [0-9]+ fields?, stack innermost first" 5 "Enter did not open via2's stack"
expect_text "^  do_syscall_64\+0x10/0x1000 *$" 5 \
	"via2's frame is not named from its own kallsyms: $(tmux_screen | grep -A1 'stack innermost first' | tail -1)"
expect_text "^  fake_work_3 *$" 5 \
	"via2's user frame (the same pid and address as via1's) is not named as via2 named it"
expect_text "^  fake_main_3 *$" 5 "via2's outer user frame is not named as via2 named it"
tmux_keys Escape
tmux_quit_clean
pass
