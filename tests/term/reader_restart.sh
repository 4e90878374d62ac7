#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A reader that cannot start closes only what it opened (200x24). A tracer switch in the
# tracer pane restarts the reader (the kernel refuses a switch under an open trace_pipe_raw),
# whether the kernel then takes the tracer or not. Here the restart's first per-CPU open
# fails for real: ktop's soft RLIMIT_NOFILE is lowered, with prlimit, to the number its CPU 0
# pipe had; the new reader's files take the numbers the old one freed, in the same order, so
# that open is the one that fails. Then:
#   - the status line says in one line that the capture stopped, which file could not be
#     opened and why;
#   - stdin is still the terminal and the keys still work: the CPUs the failed start never
#     reached hold no descriptor (a calloc'd 0 once made it close stdin, and the explorer
#     quit on the dead terminal);
#   - with the limit back, Enter on the current tracer starts a reader again and events
#     arrive; q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
command -v prlimit >/dev/null || skip "needs prlimit (util-linux)"
[ "$(nproc)" -ge 2 ] || skip "one CPU: no CPU after the failing one to leave unopened"

tmux_start 200 24 -- -d 1 -e sched:sched_switch
pid=$KTOP_PID
wait_capturing "$pid" sched sched_switch
expect_text "Events: all CPUs" 10 "ktop did not start"
# the pane's rows are the instance's available_tracers, in order
tracers=$(tr ' ' '\n' <"$(instance_dir "$pid")/available_tracers" | grep -v '^$')
other=$(grep -vx nop <<<"$tracers" | head -n1)
[ -n "$other" ] || skip "the instance offers no tracer but nop"
row_of() { grep -nx "$1" <<<"$tracers" | cut -d: -f1; }

tmux_keys R
expect_text "Tracers +current: nop" 5 "R did not open the tracer pane"
for ((i = 1; i < $(row_of "$other"); i++)); do tmux_keys Down; done

# The descriptor number of the reader's CPU 0 pipe: the new reader asks for it again.
fd0=
for f in /proc/"$pid"/fd/*; do
	case $(readlink "$f") in */per_cpu/cpu0/trace_pipe_raw) fd0=${f##*/} ;; esac
done
[ -n "$fd0" ] || fail "no per_cpu/cpu0/trace_pipe_raw open in ktop $pid"
tty0=$(readlink /proc/"$pid"/fd/0)
limit=$(prlimit --pid "$pid" --nofile --raw --noheadings -o SOFT)
prlimit --pid "$pid" --nofile="$fd0:" || fail "prlimit refused"
log "switching to $other with RLIMIT_NOFILE $fd0 (was $limit): CPU 0's pipe was fd $fd0"
tmux_keys Enter
msg="the capture stopped: cannot open per_cpu/cpu0/trace_pipe_raw of ktop-$pid: Too many open files"
expect_text "$msg" 5 "no one-line reason for the reader that could not start"
[ "$(readlink /proc/"$pid"/fd/0)" = "$tty0" ] ||
	fail "ktop's stdin ($tty0) was closed by the failed start: fd 0 is $(readlink /proc/"$pid"/fd/0)"

# The keys still reach ktop: with the limit back, Enter on the current tracer restarts.
prlimit --pid "$pid" --nofile="$limit:" || fail "prlimit refused"
cur=$(cat "$(instance_dir "$pid")/current_tracer")
for ((i = $(row_of "$other"); i > $(row_of "$cur"); i--)); do tmux_keys Up; done
for ((i = $(row_of "$other"); i < $(row_of "$cur"); i++)); do tmux_keys Down; done
tmux_keys Enter
expect_text "ktop's instance now traces with $cur" 5 "the keys did not restart the capture"
tmux_keys Escape
wait_for_no_text "Tracers +current" 3 || fail "Esc did not close the tracer pane"
held() { tmux_screen | sed -n 's/.* \([0-9][0-9]*\) held .*/\1/p' | head -n1; }
h1=$(held)
_more() { [ "$(held)" -gt "$h1" ]; }
wait_until 5 _more || fail "no events arrive from the restarted reader"

tmux_quit_clean
assert_clean
pass
