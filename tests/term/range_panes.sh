#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# A time range scopes the panes whose data has times, and compares two ranges (issue 33),
# with trace-cmd report of the same files as the oracle:
#   1. a recording made here with stacks on getppid (10 calls of ktrp-a, then 15 of ktrp-b,
#      then 20 of ktrp-c): I opens the flame graph on its events' stacks, the root holding
#      every one (45); a range typed at @ around the a's (trace-cmd's first and last a
#      times, to the ns) leaves exactly trace-cmd's 10, the title says "in range";
#   2. b takes that range as the baseline; a second range over the b's and c's holds
#      trace-cmd's 35, drawn as a diff against the first: the tasks of the second range
#      were 0% of the baseline; X clears the range, the whole 45 again;
#   FlameScope's view: Enter on the heat map's first cell marks it as the range, and I's
#      flame graph holds exactly trace-cmd's stacks of that cell;
#   3. H on that recording counts field:syscalls:sys_enter_getppid.__syscall_nr from its
#      stored events: n=45, then trace-cmd's 10 and 35 in the two ranges, the second beside
#      the first after b (by comm: ktrp-a in the base column alone), 45 after X;
#   4. the call-tree pane on the kernel lab's function_graph recording (normal.dat): a
#      range from the second vfs_read's entry to just before the fourth's holds trace-cmd's
#      2 trees, an open one from the second's the 5 after it, X all 6;
#   5. live, the counters pane has no times: with a range marked its title says so, and
#      not after X.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"

EV=syscalls:sys_enter_getppid
trigger_set() { grep -q '^stacktrace' "$(instance_dir "$1")/events/syscalls/sys_enter_getppid/trigger" 2>/dev/null; }
root_total() { tmux_screen | sed -n 's/^all  total \([0-9]*\) events.*/\1/p'; }
_total_is() { [ "$(root_total)" = "$1" ]; }
total_is() { wait_until 10 _total_is "$1" || fail "$2: the root holds $(root_total) events, not $1:
$(tmux_screen)"; }
# range TEXT: typed at @
range() { tmux_prompt @ "Range \(" "$1"; }

# ---- the recording ------------------------------------------------------------------------
start_ktop "$T/rec.out" "$T/rec.err" -b --stack "$EV" --filter 'comm ~ "ktrp-*"' -o "$T/s.dat"
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_until 15 trigger_set "$kpid" || fail "no stacktrace trigger in ktop-$kpid"
# apart, so that a heat-map cell holds some of them (trace-cmd's times are the oracle
# whatever the gaps are)
"$KTOP_WORKLOAD" count 10 ktrp-a >/dev/null
sleep 0.1
"$KTOP_WORKLOAD" count 15 ktrp-b >/dev/null
sleep 0.1
"$KTOP_WORKLOAD" count 20 ktrp-c >/dev/null
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "ktop -b -o exited $KTOP_RC: $(head -c 400 "$T/rec.err")"
assert_clean
trace-cmd report -t "$T/s.dat" >"$T/s.rep" 2>/dev/null || fail "trace-cmd report s.dat failed"
# "TIME COMM" of each getppid, and how many stacks trace-cmd shows
awk '/sys_enter_getppid/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/)
	{ t = $i; sub(/:$/, "", t) } c = $1; sub(/-[0-9]+$/, "", c); print t, c }' \
	"$T/s.rep" >"$T/calls"
[ "$(wc -l <"$T/calls")" = 45 ] || fail "trace-cmd shows $(wc -l <"$T/calls") getppid calls, not 45"
[ "$(grep -c 'kernel_stack:' "$T/s.rep")" = 45 ] ||
	fail "trace-cmd shows $(grep -c 'kernel_stack:' "$T/s.rep") stacks, not 45"
# in_range A B: trace-cmd's calls from A to B (inclusive; their stacks are the graph's weight)
in_range() { awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b' "$T/calls" | wc -l; }
a1=$(awk '$2 == "ktrp-a" { print $1; exit }' "$T/calls")
a2=$(awk '$2 == "ktrp-a" { t = $1 } END { print t }' "$T/calls")
b1=$(awk '$2 == "ktrp-b" { print $1; exit }' "$T/calls")
c2=$(awk '{ t = $1 } END { print t }' "$T/calls")
na=$(in_range "$a1" "$a2")
nb=$(in_range "$b1" "$c2")
[ "$na" = 10 ] && [ "$nb" = 35 ] || fail "trace-cmd's ranges hold $na and $nb calls"

# ---- 1. the flame graph follows a range ----------------------------------------------------
tmux_start 100 30 -- -i "$T/s.dat"
expect_text "RECORDING s\.dat" 10 "the recording did not open"
tmux_keys I
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not open the recording's event stacks"
tmux_keys z
total_is 45 "the whole recording"
range "$a1..$a2"
total_is "$na" "the range $a1..$a2"
expect_text "in range" 3 "the flame graph's title does not say it follows the range"
expect_text "ktrp-a" 3 "the first range's task is not in the graph"
log "flame: the range $a1..$a2 holds $na stacks, as trace-cmd report"

# ---- 2. a second range against the first --------------------------------------------------
tmux_keys b
expect_text "baseline = this range" 3 "b did not take the range as the baseline"
range "$b1..$c2"
total_is "$nb" "the second range $b1..$c2"
expect_text "diff  in range" 3 "the second range is not drawn as a diff against the first"
_screen_has "ktrp-a" && fail "the first range's task is still drawn in the second"
tmux_keys Down
expect_text "^ktrp-[bc] +total [0-9]+ events .* base 0\.0% \+[0-9.]+$" 5 \
	"the second range's task is not new against the baseline (base 0%)"
tmux_keys X
total_is 45 "the range cleared"
wait_for_no_text "in range" 3 || fail "X left the flame graph's title in range"
log "flame: b, then $b1..$c2: $nb stacks as a diff against the first range; X: 45"
tmux_quit_clean
tmux_kill_server

# ---- FlameScope: a heat-map cell's stacks ------------------------------------------------
t0=$(awk '/\[[0-9]+\] +[0-9]+\.[0-9]+:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/)
	{ t = $i; sub(/:$/, "", t); split(t, p, "."); print p[1] p[2]; exit } }' "$T/s.rep")
ns() { awk -v t="$1" 'BEGIN { split(t, p, "."); printf "%s%s\n", p[1], p[2] }'; }
# in_cell A B: trace-cmd's calls from A to B ns after the first record
in_cell() { awk -v a=$((t0 + $1)) -v b=$((t0 + $2)) '{ split($1, p, "."); n = p[1] p[2] }
	n + 0 >= a + 0 && n + 0 <= b + 0' "$T/calls" | wc -l; }
tmux_start 100 30 -- -i "$T/s.dat"
expect_text "RECORDING s\.dat" 10 "the recording did not open"
tmux_keys %
expect_text "Heat map: all events per [0-9]+ ms" 10 "% opened no heat map"
ms=$(tmux_screen | sed -n 's/.*Heat map: all events per \([0-9]*\) ms.*/\1/p')
cell=$((ms * 1000000))
ncell=$(in_cell 0 $((cell - 1)))
tmux_keys Enter
expect_text "range: \+0\.000000\.\." 5 "Enter did not mark the heat map's first cell"
tmux_keys I
tmux_keys z
expect_text "Flame graph: event stacks \\(events\\)" 10 "I did not open the event stacks"
total_is "$ncell" "the first heat-map cell ($ms ms)"
log "FlameScope: the first $ms ms cell's flame graph holds its $ncell stacks, as trace-cmd report"
tmux_quit_clean
tmux_kill_server

# ---- 3. a recording's histogram follows a range ---------------------------------------------
tmux_start 120 30 -- -i "$T/s.dat"
expect_text "RECORDING s\.dat" 10 "the recording did not open"
tmux_prompt H "histogram> " "field:syscalls:sys_enter_getppid.__syscall_nr,by=comm"
expect_text "histogram field:.* via stored events" 10 "H did not count the recording's events"
tmux_keys z
expect_text "n=45 " 10 "the histogram does not count the recording's 45 calls"
range "$a1..$a2"
expect_text "n=$na " 10 "the histogram of $a1..$a2 does not count trace-cmd's $na"
expect_text "in range" 3 "the histogram's title does not say it follows the range"
tmux_keys b
expect_text "baseline = this range" 3 "b did not take the histogram's range as the baseline"
range "$b1..$c2"
expect_text "range n=$nb .* base n=$na " 10 \
	"the histogram of $b1..$c2 is not beside the first range's (trace-cmd: $nb and $na)"
tmux_keys v # the keys, each range's count in its column
expect_text "^ktrp-a +- +- +$na " 3 "the first range's task is not in the base column alone"
expect_text "^ktrp-c +20 " 3 "the second range's ktrp-c is not in its column"
tmux_keys B
expect_text "n=$nb " 10 "the histogram of $b1..$c2 does not count trace-cmd's $nb"
tmux_keys X
expect_text "n=45 " 10 "X did not give back the histogram of every call"
log "histogram: n=45, $na in the first range, $nb in the second, as trace-cmd report"
tmux_quit_clean
tmux_kill_server

# ---- 4. call trees follow a range ----------------------------------------------------------
FIX=$KTOP_SRCDIR/tests/fixtures/lab
trace-cmd report -t "$FIX/normal.dat" >"$T/n.rep" 2>/dev/null || fail "trace-cmd report normal.dat failed"
mapfile -t roots < <(awk '/funcgraph_entry: .*\|  vfs_read\(\) \{/ {
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(/:$/, "", t); print t } }' \
	"$T/n.rep")
[ "${#roots[@]}" = 6 ] || fail "trace-cmd shows ${#roots[@]} vfs_read roots in normal.dat, not 6"
# just before the fourth root: one ns less (the times are printed to the ns)
before4=$(awk -v t="${roots[3]}" 'BEGIN { split(t, p, "."); n = p[1] * 1000000000 + p[2] - 1;
	printf "%d.%09d", n / 1000000000, n % 1000000000 }')
tmux_start 100 30 -- -i "$FIX/normal.dat"
expect_text "RECORDING normal\.dat" 10 "normal.dat did not open"
tmux_keys T
expect_text "Call tree .* 6 trees" 10 "the tree pane does not hold normal.dat's 6 trees"
range "${roots[1]}..$before4"
expect_text "in range  2 trees" 10 "the range ${roots[1]}..$before4 does not hold trace-cmd's 2 trees"
range "${roots[1]}.."
expect_text "in range  5 trees" 10 "the open range from ${roots[1]} does not hold trace-cmd's 5 trees"
tmux_keys X
expect_text "Call tree +6 trees" 10 "X did not give back the 6 trees"
log "call trees: ${roots[1]}..$before4 2 trees, ${roots[1]}.. 5, cleared 6, as trace-cmd report"
tmux_quit_clean
tmux_kill_server

# ---- 5. live: the counters have no times ----------------------------------------------------
tmux_start 120 30 -- -e "$EV"
wait_capturing "$KTOP_PID" syscalls sys_enter_getppid
tmux_keys m
expect_text "Counters" 10 "m did not open the counters"
range "+0..+1"
expect_text "no times: the whole run, not the range" 5 "the counters do not say a range cannot scope them"
tmux_keys X
wait_for_no_text "no times: the whole run" 5 || fail "X did not take the counters' line away"
tmux_quit_clean
assert_clean
pass
