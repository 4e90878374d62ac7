#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The flight recorder's incidents in the explorer outlive the arming (issue 34), at 80x24, with
# --post 600 on tests/live/flightrec.sh's workload (one 120 ms sleep ending a 1.5 s period):
#   - the slow call fires; ^A disarms inside its post-roll: the incident is written with what
#     it has (summary.json: truncated), said with the count, and the incidents pane still
#     lists it, "not armed, 1 written", as it is on disk;
#   - ^A arms again from its prompt: the row stays; a second slow call fires, and q quits
#     inside its post-roll: that incident is written too, truncated, numbered 2;
#   - nothing is left in the kernel.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_root_tracefs
require_workload
require_python

NAME=fd$(($$ % 10000))
row_re="^ +[0-9]+ \\+[0-9.]+ +syscall>100ms,comm=f"
truncated() { grep -Eq '"post_s":600,"truncated":true,"post_kept_s":[0-9.]+\}' "$1"; }
workload_start wl spikes 120 1 1500 "$NAME"
tmux_start 80 24 -- --arm "syscall>100ms,comm=$NAME" --incidents "$T/inc" --pre 0.5 --post 600 \
	-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit --comm "$NAME"
expect_text "armed: syscall>100ms,comm=$NAME; incidents to" 20 "--arm did not arm"
tmux_keys '!'
expect_text "Incidents +armed, 0 written" 5 "! did not open the incidents pane"
workload_go wl 30
late=$(grep -c '^late=' "$T/wl.wl")
[ "$late" = 0 ] || log "a loaded machine stretched $late 1 ms sleeps: more incidents may fire"

# ---- ^A inside the post-roll: written, truncated, and listed after the disarm ----------------
tmux_keys C-a
expect_text "disarmed; [1-9][0-9]* incidents? in" 10 "^A did not disarm with the incident written"
n=$(find "$T/inc" -mindepth 1 -maxdepth 1 -name 'incident-*' | wc -l)
[ "$n" -ge 1 ] || fail "nothing on disk after the disarm"
for s in "$T"/inc/incident-*/summary.json; do truncated "$s" || fail "$s: $(cat "$s")"; done
expect_text "Incidents +not armed .*, $n written" 5 "the pane forgot its incidents after ^A"
expect_count "$row_re" "$n" 5 "the pane does not list the $n incidents on disk after ^A"
log "^A: $n incident(s) written truncated, still listed"

# ---- armed again: the rows stay; q inside the second post-roll writes it ---------------------
workload_start wl2 spikes 120 1 1500 "$NAME"
tmux_prompt C-a "Arm \\(" "syscall>100ms,comm=$NAME"
expect_text "armed: syscall>100ms,comm=$NAME" 20 "the prompt's condition did not arm"
expect_text "Incidents +armed, $n written" 5 "arming again forgot the incidents"
workload_go wl2 30
tmux_quit_clean
m=$(find "$T/inc" -mindepth 1 -maxdepth 1 -name 'incident-*' | wc -l)
[ "$m" -gt "$n" ] || fail "q inside the post-roll wrote nothing: $(ls "$T/inc")"
last=$(ls -d "$T"/inc/incident-$((n + 1))-* 2>/dev/null) ||
	fail "no incident $((n + 1)) (numbers go on after a re-arm): $(ls "$T/inc")"
truncated "$last/summary.json" || fail "$last: $(cat "$last/summary.json")"
log "q: incident $((n + 1)) written truncated"
assert_clean
pass
