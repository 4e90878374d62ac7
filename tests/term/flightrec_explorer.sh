#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The flight recorder in the explorer (issue 34), at 80x24, on tests/live/flightrec.sh's
# workload: 1 ms sleeps with one 120 ms sleep ending each 1.5 s period, four times.
#   - --arm 'syscall>100ms,comm=NAME' from the command line arms as the explorer starts (the
#     status line says so); ! opens the incidents pane, whose title counts the incidents
#     written as the directories on disk do: at least four (a loaded machine may stretch a
#     1 ms sleep past 100 ms, which the workload reports), and no more than those and the
#     late ones; each row shown (zoomed) holds the value, task, CPU and loss of its
#     summary.json;
#   - Enter on the first row marks that incident's window as the time range: the header's
#     range is as long as the window summary.json gives;
#   - the timeline (V), zoomed out, marks each incident with a '!' on its marks row;
#   - ^A disarms (said, with the count); ^A again asks for conditions: a bad one is one line
#     and arms nothing, a good one arms (said);
#   - q quits clean, nothing left in the kernel.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_root_tracefs
require_workload
require_python
# js FILE EXPR: EXPR of summary.json's object d
js() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

NAME=fx$(($$ % 10000))
N=4
workload_start wl spikes 120 "$N" 1500 "$NAME"
tmux_start 80 24 -- --arm "syscall>100ms,comm=$NAME" --incidents "$T/inc" --pre 1 --post 0.3 \
	-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit --comm "$NAME"
expect_text "armed: syscall>100ms,comm=$NAME; incidents to" 20 "--arm did not arm"
tmux_keys '!'
expect_text "Incidents +armed, 0 written" 5 "! did not open the incidents pane"
workload_go wl 30

# ---- the pane: one row per incident, as on disk -----------------------------------------------
late=$(grep -c '^late=' "$T/wl.wl")
row_re="^ +[0-9]+ \\+[0-9.]+ +syscall>100ms,comm=f"
on_disk() { find "$T/inc" -mindepth 1 -maxdepth 1 -name 'incident-*' | wc -l; }
titled() { tmux_screen | sed -n 's/.*Incidents.* armed, \([0-9]*\) written.*/\1/p' | head -1; }
_all_in() { local k; k=$(titled); [ -n "$k" ] && [ "$k" -ge "$N" ] && [ "$k" = "$(on_disk)" ]; }
wait_until 40 _all_in || fail "the title counts $(titled), $(on_disk) on disk, want $N or more"
want=$(titled)
[ "$want" -le $((N + late)) ] || fail "$want incidents from $N slow sleeps and $late late ones"
_rows_shown() { [ "$(tmux_screen | grep -Ec "$row_re")" -ge "$((want < 10 ? want : 10))" ]; }
tmux_keys z
wait_until 5 _rows_shown || fail "the zoomed pane shows too few rows: $(tmux_screen)"
tmux_screen | grep -E "$row_re" >"$T/rows"
while read -r n _ _ value unit task cpu lost; do
	sum=$(echo "$T"/inc/incident-"$n"-*/summary.json)
	[ -f "$sum" ] || fail "no summary.json for row $n"
	ms=$(js "$sum" '"%.3f" % (d["value_ns"] / 1e6)')
	awk -v a="$value" -v b="$ms" 'BEGIN { exit !(a - b < 0.0011 && b - a < 0.0011) }' ||
		fail "row $n's value $value $unit, summary.json's $ms ms"
	[ "$task" = "$NAME/$(js "$sum" 'd["task"]["tid"]')" ] && [ "$cpu" = "$(js "$sum" 'd["cpu"]')" ] &&
		[ "$lost" = "$(js "$sum" 'd["loss"]["kernel_events"]')" ] ||
		fail "row $n: $task cpu $cpu lost $lost; summary.json: $(cat "$sum")"
done <"$T/rows"
log "the pane lists $want incidents, each as its summary.json says ($late late sleeps)"

# ---- Enter: the first incident's window is the time range -------------------------------------
sum=$(echo "$T"/inc/incident-1-*/summary.json)
tmux_keys z Home Enter
expect_text "^range: \\+[0-9.]+\\.\\.\\+[0-9.]+ " 5 "Enter marked no range"
read -r a b <<<"$(tmux_screen | sed -n 's/^range: +\([0-9.]*\)\.\.+\([0-9.]*\) .*/\1 \2/p')"
len=$(js "$sum" '(d["window"]["to_ns"] - d["window"]["from_ns"]) // 1000')
awk -v a="$a" -v b="$b" -v l="$len" 'BEGIN { d = (b - a) * 1e6; exit !(d - l < 2 && l - d < 2) }' ||
	fail "range +$a..+$b is not the window's $len us: $(cat "$sum")"
log "Enter: the range +$a..+$b is incident 1's window"

# ---- the timeline marks each incident ---------------------------------------------------------
marks() { tmux_screen | sed -n 5p | tr -cd '!' | wc -c; }
# a late sleep may share a column with a slow one: the slow ones, 1.5 s apart, do not
marks_all() { tmux_keys _; [ "$(marks)" -ge "$N" ]; }
tmux_keys X V z
expect_text "Timeline: " 5 "V opened no timeline"
wait_until 20 marks_all || fail "the timeline marks $(marks) incidents, want $want: $(tmux_screen)"
log "the timeline, zoomed out, marks $(marks) incidents"
tmux_keys z Escape

# ---- ^A disarms, then arms from its prompt ------------------------------------------------------
tmux_keys C-a
expect_text "disarmed; $want incidents in" 5 "^A did not disarm"
tmux_prompt C-a "Arm \\(" "syscall>abc"
expect_text "arm: duration 'abc'" 5 "a bad condition was not said"
tmux_prompt C-a "Arm \\(" "offcpu>200ms,comm=$NAME"
expect_text "armed: offcpu>200ms,comm=$NAME" 20 "the prompt's condition did not arm"
tmux_quit_clean
assert_clean
pass
