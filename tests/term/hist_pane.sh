#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The histogram pane, built from the keyboard at 80x24: H opens a prompt, a bad spec is
# refused in one line and nothing else changes, Tab lists and completes the built-ins
# (lock-contention among them), syscall-latency builds a pane beside the
# stream; its bars fill with the workload's sleeps; v shows the keys (the workload's
# clock_nanosleep among them) and the heatmap; i switches interval / total; Z freezes;
# Esc closes the pane and its BPF programs go; --hist opens a pane at start, one the kernel
# refuses says why in its pane; q quits cleanly and no program of ktop's is left.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
require_workload

# Sleeps of 1 ms all along, so every tick has values, clock_nanosleep among the busiest.
"$KTOP_WORKLOAD" sleep 1 1000000 ktop-hist-term >/dev/null &
CLEANUP_PIDS+=("$!")

mkdir -p "$T/xdg"
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 5
pid=$KTOP_PID
expect_text "Events" 10 "ktop did not start"
[ -z "$(prog_ids "$pid")" ] || fail "BPF programs loaded before any histogram was asked for"

# ---- a bad spec: one line, nothing opened ------------------------------------------------------
tmux_keys H
expect_text "histogram> syscall-latency" 5 "H opened no prompt with a default"
tmux_keys C-u
tmux_text "field:sched:sched_switch.no_such_field"
tmux_keys Enter
expect_text "sched:sched_switch has no field 'no_su" 5 "a bad field was not refused with its reason"
[ -z "$(prog_ids "$pid")" ] || fail "a refused histogram left programs loaded"

# ---- syscall latency from the keyboard ---------------------------------------------------------
tmux_keys Enter
expect_text "histogram> " 3 "Enter in the pane opened no prompt"
# Tab on an empty prompt lists the built-ins in the pane; on "loc" it completes the one
tmux_keys C-u Tab
expect_text "lock-contention" 5 "Tab did not list the built-ins"
tmux_text "loc"
tmux_keys Tab
expect_text "histogram> lock-contention" 5 "Tab did not complete lock-contention"
tmux_keys C-u
tmux_text "syscall-latency"
tmux_keys Enter
expect_text "Hist syscall-latency \[(tp_btf|raw_tp|tracepoint)\]" 10 "no histogram pane titled with its variant"
wait_progs "$pid" 2
mapfile -t PROGS < <(prog_ids "$pid")
expect_text "all [0-9]+ keys: n=[1-9][0-9]* avg=" 5 "no stats line with a count"
# bars: a bucket label, a count, a bar
expect_text "[0-9.]+(ns|us|ms) +[1-9][0-9]* +(█|#)" 5 "no bars"

# ---- keys view, then heatmap; per tick and total -----------------------------------------------
tmux_keys v z
expect_text "syscall +\*count +avg +p50 +p99 +max" 5 "v showed no key table sorted by count"
expect_text "clock_nanosleep +[1-9][0-9]* " 5 "the workload's clock_nanosleep is not among the keys"
tmux_keys s
expect_text "syscall +count +avg +p50 +\*p99 +max" 3 "s did not sort by p99"
tmux_keys i
expect_text "keys total" 3 "i did not switch to totals"
tmux_keys v
expect_text "heatmap interval" 3 "v did not reach the heatmap"
wait_for_text "(░|▒|▓|█|[.:*#]).*" 5 || fail "the heatmap has no shaded cell"

# ---- freeze: the numbers stop ------------------------------------------------------------------
tmux_keys v i z
expect_text "bars interval" 3 "back to bars"
tmux_keys Z
expect_text "FROZEN" 3 "Z did not freeze"
stats() { tmux_screen | grep -Eo 'all [0-9]+ keys: n=[0-9]+' | head -1; }
s1=$(stats)
sleep 1.5
[ "$(stats)" = "$s1" ] || fail "a frozen pane changed: '$s1' -> '$(stats)'"
tmux_keys Z
_moved() { [ "$(stats)" != "$s1" ]; }
wait_until 5 _moved || fail "unfrozen, the figures did not move from '$s1'"

# ---- Esc closes the pane and its programs go ---------------------------------------------------
tmux_keys Escape
wait_for_no_text "Hist syscall-latency" 3 || fail "Esc did not close the pane"
assert_progs_gone "${PROGS[@]}"
assert_no_sanitizer_on_screen
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not quit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
tmux_kill_server

# ---- --hist opens panes at start; q leaves no program ------------------------------------------
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 5 --hist 'runq-latency' --hist 'syscall-latency,by=comm' --hist func:vfs_read
pid=$KTOP_PID
expect_text "Hist runq-latency \[tp_btf\]" 10 "--hist opened no runq-latency pane"
expect_text "Hist syscall-latency,by=comm" 5 "the second --hist has no pane"
# a kernel without fentry and kprobes: the third pane says why, the others run on
# (the reason is wrapped over the pane's rows: read them as one text)
_reason_shown() { tmux_screen | sed 's/ *$//' | tr -d '\n' | grep -q "func:vfs_read: fentry: .*not permitted.*kprobe"; }
if ! _screen_has "Hist func:vfs_read"; then
	wait_until 5 _reason_shown || fail "the refused func: pane gives no reason: $(tmux_screen)"
fi
wait_progs "$pid" 4
mapfile -t PROGS < <(prog_ids "$pid")
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not quit on q"
assert_progs_gone "${PROGS[@]}"
assert_clean
pass
