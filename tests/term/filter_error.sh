#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A filter that passes ktop's own check but the kernel rejects (an integer too large),
# entered in the picker (80x24): the pane shows the kernel's own message with its command
# and a caret under the offending token, the status line says the filter was
# rejected; sched:sched_switch, enabled before, stays enabled with no filter, and its rows
# keep arriving. Then a good filter is accepted and lands in ktop's instance; Esc closes
# the detail; q quits; the kernel is clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

tmux_start 80 24 -- -d 2 -e sched:sched_switch
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
F="$(instance_dir "$pid")/events/sched/sched_switch/filter"
expect_text "^ktop-$pid .*enabled: 1" 10 "no header with one enabled event"
expect_text "sched_switch +[A-Z|+]+ ==> " 10 "no sched_switch rows in the stream"

tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text sched:sched_switch
expect_text "\[x\] +sched_switch" 5 "the picker does not show sched_switch ticked"
tmux_keys Enter
# The detail: the event's fields and its filter, and the prompt on the status line.
expect_text "sched:sched_switch +filter: none" 5 "Enter did not show the event's filter"
expect_text "prev_pid" 5 "Enter did not list the event's fields"
expect_text "^filter sched:sched_switch>" 5 "no filter prompt on the status line"

tmux_text 'prev_pid > 99999999999999999999'
tmux_keys Enter
# The kernel's message, command and caret, in the pane.
expect_text "Illegal integer value" 5 "the kernel's message is not shown"
expect_text "Command: prev_pid > 9+" 5 "the kernel's command line is not shown"
screen=$(tmux_screen)
cmd_line=$(grep -m1 'Command: prev_pid >' <<<"$screen")
caret_line=$(grep -A1 -m1 'Command: prev_pid >' <<<"$screen" | sed -n 2p)
[[ $caret_line =~ ^\ *\^\ *$ ]] || fail "no caret line under the command: '$caret_line'"
caret_prefix=${caret_line%%^*}
caret_col=${#caret_prefix}
cmd_prefix=${cmd_line%%Command: *}
cmd_col=$((${#cmd_prefix} + 9))
cmd_end=$((cmd_col + 31))
if [ "$caret_col" -lt "$cmd_col" ] || [ "$caret_col" -gt $((cmd_end + 2)) ]; then
	fail "the caret (column $caret_col) is not under the command (columns $cmd_col-$cmd_end)"
fi
expect_text "filter rejected" 3 "the status line does not say the filter was rejected"

# Nothing already enabled or captured is lost.
event_enabled "$pid" sched sched_switch || fail "sched:sched_switch was disabled by the rejected filter"
[ "$(tr -d '[:space:]' <"$F")" = none ] || fail "the rejected filter left '$(cat "$F")' in place of none"
held() { tmux_screen | sed -n 's/.* \([0-9][0-9]*\) held .*/\1/p' | head -n1; }
h1=$(held)
[ -n "$h1" ] || fail "no 'held' count in the stream title"
_more() { [ "$(held)" -gt "$h1" ]; }
wait_until 5 _more || fail "rows stopped arriving after the rejected filter (held stays $h1)"
expect_text "sched:sched_switch +filter: none" 3 "the detail no longer says the filter is none"

# A good filter is accepted and set in ktop's instance.
tmux_keys Enter
expect_text "^filter sched:sched_switch>" 5 "Enter did not reopen the filter prompt"
tmux_keys C-u
tmux_text 'prev_pid >= 0'
tmux_keys Enter
expect_text "filter on sched:sched_switch: prev_pid >= 0" 5 "no message for the accepted filter"
[ "$(cat "$F")" = "prev_pid >= 0" ] || fail "ktop-$pid's filter is '$(cat "$F")', expected 'prev_pid >= 0'"
wait_for_no_text "Illegal integer value" 3 || fail "the old error stays after a good filter"
event_enabled "$pid" sched sched_switch || fail "sched:sched_switch disabled after the good filter"
assert_top_untouched

# F10 quits from anywhere, the picker included.
tmux_keys F10
tmux_wait_exit 10 || fail "F10 did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC after F10"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
