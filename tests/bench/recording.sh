#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, recordings: a 1 GB trace.dat (tests/helpers/mkrecording, 15.5 M sched_switch
# events on 2 CPUs) opened with ktop -i --memory 64M in an 80x24 tmux pane: time to the
# first screen, End (the last event on screen, the index pass still running), Home after
# End, ktop's peak resident size; the timeline (L): its first screen, a zoom and a pan frame,
# its index through, its peak resident size; then ktop -b -q -i reading it all; then
# timeline_bench on the file (the timeline's first screen, frames and index in CPU time). Each time is set
# against what the user would run instead, in the same round: trace-cmd report | head for
# the first rows, trace-cmd report | tail -1 for the last; and the first screen against its
# measurement floor (the same pane running a command that prints the first row at once).
# BENCH_ROUNDS rounds (3), medians with their range. Targets: first screen <= 100 ms (the
# targets table's row), End < 1 s, peak RSS within --memory plus ktop's fixed cost. Numbers
# only, never pass/fail.
# Environment: KTOP, MKRECORDING, FIXTURES; BENCH_REC_EVENTS; BENCH_ROUNDS; BENCH_TARGETS;
# TMPDIR (the file goes there).
set -u
. "$(dirname "$0")/lib.sh"
KTOP=${KTOP:?KTOP must name ktop}
MK=${MKRECORDING:?MKRECORDING must name tests/helpers/mkrecording}
FIXTURES=${FIXTURES:?FIXTURES must name tests/unit/fixtures/tracing}
N=${BENCH_REC_EVENTS:-15500000}
MEM=64M

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/ktop-bench-rec.XXXXXX") || exit 1
bench_own_targets "$TMPD/targets"
tmx() { tmux -S "$TMPD/tmux.sock" "$@"; }
trap 'pane_close 2>/dev/null; rm -rf "$TMPD"' EXIT
# the file is ~70 bytes an event; keep twice that free
need_kb=$(( N * 140 / 1024 ))
avail_kb=$(df -Pk "$TMPD" | awk 'NR == 2 { print $4 }')
if [ "${avail_kb:-0}" -lt "$need_kb" ]; then
	echo "bench: recordings: $((need_kb / 1024)) MiB needed in $TMPD, $((avail_kb / 1024)) free" >&2
	target_row "first screen of a 1 GiB recording, 80x24" - "<= 100 ms" \
		"not measured ($((need_kb / 1024)) MiB of disk needed in $TMPD)"
	exit 0
fi
now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }
# until PATTERN is on the screen (30 s at most); prints the milliseconds since $1
wait_screen() {
	local t0=$1 pat=$2 end=$(( $(now_ms) + 30000 ))
	while [ "$(now_ms)" -lt "$end" ]; do
		tmx capture-pane -p -t b 2>/dev/null | grep -Eq -- "$pat" && { echo $(( $(now_ms) - t0 )); return 0; }
		sleep 0.005
	done
	echo "timeout"
}
# until the screen line matching LINE differs from OLD (30 s at most); ms since $1
wait_change() {
	local t0=$1 line=$2 old=$3 end=$(( $(now_ms) + 30000 )) cur
	while [ "$(now_ms)" -lt "$end" ]; do
		cur=$(tmx capture-pane -p -t b 2>/dev/null | grep -E -m1 -- "$line")
		[ -n "$cur" ] && [ "$cur" != "$old" ] && { echo $(( $(now_ms) - t0 )); return 0; }
		sleep 0.005
	done
	echo "timeout"
}
screen_line() { tmx capture-pane -p -t b 2>/dev/null | grep -E -m1 -- "$1"; }
# the milliseconds a shell pipeline takes
time_ms() { local t0; t0=$(now_ms); bash -c "$1" >/dev/null 2>&1; echo $(( $(now_ms) - t0 )); }

echo "recordings: writing a ${N}-event trace.dat in $TMPD ..."
if ! "$MK" "$FIXTURES" "$TMPD/big.dat" "$N" 2; then
	echo "bench: mkrecording failed" >&2
	target_row "first screen of a 1 GiB recording, 80x24" - "<= 100 ms" "not measured (mkrecording failed)"
	exit 0
fi
size=$(stat -c %s "$TMPD/big.dat")
cat "$TMPD/big.dat" >/dev/null # both sides start from the page cache
last=$(( N - 1 ))
last_us=$(( last * 10 + (last / 10000) * 150000 ))
last_ts=$(printf '%d.%06d' $((last_us / 1000000)) $((last_us % 1000000)))
first_re="^ *0\.000000 \[000\] +task1000-1000 "

declare -A F=() # F[figure:round]
# one_round R: every figure of round R, trace-cmd and ktop in turn
one_round() {
	local r=$1 t0 pid batch res
	F[tc_head:$r]=$(time_ms "trace-cmd report '$TMPD/big.dat' | head -n 20")
	# the first screen: from the exec to the first event's row in what the pane writes
	res=$(pane_time b "$first_row" 5 sh -c "echo '  0.000000 [000]   $first_row floor'; exec sleep 600") &&
		F[floor:$r]=$res
	if ! res=$(pane_time b "$first_row" 30 "$KTOP" -i "$TMPD/big.dat" --memory $MEM); then
		echo "bench: recordings: round $r: $res" >&2
		return
	fi
	F[first:$r]=$res
	pid=$(tmx display-message -p -t b '#{pane_pid}')
	wait_screen "$(now_ms)" "$first_re" >/dev/null
	t0=$(now_ms)
	tmx send-keys -t b End
	F[end:$r]=$(wait_screen "$t0" "^ *${last_ts//./\\.} ")
	F[reading:$r]=$(tmx capture-pane -p -t b | grep -q "~[0-9]* held" && echo "yes" || echo "no")
	t0=$(now_ms)
	tmx send-keys -t b Home
	F[home:$r]=$(wait_screen "$t0" "$first_re")
	# the peak once the index is through (the row count is exact then)
	t0=$(now_ms)
	F[indexed:$r]=$(wait_screen "$t0" " [0-9]+ held")
	tmx send-keys -t b End
	F[end2:$r]=$(wait_screen "$(now_ms)" "^ *${last_ts//./\\.} ")
	F[hwm:$r]=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$pid/status" 2>/dev/null)
	tmx send-keys -t b q
	sleep 0.3
	timeline_round "$r"
	F[tc_tail:$r]=$(time_ms "trace-cmd report '$TMPD/big.dat' | tail -n 1")
	batch=$( { /usr/bin/time -f "%e %M" "$KTOP" -b -q -i "$TMPD/big.dat" --memory $MEM >/dev/null; } 2>&1 | tail -n1)
	F[batch:$r]=$(awk -v s="${batch%% *}" 'BEGIN { printf "%d", s * 1000 }')
	F[batch_rss:$r]=$(( ${batch##* } / 1024 ))
}
# timeline_round R: the timeline (V) on the same file: its first screen with events drawn, a
# zoom (+) and a pan (>) frame, the index through, and ktop's peak resident size then
timeline_round() {
	local r=$1 t0 pid old
	pane_time b "$first_row" 30 "$KTOP" -i "$TMPD/big.dat" --memory $MEM >/dev/null || return
	pid=$(tmx display-message -p -t b '#{pane_pid}')
	t0=$(now_ms)
	tmx send-keys -t b V
	F[tl_first:$r]=$(wait_screen "$t0" "^sched_sw +[^ ]")
	old=$(screen_line "Timeline: ")
	t0=$(now_ms)
	tmx send-keys -t b +
	F[tl_zoom:$r]=$(wait_change "$t0" "Timeline: " "$old")
	old=$(screen_line "^cursor ")
	t0=$(now_ms)
	tmx send-keys -t b '>'
	F[tl_pan:$r]=$(wait_change "$t0" "^cursor " "$old")
	t0=$(now_ms)
	F[tl_indexed:$r]=$(wait_screen "$t0" "Timeline: .* SCROLL")
	F[tl_hwm:$r]=$(awk '/^VmHWM/ { print int($2 / 1024) }' "/proc/$pid/status" 2>/dev/null)
	tmx send-keys -t b q
	sleep 0.3
}
# fig NAME [FORMAT]: NAME's figures over the rounds, "median (min-max)"
fig() {
	local r v=()
	for ((r = 1; r <= ROUNDS; r++)); do
		v+=("${F[$1:$r]:--}")
	done
	span "${2:-%d}" "${v[@]}"
}
fig_med() {
	local r v=()
	for ((r = 1; r <= ROUNDS; r++)); do
		v+=("${F[$1:$r]:--}")
	done
	med "${v[@]}"
}
ratio() { [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]] && [ "$(awk -v b="$2" 'BEGIN { print (b > 0) }')" = 1 ] &&
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }' || echo "-"; }

first_row=task1000-1000 # the first event's task: its row is on the first screen
if ! pane_open b; then
	echo "bench: recordings: tmux failed" >&2
	target_row "first screen of a 1 GiB recording, 80x24" - "<= 100 ms" "not measured (tmux failed)"
	exit 0
fi
for ((round = 1; round <= ROUNDS; round++)); do
	echo "recordings: round $round of $ROUNDS: trace-cmd report | head, ktop -i in an 80x24 pane, report | tail -1, ktop -b -q -i ..."
	one_round "$round"
done

printf '\n%-46s %-22s %-22s %s\n' "recording of $((size / 1048576)) MiB, --memory $MEM" "measured" \
	"baseline" "ratio of medians (target)"
printf '%-46s %-22s %-22s %s (<= 100 ms)\n' "ktop -i: first screen (vs report | head)" \
	"$(fig first) ms" "$(fig tc_head) ms" "$(ratio "$(fig_med first)" "$(fig_med tc_head)")"
printf '%-46s %-22s\n' "  floor: a pane that prints that row at once" "$(fig floor) ms"
reading=$(for ((r = 1; r <= ROUNDS; r++)); do echo "${F[reading:$r]:--}"; done | sort -u | tr '\n' ' ')
printf '%-46s %-22s %-22s %s (< 1000 ms)\n' "End: last event, index running: ${reading% }" \
	"$(fig end) ms" "$(fig tc_tail) ms" "$(ratio "$(fig_med end)" "$(fig_med tc_tail)")"
printf '%-46s %-22s\n' "Home after End: the first event again" "$(fig home) ms"
printf '%-46s %-22s\n' "the index through, after Home" "$(fig indexed) ms"
printf '%-46s %-22s\n' "End once indexed" "$(fig end2) ms"
printf '%-46s %-22s %s\n' "ktop -i: peak resident size" "$(fig hwm) MiB" "(64 MiB store + fixed)"
printf '%-46s %-22s %-22s %s\n' "ktop -b -q -i: all events (vs report | tail)" \
	"$(fig batch) ms" "$(fig tc_tail) ms" "$(ratio "$(fig_med batch)" "$(fig_med tc_tail)")"
printf '%-46s %-22s\n' "ktop -b -q -i: peak resident size" "$(fig batch_rss) MiB"
printf '%-46s %-22s %s\n' "timeline (V): first screen with events" "$(fig tl_first) ms" "(<= 200 ms)"
printf '%-46s %-22s %s\n' "timeline: a zoom frame (+)" "$(fig tl_zoom) ms" "(<= 30 ms)"
printf '%-46s %-22s %s\n' "timeline: a pan frame (>)" "$(fig tl_pan) ms" "(<= 30 ms)"
printf '%-46s %-22s\n' "timeline: its index through the file" "$(fig tl_indexed) ms"
printf '%-46s %-22s %s\n' "timeline: peak resident size, indexed" "$(fig tl_hwm) MiB" \
	"(file $((size / 1048576)) MiB; target <= 10% of it beyond the 64 MiB store)"

row="first screen of a $((size / 1048576)) MiB recording, 80x24"
m=$(fig_med first)
if [ -z "$m" ]; then
	target_row "$row" - "<= 100 ms" "not measured (no first screen: $(fig first '%s'))"
else
	target_row "$row" "$(fig first) ms (trace-cmd report | head: $(fig tc_head) ms; floor $(fig floor) ms)" \
		"<= 100 ms" "$(verdict "$m <= 100")"
fi
# The timeline pane's own code on the same file, in CPU time (tests/bench/timeline_bench.c):
# the tmux figures above are wall time through a loaded machine's scheduler and tmux.
tl_bench="$(dirname "$MK")/../bench/timeline_bench"
if [ -x "$tl_bench" ]; then
	echo
	"$tl_bench" "$TMPD/big.dat" || echo "bench: timeline_bench failed" >&2
fi
[ -n "$BENCH_OWN_TARGETS" ] && print_targets "$BENCH_OWN_TARGETS"
exit 0
