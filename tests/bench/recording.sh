#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, recordings: a 1 GB trace.dat (tests/helpers/mkrecording, 15.5 M sched_switch
# events on 2 CPUs) opened with ktop -i --memory 64M in tmux: time to the first screen, time
# for End to show the last event, ktop's peak resident size; then ktop -b -q -i reading it
# all. Targets: first screen < 1 s, peak RSS within --memory plus ktop's fixed cost.
# Numbers only, never pass/fail. Environment: KTOP, MKRECORDING, FIXTURES; BENCH_REC_EVENTS.
set -u
KTOP=${KTOP:?KTOP must name ktop}
MK=${MKRECORDING:?MKRECORDING must name tests/helpers/mkrecording}
FIXTURES=${FIXTURES:?FIXTURES must name tests/unit/fixtures/tracing}
N=${BENCH_REC_EVENTS:-15500000}
MEM=64M

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/ktop-bench-rec.XXXXXX") || exit 1
tmx() { tmux -S "$TMPD/tmux.sock" "$@"; }
trap 'tmx kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }
# until PATTERN is on the screen (10 s at most); prints the milliseconds since $1
wait_screen() {
	local t0=$1 pat=$2 i
	for ((i = 0; i < 2000; i++)); do
		tmx capture-pane -p -t b 2>/dev/null | grep -Eq -- "$pat" && { echo $(( $(now_ms) - t0 )); return 0; }
		sleep 0.005
	done
	echo "timeout"
}

echo "recordings: writing a ${N}-event trace.dat ..."
"$MK" "$FIXTURES" "$TMPD/big.dat" "$N" 2 || { echo "bench: mkrecording failed" >&2; exit 1; }
size=$(stat -c %s "$TMPD/big.dat")
last=$(( N - 1 ))
last_us=$(( last * 10 + (last / 10000) * 150000 ))
last_ts=$(printf '%d.%06d' $((last_us / 1000000)) $((last_us % 1000000)))

t0=$(now_ms)
tmx new-session -d -s b -x 120 -y 30 "$KTOP -i $TMPD/big.dat --memory $MEM; sleep 60"
first=$(wait_screen "$t0" "^0\.000000 \[000\] +task1000-1000 ")
pid=$(pgrep -n -f "^$KTOP -i $TMPD/big.dat")
t0=$(now_ms)
tmx send-keys -t b End
end=$(wait_screen "$t0" "^${last_ts//./\\.} ")
t0=$(now_ms)
tmx send-keys -t b Home
home=$(wait_screen "$t0" "^0\.000000 \[000\] +task1000-1000 ")
# what the index and the window cost at their peak, once the index is through
for ((i = 0; i < 600; i++)); do
	tmx capture-pane -p -t b | grep -q "reading\.\.\." || break
	sleep 0.1
done
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
tmx send-keys -t b q
batch=$( { /usr/bin/time -f "%e %M" "$KTOP" -b -q -i "$TMPD/big.dat" --memory $MEM >/dev/null; } 2>&1 | tail -n1)

printf '\n%-44s %12s   %s\n' "recording of $((size / 1048576)) MiB, --memory $MEM" "measured" "target"
printf '%-44s %9s ms   %s\n' "ktop -i: first screen" "$first" "< 1000 ms"
printf '%-44s %9s ms\n' "End: the last event on screen" "$end"
printf '%-44s %9s ms\n' "Home: the first event again" "$home"
printf '%-44s %9s MiB  %s\n' "ktop -i: peak resident size" "$(( ${hwm:-0} / 1024 ))" "64 MiB store + fixed"
printf '%-44s %9s s\n' "ktop -b -q -i: all $N events read" "${batch%% *}"
printf '%-44s %9s MiB\n' "ktop -b -q -i: peak resident size" "$(( ${batch##* } / 1024 ))"
