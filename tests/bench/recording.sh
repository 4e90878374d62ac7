#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, recordings: a 1 GB trace.dat (tests/helpers/mkrecording, 15.5 M sched_switch
# events on 2 CPUs) opened with ktop -i --memory 64M in an 80x24 tmux pane: time to the
# first screen, End (the last event on screen, the index pass still running), Home after
# End, ktop's peak resident size; then ktop -b -q -i reading it all. Each time is set
# against what the user would run instead, in the same run: trace-cmd report | head for
# the first rows, trace-cmd report | tail -1 for the last. Targets: first screen and End
# < 1 s, peak RSS within --memory plus ktop's fixed cost. Numbers only, never pass/fail.
# Environment: KTOP, MKRECORDING, FIXTURES; BENCH_REC_EVENTS; TMPDIR (the file goes there).
set -u
KTOP=${KTOP:?KTOP must name ktop}
MK=${MKRECORDING:?MKRECORDING must name tests/helpers/mkrecording}
FIXTURES=${FIXTURES:?FIXTURES must name tests/unit/fixtures/tracing}
N=${BENCH_REC_EVENTS:-15500000}
MEM=64M

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/ktop-bench-rec.XXXXXX") || exit 1
tmx() { tmux -S "$TMPD/tmux.sock" "$@"; }
trap 'tmx kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
# the file is ~70 bytes an event; keep twice that free
need_kb=$(( N * 140 / 1024 ))
avail_kb=$(df -Pk "$TMPD" | awk 'NR == 2 { print $4 }')
if [ "${avail_kb:-0}" -lt "$need_kb" ]; then
	echo "bench: recordings: $((need_kb / 1024)) MiB needed in $TMPD, $((avail_kb / 1024)) free" >&2
	exit 1
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
# the milliseconds a shell pipeline takes
time_ms() { local t0; t0=$(now_ms); bash -c "$1" >/dev/null 2>&1; echo $(( $(now_ms) - t0 )); }
ratio() { [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ && $2 -gt 0 ]] &&
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }' || echo "-"; }

echo "recordings: writing a ${N}-event trace.dat in $TMPD ..."
"$MK" "$FIXTURES" "$TMPD/big.dat" "$N" 2 || { echo "bench: mkrecording failed" >&2; exit 1; }
size=$(stat -c %s "$TMPD/big.dat")
cat "$TMPD/big.dat" >/dev/null # both sides start from the page cache
last=$(( N - 1 ))
last_us=$(( last * 10 + (last / 10000) * 150000 ))
last_ts=$(printf '%d.%06d' $((last_us / 1000000)) $((last_us % 1000000)))
first_re="^ *0\.000000 \[000\] +task1000-1000 "

echo "recordings: trace-cmd report | head, | tail -1 ..."
tc_head=$(time_ms "trace-cmd report '$TMPD/big.dat' | head -n 20")
tc_tail=$(time_ms "trace-cmd report '$TMPD/big.dat' | tail -n 1")

echo "recordings: ktop -i in an 80x24 pane ..."
t0=$(now_ms)
tmx new-session -d -s b -x 80 -y 24 "$KTOP -i $TMPD/big.dat --memory $MEM; sleep 600"
first=$(wait_screen "$t0" "$first_re")
pid=$(pgrep -n -f "^$KTOP -i $TMPD/big.dat")
t0=$(now_ms)
tmx send-keys -t b End
end=$(wait_screen "$t0" "^ *${last_ts//./\\.} ")
reading=$(tmx capture-pane -p -t b | grep -q "~[0-9]* held" && echo "yes" || echo "no")
t0=$(now_ms)
tmx send-keys -t b Home
home=$(wait_screen "$t0" "$first_re")
# the peak once the index is through (the row count is exact then)
t0=$(now_ms)
indexed=$(wait_screen "$t0" " [0-9]+ held")
tmx send-keys -t b End
end2=$(wait_screen "$(now_ms)" "^ *${last_ts//./\\.} ")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
tmx send-keys -t b q
batch=$( { /usr/bin/time -f "%e %M" "$KTOP" -b -q -i "$TMPD/big.dat" --memory $MEM >/dev/null; } 2>&1 | tail -n1)

printf '\n%-46s %10s   %-12s %s\n' "recording of $((size / 1048576)) MiB, --memory $MEM" "measured" \
	"baseline" "ratio (target)"
printf '%-46s %7s ms   %7s ms   %s (< 1000 ms)\n' "ktop -i: first screen (vs report | head)" \
	"$first" "$tc_head" "$(ratio "$first" "$tc_head")"
printf '%-46s %7s ms   %7s ms   %s (< 1000 ms)\n' "End: last event, index running: $reading" \
	"$end" "$tc_tail" "$(ratio "$end" "$tc_tail")"
printf '%-46s %7s ms\n' "Home after End: the first event again" "$home"
printf '%-46s %7s ms\n' "the index through, after Home" "$indexed"
printf '%-46s %7s ms\n' "End once indexed" "$end2"
printf '%-46s %7s MiB  %s\n' "ktop -i: peak resident size" "$(( ${hwm:-0} / 1024 ))" \
	"(64 MiB store + fixed)"
printf '%-46s %7s s    %7s ms   %s\n' "ktop -b -q -i: all events (vs report | tail)" \
	"${batch%% *}" "$tc_tail" "$(ratio "$(awk -v s="${batch%% *}" 'BEGIN { printf "%d", s * 1000 }')" "$tc_tail")"
printf '%-46s %7s MiB\n' "ktop -b -q -i: peak resident size" "$(( ${batch##* } / 1024 ))"
